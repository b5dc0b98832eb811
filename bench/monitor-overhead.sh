#!/bin/sh
# Monitor overhead: boots the same already-built base kernel twice in one
# run, will-it-scale page_fault3 with every monitor on (meminfo ... sched_debug,
# perf-stat, perf-profile) and with none, and prints both per_process_ops and
# the loss ratio (off - on) / off.  The bar (issue 4) is at most 2% loss.
# usage: bench/monitor-overhead.sh [RUNTIME [NR_TASK [RUNS]]]
#        (defaults: 20s, 100%, 1 boot per side; with RUNS > 1 the sides
#        alternate and the per-side mean is used; KREPRO_MONITORS=a+b
#        measures that list instead of all monitors)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/monitor-overhead.sh [RUNTIME [NR_TASK [RUNS]]]  (default 20s 100% 1)"
	exit 0
	;;
esac
RUNTIME=${1:-20s}
NR_TASK=${2:-100%}
RUNS=${3:-1}
ALL=meminfo+proc-vmstat+numa-meminfo+numa-vmstat+vmstat+slabinfo+softirqs+interrupts+cpuidle+mpstat+uptime+sched_debug+perf-stat+perf-profile
# KREPRO_MONITORS: the "on" side's monitor list instead of all of them.
ALL=${KREPRO_MONITORS:-$ALL}

[ -f "$ROOT/out/kernels/base/bzImage" ] || {
	echo "monitor-overhead: no $ROOT/out/kernels/base/bzImage; build it first (./build.sh kernel base)" >&2
	exit 2
}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-monov.XXXXXX")
trap 'rm -rf "$W"' EXIT
# A private output directory holding a copy of the built base kernel and a
# fresh initramfs, packed as a bundle: run-matrix --bundle builds nothing
# (no kernel build even if the kit's kernel inputs moved on), and the
# shared out/ is left alone.
mkdir -p "$W/out/kernels"
cp -a "$ROOT/out/kernels/base" "$W/out/kernels/"
"$ROOT/build.sh" -O "$W/out" initramfs >"$W/initramfs.log" 2>&1 || {
	tail -n 20 "$W/initramfs.log" >&2
	exit 1
}
"$ROOT/build.sh" -O "$W/out" bundle -o "$W/bundle.tar" base >"$W/bundle.log" 2>&1 || {
	tail -n 20 "$W/bundle.log" >&2
	exit 1
}

# matrix NAME MONITORS
matrix() {
	cat >"$W/$1.yaml" <<M
suite: will-it-scale
test: page_fault3
mode: process
nr_task: $NR_TASK
runtime: $RUNTIME
variants: base
runs: 1
board: qemu-2node
monitors: $2
M
}
matrix on "$ALL"
matrix off none

# ops DIR: per_process_ops of the one run under DIR.
ops() {
	f=$(find "$1" -name stats.json -path '*/base/1/*' | head -n 1)
	[ -n "$f" ] || return 1
	sed -n 's/.*"will-it-scale.per_process_ops": *\([0-9.e+]*\).*/\1/p' "$f" | head -n 1
}

on_sum=0 off_sum=0 i=1
while [ "$i" -le "$RUNS" ]; do
	for side in on off; do
		if ! "$ROOT/run-matrix.sh" -O "$W/out" --bundle "$W/bundle.tar" -o "$W/res-$side-$i" \
			"$W/$side.yaml" \
			>"$W/$side-$i.log" 2>&1; then
			echo "monitor-overhead: the '$side' boot failed:" >&2
			tail -n 20 "$W/$side-$i.log" >&2
			exit 1
		fi
		v=$(ops "$W/res-$side-$i") || v=
		[ -n "$v" ] || {
			echo "monitor-overhead: no per_process_ops in the '$side' run" >&2
			exit 1
		}
		echo "run $i monitors $side: will-it-scale.per_process_ops $v"
		if [ "$side" = on ]; then
			on_sum=$(echo "$on_sum + $v" | bc -l)
		else
			off_sum=$(echo "$off_sum + $v" | bc -l)
		fi
	done
	i=$((i + 1))
done
on=$(echo "scale=1; $on_sum / $RUNS" | bc -l)
off=$(echo "scale=1; $off_sum / $RUNS" | bc -l)
echo "page_fault3 nr_task=$NR_TASK runtime=$RUNTIME, $RUNS boot(s) per side, same base kernel"
echo "monitors on: $ALL"
echo "per_process_ops, all monitors on:  $on"
echo "per_process_ops, monitors off:     $off"
echo "loss ratio (off - on) / off:       $(echo "scale=2; 100 * ($off - $on) / $off" | bc -l)%"
