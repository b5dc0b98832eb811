#!/bin/sh
# The memory model's cost (docs/MEMORY-MODEL.md, "Cost"): one exact cell
# (will-it-scale page_fault3, 2 tasks on the default board, base), booted
# one at a time, side by side with the same images:
#   plain    memory_model: off
#   closed   the plugin loaded, its window never opening (every block and
#            memory callback registered, each returning at once)
#   lookup   the window open around the benchmark, each access's physical
#            address found (the vCPU's translation record, else QEMU),
#            nothing modelled
#   full     memory_model: on, the whole model
#   check    the whole model with QEMU asked for every access's address
#            as well (what the model cost before the translation record)
# Prints each boot's wall time, its ratio to plain, what each part adds,
# and checks that the benchmark's own result is the same in all five and
# that check's model report is full's, byte for byte (the record is
# exact on this cell).  The parts come from the plugin's
# KREPRO_MODEL_STAGE (closed, lookup, check); closed and lookup write no
# report: such a run never carries model metrics.
# usage: bench/model-cost.sh [RUNTIME [REPEATS]]   (default 10s, 1)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/model-cost.sh [RUNTIME [REPEATS]]   (default 10s, 1)"
	exit 0
	;;
esac
RT=${1:-10s}
REP=${2:-1}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-model-cost.XXXXXX")
trap 'rm -rf "$W"' EXIT
# run-matrix builds what the cell needs (kernel, initramfs, plugin): a
# first boot outside the timing leaves nothing to build in the others.
cell() { # memory_model value
	printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 100%%\nruntime: %s\n' "$RT"
	printf 'variants: [base]\nruns: 1\nclock: exact\nmemory_model: %s\n' "$1"
}
cell off >"$W/off.yaml"
cell on >"$W/on.yaml"
# boot PART: one run-matrix of the cell; prints its wall seconds
boot() {
	d=$W/$1.$r
	y=$W/on.yaml
	st=full
	case $1 in plain) y=$W/off.yaml ;; closed | lookup | check) st=$1 ;; esac
	t0=$(date +%s.%N)
	KREPRO_MODEL_STAGE=$st "$ROOT/run-matrix.sh" -o "$d" "$y" >"$d.log" 2>&1 || {
		tail -n 20 "$d.log" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	run=$(find "$d" -name stats.json -path '*/base/1/*' | head -n 1)
	ops=$(sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.e+]*\).*/\1/p' "$run")
	echo "$1 $t0 $t1 $ops $(cut -d' ' -f1 /proc/loadavg)" >>"$W/times"
	[ "$r" = 0 ] || awk -v p="$1" -v a="$t0" -v b="$t1" 'BEGIN { printf "# %s %.1fs\n", p, b - a }' </dev/null
}
r=0
boot plain
rm -f "$W/times"
r=1
while [ "$r" -le "$REP" ]; do
	for p in plain closed lookup full check; do boot "$p"; done
	r=$((r + 1))
done
awk '{ t[$1] += $3 - $2; n[$1]++; ops[$1] = ops[$1] " " $4; load[$1] = load[$1] " " $5 }
END {
	printf "%-8s %9s %7s %9s  %s\n", "part", "seconds", "ratio", "adds", "per_process_ops (load)"
	prev = ""
	split("plain closed lookup full check", o, " ")
	for (i = 1; i <= 5; i++) {
		p = o[i]; s = t[p] / n[p]
		printf "%-8s %9.1f %6.2fx %+8.1fs  %s (%s)\n", p, s, s / (t["plain"] / n["plain"]),
			(i > 1 ? s - t[prev] / n[prev] : 0), ops[p], load[p]
		if (p == "check")
			printf "(check adds to full what asking QEMU for every address costs)\n"
		prev = p
	}
}' "$W/times"
first=$(awk 'NR == 1 { print $4 }' "$W/times")
if awk -v f="$first" '$4 != f { bad = 1 } END { exit bad }' "$W/times"; then
	echo "the benchmark's result: identical in every boot ($first)"
else
	echo "the benchmark's result DIFFERS between boots" >&2
	exit 1
fi
f=$(find "$W/full.1" -name memory-model -path '*/base/1/*' | head -n 1)
c=$(find "$W/check.1" -name memory-model -path '*/base/1/*' | head -n 1)
if [ -n "$f" ] && [ -n "$c" ] && cmp -s "$f" "$c"; then
	echo "the model's report: check's is full's, byte for byte (the translation record is exact here)"
else
	echo "the model's report DIFFERS between full and check" >&2
	exit 1
fi
