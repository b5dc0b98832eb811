#!/bin/sh
# Reviewer bundles: deterministic archive, run from a bundle without
# building, refusal of an altered file, and verify (rebuild, compare).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

expect_rc "bundle base+calibration" 0 ./build.sh bundle -o "$T_DIR/b1.tgz" base calibration
expect_rc "bundle again" 0 ./build.sh bundle -o "$T_DIR/b2.tgz" base calibration
assert "two bundles of the same inputs are identical" cmp "$T_DIR/b1.tgz" "$T_DIR/b2.tgz"
tar -tzf "$T_DIR/b1.tgz" >"$T_DIR/list"
for f in MANIFEST.sha256 README.txt bundle.json initramfs.cpio.gz matrix.yaml \
	kernels/base/bzImage kernels/calibration/manifest.json inputs/build.sh inputs/patches/calibration/series; do
	expect_in "bundle holds $f" "$T_DIR/list" "krepro-bundle/$f"
done

printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 6s\nvariants: [base, calibration]\nruns: 1\n' >"$T_DIR/m.yaml"
mv out/initramfs.cpio.gz out/initramfs.cpio.gz.hidden
expect_rc "run-matrix --bundle runs without building" 0 ./run-matrix.sh --bundle "$T_DIR/b1.tgz" -o "$T_DIR/res" "$T_DIR/m.yaml"
mv out/initramfs.cpio.gz.hidden out/initramfs.cpio.gz
expect_in "bundle hashes are checked first" "$T_OUT" "every file matches MANIFEST.sha256"
assert "no build step ran" sh -c "! grep -q 'build: kernel' '$T_OUT'"
expect_in "both variants ran from the bundle" "$T_OUT" "[2/2] calibration run 1"

mkdir -p "$T_DIR/x"
tar -xzf "$T_DIR/b1.tgz" -C "$T_DIR/x"
printf 'x' >>"$T_DIR/x/krepro-bundle/kernels/calibration/bzImage"
tar -czf "$T_DIR/bad.tgz" -C "$T_DIR/x" krepro-bundle
expect_rc "an altered bundle is refused" 2 ./run-matrix.sh --bundle "$T_DIR/bad.tgz" -o "$T_DIR/res" "$T_DIR/m.yaml"
expect_in "the refusal names the altered file" "$T_OUT" "kernels/calibration/bzImage was altered"

expect_rc "verify rebuilds and matches" 0 ./build.sh verify "$T_DIR/b1.tgz"
expect_in "verify: initramfs matches" "$T_OUT" "match     initramfs.cpio.gz"
expect_in "verify: kernels match" "$T_OUT" "verify: 3 artifact(s) match, 0 differ"

rm -rf "$T_DIR"
exit $T_FAILED
