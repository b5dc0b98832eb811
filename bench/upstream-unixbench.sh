#!/bin/sh
# The kit's UnixBench tests against upstream's programs, side by side in
# one boot (docs/BENCHMARKS.md): byte-unixbench's dhry2reg (dhry_1.c and
# dhry_2.c with -DREG=register, as its Makefile), context1, pipe, syscall,
# spawn, execl, whetstone-double and dc (looper running the guest's busybox
# dc with dc.dat as its standard input, as Run does), built static with musl at -O2 (the
# kit's pinned level; upstream's Makefile says -O3 -ffast-math
# -march=native), appended to the kit's initramfs; the guest alternates the
# kit's unixbench and upstream's program ROUNDS times, on the base kernel,
# qemu-2node in exact mode.  Upstream's rate is its COUNT over the elapsed
# time (/proc/uptime), as Run divides it; whetstone reports MWIPS itself.
# usage: bench/upstream-unixbench.sh UNIXBENCH_SRC_DIR [ROUNDS [SECONDS [TEST...]]]
#   UNIXBENCH_SRC_DIR: byte-unixbench's UnixBench/src (986b674 measured)
#   (defaults: 3 rounds, 10 s, all eight tests)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
case ${1:-} in '' | -h | --help)
	echo "usage: bench/upstream-unixbench.sh UNIXBENCH_SRC_DIR [ROUNDS [SECONDS [TEST...]]]"
	exit 0
	;;
esac
SRC=$1
ROUNDS=${2:-3}
SECS=${3:-10}
shift $(($# < 3 ? $# : 3))
TESTS=${*:-dhry2reg context1 pipe syscall spawn execl whetstone-double dc}
[ -f "$SRC/context1.c" ] || {
	echo "upstream-unixbench: $SRC has no context1.c (byte-unixbench's UnixBench/src)" >&2
	exit 2
}
for t in $TESTS; do # names become paths and guest shell words
	case $t in dhry2reg | context1 | pipe | syscall | spawn | execl | whetstone-double | dc) ;;
	*)
		echo "upstream-unixbench: no test '$t' (dhry2reg context1 pipe syscall spawn execl whetstone-double dc)" >&2
		exit 2
		;;
	esac
done
case $ROUNDS$SECS in *[!0-9]*)
	echo "upstream-unixbench: ROUNDS and SECONDS are whole numbers" >&2
	exit 2
	;;
esac
upstream_workdir upub
for t in $TESTS; do
	case $t in
	whetstone-double) src=whets.c flags="-DDP -DGTODay -DUNIXBENCH" ;;
	# two translation units, compiled together as the Makefile does (HZ is
	# empty there and unused with -DTIME)
	dhry2reg) src="dhry_1.c $SRC/dhry_2.c" flags="-DHZ= -DREG=register" ;;
	dc) src=looper.c flags= ;;
	*) src=$t.c flags= ;;
	esac
	# shellcheck disable=SC2086 # flags and src: words
	musl-gcc -O2 -static -DTIME $flags -w -I"$SRC" -o "$W/up/$t" $SRC/$src -lm >"$W/up/$t.log" 2>&1 || {
		cat "$W/up/$t.log" >&2
		exit 1
	}
done
cat >"$W/pre.sh" <<EOF
busybox --install -s /bin # dc and sh for the looper tests, as /init does
export UB_BINDIR=/up PATH=/bin:/usr/bin
printf '99\\nk\\n2\\nv\\np\\nq\\n' >/tmp/dc.dat
up() { # test -> upstream's rate: COUNT over the elapsed time unless timebase 0
	a=\$(busybox cut -d' ' -f1 /proc/uptime)
	case \$1 in
	whetstone-double) /up/\$1 >/dev/null 2>/tmp/up.err ;;
	dc) /up/dc $SECS dc </tmp/dc.dat >/dev/null 2>/tmp/up.err ;;
	*) /up/\$1 $SECS >/dev/null 2>/tmp/up.err ;;
	esac
	b=\$(busybox cut -d' ' -f1 /proc/uptime)
	busybox awk -F'|' -v a="\$a" -v b="\$b" '\$1 == "COUNT" { c = \$2; tb = \$3 }
		END { if (tb == 0) print c; else print c / ((b - a) / tb) }' /tmp/up.err
}
kit() { /usr/bin/unixbench -t $SECS -i 1 -d /tmp \$1 | busybox sed -n 's/.* \([0-9.]*\) [A-Za-z]* (.*/\1/p'; }
EOF
echo "upstream: $SRC; $ROUNDS rounds of $SECS s, exact"
upstream_guest_script "$W/pre.sh"
upstream_boot
upstream_table rate
