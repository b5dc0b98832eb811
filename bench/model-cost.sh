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
# With --before REV: the plugin of revision REV against this tree's, both
# built here with the same compiler and booted in turn (plain, before,
# after, REPEATS times): the wall time of each, after's ratio to before,
# the benchmark's result the same in all, and two after boots' model
# reports byte for byte the same (REPEATS 2 or more).
# usage: bench/model-cost.sh [--before REV] [RUNTIME [REPEATS]]   (default 10s, 1)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BEFORE=
case ${1:-} in
-h | --help)
	echo "usage: bench/model-cost.sh [--before REV] [RUNTIME [REPEATS]]   (default 10s, 1)"
	exit 0
	;;
--before)
	BEFORE=${2:?--before needs a revision}
	shift 2
	;;
esac
RT=${1:-10s}
REP=${2:-1}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-model-cost.XXXXXX")
trap 'rm -rf "$W"' EXIT
if [ -n "$BEFORE" ]; then
	# the header ./build.sh model-plugin verified; both plugins from it
	"$ROOT/build.sh" model-plugin >/dev/null
	INC=$(dirname "$(find "$ROOT/cache/qemu-plugin" -name qemu-plugin.h | head -n 1)")
	for side in before after; do
		mkdir -p "$W/$side"
		if [ "$side" = before ]; then
			git -C "$ROOT" archive "$BEFORE" | tar -x -C "$W/$side"
		else
			(cd "$ROOT" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -x -C "$W/$side"
		fi
		make -s -C "$W/$side" OUT="$W/$side/out" QEMU_PLUGIN_INC="$INC" "$W/$side/out/qemu-plugin/krepro-model.so"
	done
fi
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
	so=
	case $1 in plain) y=$W/off.yaml ;; closed | lookup | check) st=$1 ;; before | after) so=$W/$1/out/qemu-plugin/krepro-model.so ;; esac
	t0=$(date +%s.%N)
	# the CPU time of run-matrix and all it waited for (QEMU): what a
	# loaded host moves less than the wall time
	if ! (KREPRO_MODEL_STAGE=$st KREPRO_MODEL_PLUGIN=$so "$ROOT/run-matrix.sh" -o "$d" "$y" >"$d.log" 2>&1 && times >"$d.cpu"); then
		tail -n 20 "$d.log" >&2
		exit 1
	fi
	t1=$(date +%s.%N)
	cpu=$(awk 'function s(x, a) { split(x, a, "m"); return a[1] * 60 + a[2] } NR == 2 { printf "%.1f\n", s($1) + s($2) }' "$d.cpu")
	run=$(find "$d" -name stats.json -path '*/base/1/*' | head -n 1)
	ops=$(sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.e+]*\).*/\1/p' "$run")
	echo "$1 $t0 $t1 $ops $(cut -d' ' -f1 /proc/loadavg) $cpu" >>"$W/times"
	[ "$r" = 0 ] || awk -v p="$1" -v a="$t0" -v b="$t1" 'BEGIN { printf "# %s %.1fs\n", p, b - a }' </dev/null
}
# same_result: the benchmark's result is the same in every timed boot
same_result() {
	first=$(awk 'NR == 1 { print $4 }' "$W/times")
	if awk -v f="$first" '$4 != f { bad = 1 } END { exit bad }' "$W/times"; then
		echo "the benchmark's result: identical in every boot ($first)"
	else
		echo "the benchmark's result DIFFERS between boots" >&2
		exit 1
	fi
}
# same_report A B WHAT: boot folders A's and B's model reports, byte for byte
same_report() {
	a=$(find "$W/$1" -name memory-model -path '*/base/1/*' | head -n 1)
	b=$(find "$W/$2" -name memory-model -path '*/base/1/*' | head -n 1)
	if [ -n "$a" ] && [ -n "$b" ] && cmp -s "$a" "$b"; then
		echo "the model's report: $3, byte for byte the same"
	else
		echo "the model's report DIFFERS: $3" >&2
		exit 1
	fi
}
r=0
boot plain
rm -f "$W/times"
r=1
while [ "$r" -le "$REP" ]; do
	if [ -n "$BEFORE" ]; then
		for p in plain before after; do boot "$p"; done
	else
		for p in plain closed lookup full check; do boot "$p"; done
	fi
	r=$((r + 1))
done
if [ -n "$BEFORE" ]; then
	awk -v rev="$BEFORE" '{ t[$1] += $3 - $2; c[$1] += $6; n[$1]++; ops[$1] = ops[$1] " " $4; load[$1] = load[$1] " " $5 }
	END {
		printf "%-8s %9s %7s %9s %7s  %s\n", "part", "wall s", "ratio", "CPU s", "ratio", "per_process_ops (load)"
		split("plain before after", o, " ")
		for (i = 1; i <= 3; i++) {
			p = o[i]; s = t[p] / n[p]; u = c[p] / n[p]
			printf "%-8s %9.1f %6.2fx %9.1f %6.2fx  %s (%s)\n", p, s, s / (t["plain"] / n["plain"]),
				u, u / (c["plain"] / n["plain"]), ops[p], load[p]
		}
		printf "the model after against before (%s): wall %.3fx, CPU %.3fx\n", rev,
			(t["after"] / n["after"]) / (t["before"] / n["before"]), c["after"] / c["before"]
	}' "$W/times"
	same_result
	[ "$REP" -lt 2 ] || same_report after.1 after.2 "two boots of after"
	exit 0
fi
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
same_result
same_report full.1 check.1 "check's and full's (the translation record is exact here)"
