#!/bin/sh
# Monitor overhead: will-it-scale page_fault3 on the already-built base
# kernel, with every monitor on (meminfo ... sched_debug, perf-stat,
# perf-profile) and with none, in ONE boot: the guest alternates rounds
# (off, on, off, on, ...; job key monitor_ab), so the same kernel in the
# same boot is measured both ways and boot-to-boot noise stays out of the
# ratio.  Prints per_process_ops of every round, the per-side means and the
# loss ratio (off - on) / off.  The bar (issue 4) is at most 2% loss.
# usage: bench/monitor-overhead.sh [RUNTIME [NR_TASK [ROUNDS]]]
#        (defaults: 20s, 100%, 3 rounds per side; KREPRO_MONITORS=a+b
#        measures that list instead of all monitors)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/monitor-overhead.sh [RUNTIME [NR_TASK [ROUNDS]]]  (default 20s 100% 3)"
	exit 0
	;;
esac
RUNTIME=${1:-20s}
NR_TASK=${2:-100%}
ROUNDS=${3:-3}
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

rt=$(echo "$RUNTIME" | sed 's/s$//')
cat >"$W/ab.yaml" <<M
suite: will-it-scale
test: page_fault3
mode: process
nr_task: $NR_TASK
runtime: $RUNTIME
variants: base
runs: 1
board: qemu-2node
monitors: $ALL
monitor_ab: $ROUNDS
timeout: $((2 * ROUNDS * (rt + 5) + 120))s
M
if ! "$ROOT/run-matrix.sh" -O "$W/out" --bundle "$W/bundle.tar" -o "$W/res" "$W/ab.yaml" \
	>"$W/ab.log" 2>&1; then
	echo "monitor-overhead: the boot failed:" >&2
	tail -n 20 "$W/ab.log" >&2
	exit 1
fi
RUN=$(find "$W/res" -path '*/base/1' -type d | head -n 1)

# ops SIDE ROUND: per_process_ops of one round, by the kit's own parser.
ops() {
	rm -rf "$W/round"
	mkdir "$W/round"
	cp "$RUN/ab-$1-$2.will-it-scale" "$W/round/will-it-scale"
	"$ROOT/out/host/krepro-stats" run "$W/round" >/dev/null
	sed -n 's/.*"will-it-scale.per_process_ops": *\([0-9.e+]*\).*/\1/p' "$W/round/stats.json"
}

on_sum=0 off_sum=0 i=1
while [ "$i" -le "$ROUNDS" ]; do
	for side in off on; do
		v=$(ops "$side" "$i")
		[ -n "$v" ] || {
			echo "monitor-overhead: no per_process_ops in round $i ($side)" >&2
			exit 1
		}
		echo "round $i monitors $side: will-it-scale.per_process_ops $v"
		if [ "$side" = on ]; then
			on_sum=$(echo "$on_sum + $v" | bc -l)
		else
			off_sum=$(echo "$off_sum + $v" | bc -l)
		fi
	done
	i=$((i + 1))
done
on=$(echo "scale=1; $on_sum / $ROUNDS" | bc -l)
off=$(echo "scale=1; $off_sum / $ROUNDS" | bc -l)
echo "page_fault3 nr_task=$NR_TASK runtime=$RUNTIME, one boot, $ROUNDS rounds per side (off, on, ...), base kernel"
echo "monitors on: $ALL"
echo "per_process_ops, all monitors on:  $on"
echo "per_process_ops, monitors off:     $off"
echo "loss ratio (off - on) / off:       $(echo "scale=2; 100 * ($off - $on) / $off" | bc -l)%"
