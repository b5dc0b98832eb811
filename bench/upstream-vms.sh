#!/bin/sh
# The kit's usemem (vm-scalability) against upstream's, side by side in one
# boot (docs/BENCHMARKS.md): upstream's usemem.c from a vm-scalability
# checkout, built static with musl at its Makefile's -O (bench/upstream/
# drand48-r.h stands in for glibc's lrand48_r), appended to the kit's
# initramfs; the guest alternates kit and upstream, one task, ROUNDS times,
# on the base kernel, qemu-2node in exact mode.  Each test is the usemem
# command line of vm-scalability cases (docs/BENCHMARKS.md lists which)
# over SIZE, both programs given the same options (upstream's huge page
# spelling adds its -O); the number compared is the task's KB/s (N bytes /
# T usecs, N the composite count).  A test named ...-mt runs one thread
# (-t 1), the others one process (-n 1).
# usage: bench/upstream-vms.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [TEST...]]]]
#   (defaults: 5 rounds, 5 s runtime, 64M, every test below)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
ALL="anon-w-seq anon-r-seq anon-w-rand anon-r-rand file-r-seq file-r-rand \
anon-wx-seq-mt anon-wx-rand-mt anon-rx-seq-mt anon-rx-rand-mt \
anon-cow-seq anon-cow-rand anon-cow-seq-mt anon-cow-rand-mt \
anon-w-seq-hugetlb anon-w-rand-hugetlb anon-cow-seq-hugetlb anon-cow-rand-hugetlb \
small-allocs file-rx-seq-mt file-rx-rand-mt file-remap-rand-mt file-msync file-msync-mt"
case ${1:-} in '' | -h | --help)
	echo "usage: bench/upstream-vms.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [TEST...]]]]"
	echo "tests: $ALL"
	echo "  (file-*: one tmpfs file of SIZE; *-hugetlb*: 2 MiB pages; *-mt: -t 1, not -n 1)"
	exit 0
	;;
esac
SRC=$1
ROUNDS=${2:-5}
SECS=${3:-5}
SIZE=${4:-64M}
shift $(($# < 4 ? $# : 4))
TESTS=${*:-$ALL}
[ -f "$SRC/usemem.c" ] || {
	echo "upstream-vms: $SRC has no usemem.c (a vm-scalability checkout)" >&2
	exit 2
}
upstream_whole upstream-vms "ROUNDS and SECONDS" "$ROUNDS" "$SECS"
BYTES=$(upstream_bytes "$SIZE") || { echo "upstream-vms: bad SIZE '$SIZE'" >&2 && exit 2; }
# shellcheck disable=SC2086 # TESTS: words
upstream_known upstream-vms "$ALL" $TESTS
upstream_workdir upvms
upstream_usemem "$SRC" "$W/usemem"
for t in $TESTS; do cp "$W/usemem" "$W/up/$t"; done
# upstream maps private memory from /dev/zero (without it, it prints
# nothing); opts: the options of a test (without its -mt), the same for both
# programs; tasks: -n 1, or -t 1; upx: upstream maps huge pages only with
# MAP_ANONYMOUS (its -O) added; prep: a fresh tmpfs file of SIZE, or a huge
# page pool that can grow to SIZE and a page more (as the kit's run.sh;
# twice SIZE for copy on write: the parent's pages and the child's copies).
cat >"$W/pre.sh" <<EOF
busybox mount -t devtmpfs dev /dev
opts() {
	case \${1%-mt} in
	anon-w-seq) echo "$SIZE" ;;
	anon-r-seq) echo "--readonly $SIZE" ;;
	anon-w-rand) echo "--random $SIZE" ;;
	anon-r-rand) echo "--readonly --random $SIZE" ;;
	anon-wx-seq) echo "--prealloc $SIZE" ;;
	anon-wx-rand) echo "--prealloc --random $SIZE" ;;
	anon-rx-seq) echo "--prealloc --readonly $SIZE" ;;
	anon-rx-rand) echo "--prealloc --readonly --random $SIZE" ;;
	anon-cow-seq) echo "--prealloc --prefault $SIZE" ;;
	anon-cow-rand) echo "--prealloc --prefault --random $SIZE" ;;
	anon-w-seq-hugetlb) echo "--hugetlb $SIZE" ;;
	anon-w-rand-hugetlb) echo "--hugetlb --random $SIZE" ;;
	anon-cow-seq-hugetlb) echo "--prealloc --prefault --hugetlb $SIZE" ;;
	anon-cow-rand-hugetlb) echo "--prealloc --prefault --hugetlb --random $SIZE" ;;
	small-allocs) echo "--readonly --unit 40960 $SIZE" ;;
	file-r-seq) echo "-f /tmp/vms-file --readonly $SIZE" ;;
	file-r-rand) echo "-f /tmp/vms-file --readonly --random $SIZE" ;;
	file-rx-seq) echo "-f /tmp/vms-file --prealloc --readonly $SIZE" ;;
	file-rx-rand) echo "-f /tmp/vms-file --prealloc --readonly --random $SIZE" ;;
	file-remap-rand) echo "-f /tmp/vms-file --remap --prealloc --readonly --random $SIZE" ;;
	file-msync) echo "-f /tmp/vms-file --msync --prefault --prealloc --open-rw $SIZE" ;;
	esac
}
tasks() { case \$1 in *-mt) echo "-t 1" ;; *) echo "-n 1" ;; esac; }
upx() { case \$1 in *-hugetlb*) echo "-O" ;; esac; }
kbps() { busybox sed -n 's/.* usecs = \([0-9]*\) KB\/s\$/\1/p' | busybox head -n 1; }
prep() {
	case \$1 in
	file-*) busybox rm -f /tmp/vms-file; busybox truncate -s $SIZE /tmp/vms-file ;;
	anon-cow-*-hugetlb*) echo $((2 * BYTES / 2097152 + 2)) >/sys/kernel/mm/hugepages/hugepages-2048kB/nr_overcommit_hugepages ;;
	*-hugetlb*) echo $((BYTES / 2097152 + 2)) >/sys/kernel/mm/hugepages/hugepages-2048kB/nr_overcommit_hugepages ;;
	esac
}
kit() { prep \$1; /usr/bin/usemem --runtime $SECS \$(tasks \$1) \$(opts \$1) | kbps; }
up() { prep \$1; /up/\$1 --runtime $SECS \$(tasks \$1) \$(upx \$1) \$(opts \$1) | kbps; }
EOF
echo "upstream: $(git -C "$SRC" log --oneline -1 2>/dev/null || echo "$SRC"); $ROUNDS rounds of $SECS s, 1 task, $SIZE, exact"
upstream_guest_script "$W/pre.sh"
upstream_boot
upstream_table rate
