#!/bin/sh
# Exact mode against real mode, side by side in one run (docs/EXACT.md):
#   1. A/A: the default cell (page_fault3, 2 tasks), seed 1 booted 3 times
#      in exact mode: per_process_ops of each boot (the same digits).
#   2. Wall time of the default matrix (base vs calibration: 3 runs each in
#      real mode, 8 seeds each in exact mode): real, exact at -j 1 and
#      exact at -j 2, with their ratios.
#   3. The smallest change detected: calibration's fault_work_loops knob
#      (2 instructions per loop per fault; its delay off) at 0 and at
#      growing N, 5 seeds a side in exact mode and 3 runs a side in real
#      mode (detected: Welch p < 0.01 and |change| >= 0.5% exact, 1% real).
# usage: bench/exact.sh [RUNTIME]   (default 10s; kernels are built if needed)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/exact.sh [RUNTIME]   (default 10s)"
	exit 0
	;;
esac
RT=${1:-10s}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-exact.XXXXXX")
trap 'rm -rf "$W"' EXIT
RM="$ROOT/run-matrix.sh"
"$ROOT/build.sh" all base calibration >"$W/build.log" 2>&1 || {
	tail -n 20 "$W/build.log" >&2
	exit 1
}
ops() { sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.]*\).*/\1/p' "$1/stats.json"; }
secs() { # results dir, then run-matrix's arguments: wall seconds
	s0=$(date +%s)
	d=$1
	shift
	"$RM" -o "$d" "$@" >"$d.log" 2>&1 || { tail -n 20 "$d.log" >&2; exit 1; }
	echo $(($(date +%s) - s0))
}

echo "== 1. exact A/A: the default cell, seed 1 booted 3 times"
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 100%%\nruntime: %s\nvariants: [base]\nruns: 1\nclock: exact\n' "$RT" >"$W/aa.yaml"
for a in 1 2 3; do
	secs "$W/aa$a" "$W/aa.yaml" >/dev/null
done
printf 'per_process_ops:'
for a in 1 2 3; do printf ' %s' "$(ops "$(find "$W/aa$a" -type d -name base)/1")"; done
echo

echo "== 2. wall time of the default matrix"
"$RM" --print-default-matrix | sed "s/^runtime: .*/runtime: $RT/" >"$W/default.yaml"
real=$(secs "$W/real" "$W/default.yaml")
ex1=$(secs "$W/ex1" --clock exact "$W/default.yaml")
ex2=$(secs "$W/ex2" --clock exact -j 2 "$W/default.yaml")
echo "real ${real}s, exact -j 1 ${ex1}s, exact -j 2 ${ex2}s"
awk -v r="$real" -v a="$ex1" -v b="$ex2" 'BEGIN { printf "exact/real %.2f, exact -j2/-j1 %.2f\n", a / r, b / a }'
for m in ex1 ex2; do
	for v in base calibration; do
		d=$(find "$W/$m" -type d -name "$v")
		printf '%s %s: %s %s %s\n' "$m" "$v" "$(ops "$d/1")" "$(ops "$d/2")" "$(ops "$d/3")"
	done
done
sed -n '/^summary/,/^$/p' "$W/ex1/report.txt"

echo "== 3. smallest change detected (fault_work_loops=N, 1 task)"
LOOPS="0 2 4 8 12 24 60 300"
kc=
for n in $LOOPS; do kc="${kc:+$kc, }fault_delay_ns=0+fault_work_loops=$n"; done
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: %s\nvariants: [calibration]\nkernel_cmdline: [%s]\n' "$RT" "$kc" >"$W/knob.yaml"
{ cat "$W/knob.yaml"; echo "clock: exact"; echo "runs: 5"; } >"$W/knob-exact.yaml"
{ sed 's/^kernel_cmdline: .*/kernel_cmdline: [fault_delay_ns=0+fault_work_loops=0, fault_delay_ns=0+fault_work_loops=12, fault_delay_ns=0+fault_work_loops=60, fault_delay_ns=0+fault_work_loops=300]/' "$W/knob.yaml"; echo "runs: 3"; } >"$W/knob-real.yaml"
secs "$W/ke" -j 2 "$W/knob-exact.yaml" >/dev/null
secs "$W/kr" "$W/knob-real.yaml" >/dev/null
kd() { find "$1" -type d -path "*fault_work_loops=$2-*/calibration" | head -n 1; }
for mode in ke kr; do
	for n in $LOOPS; do
		[ "$n" != 0 ] || continue
		[ -n "$(kd "$W/$mode" "$n")" ] || continue
		line=$("$ROOT/out/host/krepro-compare" --alpha 0.01 --verdict will-it-scale.per_process_ops \
			"$(kd "$W/$mode" 0)" "$(kd "$W/$mode" "$n")" || true)
		printf '%s N=%-4s %s\n' "$( [ $mode = ke ] && echo exact || echo real)" "$n" "$line"
	done
done
