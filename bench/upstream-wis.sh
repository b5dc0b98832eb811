#!/bin/sh
# The kit's will-it-scale against upstream's, side by side in one boot
# (docs/BENCHMARKS.md): upstream's runner and testcases from a will-it-scale
# checkout, built static with musl (bench/upstream/: a stand-in for the
# hwloc calls, and brk/sbrk as system calls, since musl's brk() fails),
# appended to the kit's initramfs; the guest alternates kit and upstream,
# 1 task, ROUNDS times, on the base kernel, qemu-2node in exact mode.
# Prints per testcase the mean ops of each side, kit/upstream, and the
# rounds in which the kit read lower.
# usage: [WIS_MODE=thread] [WIS_ASLR=0] bench/upstream-wis.sh WILL_IT_SCALE_DIR [ROUNDS [SECONDS [TEST...]]]
#   (defaults: process mode (upstream's X_processes against the kit's
#   will-it-scale; thread: X_threads, built with -DTHREADS, against
#   will-it-scale-threads), 5 rounds, 5 measured seconds, the testcases of
#   issue 14; WIS_ASLR=0 sets the guest's randomize_va_space to 0 first)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
case ${1:-} in '' | -h | --help)
	echo "usage: [WIS_MODE=thread] [WIS_ASLR=0] bench/upstream-wis.sh WILL_IT_SCALE_DIR [ROUNDS [SECONDS [TEST...]]]"
	exit 0
	;;
esac
SRC=$1
case ${WIS_MODE:=process} in
process) KIT=will-it-scale UPFLAGS= ;;
thread) KIT=will-it-scale-threads UPFLAGS=-DTHREADS ;;
*)
	echo "upstream-wis: WIS_MODE is process or thread, not '$WIS_MODE'" >&2
	exit 2
	;;
esac
case ${WIS_ASLR:=1} in
0 | 1) ;;
*)
	echo "upstream-wis: WIS_ASLR is 0 or 1, not '$WIS_ASLR'" >&2
	exit 2
	;;
esac
ROUNDS=${2:-5}
SECS=${3:-5}
shift $(($# < 3 ? $# : 3))
# both become words of the guest's script
upstream_whole upstream-wis "ROUNDS and SECONDS" "$ROUNDS" "$SECS"
TESTS=${*:-context_switch1 brk1 malloc1 page_fault1 page_fault2 page_fault3 getppid1 mmap1 pipe1 open1}
[ -f "$SRC/main.c" ] || {
	echo "upstream-wis: $SRC has no main.c (a will-it-scale checkout)" >&2
	exit 2
}
for t in $TESTS; do # names become paths and guest shell words
	case $t in *[!a-z0-9_]* | '')
		echo "upstream-wis: bad testcase name '$t' ([a-z0-9_] only)" >&2
		exit 2
		;;
	esac
done
upstream_workdir upwis
UAPI=$("$ROOT/build.sh" uapi | tail -n 1) # linux/*.h, which musl lacks
for t in $TESTS; do
	# upstream's own flags (-O2), static, the stand-ins first
	# shellcheck disable=SC2086 # UPFLAGS: empty or one word
	musl-gcc -O2 $UPFLAGS -static -I"$ROOT/bench/upstream" -isystem "$UAPI" -include errno.h -include musl-brk.h \
		-o "$W/up/$t" "$SRC/main.c" "$SRC/tests/$t.c" -lpthread >"$W/up/$t.log" 2>&1 || {
		cat "$W/up/$t.log" >&2
		exit 1
	}
done
{
	[ "$WIS_ASLR" = 1 ] || echo 'echo 0 >/proc/sys/kernel/randomize_va_space'
	cat <<EOF
kit() { /usr/bin/$KIT -t \$1 -m $WIS_MODE -n 1 -s $SECS -w 6 | busybox sed -n 's/^average://p'; }
up() { /up/\$1 -t 1 -s $SECS | busybox sed -n 's/^average://p'; }
EOF
} >"$W/pre.sh"
echo "upstream: $(git -C "$SRC" log --oneline -1 2>/dev/null || echo "$SRC"); $ROUNDS rounds of $SECS s, 1 task, $WIS_MODE mode, ASLR $WIS_ASLR, exact"
upstream_guest_script "$W/pre.sh"
upstream_boot
upstream_table rate
