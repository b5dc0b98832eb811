#!/bin/sh
# The kit's autonuma-benchmark against upstream's numa01/numa02, side by
# side in one boot (docs/BENCHMARKS.md): upstream's preproc.awk turns
# numa01.c/numa02.c into numa01.prep.c/numa02.prep.c from a fixed
# `numactl --hardware` text for qemu-2node (as its start_bench.sh does from
# the machine's); SIZE (upstream: 3 GiB numa01, 1 GiB numa02, more than the
# 2 GiB guest) and the passes (upstream: 50, 1000, 800) are replaced by the
# values the kit is given (-s SIZE -l LOOPS); each build of upstream's
# Makefile is made static with musl at its -O2, bench/upstream/numaif.h
# standing in for libnuma.  The guest alternates kit and upstream ROUNDS
# times, on the base kernel, qemu-2node in exact mode; both are timed the
# same way (krepro-time's elapsed, 10 ms steps; upstream prints nothing).
# Each run is classed by the guest's /proc/vmstat around it: slow when NUMA
# balancing migrated a process's memory during it (numa01 and
# numa01_THREAD_ALLOC, kit and upstream alike, run in one of two modes by
# when the scan reaches the area), part when it moved some of it, else
# fast; its counts go to the console (VMSTAT lines).  Prints per test the mean seconds of each side,
# upstream/kit (the kit's rate over upstream's: above 1, the kit is faster),
# the rounds in which the kit took less time, and per mode each side's runs
# and mean seconds and upstream/kit paired by mode.
# usage: bench/upstream-autonuma.sh AUTONUMA_BENCHMARK_DIR [ROUNDS [SIZE [LOOPS [TEST...]]]]
#   (defaults: 3 rounds, 64M, 4 passes, the tests below; numa02_SMT_HARD_BIND
#   and numa02_SMT_INVERSE_BIND divide by zero upstream on two CPUs)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/upstream/boot.sh
. "$ROOT/bench/upstream/boot.sh"
case ${1:-} in '' | -h | --help)
	echo "usage: bench/upstream-autonuma.sh AUTONUMA_BENCHMARK_DIR [ROUNDS [SIZE [LOOPS [TEST...]]]]"
	exit 0
	;;
esac
SRC=$1
ROUNDS=${2:-3}
SIZE=${3:-64M}
LOOPS=${4:-4}
shift $(($# < 4 ? $# : 4))
TESTS=${*:-numa01 numa01_THREAD_ALLOC numa02 numa02_SMT numa01_HARD_BIND numa01_INVERSE_BIND numa01_THREAD_ALLOC_HARD_BIND numa01_THREAD_ALLOC_INVERSE_BIND numa02_HARD_BIND numa02_INVERSE_BIND}
if [ ! -f "$SRC/numa01.c" ] || [ ! -f "$SRC/preproc.awk" ]; then
	echo "upstream-autonuma: $SRC has no numa01.c/preproc.awk (an autonuma-benchmark checkout)" >&2
	exit 2
fi
upstream_whole upstream-autonuma "ROUNDS and LOOPS" "$ROUNDS" "$LOOPS"
BYTES=$(upstream_bytes "$SIZE") || { echo "upstream-autonuma: bad SIZE '$SIZE'" >&2 && exit 2; }
# upstream's start_bench.sh runs preproc.awk with gawk (mawk lacks its **)
command -v gawk >/dev/null || { echo "upstream-autonuma: needs gawk (Debian package gawk)" >&2 && exit 2; }
# upstream's Makefile: each build's source and -D flags
flags() {
	case $1 in
	numa01) echo "numa01 -DNO_BIND_FORCE_SAME_NODE" ;;
	numa01_THREAD_ALLOC) echo "numa01 -DNO_BIND_FORCE_SAME_NODE -DTHREAD_ALLOC" ;;
	numa01_HARD_BIND) echo "numa01 -DHARD_BIND" ;;
	numa01_INVERSE_BIND) echo "numa01 -DHARD_BIND -DINVERSE_BIND" ;;
	numa01_THREAD_ALLOC_HARD_BIND) echo "numa01 -DTHREAD_ALLOC -DHARD_BIND" ;;
	numa01_THREAD_ALLOC_INVERSE_BIND) echo "numa01 -DTHREAD_ALLOC -DHARD_BIND -DINVERSE_BIND" ;;
	numa02) echo "numa02" ;;
	numa02_HARD_BIND) echo "numa02 -DHARD_BIND" ;;
	numa02_INVERSE_BIND) echo "numa02 -DHARD_BIND -DINVERSE_BIND" ;;
	numa02_SMT) echo "numa02 -DSMT" ;;
	*) return 1 ;;
	esac
}
for t in $TESTS; do
	flags "$t" >/dev/null || {
		echo "upstream-autonuma: unknown test '$t'" >&2
		exit 2
	}
