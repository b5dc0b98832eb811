#!/bin/sh
# Measures, side by side in one run: cold build of one kernel variant (empty
# ccache, fresh cache dir), build of a second variant right after it,
# boot-to-init time under QEMU and the initramfs size.
# usage: bench/skeleton.sh [VARIANT2]   (default VARIANT2: calibration)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	echo "usage: bench/skeleton.sh [VARIANT2]  (cold base build, then VARIANT2, boot, size)"
	exit 0
	;;
esac
V2=${1:-calibration}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
# Reuse an already downloaded reference package; it is checked by sha256.
deb=$(find "$ROOT/cache/downloads" -maxdepth 1 -name 'linux-source-*.deb' 2>/dev/null | head -n 1)
[ -n "$deb" ] && export KREPRO_REFERENCE_DEB="$deb"
export CCACHE_DIR="$W/ccache"
B="$ROOT/build.sh -C $W/cache -O $W/out"

t0=$(date +%s)
$B reference >/dev/null
t1=$(date +%s)
$B kernel base >/dev/null
t2=$(date +%s)
$B kernel "$V2" >/dev/null
t3=$(date +%s)
$B kernel "$V2" >/dev/null
t4=$(date +%s)
img=$($B initramfs | tail -n 1)

cat >"$W/m.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 6s
variants: base
runs: 1
board: qemu-2node
M
"$ROOT/run-matrix.sh" -C "$W/cache" -O "$W/out" -o "$W/res" "$W/m.yaml" >/dev/null 2>&1 || true
con=$(find "$W/res" -name console.log | head -n 1)
init=$(sed -n 's/.*krepro: init reached at \([0-9.]*\) s.*/\1/p' "$con" | head -n 1)

cold=$((t2 - t1))
second=$((t3 - t2))
echo "reference download+unpack:  $((t1 - t0)) s"
echo "cold build (base):           $cold s"
echo "second variant ($V2):   $second s"
echo "second / cold ratio:         $(echo "scale=3; $second / $cold" | bc)"
echo "unchanged rebuild (no-op):   $((t4 - t3)) s"
echo "boot to init (guest uptime): ${init:-?} s"
echo "initramfs size:              $(wc -c <"$img") bytes (gzip)"
