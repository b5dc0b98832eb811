#!/bin/sh
# Reproducibility: builds the kernel variants and the initramfs from scratch
# in fresh directories with ccache off (so no cached object can hide a path
# dependency) and compares sha256 per artifact.
# usage: bench/reproducible.sh [--against OUTDIR] [VARIANT...]
#   --against OUTDIR  compare with an existing build (e.g. ./out) instead of
#                     building twice
#        bench/reproducible.sh --awks
#   the initramfs built with mawk, gawk and busybox awk as the host's awk
#   (issue 47: it depended on which awk the host had), side by side
#        bench/reproducible.sh --host-suite SUITE   (trixie: Debian 13)
#   another Debian as the host: a root of SUITE with the kit's host
#   packages made with mmdebstrap, the kit run inside it (bubblewrap):
#   the initramfs, base's bzImage and the default exact cell's digits
#   (page_fault3, 5 s, seed 1) there and on this host, side by side
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AGAINST=
case ${1:-} in
-h | --help)
	sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
--host-suite)
	[ $# -ge 2 ] || { echo "--host-suite needs a Debian suite (trixie)" >&2; exit 2; }
	case $2 in *[!a-z]* | '') echo "--host-suite: '$2' is not a suite name" >&2; exit 2 ;; esac
	exec sh "$ROOT/bench/other-host.sh" "$2"
	;;
--awks)
	W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-repro.XXXXXX")
	trap 'rm -rf "$W"' EXIT
	bad=0 first=
	for a in mawk gawk busybox; do
		mkdir -p "$W/$a/bin"
		if [ "$a" = busybox ]; then
			printf '#!/bin/sh\nexec busybox awk "$@"\n' >"$W/$a/bin/awk"
			chmod +x "$W/$a/bin/awk"
		else
			ln -s "$(command -v "$a")" "$W/$a/bin/awk"
		fi
		PATH="$W/$a/bin:$PATH" "$ROOT/build.sh" -O "$W/$a/out" initramfs >/dev/null 2>&1 ||
			{ echo "$a: build.sh initramfs failed"; bad=1; continue; }
		h=$(sha256sum "$W/$a/out/initramfs.cpio.gz" | cut -d' ' -f1)
		printf '%-8s %s  %s bytes\n' "$a" "$h" "$(wc -c <"$W/$a/out/initramfs.cpio.gz")"
		[ -n "$first" ] || first=$h
		[ "$h" = "$first" ] || bad=1
	done
	[ "$bad" = 0 ] && echo "same initramfs with every awk" || echo "DIFFERENT initramfs across awks"
	exit $bad
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
