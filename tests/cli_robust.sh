#!/bin/sh
# Issue 35 rows 8, 10 and 11: failed writes on a full filesystem leave no
# temporaries and no partial siblings; credentials are scrubbed from every
# record and message; floor's temporaries go on a signal, and floor
# --dry-run plans without booting.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
# shellcheck source=lib/shared/common.sh
. lib/shared/common.sh

# --- row 10: credentials --------------------------------------------------
# An import-lava export folder (as tests/cli_hostile.sh's) whose log holds
# credentials in every form: a URL's user:password@ (one with '/' in the
# password), a bare token@, a user:password@ without a scheme, token= and
# an Authorization header; the log has no frames, so the run fails and
# its console tail is recorded.
lx_cell='suite=will-it-scale test=page_fault1 mode=process nr_task=2 runtime=6s runs=1'
lx_path=will-it-scale/process-2-6s-page_fault1/qemu-2node.lava/krepro-initramfs/qemu-minimal/gcc-12
mkdir -p "$T_DIR/lx/jobs"
printf '001\t%s/base/1\t%s variants=base\n' "$lx_path" "$lx_cell" >"$T_DIR/lx/cells.tsv"
echo suite=will-it-scale >"$T_DIR/lx/jobs/001.conf"
cat >"$T_DIR/creds.log" <<'LOG'
- {"dt": "2024-01-01T00:00:00", "lvl": "info", "msg": "Boot command: /usr/bin/qemu-system-x86_64 -kernel http://alice:Sekr1t@lava.example/k -initrd https://ghp_BareTok3n@lava.example/i"}
- {"dt": "2024-01-01T00:00:01", "lvl": "debug", "msg": "downloading https://bob:pa/ss:Wd@lava.example:8080/artifacts/base.bzImage"}
- {"dt": "2024-01-01T00:00:02", "lvl": "debug", "msg": "proxy carol:Hunter2@proxy.example:3128 token=Tok3nValue"}
- {"dt": "2024-01-01T00:00:03", "lvl": "debug", "msg": "Authorization: Token DeadBeefCafe"}
- {"dt": "2024-01-01T00:00:04", "lvl": "target", "msg": "GET https://b.s3.example/k?X-Amz-Credential=AKIAAmzCred&X-Amz-Signature=AmzS1gnature&X-Amz-Security-Token=AmzT0ken"}
- {"dt": "2024-01-01T00:00:05", "lvl": "target", "msg": "GET https://a.blob.example/c?sv=2022&sig=AzureS1g%2B&sp=r key=KeyValue9"}
- {"dt": "2024-01-01T00:00:06", "lvl": "target", "msg": "LAVA_PASS=EnvPa55 PASS=BarePa55 token ghp_GhTok3nBare gho_GhO1 ghs_GhS1 ghu_GhU1 ghr_GhR1 github_pat_GhPat1"}
- {"dt": "2024-01-01T00:00:07", "lvl": "target", "msg": "mount https://u:pa ss@files.example/x"}
- {"dt": "2024-01-01T00:00:08", "lvl": "target", "msg": "{\"password\": \"Js0nPw\"}"}
- {"dt": "2024-01-01T00:00:09", "lvl": "info", "msg": "Boot command: /usr/bin/qemu-system-x86_64 -kernel https://h.example/k?X-Amz-Signature=BootS1g"}
LOG
expect_rc "import-lava of a log holding credentials: the run fails (no frames)" 1 \
	./run-matrix.sh import-lava -o "$T_DIR/cres" "$T_DIR/lx" 001 "$T_DIR/creds.log"
