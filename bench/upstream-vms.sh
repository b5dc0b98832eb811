#!/bin/sh
# The kit's usemem (vm-scalability) against upstream's, side by side in one
# boot (docs/BENCHMARKS.md): upstream's usemem.c from a vm-scalability
# checkout, built static with musl at its Makefile's -O (bench/upstream/
# drand48-r.h stands in for glibc's lrand48_r), appended to the kit's
# initramfs; the guest alternates kit and upstream, one task, ROUNDS times,
# on the base kernel, qemu-2node in exact mode.  Each test is a usemem
# command line of one vm-scalability case over SIZE; the number compared is
# the task's KB/s (N bytes / T usecs, N the composite count).
# usage: bench/upstream-vms.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [TEST...]]]]
#   (defaults: 5 rounds, 5 s runtime, 64M, the tests below)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
case ${1:-} in '' | -h | --help)
	echo "usage: bench/upstream-vms.sh VM_SCALABILITY_DIR [ROUNDS [SECONDS [SIZE [TEST...]]]]"
	echo "tests: anon-w-seq anon-r-seq anon-w-rand anon-r-rand file-r-seq file-r-rand (file-*: one tmpfs file)"
	exit 0
	;;
esac
SRC=$1
ROUNDS=${2:-5}
SECS=${3:-5}
SIZE=${4:-64M}
shift $(($# < 4 ? $# : 4))
TESTS=${*:-anon-w-seq anon-r-seq anon-w-rand anon-r-rand file-r-seq file-r-rand}
[ -f "$SRC/usemem.c" ] || {
	echo "upstream-vms: $SRC has no usemem.c (a vm-scalability checkout)" >&2
	exit 2
}
case $ROUNDS$SECS in *[!0-9]* | '') echo "upstream-vms: ROUNDS and SECONDS are numbers" >&2 && exit 2 ;; esac
case $SIZE in '' | *[!0-9KMG]*) echo "upstream-vms: bad SIZE '$SIZE'" >&2 && exit 2 ;; esac
for t in $TESTS; do
	case $t in
	anon-w-seq | anon-r-seq | anon-w-rand | anon-r-rand | file-r-seq | file-r-rand) ;;
	*) echo "upstream-vms: unknown test '$t' (see --help)" >&2 && exit 2 ;;
	esac
done
upstream_workdir upvms
musl-gcc -O -static -pthread -I"$ROOT/bench/upstream" -I"$ROOT/tools/guest" -include drand48-r.h \
	-o "$W/usemem" "$SRC/usemem.c" "$SRC/usemem_mincore.c" "$SRC/usemem_hugepages.c" >"$W/build-up.log" 2>&1 || {
	cat "$W/build-up.log" >&2
	exit 1
}
for t in $TESTS; do cp "$W/usemem" "$W/up/$t"; done
# upstream maps private memory from /dev/zero (without it, it prints nothing)
cat >"$W/pre.sh" <<EOF
busybox mount -t devtmpfs dev /dev
opts() {
	case \$1 in
	anon-w-seq) echo "$SIZE" ;;
	anon-r-seq) echo "--readonly $SIZE" ;;
	anon-w-rand) echo "--random $SIZE" ;;
	anon-r-rand) echo "--readonly --random $SIZE" ;;
	file-r-seq) echo "-f /tmp/vms-file --readonly $SIZE" ;;
	file-r-rand) echo "-f /tmp/vms-file --readonly --random $SIZE" ;;
	esac
}
kbps() { busybox sed -n 's/.* usecs = \([0-9]*\) KB\/s\$/\1/p' | busybox head -n 1; }
prep() { case \$1 in file-*) busybox rm -f /tmp/vms-file; busybox truncate -s $SIZE /tmp/vms-file ;; esac; }
kit() { prep \$1; /usr/bin/usemem --runtime $SECS -n 1 \$(opts \$1) | kbps; }
up() { prep \$1; /up/\$1 --runtime $SECS -n 1 \$(opts \$1) | kbps; }
EOF
echo "upstream: $(git -C "$SRC" log --oneline -1 2>/dev/null || echo "$SRC"); $ROUNDS rounds of $SECS s, 1 task, $SIZE, exact"
upstream_guest_script "$W/pre.sh"
upstream_boot
upstream_table
