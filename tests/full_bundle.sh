#!/bin/sh
# Reviewer bundles: deterministic archive, run from a bundle without
# building, refusal of an altered file, and verify (rebuild, compare) of a
# bundle whose scripts and C were replaced.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

expect_rc "bundle base+calibration" 0 ./build.sh bundle -o "$T_DIR/b1.tgz" base calibration
signify-openbsd -G -n -p "$T_DIR/k.pub" -s "$T_DIR/k.sec"
signify-openbsd -G -n -p "$T_DIR/other.pub" -s "$T_DIR/other.sec"
expect_rc "bundle again, signed" 0 ./build.sh bundle -o "$T_DIR/b2.tgz" --sign "$T_DIR/k.sec" base calibration
assert "two bundles of the same inputs are identical" cmp "$T_DIR/b1.tgz" "$T_DIR/b2.tgz"
assert "the signature is beside the bundle" test -s "$T_DIR/b2.tgz.sig"
expect_rc "a signed bundle is accepted with its key" 0 ./run-matrix.sh --dry-run --bundle "$T_DIR/b2.tgz" --bundle-key "$T_DIR/k.pub" -o "$T_DIR/res"
expect_in "saying who signed it" "$T_OUT" "signed by $T_DIR/k.pub"
expect_rc "another key is refused" 2 ./run-matrix.sh --dry-run --bundle "$T_DIR/b2.tgz" --bundle-key "$T_DIR/other.pub" -o "$T_DIR/res"
expect_in "the refusal names signature and key" "$T_OUT" "b2.tgz.sig does not verify with $T_DIR/other.pub"
expect_rc "an unsigned bundle is refused when a key is given" 2 ./build.sh verify --key "$T_DIR/k.pub" "$T_DIR/b1.tgz"
expect_in "the refusal says the signature is missing" "$T_OUT" "no signature $T_DIR/b1.tgz.sig"
# A link in a bundle could lead a later member outside its folder.
mkdir -p "$T_DIR/l/krepro-bundle"
ln -s /etc "$T_DIR/l/krepro-bundle/etc"
tar -czf "$T_DIR/link.tgz" -C "$T_DIR/l" krepro-bundle
expect_rc "a bundle holding a symlink is refused" 2 ./run-matrix.sh --dry-run --bundle "$T_DIR/link.tgz" -o "$T_DIR/res"
expect_in "naming it" "$T_OUT" "holds something other than files and folders"
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

# verify (rebuild and compare) runs once, on the hostile bundle below: it is
# the kit's one bit-for-bit rebuild of a kernel in another folder (a
# second verify, of b1, rebuilt base too, for 4 more minutes of CI).

# A bundle's code never runs on the host (issue 12): a replaced build.sh
# and a gen_init_cpio.c with a constructor, manifest regenerated.
rm -rf "$T_DIR/x"
mkdir -p "$T_DIR/x"
tar -xzf "$T_DIR/b1.tgz" -C "$T_DIR/x"
hb=$T_DIR/x/krepro-bundle
rm -rf "$hb/kernels/base"
printf '#!/bin/sh\ntouch "%s/pwned-build"\nexit 0\n' "$T_DIR" >"$hb/inputs/build.sh"
# A patch whose Makefile writes outside the build: verify runs it, by
# nature, but only inside its sandbox.
ref=$(find cache/reference -mindepth 2 -maxdepth 2 -name 'linux-source-*' -type d | head -n 1)
mkdir -p "$T_DIR/p/a" "$T_DIR/p/b"
cp "$ref/Makefile" "$T_DIR/p/a/Makefile"
cp "$ref/Makefile" "$T_DIR/p/b/Makefile"
# shellcheck disable=SC2016 # a make expression, for make
printf 'KREPRO_HOSTILE := $(shell touch %s/pwned-make)\n' "$T_DIR" >>"$T_DIR/p/b/Makefile"
(cd "$T_DIR/p" && diff -u a/Makefile b/Makefile) >"$hb/inputs/patches/calibration/0009-hostile.patch"
echo 0009-hostile.patch >>"$hb/inputs/patches/calibration/series"
printf '#include <stdio.h>\n__attribute__((constructor)) static void p(void) { fclose(fopen("%s/pwned-gic", "w")); }\n' "$T_DIR" >>"$hb/inputs/gen_init_cpio.c"
(cd "$hb" && find . -type f ! -name MANIFEST.sha256 | sed 's#^\./##' | LC_ALL=C sort | xargs sha256sum >"$T_DIR/manifest")
mv "$T_DIR/manifest" "$hb/MANIFEST.sha256"
tar -czf "$T_DIR/hostile.tgz" -C "$T_DIR/x" krepro-bundle
mv out/host/gen_init_cpio out/host/gen_init_cpio.hidden
sed 's/^variants: .*/variants: [calibration]/' "$T_DIR/m.yaml" >"$T_DIR/mb.yaml"
expect_rc "--bundle with a foreign gen_init_cpio.c is refused" 2 ./run-matrix.sh --bundle "$T_DIR/hostile.tgz" -o "$T_DIR/res2" "$T_DIR/mb.yaml"
mv out/host/gen_init_cpio.hidden out/host/gen_init_cpio
expect_in "the refusal says why" "$T_OUT" "inputs/gen_init_cpio.c is not the reference's"
assert "the bundle's C was not run" test ! -e "$T_DIR/pwned-gic"
expect_rc "verify of the hostile bundle uses the kit's own scripts" 0 ./build.sh verify "$T_DIR/hostile.tgz"
assert "the bundle's build.sh was not run" test ! -e "$T_DIR/pwned-build"
expect_in "verify says it builds in a sandbox" "$T_OUT" "in a sandbox (no network"
assert "the bundle's Makefile could not write outside the sandbox" test ! -e "$T_DIR/pwned-make"
expect_in "verify: the initramfs rebuilt matches" "$T_OUT" "match     initramfs.cpio.gz"
expect_in "verify: calibration rebuilt matches" "$T_OUT" "match     kernels/calibration/bzImage"
expect_in "verify still rebuilt and matched" "$T_OUT" "verify: 2 artifact(s) match, 0 differ"

t_clean
t_summary
exit $T_FAILED