cr=$T_DIR/cres/$lx_path/base/1
expect_in "its FAILED has the console tail" "$cr/FAILED" "lava.example:8080/artifacts/base.bzImage"
expect_in "lava.conf has the boot command" "$cr/lava.conf" "boot_command=/usr/bin/qemu-system-x86_64 -kernel http://lava.example/k"
# issue 46 row 12: signed URLs' parameters, key=, PASS=, GitHub's tokens,
# a password with a space, a JSON-escaped password; console.log (the log
# itself) too.
creds_all="Sekr1t ghp_BareTok3n pa/ss Wd@ Hunter2 Tok3nValue DeadBeefCafe AKIAAmzCred AmzS1gnature AmzT0ken AzureS1g KeyValue9 EnvPa55 BarePa55 GhTok3nBare GhO1 GhS1 GhU1 GhR1 GhPat1 'pa ss' Js0nPw BootS1g"
eval "set -- $creds_all"
for secret; do
	for f in "$cr/FAILED" "$cr/lava.conf" "$cr/stats.json" "$cr/job.conf" "$cr/console.log" "$T_OUT"; do
		if grep -qF -- "$secret" "$f"; then no "credential '$secret' in $f"; else ok "no '$secret' in $(basename "$f")"; fi
	done
done
expect_in "console.log keeps what is not a credential" "$cr/console.log" "GET https://b.s3.example/k?X-Amz-Credential=***&X-Amz-Signature=***"
# A log whose frames are text frames (base64, as a LAVA device logs them)
# among credentials: scrubbing leaves the frames whole, the run imports.
mkdir -p "$T_DIR/tf"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/tf/will-it-scale"
out/guest/krepro-send -d - --text "$T_DIR/tf/will-it-scale" >"$T_DIR/tf/frames" 2>/dev/null
cat "$T_DIR/creds.log" "$T_DIR/tf/frames" >"$T_DIR/tf.log"
expect_rc "import-lava of text frames among credentials imports the run" 0 \
	./run-matrix.sh import-lava -o "$T_DIR/tfres" "$T_DIR/lx" 001 "$T_DIR/tf.log"
assert "... its console.log without the credentials" sh -c "! grep -q -e AmzS1gnature -e GhTok3nBare -e 'pa ss' '$T_DIR/tfres/$lx_path/base/1/console.log'"
# A --lava URL whose password holds '/' is never echoed whole: the host
# part is taken and the error (no lavacli identity here) names the URL
# without its credentials.
mkdir -p "$T_DIR/xdg"
expect_rc "--lava URL with user:pa/ss@: refused (no lavacli identity)" 2 env XDG_CONFIG_HOME="$T_DIR/xdg" \
	./run-matrix.sh --dry-run --lava 'https://dave:pa/ss0rd@lava.example:8443/' -o "$T_DIR/lres"
expect_in "naming the server without credentials" "$T_OUT" "https://lava.example:8443/"
assert "and without the password" sh -c "! grep -qF -e 'pa/ss0rd' -e dave '$T_OUT'"
expect_rc "--lava URL with a bare token@: refused (no lavacli identity)" 2 env XDG_CONFIG_HOME="$T_DIR/xdg" \
	./run-matrix.sh --dry-run --lava 'https://Bare0Token@lava.example/' -o "$T_DIR/lres"
assert "the token is not echoed" sh -c "! grep -qF Bare0Token '$T_OUT'"
expect_rc "--lava URL of a signed URL: refused (no lavacli identity)" 2 env XDG_CONFIG_HOME="$T_DIR/xdg" \
	./run-matrix.sh --dry-run --lava 'https://lava.example/?X-Amz-Signature=Url5ig&sig=UrlAz' -o "$T_DIR/lres"
assert "the signatures are not echoed" sh -c "! grep -q -e Url5ig -e UrlAz '$T_OUT'"
# The one filter, every form at once, and what it leaves alone.
printf '%s\n' 'a https://u:p/w@h/x b u2:p2@h2 --token T1 "password": "p 3" 12:30:01 x@y.org' |
	show_guest_text 1 >"$T_DIR/scrubbed"
expect_in "show_guest_text scrubs before it cuts" "$T_DIR/scrubbed" 'a https://h/x b h2 --token *** "password": "***" 12:30:01 x@y.org'

