#!/bin/sh
# The kit's UnixBench tests against upstream's programs, side by side in
# one boot (docs/BENCHMARKS.md): byte-unixbench's dhry2reg (dhry_1.c and
# dhry_2.c with -DREG=register, as its Makefile), context1, pipe, syscall,
# spawn, execl, whetstone-double, dc (looper running the guest's busybox
# dc with dc.dat as its standard input, as Run does), the nine file tests
# (fstime with Run's options: -r/-w/-c -t SECONDS -d /tmp -b B -m M),
# the misc tests arithoh, short, int, long, float, double (arith.c with
# the Makefile's -D), hanoi and sysexec (syscall.c's exec: /bin/true is the
# guest's busybox) and shell1/shell8 (looper running upstream's
# pgms/multi.sh N, which runs pgms/tst.sh over testdir/sort.src with the
# guest's busybox sh, in a directory on /tmp, UB_BINDIR=/up, as Run does in its testdir; the
# scripts and sort.src go into the initramfs as data), built static with
# musl at -O2 (the kit's pinned level; upstream's Makefile says -O3
# -ffast-math -march=native), appended to the kit's initramfs; the guest
# alternates the kit's unixbench and upstream's program ROUNDS times, on
# the base kernel, qemu-2node in exact mode.  Upstream's rate is its COUNT
# over the elapsed time (/proc/uptime), as Run divides it; whetstone
# reports MWIPS itself, fstime its KBps (COUNT with timebase 0).
# usage: bench/upstream-unixbench.sh UNIXBENCH_SRC_DIR [ROUNDS [SECONDS [TEST...]]]
#   UNIXBENCH_SRC_DIR: byte-unixbench's UnixBench/src (986b674 measured;
#   the shell tests read ../pgms and ../testdir beside it)
#   UB_SHELL_SECONDS: the shell tests' round (default SECONDS)
#   (defaults: 3 rounds, 10 s, all nineteen tests; measured: 5 rounds of
#   2 s, shell tests 12 s)
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
TESTS=${*:-dhry2reg context1 pipe syscall spawn execl whetstone-double dc fstime-r fstime-w fstime fsbuffer-r fsbuffer-w fsbuffer fsdisk-r fsdisk-w fsdisk shell1 shell8}
[ -f "$SRC/context1.c" ] || {
	echo "upstream-unixbench: $SRC has no context1.c (byte-unixbench's UnixBench/src)" >&2
	exit 2
}
for t in $TESTS; do # names become paths and guest shell words
	case $t in dhry2reg | context1 | pipe | syscall | spawn | execl | whetstone-double | dc) ;;
	fstime | fstime-[rw] | fsbuffer | fsbuffer-[rw] | fsdisk | fsdisk-[rw] | shell1 | shell8) ;;
	arithoh | short | int | long | float | double | hanoi | sysexec) ;;
	*)
		echo "upstream-unixbench: no test '$t' (dhry2reg context1 pipe syscall spawn execl whetstone-double dc fstime-r fstime-w fstime fsbuffer-r fsbuffer-w fsbuffer fsdisk-r fsdisk-w fsdisk shell1 shell8 arithoh short int long float double hanoi sysexec)" >&2
		exit 2
		;;
	esac
done
# the shell tests' looper counts whole runs of multi.sh (seconds each in
# the guest): they may take longer rounds
SHSECS=${UB_SHELL_SECONDS:-$SECS}
upstream_whole upstream-unixbench "ROUNDS, SECONDS and UB_SHELL_SECONDS" "$ROUNDS" "$SECS" "$SHSECS"
upstream_workdir upub
for t in $TESTS; do
	case $t in
	whetstone-double) src=whets.c flags="-DDP -DGTODay -DUNIXBENCH" ;;
	# two translation units, compiled together as the Makefile does (HZ is
	# empty there and unused with -DTIME)
	dhry2reg) src="dhry_1.c $SRC/dhry_2.c" flags="-DHZ= -DREG=register" ;;
	dc | shell*) src=looper.c flags= ;;
	fs*) src=fstime.c flags= ;;
	# arith.c built six times, as the Makefile does
	arithoh) src=arith.c flags=-Darithoh ;;
	short | int | long | float | double) src=arith.c flags=-Ddatum=$t ;;
	sysexec) src=syscall.c flags= ;;
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
	fs*) /up/\$1 \$(fsopt \$1) -t $SECS -d /tmp >/dev/null 2>/tmp/up.err ;;
	shell*) (cd /tmp/ut && /up/\$1 $SHSECS /up/multi.sh \${1#shell}) >/dev/null 2>/tmp/up.err ;;
	sysexec) /up/sysexec $SECS exec >/dev/null 2>/tmp/up.err ;;
	*) /up/\$1 $SECS >/dev/null 2>/tmp/up.err ;;
	esac
	b=\$(busybox cut -d' ' -f1 /proc/uptime)
	busybox awk -F'|' -v a="\$a" -v b="\$b" '\$1 == "COUNT" { c = \$2; tb = \$3 }
		END { if (tb == 0) print c; else print c / ((b - a) / tb) }' /tmp/up.err
	# the looper exits on SIGALRM while its last multi.sh runs on: let
	# that finish before the next test (sleep, time outside both results)
	case \$1 in shell*) busybox sleep 3 ;; esac
}
fsopt() { # Run's fstime options for a test name (mode, bufsize, maxblocks)
	case \$1 in *-r) echo -r ;; *-w) echo -w ;; *) echo -c ;; esac
	case \$1 in fstime*) echo -b 1024 -m 2000 ;; fsbuffer*) echo -b 256 -m 500 ;;
	fsdisk*) echo -b 4096 -m 8000 ;; esac
}
kitname() { # Run's test name -> the kit's
	case \$1 in
	fs*) m=copy; case \$1 in *-r) m=read ;; *-w) m=write ;; esac
		b=1024; case \$1 in fsbuffer*) b=256 ;; fsdisk*) b=4096 ;; esac
		echo file-\$m-\$b ;;
	*) echo \$1 ;;
	esac
}
# the shell tests: upstream's sort.src in a test directory on /tmp's tmpfs,
# where the kit writes its own (Run runs them in its testdir)
busybox mkdir -p /tmp/ut
[ ! -f /up/sort.src ] || busybox cp /up/sort.src /tmp/ut/
secs() { case \$1 in shell*) echo $SHSECS ;; *) echo $SECS ;; esac; }
kit() { /usr/bin/unixbench -t \$(secs \$1) -i 1 -d /tmp \$(kitname \$1) | busybox sed -n 's/.* \([0-9.]*\) [A-Za-z]* (.*/\1/p'; }
EOF
echo "upstream: $SRC; $ROUNDS rounds of $SECS s (shell tests $SHSECS s), exact"
upstream_guest_script "$W/pre.sh"
case " $TESTS " in *" shell"*) # upstream's scripts and data, as data
	for f in pgms/multi.sh pgms/tst.sh testdir/sort.src; do
		[ -f "$SRC/../$f" ] || {
			echo "upstream-unixbench: no $SRC/../$f (the shell tests need it)" >&2
			exit 2
		}
		echo "file /up/${f#*/} $SRC/../$f 0755 0 0"
	done >>"$W/extra.list"
	;;
esac
upstream_boot
upstream_table rate
