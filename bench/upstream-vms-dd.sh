#!/bin/sh
# vm-scalability's cases that run programs besides usemem, side by side in
# one boot (docs/BENCHMARKS.md): lru-file-readonce and lru-file-readtwice
# (dd bs=4k of a sparse file until SIGINT), truncate, truncate-seq (files
# read into the page cache with cat, then removed, timed with date +%s.%N)
# and migrate (usemem under numactl --interleave=all, then migratepages
# node to node, a process a step, timed with date +%s%N; upstream's usemem
# static as bench/upstream-vms.sh builds it, Debian's numactl package's
# numactl and migratepages with libnuma).
# The kit's side is its own suite (suites/vm-scalability/run.sh's
# suite_run, with ddread and nanotime); upstream's side is upstream's case
# scripts themselves, run as lkp-tests runs them on Debian: by dash (its
# /bin/sh; busybox's sh would run its own applets whatever PATH says) with
# GNU coreutils (dd, date, timeout, truncate, cat, rm, seq, sleep) first in
# PATH: the host's dynamic glibc binaries, with the libc and the loader
# they name, appended to the bench's initramfs only (the programs under
# /up/gnu, the libraries at their own paths).  Upstream's hw_vars is replaced by a bench one
# that sets the variables these cases read as the kit sets them (nr_task;
# mem: the kit's size key; ROTATE_BYTES: min(4 TiB, 256 x MemAvailable);
# SPARSE_ROOT: the kit's fs=ext2 mount, the loop device knobs.sh makes).
# Both sides' output goes through the same arithmetic, the kit's parser's
# (lkp-tests'): the sum over dd lines of (bytes >> 10) / seconds, or
# (N >> 10) / (T1 - T0) for "N bytes truncated|faulted in T1-T0 seconds"
# (truncate-seq's faulted rate is the row truncate-seq-fault), and
# migrate's R of "C * U bytes migrated, T usecs, R MB/s" (migrate_mbps).  Rounds
# alternate kit and upstream, base kernel, qemu-2node, exact mode.
# usage: bench/upstream-vms-dd.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [NR_TASK [TEST...]]]]]
#   (defaults: 5 rounds, 3 s runtime (dd, migrate), truncate's and migrate's mem 256M, 2 tasks, every test)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
ALL="lru-file-readonce lru-file-readtwice truncate truncate-seq migrate"
GNU="dd date timeout truncate cat rm seq sleep"
NUMA= # numactl's programs, for migrate
case ${1:-} in '' | -h | --help)
	echo "usage: bench/upstream-vms-dd.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [NR_TASK [TEST...]]]]]"
	echo "tests: $ALL"
	exit 0
	;;
