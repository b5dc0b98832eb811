#!/bin/sh
# Processes a matrix run starts (issue 48, the run table), this tree
# against revision REV side by side, counted exactly: each command runs
# alone in a PID namespace (unshare, as root), whose last PID is the
# number of processes it made.
#   plan   ./run-matrix.sh --dry-run of a will-it-scale matrix of N cells
#          (default 1000: 2 variants x 2 modes x 5 tests x N/20 nr_task)
#   run    ./run-matrix.sh of 2 exact cells x 2 seeds (4 boots of 1 s;
#          the images built already), divided by its runs; the boots'
#          own processes (QEMU, the receiver, the parsers) are the same
#          on both sides
# REV's tree is unpacked beside and shares this tree's out/ and cache/
# (its files dated 2000: nothing is rebuilt; its scripts run this tree's
# tools and images).
# usage: bench/run-processes.sh [--before REV] [N]   (default REV HEAD~1)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REV=HEAD~1
case ${1:-} in
-h | --help)
	echo "usage: bench/run-processes.sh [--before REV] [N]   (default HEAD~1, 1000 cells)"
	exit 0
	;;
--before)
	REV=${2:?--before needs a revision}
	shift 2
	;;
esac
N=${1:-1000}
case $N in '' | *[!0-9]*) echo "bench/run-processes.sh: N must be a number, not '$N'" >&2 && exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "bench/run-processes.sh: counts processes in a PID namespace: run it as root" >&2 && exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-procs.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/before"
git -C "$ROOT" archive "$REV" | tar -x -C "$W/before"
# older than every file of out/: make rebuilds nothing with REV's sources
find "$W/before" -exec touch -h -d 2000-01-01 {} +
k=$((N / 20))
[ "$k" -ge 1 ] || k=1
printf 'suite: will-it-scale\ntest: [page_fault1, page_fault2, page_fault3, mmap1, mmap2]\nmode: [process, thread]\nnr_task: [%s]\nruntime: 5s\nvariants: [base, calibration]\n' \
	"$(seq 1 "$k" | paste -sd, - | sed 's/,/, /g')" >"$W/plan.yaml"
printf 'suite: will-it-scale\ntest: [page_fault3, mmap1]\nmode: process\nnr_task: 2\nruntime: 1s\nwarmup: 0\nvariants: base\nclock: exact\nseeds: 1-2\n' >"$W/run.yaml"
# count KIT NAME ARGS...: processes and seconds of KIT's run-matrix ARGS
count() {
	kit=$1 name=$2
	shift 2
	t0=$(date +%s.%N)
	KREPRO_OUT=$ROOT/out KREPRO_CACHE=$ROOT/cache unshare --pid --fork --mount-proc \
		sh -c '"$@" >/dev/null 2>&1 || exit 1; cat /proc/sys/kernel/ns_last_pid' sh "$kit/run-matrix.sh" "$@" >"$W/$name.pids" || {
		echo "bench/run-processes.sh: $kit/run-matrix.sh $* failed" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	# PID 1 is the sh, the last one its cat
	echo "$name $(($(cat "$W/$name.pids") - 2)) $t0 $t1" >>"$W/counts"
}
# the runs' images first, outside the count
"$ROOT/run-matrix.sh" -o "$W/warm" "$W/run.yaml" >/dev/null 2>&1
for side in before after; do
	kit=$ROOT
	[ "$side" = after ] || kit=$W/before
	count "$kit" "plan.$side" --dry-run -o "$W/res.$side" "$W/plan.yaml"
	count "$kit" "run.$side" -o "$W/run.$side" "$W/run.yaml"
done
cells=$((20 * k))
awk -v cells="$cells" -v rev="$REV" '{ p[$1] = $2; s[$1] = $4 - $3 }
END {
	printf "%-34s %12s %12s\n", "", "before", "after"
	printf "%-34s %12s %12s\n", "", rev, "this tree"
	printf "%-34s %12d %12d\n", "plan " cells " cells: processes", p["plan.before"], p["plan.after"]
	printf "%-34s %12.2f %12.2f\n", "plan " cells " cells: seconds", s["plan.before"], s["plan.after"]
	printf "%-34s %12.1f %12.1f\n", "4 exact boots: processes a run", p["run.before"] / 4, p["run.after"] / 4
	printf "%-34s %12.1f %12.1f\n", "4 exact boots: seconds a run", s["run.before"] / 4, s["run.after"] / 4
}' "$W/counts"
# the same digits on both sides
for side in before after; do
	grep -rho '"will-it-scale.per_process_ops": [0-9.e+]*' "$W/run.$side" --include=stats.json | sort >"$W/ops.$side"
done
# the guest's input first: a REV whose scripts write another job.conf (a
# line more or less, a size in another form) boots other input, whose
# digits are another run's (docs/EXACT.md)
jb=$(find "$W/run.before" -name job.conf | sort | head -n 1)
ja=$(find "$W/run.after" -name job.conf | sort | head -n 1)
if [ -n "$jb" ] && [ -n "$ja" ] && ! cmp -s "$jb" "$ja"; then
	echo "the runs' job.conf differ ($REV writes another guest input: the digits are not compared):"
	diff "$jb" "$ja" | grep '^[<>]' | head -n 6
elif cmp -s "$W/ops.before" "$W/ops.after" && [ -s "$W/ops.after" ]; then
	echo "the runs' results: identical on both sides ($(tr '\n' ' ' <"$W/ops.after"))"
else
	echo "the runs' results DIFFER between the two sides" >&2
	exit 1
fi
