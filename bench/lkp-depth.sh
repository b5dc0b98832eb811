#!/bin/sh
# krepro-lkpjob on lkp-tests job files with deep flow nesting ([[[...]]])
# of 20k, 80k and 200k levels (under the 1 MiB cap; issue 27, row 9):
# prints the seconds and the input rate of each, which stay flat when the
# reading is linear in its depth (they grew as its square before).
# usage: bench/lkp-depth.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/lkp-depth.sh   (krepro-lkpjob on 20k, 80k, 200k nesting levels)"
	exit 0
	;;
esac
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
H=$("$ROOT/build.sh" tools | tail -n 1)
"$ROOT/run-matrix.sh" --keys >"$W/keys"
for n in 20000 80000 200000; do
	{
		echo "testcase: will-it-scale"
		printf 'x: '
		head -c "$n" /dev/zero | tr '\0' '['
		head -c "$n" /dev/zero | tr '\0' ']'
		echo
	} >"$W/deep.yaml"
	t0=$(date +%s.%N)
	"$H/krepro-lkpjob" --keys "$W/keys" "$W/deep.yaml" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	awk -v n="$n" -v a="$t0" -v b="$t1" -v sz="$(wc -c <"$W/deep.yaml")" \
		'BEGIN { s = b - a; printf "%7d levels: %.3f s, %.1f MB/s\n", n, s, sz / (s > 0 ? s : 1e-6) / 1e6 }'
done
