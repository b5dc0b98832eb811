#!/bin/sh
# A real LAVA server as the backend (issue 29): Debian's lava-server,
# lava-dispatcher and lavacli on this machine (lava/local-server.sh: no
# systemd, gunicorn without apache2), two qemu devices with the kit's
# dictionary, and a 2-variant exact matrix run through --lava: the same
# digits as a local exact run (same initrd and job bytes, same QEMU
# machine), both devices used, the same report, a job cancelled mid-run
# submitted again, a killed run-matrix resumed from its job map, the
# token never shown, a job LAVA cannot run recorded failed with its reason.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
T0=$(date +%s)
URL=http://127.0.0.1:8000/
ID=krepro-local
started=0
[ -f /run/krepro-lava/worker.pid ] && kill -0 "$(cat /run/krepro-lava/worker.pid)" 2>/dev/null || started=1
expect_rc "a LAVA server, worker and two qemu devices come up (lava/local-server.sh)" 0 sh lava/local-server.sh start -n 2
sed 's/^/    | /' "$T_OUT" | tail -n 3
if [ "$T_FAILED" != 0 ]; then # nothing below can pass without the server
	t_summary
	exit 1
fi
lc() { lavacli -i "$ID" "$@" </dev/null; }
lc devices list >"$T_DIR/devices" 2>&1
expect_in "device krepro-qemu-01 is idle and good" "$T_DIR/devices" "krepro-qemu-01 (qemu): Idle,Good"
expect_in "device krepro-qemu-02 is idle and good" "$T_DIR/devices" "krepro-qemu-02 (qemu): Idle,Good"
lc devices dict get krepro-qemu-01 >"$T_DIR/dict" 2>&1
assert "its dictionary is the kit's" cmp -s "$T_DIR/dict" lava/krepro-qemu.jinja2
T1=$(date +%s)

M=$T_DIR/m.yaml
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 2\nruntime: 4s\nvariants: [base, calibration]\nclock: exact\nruns: 2\n' >"$M"
expect_rc "the matrix runs locally (exact, -j 2)" 0 ./run-matrix.sh -j 2 -o "$T_DIR/local" "$M"
cp "$T_OUT" "$T_DIR/local.out"
T2=$(date +%s)

# The token stays in lavacli's file: an identity with a wrong one fails,
# and neither token shows in what run-matrix prints.
tok=$(sed -n "/^$ID:/,/^[^ ]/s/^  token: *//p" "$HOME/.config/lavacli.yaml" | head -n 1)
lavacli identities add --uri "${URL}RPC2" --username krepro --token s3cr3tt0k3nthatisnotvalid00000000 krepro-bad >/dev/null
expect_rc "a wrong token: --lava stops" 2 ./run-matrix.sh -o "$T_DIR/bad" --lava "$URL" --lava-identity krepro-bad "$M"
expect_in "saying the server cannot be reached as that identity" "$T_OUT" "as lavacli identity krepro-bad"
assert "without the token it tried" sh -c "! grep -q s3cr3tt0k3n '$T_OUT'"
lavacli identities delete krepro-bad >/dev/null 2>&1
expect_rc "real mode without --lava-tags is refused (A and B on one machine)" 2 ./run-matrix.sh -o "$T_DIR/bad" --lava "$URL" --clock real "$M"
expect_in "naming --lava-tags" "$T_OUT" "--lava-tags"

# Through LAVA: the first run-matrix submits the 4 jobs; job 001 is
# cancelled while it runs (submitted again), then run-matrix is killed.
L=$T_DIR/lava
KREPRO_LAVA_POLL=3 ./run-matrix.sh -o "$L" --lava "$URL" "$M" >"$T_DIR/first.out" 2>&1 &
first=$!
n=0
until [ "$(wc -l 2>/dev/null <"$L/lava/jobs.tsv" || echo 0)" -ge 4 ] || [ "$n" -ge 600 ] || ! kill -0 "$first" 2>/dev/null; do sleep 1; n=$((n + 1)); done
j1=$(awk -F '\t' '$1 == "001" { print $2; exit }' "$L/lava/jobs.tsv")
n=0
until [ -z "$j1" ] || lc jobs show "$j1" 2>/dev/null | grep -q 'state *: Running' || [ "$n" -ge 600 ]; do sleep 1; n=$((n + 1)); done
sleep 3
expect_rc "LAVA job $j1 (001) cancelled while it runs" 0 lc jobs cancel "$j1"
n=0
until grep -q "job 001: LAVA job $j1 Canceled" "$T_DIR/first.out" || [ "$n" -ge 300 ] || ! kill -0 "$first" 2>/dev/null; do sleep 1; n=$((n + 1)); done
expect_in "run-matrix sees the cancel and submits 001 again" "$T_DIR/first.out" "job 001: LAVA job $j1 Canceled"
n=0
until [ "$(find "$L" -name stats.json | wc -l)" -ge 1 ] || [ "$n" -ge 600 ] || ! kill -0 "$first" 2>/dev/null; do sleep 1; n=$((n + 1)); done
kill -KILL "$first"
wait "$first" 2>/dev/null
imported=$(find "$L" -name stats.json -path '*/[0-9]/stats.json' | wc -l)
assert "killed after $imported of 4 runs were imported" test "$imported" -ge 1 -a "$imported" -lt 4
expect_rc "run-matrix --lava again: resumes and finishes" 0 env KREPRO_LAVA_POLL=3 ./run-matrix.sh -o "$L" --lava "$URL" "$M"
cp "$T_OUT" "$T_DIR/second.out"
T3=$(date +%s)
expect_in "it waits for the jobs submitted before the kill" "$T_DIR/second.out" "submitted before: waiting for it"
assert "no job submitted twice but the cancelled one (5 submissions)" test "$(wc -l <"$L/lava/jobs.tsv")" = 5
assert "001 was submitted twice" test "$(awk -F '\t' '$1 == "001"' "$L/lava/jobs.tsv" | wc -l)" = 2
lj1=$(awk -F '\t' '$1 == "001" { id = $2 } END { print id }' "$L/lava/jobs.tsv")