esac
SRC=$1
ROUNDS=${2:-5}
SECS=${3:-3}
SIZE=${4:-256M}
NR=${5:-2}
shift $(($# < 5 ? $# : 5))
TESTS=${*:-$ALL}
upstream_whole upstream-vms-dd "ROUNDS, SECONDS and NR_TASK" "$ROUNDS" "$SECS" "$NR"
BYTES=$(upstream_bytes "$SIZE") || { echo "upstream-vms-dd: bad SIZE '$SIZE'" >&2 && exit 2; }
# shellcheck disable=SC2086 # TESTS: words
upstream_known upstream-vms-dd "$ALL" $TESTS
for t in $TESTS; do
	[ -f "$SRC/case-$t" ] || { echo "upstream-vms-dd: $SRC has no case-$t" >&2 && exit 2; }
	[ "$t" != migrate ] || NUMA="numactl migratepages"
done
for p in $NUMA; do
	command -v "$p" >/dev/null || { echo "upstream-vms-dd: no $p on the host (apt-get install numactl)" >&2 && exit 2; }
done
for p in $GNU; do
	if ! command -v "$p" >/dev/null || ! "$p" --version 2>/dev/null | grep -q GNU; then
		echo "upstream-vms-dd: no GNU $p on the host (Debian's coreutils)" >&2
		exit 2
	fi
done
command -v dash >/dev/null || { echo "upstream-vms-dd: no dash on the host (Debian's /bin/sh)" >&2 && exit 2; }
upstream_workdir upvmsdd
for t in $TESTS; do cp "$SRC/case-$t" "$W/up/$t"; done
[ -z "$NUMA" ] || upstream_usemem "$SRC" "$W/usemem"
# The bench's hw_vars: what these cases read from upstream's, with the
# kit's values (its suite_run computes the same quantities).
cat >"$W/hw_vars" <<EOF
TMPFS_MNT=/tmp/vm-scalability-tmp
SPARSE_ROOT=/fs
SPARSE_FILE=\$SPARSE_ROOT/sparse-\${0#*case-}
nr_task=\${nr_task:-\$(grep -c processor /proc/cpuinfo)}
mem=$BYTES
mem_avail=\$((\$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo) << 10))
PTE_LIMIT=\$((mem_avail << 8))
ROTATE_BYTES=\$((1 << 42))
[ "\$ROTATE_BYTES" -gt "\$PTE_LIMIT" ] && ROTATE_BYTES=\$PTE_LIMIT
create_sparse_file() { truncate "\$1" -s "\$2"; }
USEMEM="./usemem\${runtime:+ --runtime \$runtime}"
PIDFILE=\$SPARSE_ROOT/\${0#*case-}.pid
nr_node=\$(echo /sys/devices/system/node/node* | wc -w)
EOF
cat >"$W/pre.sh" <<EOF
# PID 1 only reaps (ash's wait reaps any child): the rounds run in a child.
# migrate's detached usemem is reparented to init, and upstream's case
# waits for it to vanish, which a zombie never does.
if [ "\$\$" = 1 ]; then
	busybox sh /compare.sh &
	while :; do wait; done
fi
busybox mount -t devtmpfs dev /dev
busybox --install -s /bin
export PATH=/usr/bin:/bin
# the kit's fs=ext2: knobs.sh's knob_fs (a loop device over a sparse tmpfs
# image of MemTotal/2), with /init's fail, finish and R
R=/tmp/krepro-r
mkdir -p "\$R" /tmp/vm-scalability-tmp
fail() { echo "FAIL: \$*"; }
finish() { busybox poweroff -f; }
. /etc/krepro/knobs.sh
knob_fs ext2
. /etc/krepro/suites/vm-scalability.sh
job_get() {
	case \$1 in
	test) echo "\$vmsdd_test" ;;
	nr_task) echo $NR ;;
	runtime) echo $SECS ;;
	size) case \$vmsdd_test in truncate* | migrate) echo $BYTES ;; esac ;;
	esac
}
monitors_start() { :; }
model_window() { "\$@"; } # no memory model here: the command alone
# lkp-tests' arithmetic (the kit's parser): the main rate, or the faulted
# one with FAULT=1
rate() {
	awk -v fault="\${1:-0}" '
	/ bytes \(.*\) copied, / { s = \$0; sub(/.*\) copied, /, "", s); split(s, a, " ")
		k += int(\$1 / 1024) / a[1]; n++ }
	/ bytes (truncated|faulted) in / && ((\$3 == "faulted") == (fault == 1)) {
		split(\$5, a, "-"); if (a[1] > a[2]) { k += int(\$1 / 1024) / (a[1] - a[2]); n++ } }
	/ bytes migrated, / { k += \$(NF - 1); n++ }
	END { if (n) printf "%.1f\n", k; else print "none" }'
}
# show: the rate of an output file, or its lines (on the console) if none
show() {
	vmsdd_r=\$(rate "\$2" <"\$1")
	[ "\$vmsdd_r" != none ] || busybox sed "s|^|FAIL: \$1: |" "\$1" >&2
	echo "\$vmsdd_r"
}
# the fault row: the truncate-seq runs' saved output
kit() {
	case \$1 in
	truncate-seq-fault) show /tmp/out-kit-truncate-seq 1 ;;
	*)
		vmsdd_test=\$1
		suite_run >/dev/null 2>&1 || echo "FAIL: kit \$1: \$(cat "\$R/vm-scalability.stderr")" >&2
		busybox umount /tmp/vm-scalability-tmp
		cp "\$R/vm-scalability" "/tmp/out-kit-\$1"
		show "/tmp/out-kit-\$1"
		;;
	esac
}
up() {
	case \$1 in
	truncate-seq-fault) show /tmp/out-up-truncate-seq 1 ;;
	*)
		# lkp-tests' run: a fresh tmpfs at TMPFS_MNT, the case in its folder
		busybox mount -t tmpfs -o size=100% vm-scalability-tmp /tmp/vm-scalability-tmp
		(cd /up/vms && PATH=/up/gnu:\$PATH nr_task=$NR runtime=$SECS dash "./case-\$1") \
			>"/tmp/out-up-\$1" 2>&1
		busybox umount /tmp/vm-scalability-tmp
		show "/tmp/out-up-\$1"
		;;
	esac
}
EOF
# the fault row right after truncate-seq (it reads that round's output)
T2=
for t in $TESTS; do
	T2="$T2 $t"
	[ "$t" != truncate-seq ] || T2="$T2 truncate-seq-fault"
done
TESTS=${T2# }
echo "upstream: $(git -C "$SRC" log --oneline -1 2>/dev/null || echo "$SRC"); $ROUNDS rounds, dd ${SECS} s, truncate mem $SIZE, nr_task $NR, exact"
upstream_guest_script "$W/pre.sh"
# the lines for the fault row's empty /up file, upstream's case scripts and
# hw_vars in /up/vms, GNU coreutils in /up/gnu, glibc at its own paths
: >"$W/up/truncate-seq-fault"
{
	echo "dir /up/vms 0755 0 0"
	for t in $TESTS; do
		[ "$t" = truncate-seq-fault ] || echo "file /up/vms/case-$t $W/up/$t 0755 0 0"
	done
	echo "file /up/vms/hw_vars $W/hw_vars 0644 0 0"
	[ -z "$NUMA" ] || echo "file /up/vms/usemem $W/usemem 0755 0 0"
	echo "dir /up/gnu 0755 0 0"
	for p in $GNU $NUMA dash; do echo "file /up/gnu/$p $(command -v "$p") 0755 0 0"; done
	libs=$(for p in $GNU $NUMA dash; do ldd "$(command -v "$p")"; done |
		sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | sort -u)
	for l in $libs; do
		d=${l%/*}
		while [ -n "$d" ]; do
			echo "$d"
			d=${d%/*}
		done
	done | sort -u | while read -r d; do echo "dir $d 0755 0 0"; done
	for l in $libs; do echo "file $l $(readlink -f "$l") 0755 0 0"; done
} >>"$W/extra.list"
upstream_boot
grep -h FAIL "$W/console.log" >&2 || true
upstream_table rate