done
upstream_workdir upan
UAPI=$("$ROOT/build.sh" uapi | tail -n 1) # linux/mempolicy.h, which musl lacks
# what `numactl --hardware` prints on qemu-2node (bench/upstream/boot.sh)
cat >"$W/hardware.txt" <<EOF
available: 2 nodes (0-1)
node 0 cpus: 0
node 0 size: 1024 MB
node 0 free: 900 MB
node 1 cpus: 1
node 1 size: 1024 MB
node 1 free: 900 MB
node distances:
node   0   1
  0:  10  20
  1:  20  10
EOF
for f in numa01 numa02; do
	# preproc.awk reads its template from the current folder
	(cd "$SRC" && gawk -v file="$f.c" -f preproc.awk) <"$W/hardware.txt" |
		sed -e "s/^#define SIZE .*/#define SIZE (${BYTES}UL)/" \
			-e "s/^#define TOTALSIZE .*/#define TOTALSIZE (SIZE * ${LOOPS}UL)/" \
			-e "s/int nr = [0-9]*;/int nr = $LOOPS;/" >"$W/$f.prep.c"
	grep -q "^#define SIZE (${BYTES}UL)" "$W/$f.prep.c" || {
		echo "upstream-autonuma: SIZE not found in $f.c" >&2
		exit 1
	}
done
if [ "$(grep -c "int nr = $LOOPS;" "$W/numa01.prep.c")" != 2 ] || ! grep -q "TOTALSIZE (SIZE" "$W/numa02.prep.c"; then
	echo "upstream-autonuma: the passes were not found in numa01.c/numa02.c" >&2
	exit 1
fi
for t in $TESTS; do
	# shellcheck disable=SC2046 # the source's name and -D words
	set -- $(flags "$t")
	src=$1
	shift
	# upstream's flags (-O2 -pthread), static, the stand-in for libnuma
	musl-gcc -O2 -pthread "$@" -static -I"$ROOT/bench/upstream" -isystem "$UAPI" -include fcntl.h \
		-o "$W/up/$t" "$W/$src.prep.c" >"$W/up/$t.log" 2>&1 || {
		cat "$W/up/$t.log" >&2
		exit 1
	}
done
# both timed by krepro-time (upstream's numa01 creates ./lock: run in /tmp)
cat >"$W/pre.sh" <<EOF
cd /tmp
busybox grep MemTotal /proc/meminfo
secs() { busybox sed -n 's/.*m:ss): //p' /tmp/an.time | busybox awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + \$i; print s }'; }
vm() { busybox awk '\$1 == "numa_hint_faults" { h = \$2 } \$1 == "numa_pages_migrated" { m = \$2 } \$1 == "numa_pte_updates" { p = \$2 } END { print h + 0, m + 0, p + 0 }' /proc/vmstat; }
# mode SIDE TEST H0 M0 P0: the run's counts since H0 M0 P0 on the console, and
# its mode on stdout by the pages NUMA balancing migrated during it: fast
# under a huge page's 512, slow at least 15/16 of a process's 4 KiB pages (the
# whole area moved), part between (the move cut short by the run's end)
mode() {
	set -- "\$@" \$(vm)
	echo "VMSTAT \$2 \$1 hint_faults \$((\$6 - \$3)) pages_migrated \$((\$7 - \$4)) pte_updates \$((\$8 - \$5))" >&2
	if [ \$((\$7 - \$4)) -lt 512 ]; then echo fast
	elif [ \$((\$7 - \$4)) -ge $((BYTES * 15 / 65536)) ]; then echo slow
	else echo part; fi
}
kit() { b=\$(vm); krepro-time -o /tmp/an.time autonuma-benchmark -t \$1 -s $BYTES -l $LOOPS >/dev/null && echo "\$(secs) \$(mode kit \$1 \$b)"; }
up() { b=\$(vm); krepro-time -o /tmp/an.time /up/\$1 >/dev/null && echo "\$(secs) \$(mode up \$1 \$b)"; }
EOF
echo "upstream: $(git -C "$SRC" log --oneline -1 2>/dev/null || echo "$SRC"); $ROUNDS rounds, $SIZE ($BYTES bytes) a process, $LOOPS passes, exact"
upstream_guest_script "$W/pre.sh"
upstream_boot
tr -d '\r' <"$W/console.log" | grep '^MemTotal' || true
upstream_table seconds
