#!/bin/sh
# A user's own reference: the Debian package's inner tarball named as
# tarball:PATH#SHA256 builds the same base kernel, bit for bit, as the
# pinned package; a wrong pin is refused.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
deb=$(find cache/downloads -maxdepth 1 -name 'linux-source-*.deb' | head -n 1)
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz >"$T_DIR/linux.tar.xz"
sha=$(sha256sum "$T_DIR/linux.tar.xz" | cut -d' ' -f1)

expect_rc "a wrong tarball pin is refused" 2 ./build.sh -C "$T_DIR/c" -R "tarball:$T_DIR/linux.tar.xz#0000" reference
expect_in "the refusal says expected and got" "$T_OUT" "sha256 mismatch: expected 0000, got $sha"
expect_rc "build base from a pinned tarball" 0 ./build.sh -C "$T_DIR/c" -O "$T_DIR/o" \
	-R "tarball:$T_DIR/linux.tar.xz#$sha" kernel base
expect_in "the manifest records the tarball and its sha256" "$T_DIR/o/kernels/base/manifest.json" "\"tarball\": \"linux.tar.xz\", \"sha256\": \"$sha\""
assert "same bzImage as from the Debian package" cmp "$T_DIR/o/kernels/base/bzImage" out/kernels/base/bzImage
rm -rf "$T_DIR"
exit $T_FAILED
