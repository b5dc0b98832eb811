#!/bin/sh
# Planning cost (issue 27, row 11): ./run-matrix.sh --dry-run of will-it-scale
# matrices of N cells (default: 60 and 1000; each N is 2 variants x 2 modes
# x nr_task values x tests), printing seconds and cells per second.
# usage: bench/plan-speed.sh [N...]   (N a multiple of 20)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/plan-speed.sh [N...]  (--dry-run of N-cell matrices; default 60 1000)"
	exit 0
	;;
esac
[ $# -gt 0 ] || set -- 60 1000
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
tests="page_fault1, page_fault2, page_fault3, mmap1, mmap2"
for n in "$@"; do
	case $n in '' | *[!0-9]*) echo "bench/plan-speed.sh: N must be a number, not '$n'" >&2; exit 2 ;; esac
	# 2 variants x 2 modes x 5 tests x K nr_task values = 20 K cells.
	k=$((n / 20))
	[ "$k" -ge 1 ] || k=1
	nt=$(seq 1 "$k" | paste -sd, - | sed 's/,/, /g')
	printf 'suite: will-it-scale\ntest: [%s]\nmode: [process, thread]\nnr_task: [%s]\nruntime: 5s\nvariants: [base, calibration]\n' \
		"$tests" "$nt" >"$W/m.yaml"
	t0=$(date +%s.%N)
	"$ROOT/run-matrix.sh" --dry-run -o "$W/res" "$W/m.yaml" >"$W/out" 2>&1 || {
		tail -n 3 "$W/out" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	cells=$(sed -n 's/^\([0-9]*\) cells,.*/\1/p' "$W/out")
	awk -v c="$cells" -v a="$t0" -v b="$t1" \
		'BEGIN { s = b - a; printf "%5d cells: %.1f s, %.2f cells/s\n", c, s, c / (s > 0 ? s : 1e-6) }'
done
