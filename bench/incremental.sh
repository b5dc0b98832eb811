#!/bin/sh
# Variant builds in the shared work tree: a build from an empty work tree
# (every object from ccache) against the next variant's build in the same
# tree (make recompiles what its patches changed), side by side.
# usage: bench/incremental.sh [FIRST [SECOND]]   (default: base calibration)
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
A=${1:-base} B=${2:-calibration}
O=$(mktemp -d "${TMPDIR:-/tmp}/krepro-inc.XXXXXX")
trap 'rm -rf "$O"' EXIT
rm -rf "$ROOT"/cache/variants/*/work
t0=$(date +%s)
"$ROOT/build.sh" -O "$O" kernel "$A" >/dev/null
t1=$(date +%s)
"$ROOT/build.sh" -O "$O" kernel "$B" >/dev/null
t2=$(date +%s)
echo "$A, empty work tree (ccache): $((t1 - t0)) s"
echo "$B, same work tree after $A: $((t2 - t1)) s"
echo "ratio: $(awk -v a=$((t1 - t0)) -v b=$((t2 - t1)) 'BEGIN { printf "%.2f", b / (a ? a : 1) }')"
for v in "$A" "$B"; do
	if [ -f "$ROOT/out/kernels/$v/bzImage" ]; then
		if cmp -s "$O/kernels/$v/bzImage" "$ROOT/out/kernels/$v/bzImage"; then
			echo "$v: identical to out/kernels/$v"
		else
			echo "$v: DIFFERENT from out/kernels/$v"
			exit 1
		fi
	fi
done
