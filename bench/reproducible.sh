#!/bin/sh
# Reproducibility: builds the kernel variants and the initramfs from scratch
# in fresh directories with ccache off (so no cached object can hide a path
# dependency) and compares sha256 per artifact.
# usage: bench/reproducible.sh [--against OUTDIR] [VARIANT...]
#   --against OUTDIR  compare with an existing build (e.g. ./out) instead of
#                     building twice
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AGAINST=
case ${1:-} in
-h | --help)
	sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
--against)
	AGAINST=$(cd "$2" && pwd)
	shift 2
	;;
esac
[ $# -gt 0 ] || set -- base
deb=$(find "$ROOT/cache/downloads" -maxdepth 1 -name 'linux-source-*.deb' 2>/dev/null | head -n 1)
[ -n "$deb" ] && export KREPRO_REFERENCE_DEB="$deb"
export CCACHE_DISABLE=1
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-repro.XXXXXX")
trap 'rm -rf "$W"' EXIT

build_in() { # dir variants...
	d=$1
	shift
	for v in "$@"; do "$ROOT/build.sh" -C "$d/cache" -O "$d/out" kernel "$v" >/dev/null; done
	"$ROOT/build.sh" -C "$d/cache" -O "$d/out" initramfs >/dev/null
}
build_in "$W/a" "$@"
if [ -n "$AGAINST" ]; then
	B=$AGAINST
else
	build_in "$W/b" "$@"
	B=$W/b/out
fi
bad=0
for f in initramfs.cpio.gz $(for v in "$@"; do echo "kernels/$v/bzImage"; done); do
	a=$(sha256sum "$W/a/out/$f" | cut -d' ' -f1)
	b=$(sha256sum "$B/$f" | cut -d' ' -f1)
	if [ "$a" = "$b" ]; then echo "identical  $a  $f"; else
		echo "DIFFERENT  $a  $b  $f"
		bad=1
	fi
done
exit $bad
