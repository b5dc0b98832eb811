#!/bin/sh
# The pinned root's cost (issue 47, docs/REPRODUCIBLE.md), side by side in
# one run:
#   1. first use: making the root of the committed lock's packages into a
#      fresh cache from .debs already checked (the shared .deb cache given
#      as --debs: no download), and its reuse;
#   2. a warm kernel build (base into a fresh output folder: the shared
#      work tree and ccache warm) in the root and with the host's tools
#      (KREPRO_BUILD_ROOT=host), alternated, ROUNDS times each;
#   3. the initramfs into a fresh output folder, the same way;
#   4. whether both give the same bytes.
# Prints each time, the medians and root/host ratios.
# usage: bench/root.sh [ROUNDS]   (default 3)
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
N=${1:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-rootbench.XXXXXX")
trap 'rm -rf --one-file-system "$W"' EXIT
B="$ROOT/build.sh"
ms() { echo $(($(date +%s%N) / 1000000)); }
# run LABEL COMMAND...: the command's wall milliseconds, its output kept
run() {
	l=$1
	shift
	t0=$(ms)
	"$@" >"$W/$l.log" 2>&1 || {
		tail -n 20 "$W/$l.log" >&2
		echo "$l: failed" >&2
		exit 1
	}
	echo $(($(ms) - t0))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$B" root >/dev/null 2>"$W/root0.log" || {
	cat "$W/root0.log" >&2
	exit 1
}
"$B" kernel base >/dev/null 2>&1
"$B" initramfs >/dev/null 2>&1
DEBS="$ROOT/cache/roots/debs"
# the committed lock and a comment: the same packages, another id, so a
# root of its own is made (a lock's root is shared by every cache)
{ cat "$ROOT/root/bookworm.lock"; echo "# bench/root.sh"; } >"$W/bench.lock"
first=$(run first env KREPRO_CACHE="$W/cache" KREPRO_ROOT_LOCK="$W/bench.lock" "$B" root --debs "$DEBS")
again=$(run again env KREPRO_CACHE="$W/cache" KREPRO_ROOT_LOCK="$W/bench.lock" "$B" root)
echo "first use of the root (.debs checked, mmdebstrap): $((first / 1000)) s; reuse: $again ms; $(du -sm "$W/cache/roots" | cut -f1) MB"
rm -rf --one-file-system "$W/cache"

: >"$W/k.root"
: >"$W/k.host"
: >"$W/i.root"
: >"$W/i.host"
i=1
while [ "$i" -le "$N" ]; do
	for m in root host; do
		bm=pinned
		[ "$m" = root ] || bm=host
		run "k$m$i" env KREPRO_BUILD_ROOT=$bm "$B" -O "$W/k$m$i" kernel base >>"$W/k.$m"
		run "i$m$i" env KREPRO_BUILD_ROOT=$bm "$B" -O "$W/i$m$i" initramfs >>"$W/i.$m"
	done
	printf 'round %d: kernel root %s ms, host %s ms; initramfs root %s ms, host %s ms\n' "$i" \
		"$(tail -n 1 "$W/k.root")" "$(tail -n 1 "$W/k.host")" "$(tail -n 1 "$W/i.root")" "$(tail -n 1 "$W/i.host")"
	i=$((i + 1))
done
kr=$(median <"$W/k.root") kh=$(median <"$W/k.host") ir=$(median <"$W/i.root") ih=$(median <"$W/i.host")
awk -v kr="$kr" -v kh="$kh" -v ir="$ir" -v ih="$ih" 'BEGIN {
	printf "warm kernel build (base, median): root %.1f s, host %.1f s, root/host %.3f\n", kr / 1000, kh / 1000, kr / kh
	printf "initramfs (median): root %.1f s, host %.1f s, root/host %.3f\n", ir / 1000, ih / 1000, ir / ih }'
same=yes
cmp -s "$W/kroot1/kernels/base/bzImage" "$W/khost1/kernels/base/bzImage" || same=no
cmp -s "$W/iroot1/initramfs.cpio.gz" "$W/ihost1/initramfs.cpio.gz" || same=no
echo "same bytes in the root and on the host: $same (bzImage $(sha256sum "$W/kroot1/kernels/base/bzImage" | cut -c1-16), initramfs $(sha256sum "$W/iroot1/initramfs.cpio.gz" | cut -c1-16))"
