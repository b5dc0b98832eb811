#!/bin/sh
# What the kit's memcg series costs: will-it-scale page_fault3 in a memory
# cgroup, base against memcg (all five patches), RUNS boots each,
# interleaved, once with memcg_stats_batch=4 on the command line (patch 5's
# default, spelled out) and once with =64, which undoes patch 5 and leaves
# patch 4's flush at the old batch (base ignores the parameter).  Prints
# run-matrix's summary line of each comparison (change, 95% CI, Welch p).
# Builds base and memcg if they are not built yet.
# usage: bench/memcg-series.sh [RUNS [RUNTIME]]   (defaults: 5 10s)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/memcg-series.sh [RUNS [RUNTIME]]  (default 5 10s)"
	exit 0
	;;
esac
RUNS=${1:-5}
RUNTIME=${2:-10s}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-memcg.XXXXXX")
trap 'rm -rf "$W"' EXIT

for v in base memcg; do
	"$ROOT/build.sh" kernel "$v" >"$W/build-$v.log" 2>&1 || {
		tail -n 20 "$W/build-$v.log" >&2
		exit 1
	}
done
cat >"$W/m.yaml" <<M
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: $RUNTIME
variants: [base, memcg]
runs: $RUNS
board: qemu-2node
memcg: on
kernel_cmdline: [memcg_stats_batch=4, memcg_stats_batch=64]
M
"$ROOT/run-matrix.sh" -o "$W/results" "$W/m.yaml" >"$W/run.log" 2>&1 || {
	tail -n 30 "$W/run.log" >&2
	exit 1
}
echo "memcg-series: will-it-scale page_fault3, nr_task 100%, $RUNTIME, memcg: on, $RUNS runs per side"
awk '/^will-it-scale\// { cell = $0 }
	/^will-it-scale\.per_process_ops: / {
		print (cell ~ /memcg_stats_batch=64/ ? "memcg_stats_batch=64 (patches 1-4): " : "memcg_stats_batch=4 (whole series): ") $0
	}' "$W/results/report.txt"
