#!/bin/sh
# initramfs/knobs.sh on the host with stubbed fail/finish: unknown or bad
# knobs stop the run before anything is written; benchmark keys pass.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

./run-matrix.sh --keys >"$T_DIR/keys" || exit 2

# knobs NAME CONF-LINES...: source knobs.sh on a job.conf of those lines,
# with the key table and the contract the image would carry.
knobs() {
	n=$1
	shift
	printf '%s\n' "$@" >"$T_DIR/$n.conf"
	mkdir -p "$T_DIR/r-$n"
	# shellcheck disable=SC2016 # expanded by the inner shell
	KREPRO_KNOBCHECK=out/guest/krepro-knobcheck KREPRO_JOB_CONF="$T_DIR/$n.conf" KREPRO_KEYS="$T_DIR/keys" KREPRO_CONTRACT=tools/common/contract.h \
		R="$T_DIR/r-$n" sh -c '
		fail() { echo "FAILED: $*"; }
		finish() { echo FINISHED; exit 0; }
		. initramfs/knobs.sh
		echo "KSM=${KREPRO_KSM:-} FS=${KREPRO_FS_DIR:-}"
	' >"$T_DIR/$n.out" 2>&1
}

knobs plain suite=will-it-scale test=page_fault3 nr_task=2 monitors=meminfo+uptime warmup=5 interval=1 \
	variant=base clock=exact initramfs_sha256=0123abcd
out=$T_DIR/plain.out
if grep -q FAILED "$out"; then r=1; else r=0; fi
assert "the keys write_job writes pass" test "$r" = 0
knobs dotted suite=will-it-scale foo.bar=1
out=$T_DIR/dotted.out
expect_in "unknown dotted key fails" "$out" "unknown key 'foo.bar' for suite will-it-scale"
expect_in "unknown knob finishes the run" "$out" "FINISHED"
knobs thpx thp_defrag=never
out=$T_DIR/thpx.out
expect_in "knob-like key fails" "$out" "unknown key 'thp_defrag'"
knobs thpv thp=sometimes
out=$T_DIR/thpv.out
expect_in "bad thp value fails" "$out" "thp must be one of always|madvise|never, not 'sometimes'"
knobs ksmv ksm=maybe
out=$T_DIR/ksmv.out
expect_in "bad ksm value fails" "$out" "ksm must be one of on|off"
knobs nb numa_balancing=2
out=$T_DIR/nb.out
expect_in "bad numa_balancing fails" "$out" "numa_balancing must be one of 0|1"
knobs sysctl sysctl.no_such_dir.no_such_knob=1
out=$T_DIR/sysctl.out
expect_in "missing sysctl fails" "$out" "no /proc/sys/no_such_dir/no_such_knob"
knobs sysfs sysfs.kernel..mm=1
out=$T_DIR/sysfs.out
expect_in "empty sysfs component fails" "$out" "bad path 'kernel..mm'"
knobs fs fs=btrfs
out=$T_DIR/fs.out
expect_in "unknown fs fails" "$out" "fs must be one of tmpfs|ext2|xfs"
knobs sdi sched_debug_interval=abc
out=$T_DIR/sdi.out
expect_in "bad sched_debug_interval fails" "$out" "sched_debug_interval must be a number"
knobs sdi2 sched_debug_interval=30
out=$T_DIR/sdi2.out
if grep -q FAILED "$out"; then r=1; else r=0; fi
assert "sched_debug_interval accepted" test "$r" = 0
knobs other suite=hackbench warehouses=4
expect_in "another suite's parameter fails" "$T_DIR/other.out" "unknown key 'warehouses' for suite hackbench"
knobs range suite=hackbench iterations=0
expect_in "an int out of its range fails" "$T_DIR/range.out" "iterations must be from 1 to 100000, not 0"
knobs tenant suite=will-it-scale tenant=vm_2 memory=524288K
if grep -q FAILED "$T_DIR/tenant.out"; then r=1; else r=0; fi
assert "a tenant's job (tenant, memory in K) passes" test "$r" = 0
rm -rf "$T_DIR"
t_summary
exit $T_FAILED