# --- row 8: a full filesystem ----------------------------------------------
# -o on a 16 KiB tmpfs with 0 to 12 KiB taken: import-lava either imports
# the run whole or stops with the kit's message naming the file it could
# not write, leaving no <run>.tmp and no run; never the shell's "echo: I/O
# error" or awk's "close failed" alone.  krepro-compare --json A --csv B
# writes both or neither.
mkdir -p "$T_DIR/fr"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/fr/will-it-scale"
krp_stream "$T_DIR/fr" will-it-scale >"$T_DIR/ok.log"
expect_rc "import-lava with room imports the run" 0 ./run-matrix.sh import-lava -o "$T_DIR/okres" "$T_DIR/lx" 001 "$T_DIR/ok.log"
okrun=$T_DIR/okres/$lx_path/base
if [ "$(id -u)" = 0 ] && mkdir -p "$T_DIR/full" && mount -t tmpfs -o size=16k tmpfs "$T_DIR/full" 2>/dev/null; then
	for fill in 0 4 8 12; do
		rm -rf "${T_DIR:?}/full/"*
		[ "$fill" = 0 ] || dd if=/dev/zero of="$T_DIR/full/filler" bs=1k count="$fill" 2>/dev/null
		./run-matrix.sh import-lava -o "$T_DIR/full/res" "$T_DIR/lx" 001 "$T_DIR/ok.log" >"$T_OUT" 2>&1
		rc=$?
		if [ "$rc" = 2 ]; then ok "import-lava on a full filesystem ($fill KiB taken) fails"; else no "import-lava on a full filesystem ($fill KiB taken): exit $rc, want 2"; fi
		expect_in "... naming the file it could not write" "$T_OUT" "run-matrix: error: cannot write $T_DIR/full/res/$lx_path/base/1.tmp/"
		expect_in "... and saying nothing was imported" "$T_OUT" "nothing imported"
		assert "... without the shell's or awk's own words" sh -c "! grep -q -e 'echo: ' -e '^awk: ' '$T_OUT'"
		assert "... leaving no <run>.tmp and no run" test -z "$(find "$T_DIR/full/res" -name '1*')"
	done
	rm -rf "${T_DIR:?}/full/"*
	dd if=/dev/zero of="$T_DIR/full/filler" bs=1k count=12 2>/dev/null
	expect_rc "compare --json A --csv B with room for one file fails" 2 \
		out/host/krepro-compare --no-plot --json "$T_DIR/full/a.json" --csv "$T_DIR/full/b.csv" "$okrun" "$okrun"
	expect_in "naming the file" "$T_OUT" "krepro-compare: $T_DIR/full/"
	assert "leaving neither A nor B nor a temporary" test -z "$(find "$T_DIR/full" -name 'a.json*' -o -name 'b.csv*')"
	rm -f "$T_DIR/full/filler"
	expect_rc "compare --json A --csv B with room writes both" 0 \
		out/host/krepro-compare --no-plot --json "$T_DIR/full/a.json" --csv "$T_DIR/full/b.csv" "$okrun" "$okrun"
	assert "both there" test -s "$T_DIR/full/a.json" -a -s "$T_DIR/full/b.csv"
	umount "$T_DIR/full"
else
	echo "(full filesystem checks skipped: mount -t tmpfs needs root)"
fi

