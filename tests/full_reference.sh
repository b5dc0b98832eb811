#!/bin/sh
# A user's own reference: the Debian package's inner tarball named as
# tarball:PATH#SHA256 unpacks to the pinned package's tree, file for file;
# a wrong pin is refused.  The same for a kernel git tree
# named as git:REPO@REF (a commit of the pinned tree): the commit id is
# recorded, an unknown ref is refused.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
deb=$(find cache/downloads -maxdepth 1 -name 'linux-source-*.deb' | head -n 1)
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz >"$T_DIR/linux.tar.xz"
sha=$(sha256sum "$T_DIR/linux.tar.xz" | cut -d' ' -f1)

expect_rc "a wrong tarball pin is refused" 2 ./build.sh -C "$T_DIR/c" -R "tarball:$T_DIR/linux.tar.xz#0000" reference
expect_in "the refusal says expected and got" "$T_OUT" "sha256 mismatch: expected 0000, got $sha"
# The tarball unpacks to the Debian package's tree, file for file: the base
# build from it is then the git case's below, which builds the same tree
# from another folder and must give the same bzImage (one build, not two:
# 4 minutes of CI).
expect_rc "unpack a pinned tarball reference" 0 ./build.sh -C "$T_DIR/c" -R "tarball:$T_DIR/linux.tar.xz#$sha" reference
tref=$(tail -n 1 "$T_OUT")
ref=$(find cache/reference -mindepth 2 -maxdepth 2 -name 'linux-source-*' -type d | head -n 1)
assert "the tarball's tree is the Debian package's" \
	diff -r --no-dereference -x .krepro-complete "$tref" "$ref"

# A git repository holding the reference tree as one commit (the tree is
# used as the work tree in place: nothing is copied).
G=$T_DIR/linux.git
git init -q --bare "$G"
# -f: every file of the tree, also those the kernel's .gitignore names.
GIT_DIR=$G GIT_WORK_TREE=$ref git add -A -f .
GIT_DIR=$G GIT_WORK_TREE=$ref git rm -q --cached .krepro-complete
GIT_DIR=$G GIT_WORK_TREE=$ref GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' \
	git -c user.name=krepro -c user.email=krepro@localhost commit -q -m reference
commit=$(git --git-dir="$G" rev-parse HEAD)
expect_rc "an unknown git ref is refused" 2 ./build.sh -C "$T_DIR/g" -R "git:$G@no-such-ref" reference
expect_in "the refusal names repository and ref" "$T_OUT" "reference git:$G: no commit 'no-such-ref'"
expect_rc "build base from a git reference" 0 ./build.sh -C "$T_DIR/g" -O "$T_DIR/go" -R "git:$G@HEAD" kernel base
expect_in "the manifest records the commit id" "$T_DIR/go/kernels/base/manifest.json" "\"commit\": \"$commit\""
assert "same bzImage from the git reference as from the Debian package" cmp "$T_DIR/go/kernels/base/bzImage" out/kernels/base/bzImage
rm -rf "$T_DIR"
exit $T_FAILED