# Same machine, same bytes, same digits.
LOC=$(ls -d "$T_DIR"/local/will-it-scale/*/qemu-2node.exact/*/*/*)
LAV=$(ls -d "$L"/will-it-scale/*/qemu-2node.lava-127.0.0.1-8000.exact/*/*/*)
assert "LAVA's runs are another machine in the result path (qemu-2node.lava-127.0.0.1-8000.exact)" test -d "$LAV/base" -a -d "$LOC/base"
for v in base calibration; do
	for r in 1 2; do
		assert "$v run $r: LAVA booted the local job.conf" cmp -s "$LOC/$v/$r/job.conf" "$LAV/$v/$r/job.conf"
		assert "$v run $r: and the local kernel and initramfs" cmp -s "$LOC/$v/$r/images" "$LAV/$v/$r/images"
		lo=$(sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.]*\).*/\1/p' "$LOC/$v/$r/stats.json")
		la=$(sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.]*\).*/\1/p' "$LAV/$v/$r/stats.json")
		assert "$v run $r: per_process_ops $la on LAVA, $lo here" test -n "$lo" -a "$lo" = "$la"
		assert "$v run $r: every metric the same (stats.json)" cmp -s "$LOC/$v/$r/stats.json" "$LAV/$v/$r/stats.json"
		expect_in "$v run $r: lava.conf names the server" "$LAV/$v/$r/lava.conf" "server=$URL"
		expect_in "$v run $r: and QEMU's boot command, the board's device set" "$LAV/$v/$r/lava.conf" "-nodefaults -display none -monitor none -no-reboot -chardev stdio,id=con,mux=on -serial chardev:con -serial chardev:con"
		assert "$v run $r: no NIC, no -nographic, no KVM" sh -c "! grep -q -- '-net \|-nographic\|-enable-kvm' '$LAV/$v/$r/lava.conf'"
		cmdline=$(sed -n 's/.* -append //p' "$LOC/$v/$r/qemu.cmd")
		expect_in "$v run $r: the local kernel command line" "$LAV/$v/$r/lava.conf" "-append \"$cmdline\""
	done
done
expect_in "the cancelled job's run came from its second job" "$LAV/base/1/lava.conf" "job=$lj1"
expect_in "and says it took two submissions" "$LAV/base/1/lava.conf" "tries=2"
devs=$(cat "$LAV"/*/[12]/lava.conf | sed -n 's/^device=//p' | sort -u | tr '\n' ' ')
assert "both devices ran jobs ($devs)" test "$devs" = "krepro-qemu-01 krepro-qemu-02 "
# The same report: the local one but for the machine's name.
expect_in "the report is printed" "$T_DIR/second.out" "will-it-scale.per_process_ops"
sed 's/qemu-2node.lava-127.0.0.1-8000.exact/qemu-2node.exact/' "$L/report.txt" >"$T_DIR/lava-report.txt"
assert "and is the local report, digit for digit" cmp -s "$T_DIR/local/report.txt" "$T_DIR/lava-report.txt"
for f in "$T_DIR"/first.out "$T_DIR"/second.out; do
	assert "$(basename "$f"): no token in run-matrix's output" sh -c "[ -n '$tok' ] && ! grep -qF '$tok' '$f'"
done
tok=

# A job LAVA cannot run (its images are not where --lava-url says): it is
# submitted again, then the run is recorded failed with LAVA's reason.
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 2s\nvariants: base\nclock: exact\nruns: 1\n' >"$T_DIR/f.yaml"
expect_rc "a job LAVA cannot run: run-matrix ends with a failed run" 1 env KREPRO_LAVA_POLL=3 KREPRO_LAVA_TRIES=2 \
	./run-matrix.sh -o "$T_DIR/fail" --lava "$URL" --lava-url file:///nonexistent "$T_DIR/f.yaml"
F=$(ls -d "$T_DIR"/fail/will-it-scale/*/*/*/*/*/base/1)
expect_in "recorded failed after 2 submissions" "$F/FAILED" "Incomplete on krepro-qemu-0"
expect_in "with LAVA's reason" "$F/FAILED" "does not exist or is not readable"
assert "2 submissions in the job map" test "$(wc -l <"$T_DIR/fail/lava/jobs.tsv")" = 2

[ "$started" = 0 ] || sh lava/local-server.sh stop
echo "costs: server up $((T1 - T0)) s, local runs $((T2 - T1)) s, LAVA runs (cancel, kill, resume) $((T3 - T2)) s, test $(($(date +%s) - T0)) s"
t_summary
t_clean
exit $T_FAILED