# --- row 11: floor ----------------------------------------------------------
# floor --dry-run prints the A/A plan (7 sets: their cells, seeds, boot
# words and result folders) and boots nothing.
mkdir -p "$T_DIR/tmp"
expect_rc "floor --dry-run plans" 0 env TMPDIR="$T_DIR/tmp" ./run-matrix.sh floor --dry-run -n 3 -o "$T_DIR/fl"
expect_in "naming the A/A sets" "$T_OUT" "pad: base, seeds 1-3, boot word krepro_floor_pad=1: 3 boots"
expect_in "their result folders" "$T_OUT" "/fl/noop/will-it-scale/process-100%-10s-page_fault3/qemu-2node.exact/"
expect_in "and the plan's sum" "$T_OUT" "plan: 7 sets of 3 seeds, 21 A/A comparisons, 21 boots; nothing booted (--dry-run)"
assert "no run directory made" test -z "$(find "$T_DIR/fl" -name '[0-9]*' -o -name '*.tmp')"
assert "and no temporary left" test -z "$(ls "$T_DIR/tmp")"
# floor stopped by SIGTERM (dash runs no EXIT trap on a signal it does not
# trap) leaves no /tmp/krepro-floor.*: it is stopped as soon as its work
# folder exists, while it plans its first set.  A copy of the checkout
# whose build.sh builds the host tools only: a stop that came late could
# never build or boot a kernel.
# has_temp PREFIX: a PREFIX.* file or folder exists
has_temp() {
	for ht in "$1".*; do [ -e "$ht" ] && return 0; done
	return 1
}
# term_once_temp PID PREFIX STEP: once PREFIX.* exists (polled every STEP
# seconds, 300 times at most) or PID ended, PID gets TERM; its exit status
term_once_temp() {
	tt_i=0
	while ! has_temp "$2" && [ "$tt_i" -lt 300 ] && kill -0 "$1" 2>/dev/null; do
		sleep "$3"
		tt_i=$((tt_i + 1))
	done
	kill -TERM "$1" 2>/dev/null
	wait "$1"
}
copy_checkout "$T_DIR/fck"
mv "$T_DIR/fck/build.sh" "$T_DIR/fck/build.real.sh"
# shellcheck disable=SC2016 # the wrapper's own $1, $@ and $*
printf '#!/bin/sh\ncase $1 in tools | uapi) exec "%s/build.sh" "$@" ;; esac\necho "test: build.sh $*: not in this test" >&2\nexit 2\n' "$PWD" >"$T_DIR/fck/build.sh"
chmod +x "$T_DIR/fck/build.sh"
# A results folder on a full filesystem (issue 46, row 15): the lock's PID
# cannot be written; the kit says so naming the folder, never the shell's
# "echo: I/O error" alone (the checkout builds nothing: its build.sh above).
if [ "$(id -u)" = 0 ] && mkdir -p "$T_DIR/full2" && mount -t tmpfs -o size=64k tmpfs "$T_DIR/full2" 2>/dev/null; then
	mkdir -p "$T_DIR/full2/res"
	dd if=/dev/zero of="$T_DIR/full2/filler" bs=1k count=64 2>/dev/null
	# the plan lists the variants' patches (read-only): that too is let through
	# shellcheck disable=SC2016 # the wrapper's own $1
	sed 's/^case $1 in tools | uapi)/case $1 in tools | uapi | patches)/' "$T_DIR/fck/build.sh" >"$T_DIR/fck/build.plan.sh"
	cp "$T_DIR/fck/build.sh" "$T_DIR/fck/build.none.sh"
	cp "$T_DIR/fck/build.plan.sh" "$T_DIR/fck/build.sh"
	expect_rc "run-matrix on a full results filesystem stops" 2 env KREPRO_OUT="$PWD/out" "$T_DIR/fck/run-matrix.sh" -o "$T_DIR/full2/res"
	expect_in "... naming the folder, in the kit's words" "$T_OUT" "run-matrix: error: $T_DIR/full2/res: cannot write its lock file"
	assert "... not the shell's words alone" sh -c "! grep -q 'echo: ' '$T_OUT'"
	cp "$T_DIR/fck/build.none.sh" "$T_DIR/fck/build.sh"
	umount "$T_DIR/full2"
else
	echo "(full results filesystem check skipped: mount -t tmpfs needs root)"
