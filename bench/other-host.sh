#!/bin/sh
# bench/reproducible.sh --host-suite SUITE: the kit on another Debian as
# the host (issue 47 item 6).  A root of SUITE holding the packages the
# kit asks a host for (lib/shared/common.sh's KREPRO_DEPS, Debian's versions of
# SUITE) is made with mmdebstrap (kept in cache/bench-hosts/SUITE); the
# kit is run inside it through bubblewrap (this checkout at its own path,
# a fresh output folder, the kit's cache shared: the pinned root and the
# reference are reused).  The initramfs, base's bzImage and the default
# exact cell's digits (page_fault3, 5 s, seed 1) made there and on this
# host are printed side by side.  Run as root (the inner builds nest a
# bubblewrap of their own).
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE=$1
H=$ROOT/cache/bench-hosts/$SUITE
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-host.XXXXXX")
trap 'rm -rf --one-file-system "$W"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench/other-host.sh: run as root (nested bubblewrap)" >&2; exit 2; }
pkgs=$(sh -c '. "$1/lib/shared/common.sh"; printf "%s\n" "$KREPRO_DEPS"' sh "$ROOT" | awk 'NF == 2 { print $2 }' | sort -u | paste -sd, -)
if [ ! -d "$H" ]; then
	echo "making a $SUITE host root with mmdebstrap: $pkgs"
	mkdir -p "$(dirname "$H")"
	t0=$(date +%s)
	mmdebstrap --variant=essential --include="mawk,apt,ca-certificates,$pkgs" --dpkgopt=force-unsafe-io \
		"$SUITE" "$H.tmp" "deb http://deb.debian.org/debian $SUITE main" >"$W/mm.log" 2>&1 || {
		tail -n 20 "$W/mm.log" >&2
		exit 1
	}
	mv "$H.tmp" "$H"
	echo "made in $(($(date +%s) - t0)) s, $(du -sm "$H" | cut -f1) MB"
fi
# shellcheck disable=SC2016 # dpkg-query's format
echo "$SUITE host: $(chroot "$H" gcc --version | head -n 1); $(chroot "$H" dpkg-query -W -f '${Package} ${Version}\n' musl-tools busybox-static qemu-system-x86 | paste -sd';' -)"
cat >"$W/m.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: 5s
variants: [base]
clock: exact
seeds: 1-1
M
# here: this host
"$ROOT/build.sh" initramfs >/dev/null 2>&1
"$ROOT/build.sh" kernel base >/dev/null 2>&1
"$ROOT/run-matrix.sh" -o "$W/here" "$W/m.yaml" >"$W/here.log" 2>&1 || { tail -n 20 "$W/here.log" >&2; exit 1; }
# there: the kit inside the other host's root
mkdir -p "$W/there"
# shellcheck disable=SC2016 # expanded by the inner shell
bwrap --cap-add ALL --bind "$H" / --dev /dev --proc /proc --tmpfs /tmp --bind "$ROOT" "$ROOT" --bind "$W" "$W" \
	--setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv HOME /root --unsetenv KREPRO_DEPS_OK \
	sh -c 'cd "$1" && ./build.sh -O "$2/there/out" initramfs && ./build.sh -O "$2/there/out" kernel base &&
		./run-matrix.sh -O "$2/there/out" -o "$2/there/res" "$2/m.yaml"' sh "$ROOT" "$W" >"$W/there.log" 2>&1 ||
	{ tail -n 30 "$W/there.log" >&2; exit 1; }
ops() { find "$1" -name stats.json -path '*/base/1/*' -exec sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.]*\).*/\1/p' {} \; | head -n 1; }
h16() { sha256sum "$1" | cut -c1-16; }
printf '%-28s %-18s %-18s\n' "" "this host" "$SUITE host"
printf '%-28s %-18s %-18s\n' initramfs "$(h16 "$ROOT/out/initramfs.cpio.gz")" "$(h16 "$W/there/out/initramfs.cpio.gz")"
printf '%-28s %-18s %-18s\n' "base bzImage" "$(h16 "$ROOT/out/kernels/base/bzImage")" "$(h16 "$W/there/out/kernels/base/bzImage")"
printf '%-28s %-18s %-18s\n' "per_process_ops (seed 1)" "$(ops "$W/here")" "$(ops "$W/there/res")"
if cmp -s "$ROOT/out/initramfs.cpio.gz" "$W/there/out/initramfs.cpio.gz" &&
	cmp -s "$ROOT/out/kernels/base/bzImage" "$W/there/out/kernels/base/bzImage" && [ "$(ops "$W/here")" = "$(ops "$W/there/res")" ]; then
	echo "the same bytes and digits on both hosts"
else
	echo "DIFFERENT on the $SUITE host"
	exit 1
fi
