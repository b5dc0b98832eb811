#!/bin/sh
# Guest files and the host's records (issue 35, row 3): one list of the
# files the host writes in a run (KRP_HOST_FILES, tools/common/contract.h)
# holds every name lib/ writes there, and no guest file takes one of them,
# not even behind a tenant's prefix: not through krepro-recv, not through
# split_tenants, not through import-lava.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
H=out/host

# shellcheck disable=SC2016 # expanded by the inner sh
host_files=" $(KREPRO_ROOT=$PWD sh -c '. lib/shared/common.sh; contract_get KRP_HOST_FILES') "
assert "KRP_HOST_FILES is read by the shell's contract_get" test "$host_files" != "  "

# Every run-directory file lib/ names: a run's folder is $RDIR, $RDIR.tmp,
# a backend's XX_rdir (run_field rdir) and its .tmp, finish_run's $fr, split_tenants' $td, boot_guest's $bg_dir,
# check_repeat's $cr, and $1/$2 in lib/run/runs.sh's helpers (fail_run,
# write_images, check_repeat).  Whatever form the write takes (a
# redirection, cp, ln, an argument such as lava_conf's), the name is there.
# The only run files lib/ names that the guest writes are listed here.
guest_files=" guest-errors "
{
	grep -oE '"\$\{?([a-z]+_rdir|RDIR|fr|td|bg_dir|cr)\}?(\.tmp)?/[A-Za-z0-9][A-Za-z0-9._+-]*"' lib/*/*.sh lib/*/*/*.sh
	grep -oE '"\$[12]/[A-Za-z0-9][A-Za-z0-9._+-]*"' lib/run/runs.sh | sed 's#^#lib/run/runs.sh:#'
} | sed 's#:"\$[^/]*/#:#; s#"$##' | sort -u >"$T_DIR/host-writes"
for want in images host.conf lava.conf NOT-DETERMINISTIC FAILED job.conf console.log; do
	assert "the scan of lib/ finds the run file $want" grep -q ":$want\$" "$T_DIR/host-writes"
done
while IFS=: read -r hw_file hw_name; do
	case $guest_files in *" $hw_name "*) continue ;; esac
	case $host_files in
	*" $hw_name "*) ok "$hw_file writes $hw_name into a run: it is on KRP_HOST_FILES" ;;
	*) no "$hw_file writes $hw_name into a run, but contract.h's KRP_HOST_FILES lacks it" ;;
	esac
done <"$T_DIR/host-writes"
# The C tools' own run and variant files (krepro-stats, compare, pivot).
for hw_name in $(grep -rhoE 'krp_path_join\([a-z_]+, "[^"]+"\)' tools/host | sed 's/.*, "//; s/")$//' | sort -u) \
	$(grep -hoE '"(matrix|avg|stddev)\.json"' tools/host/lib/analyze/results.c | tr -d '"' | sort -u); do
	case $host_files in
	*" $hw_name "*) ok "the host tools' $hw_name is on KRP_HOST_FILES" ;;
	*) no "the host tools read or write $hw_name in a run, but KRP_HOST_FILES lacks it" ;;
	esac
done

# krepro-recv: a guest naming a host record, bare or behind vm_N., fails
# its run and creates nothing.
mkdir -p "$T_DIR/g"
for gn in images vm_1.images vm_2.images vm_2.host.conf vm_1.lava.conf host.conf lava.conf \
	NOT-DETERMINISTIC vm_1.NOT-DETERMINISTIC vm_1.vm_2.images; do
	echo forged >"$T_DIR/g/$gn"
	krp_stream "$T_DIR/g" "$gn" >"$T_DIR/g.frames"
	rm -rf "$T_DIR/g.st"
	expect_rc "krepro-recv refuses a guest file named $gn" 1 "$H/krepro-recv" -o "$T_DIR/g.st" "$T_DIR/g.frames"
	expect_in "saying it is the host's" "$T_OUT" "the guest sent '$gn', a file only the host writes"
	assert "and $gn is not written" test ! -e "$T_DIR/g.st/$gn"
done

