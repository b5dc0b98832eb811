#!/bin/sh
# A user's own reference: the Debian package's inner tarball named as
# tarball:PATH#SHA256 unpacks to the pinned package's tree, file for file;
# a wrong pin is refused.  The same for a kernel git tree named as
# git:REPO@REF (a commit of the pinned tree): it exports to that tree file
# for file, the commit id is recorded, an unknown ref is refused.  Nothing
# is built here: the same tree in another folder builds the same bzImage,
# which full_bundle's verify shows bit for bit (a ccache-hot kernel build
# is 4-5 minutes of CI, and this was a second one).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
deb=$(find cache/downloads -maxdepth 1 -name 'linux-source-*.deb' | head -n 1)
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz >"$T_DIR/linux.tar.xz"
sha=$(sha256sum "$T_DIR/linux.tar.xz" | cut -d' ' -f1)

expect_rc "a wrong tarball pin is refused" 2 ./build.sh -C "$T_DIR/c" -R "tarball:$T_DIR/linux.tar.xz#0000" reference
expect_in "the refusal says expected and got" "$T_OUT" "sha256 mismatch: expected 0000, got $sha"
expect_rc "unpack a pinned tarball reference" 0 ./build.sh -C "$T_DIR/c" -R "tarball:$T_DIR/linux.tar.xz#$sha" reference
tref=$(tail -n 1 "$T_OUT")
ref=$(find cache/reference -mindepth 2 -maxdepth 2 -name 'linux-source-*' -type d | head -n 1)
# (less its .gitattributes: a tarball's files that git would obey are
# removed, and said)
expect_in "the tarball's .gitattributes is removed, and said" "$T_OUT" "removed what git would obey: linux-source-6.12/.gitattributes"
assert "the tarball's tree is the Debian package's" \
	diff -r --no-dereference -x .krepro-complete -x .gitattributes "$tref" "$ref"

# A git repository holding the reference tree as one commit (the tree is
# used as the work tree in place: nothing is copied).
G=$T_DIR/linux.git
git init -q --bare "$G"
# -f: every file of the tree, also those the kernel's .gitignore names.
GIT_DIR=$G GIT_WORK_TREE=$ref git add -A -f .
GIT_DIR=$G GIT_WORK_TREE=$ref git rm -q --cached .krepro-complete
GIT_DIR=$G GIT_WORK_TREE=$ref GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' \
	git -c gc.auto=0 -c maintenance.auto=false -c user.name=krepro -c user.email=krepro@localhost commit -q -m reference
commit=$(git --git-dir="$G" rev-parse HEAD)
expect_rc "an unknown git ref is refused" 2 ./build.sh -C "$T_DIR/g" -R "git:$G@no-such-ref" reference
expect_in "the refusal names repository and ref" "$T_OUT" "reference git:$G: no commit 'no-such-ref'"
expect_rc "export a git reference" 0 ./build.sh -C "$T_DIR/g" -R "git:$G@HEAD" reference
gref=$(tail -n 1 "$T_OUT")
assert "the commit's tree is the Debian package's" \
	diff -r --no-dereference -x .krepro-complete "$gref" "$ref"
expect_rc "list-variants with a git reference" 0 ./build.sh -C "$T_DIR/g" -R "git:$G@HEAD" list-variants
expect_in "base records the commit id" "$T_OUT" "\"commit\": \"$commit\""
t_clean
t_summary
exit $T_FAILED