fi
mkdir -p "$T_DIR/tmp2"
KREPRO_OUT=$PWD/out TMPDIR="$T_DIR/tmp2" "$T_DIR/fck/run-matrix.sh" floor -n 3 -o "$T_DIR/fl2" >"$T_DIR/floor.out" 2>&1 &
term_once_temp "$!" "$T_DIR/tmp2/krepro-floor" 0.05
fl_rc=$?
if [ "$fl_rc" != 0 ]; then ok "floor stopped by TERM fails (rc $fl_rc)"; else no "floor stopped by TERM exited 0"; fi
# the planning child it waited for ends by itself within a second
sleep 1
if has_temp "$T_DIR/tmp2/krepro-floor"; then no "floor stopped by TERM left $(ls "$T_DIR/tmp2")"; else ok "floor stopped by TERM leaves no krepro-floor.* temporary"; fi
assert "and no temporary of its children" test -z "$(ls "$T_DIR/tmp2")"

# floor stopped by SIGTERM while a set's build runs (issue 46, row 16c):
# it stops within seconds, and so does the build (here a sleep standing
# for make), not an hour later when the build would have ended.
mv "$T_DIR/fck/build.sh" "$T_DIR/fck/build.none.sh"
# shellcheck disable=SC2016 # the wrapper's own $1, $@ and $$
printf '#!/bin/sh\ncase $1 in tools | uapi | patches) exec "%s/build.sh" "$@" ;;\npreflight) exit 0 ;; esac\necho $$ >>"%s/building"\nexec sleep 120\n' "$PWD" "$T_DIR" >"$T_DIR/fck/build.sh"
chmod +x "$T_DIR/fck/build.sh"
mkdir -p "$T_DIR/tmp4"
KREPRO_OUT=$PWD/out TMPDIR="$T_DIR/tmp4" "$T_DIR/fck/run-matrix.sh" floor -n 3 -o "$T_DIR/fl4" >"$T_DIR/floor4.out" 2>&1 &
fl4=$!
fl4_i=0
while [ ! -s "$T_DIR/building" ] && [ "$fl4_i" -lt 600 ] && kill -0 "$fl4" 2>/dev/null; do
	sleep 0.1
	fl4_i=$((fl4_i + 1))
done
assert "floor reached its first set's build" test -s "$T_DIR/building"
kill -TERM "$fl4" 2>/dev/null
fl4_i=0
while kill -0 "$fl4" 2>/dev/null && [ "$fl4_i" -lt 100 ]; do
	sleep 0.1
	fl4_i=$((fl4_i + 1))
done
if kill -0 "$fl4" 2>/dev/null; then no "floor stopped by TERM during a build still runs 10 s later"; else ok "floor stopped by TERM during a build ends within 10 s"; fi
fl4_b=$(head -n 1 "$T_DIR/building" 2>/dev/null)
if [ -n "$fl4_b" ] && kill -0 "$fl4_b" 2>/dev/null; then
	no "... and its build still runs"
	kill -KILL "$fl4_b"
else
	ok "... and its build is stopped"
fi
kill -KILL "$fl4" 2>/dev/null
wait "$fl4" 2>/dev/null
assert "... leaving no temporary of its own or its set's" test -z "$(ls -A "$T_DIR/tmp4")"
mv "$T_DIR/fck/build.none.sh" "$T_DIR/fck/build.sh"

# from-report stopped by SIGTERM while it plans its matrix leaves no
# krepro-report.* either (one temp_add helper, lib/shared/common.sh, for every
# script that makes temporaries).
mkdir -p "$T_DIR/tmp3"
fr_mail=$(find tests/fixtures/reports -type f | sort | head -n 1)
TMPDIR="$T_DIR/tmp3" ./run-matrix.sh from-report "$fr_mail" >"$T_DIR/fr.out" 2>&1 &
term_once_temp "$!" "$T_DIR/tmp3/krepro-report" 0.02
fr_rc=$?
if [ "$fr_rc" != 0 ]; then ok "from-report stopped by TERM fails (rc $fr_rc)"; else no "from-report stopped by TERM exited 0 (stopped too late?)"; fi
sleep 1
if has_temp "$T_DIR/tmp3/krepro-report"; then no "from-report stopped by TERM left $(ls "$T_DIR/tmp3")"; else ok "from-report stopped by TERM leaves no krepro-report.* temporary"; fi

t_summary
t_clean
exit "$T_FAILED"