# split_tenants (lib/run/runs.sh) consults the same list: a vm_N.<host file>
# that reached the staging folder does not replace the host's record in
# tenant 1's or tenant N's run.
mkdir -p "$T_DIR/st/r/1.tmp" "$T_DIR/st/t2"
for hf in images host.conf lava.conf; do echo "host's $hf" >"$T_DIR/st/r/1.tmp/$hf"; done
echo suite=will-it-scale >"$T_DIR/st/r/1.tmp/job.conf"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/st/r/1.tmp/vm_1.will-it-scale"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/st/r/1.tmp/vm_2.will-it-scale"
for gn in vm_1.images vm_2.images vm_2.host.conf vm_1.lava.conf vm_2.NOT-DETERMINISTIC; do
	echo forged >"$T_DIR/st/r/1.tmp/$gn"
done
# shellcheck disable=SC2016 # expanded by the inner sh
KREPRO_ROOT=$PWD TMPD=$T_DIR/st H=$PWD/$H sh -c '. lib/shared/common.sh; . lib/shared/cells.sh; . lib/run/runs.sh
	CELL="suite=will-it-scale tenants=2" failed_runs=0
	cell_get() { case $2 in tenants) echo 2 ;; suite) echo will-it-scale ;; esac; }
	variant_dir() { echo "$TMPD/t2"; }
	split_tenants "$TMPD/r/1"' >"$T_OUT" 2>&1
for hf in images host.conf lava.conf; do
	expect_in "split_tenants: tenant 1's $hf is the host's" "$T_DIR/st/r/1.tmp/$hf" "host's $hf"
	expect_in "split_tenants: tenant 2's $hf is the host's" "$T_DIR/st/t2/1/$hf" "host's $hf"
done
assert "split_tenants: no NOT-DETERMINISTIC from the guest" test ! -e "$T_DIR/st/t2/1/NOT-DETERMINISTIC"
expect_in "split_tenants: tenant 2 still gets its own result" "$T_DIR/st/t2/1/job.conf" "tenant=vm_2"

# import-lava (the path LAVA's runs take): a log whose tenants send
# images, host.conf and lava.conf fails its run; the records stay the host's.
mkdir -p "$T_DIR/lx/jobs" "$T_DIR/fr"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/fr/vm_1.will-it-scale"
cp "$T_DIR/fr/vm_1.will-it-scale" "$T_DIR/fr/vm_2.will-it-scale"
printf 'kernel %s\ninitramfs %s\n' "$(printf k | sha256sum | cut -c1-64)" "$(printf i | sha256sum | cut -c1-64)" >"$T_DIR/lx/jobs/001.images"
for gn in vm_1.images vm_2.images; do printf 'kernel %064d\ninitramfs %064d\n' 0 0 >"$T_DIR/fr/$gn"; done
echo machine=lava-forged >"$T_DIR/fr/vm_1.lava.conf"
printf 'cpu_pressure=90.0\n' >"$T_DIR/fr/vm_2.host.conf"
krp_stream "$T_DIR/fr" vm_1.will-it-scale vm_2.will-it-scale vm_1.images vm_2.images vm_1.lava.conf \
	vm_2.host.conf >"$T_DIR/forged.log"
lx_cell='suite=will-it-scale test=page_fault1 mode=process nr_task=2 runtime=6s runs=1 tenants=2'
lx_path=will-it-scale/process-2-6s-tenant=vm_1-tenants=2-page_fault1/qemu-2node.lava/krepro-initramfs/qemu-minimal/gcc-12
printf '001\t%s/base/1\t%s variants=base\n' "$lx_path" "$lx_cell" >"$T_DIR/lx/cells.tsv"
echo suite=will-it-scale >"$T_DIR/lx/jobs/001.conf"
expect_rc "import-lava: tenants sending the host's records fail the run" 1 \
	./run-matrix.sh import-lava -o "$T_DIR/ires" "$T_DIR/lx" 001 "$T_DIR/forged.log"
lx_run=$T_DIR/ires/$lx_path/base/1
expect_in "the run says why" "$lx_run/FAILED" "a file only the host writes"
assert "images holds the hashes LAVA booted" cmp -s "$lx_run/images" "$T_DIR/lx/jobs/001.images"
expect_in "lava.conf names the export's machine" "$lx_run/lava.conf" "machine=lava"
assert "and not the guest's" sh -c "! grep -q forged '$lx_run/lava.conf'"
assert "no run carries the guest's host.conf" test -z "$(find "$T_DIR/ires" -name host.conf -exec grep -l cpu_pressure {} +)"

# krepro-recv --session N (issue 35, row 7): a kexec chain whose step 2 is
# cut inside a header line, or leaves short garbage without a newline,
# still gives step 3 its own files.
mkdir -p "$T_DIR/ks"
printf 'MemTotal: 1 kB\n' >"$T_DIR/ks/meminfo"
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/ks/will-it-scale"
for cut in 'KRP1 file 4096 1234' 'KRP1 fi' '#x'; do
	{
		KRP_END_EXTRA=' step=1' krp_stream "$T_DIR/ks" meminfo
		printf '%s' "$cut"
		KRP_END_EXTRA=' step=3' krp_stream "$T_DIR/ks" meminfo will-it-scale
	} >"$T_DIR/ks.frames"
	rm -rf "$T_DIR/ks.st"
	expect_rc "krepro-recv --session 3 after '$cut' (no newline)" 0 "$H/krepro-recv" --session 3 -o "$T_DIR/ks.st" "$T_DIR/ks.frames"
	assert "step 3's files arrive whole" cmp -s "$T_DIR/ks.st/will-it-scale" "$T_DIR/ks/will-it-scale"
	expect_rc "and the cut step 2 fails" 1 "$H/krepro-recv" --session 2 -o "$T_DIR/ks.st2" "$T_DIR/ks.frames"
done

# issue 46 row 8: a kexec chain as the guest sends it on a serial port
# (krepro-send --text: text frames for the files, a binary end frame, one
# session a step) whose step 1 is cut inside a text frame: step 2 still
# gets its own files, step 1 fails naming the cut frame.
mkdir -p "$T_DIR/kt"
for f in cmdline uname meminfo proc-vmstat vmstat will-it-scale will-it-scale.time; do
	cp "$T_DIR/ks/meminfo" "$T_DIR/kt/$f"
done
cp suites/will-it-scale/fixtures/process-2-page_fault1 "$T_DIR/kt/will-it-scale"
head -c 7000 /dev/urandom >"$T_DIR/kt/kmsg"
: >"$T_DIR/kt1.frames"
out/guest/krepro-send -d "$T_DIR/kt1.frames" --text --step 1 "$T_DIR/kt"/*
: >"$T_DIR/kt2.frames"
out/guest/krepro-send -d "$T_DIR/kt2.frames" --text --step 2 "$T_DIR/kt"/*
assert "the guest's chain stream: text frames and a binary end frame" sh -c \
	"[ \"\$(grep -ac '^KRP1 text ' '$T_DIR/kt1.frames')\" = 8 ] && grep -aq '^KRP1 end ' '$T_DIR/kt1.frames'"
kt_at=$(grep -abo '^KRP1 text 7000 ' "$T_DIR/kt1.frames" | cut -d: -f1)
# (the sender starts with a newline; the last case drops it: the next step
# on the cut line)
for kt_cut in 'a base64 line' 'inside a base64 line' 'inside its header' 'inside a base64 line, no newline'; do
	case $kt_cut in
	'a base64 line') kt_n=$((kt_at + 29 + 77 * 20)) ;;
	'inside its header') kt_n=$((kt_at + 12)) ;;
	*) kt_n=$((kt_at + 29 + 77 * 20 + 30)) ;;
	esac
	{
		head -c "$kt_n" "$T_DIR/kt1.frames"
		case $kt_cut in
		*'no newline') tail -c +2 "$T_DIR/kt2.frames" ;;
		*) cat "$T_DIR/kt2.frames" ;;
		esac
	} >"$T_DIR/kt.frames"
	rm -rf "$T_DIR/kt.st" "$T_DIR/kt.st1"
	expect_rc "a chain cut after $kt_cut of step 1's kmsg text frame: step 2 is received" 0 "$H/krepro-recv" --session 2 -o "$T_DIR/kt.st" "$T_DIR/kt.frames"
	assert "... its files whole" sh -c "cmp -s '$T_DIR/kt.st/kmsg' '$T_DIR/kt/kmsg' && cmp -s '$T_DIR/kt.st/will-it-scale' '$T_DIR/kt/will-it-scale'"
	expect_rc "... and step 1 fails" 1 "$H/krepro-recv" --session 1 -o "$T_DIR/kt.st1" "$T_DIR/kt.frames"
	[ "$kt_cut" = 'inside its header' ] ||
		expect_in "... naming the cut text frame" "$T_OUT" "step 1: frame 2 (kmsg): text frame cut short: 15"
done

t_clean
t_summary
[ "$T_FAILED" = 0 ]
