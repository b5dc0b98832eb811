#!/bin/sh
# A git reference is someone else's repository (issue 35, row 2): nothing in
# it runs.  A repository whose config defines filter, textconv and merge
# drivers and an fsmonitor, whose info/attributes and committed
# .gitattributes select them for every file, and which holds every hook, is
# exported by `build.sh -R git:REPO@HEAD reference` and merged from by
# `preflight` with merge=3way: no program of it leaves a marker, and the
# tree is the blobs as committed.  A repository git refuses (safe.directory)
# is refused with git's own words.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

E=$T_DIR/evil
MK=$T_DIR/marks
mkdir -p "$MK"
small_tree "$E" x
g() { git -C "$E" -c user.name=t -c user.email=t@example.org -c core.hooksPath=/dev/null "$@"; }
g init -q
printf '* filter=evil diff=evil merge=evil\n' >"$E/.gitattributes"
g add . && g commit -q -m base
A=$(g rev-parse HEAD)
# a series written on A, changing lines 20 and 26; the reference changes
# line 23 after it: the patch applies only by a 3-way merge
sed -i 's/^int line20;$/int line20 = 4;/; s/^int line26;$/int line26 = 4;/' "$E/mm/x.c"
g commit -q -am "mm: a change"
g format-patch -q -1 --stdout >"$T_DIR/evil3.mbox"
g reset -q --hard "$A"
sed -i 's/^int line23;$/int line23 = 3;/' "$E/mm/x.c"
g commit -q -am "mm: a later change"
# now the traps: every program git could be led to run writes a marker
cat >"$T_DIR/trap" <<EOF
#!/bin/sh
id >>"$MK/\$(basename "\$0")"
cat
EOF
chmod +x "$T_DIR/trap"
for h in filter-smudge filter-clean filter-process textconv merge-driver fsmonitor ssh; do
	ln -s "$T_DIR/trap" "$T_DIR/$h"
done
g config filter.evil.smudge "$T_DIR/filter-smudge"
g config filter.evil.clean "$T_DIR/filter-clean"
g config filter.evil.process "$T_DIR/filter-process"
g config diff.evil.textconv "$T_DIR/textconv"
g config merge.evil.driver "$T_DIR/merge-driver %O %A %B"
g config core.fsmonitor "$T_DIR/fsmonitor"
g config core.sshCommand "$T_DIR/ssh"
printf '* filter=evil diff=evil merge=evil\n' >"$E/.git/info/attributes"
for h in post-checkout pre-commit post-commit post-merge pre-applypatch post-applypatch applypatch-msg \
	reference-transaction post-index-change pre-auto-gc post-rewrite fsmonitor-watchman; do
	ln -s "$T_DIR/trap" "$E/.git/hooks/$h"
done
# marks: the markers left, by name
marks() { find "$MK" -type f -exec basename {} \; | tr '\n' ' '; }

# (the trap itself works: a checkout here runs the smudge filter and a hook)
timeout 20 git -C "$E" checkout -q "$A" -- mm/x.c 2>/dev/null
assert "the traps are live (a plain git checkout in the repository sets them off)" test -n "$(marks)"
rm -f "$MK"/*
timeout 20 git -C "$E" checkout -q HEAD -- mm/x.c 2>/dev/null
rm -f "$MK"/*

K=$T_DIR/kt
copy_checkout "$K"
cp "$T_DIR/evil3.mbox" "$K/patches/"
printf 'merge=3way\n' >"$K/patches/evil3.apply"
# shellcheck disable=SC2317 # called by expect_rc
C() { "$K/build.sh" -C "$T_DIR/cache" -R "git:$E@HEAD" "$@"; }
expect_rc "a hostile repository is exported as a reference" 0 C reference
assert "... and none of its programs ran ($(marks))" test -z "$(marks)"
tree=$(tail -n 1 "$T_OUT")
assert "... the tree is the blobs as committed" sh -c "git -C '$E' cat-file blob HEAD:mm/x.c | cmp -s - '$tree/mm/x.c'"
assert "... with its .gitattributes as committed" grep -qx '\* filter=evil diff=evil merge=evil' "$tree/.gitattributes"
assert "... and no scratch repository left" test ! -e "$(dirname "$tree")/git"
rm -f "$MK"/*
expect_rc "preflight merges 3-way from the hostile repository's blobs" 0 C preflight evil3
expect_in "... saying so" "$T_OUT" "series evil3 merged 3-way where a patch does not apply"
assert "... and none of its programs ran ($(marks))" test -z "$(marks)"
src=$(find "$T_DIR"/cache/variants/git-*/evil3/src -maxdepth 0)
assert "... the merge is right" sh -c "grep -qx 'int line20 = 4;' '$src/mm/x.c' && grep -qx 'int line23 = 3;' '$src/mm/x.c'"

# A tarball reference is data (issue 46, rows 2 and 3): its top folder
# holds a .git whose config defines filters that .gitattributes selects,
# and a setuid-root program; preflight applies a series in it.  The tree
# comes without the .git, .gitattributes and setuid bit (said), no program
# of it runs, and a FIFO in a tarball refuses it.
TB=$T_DIR/tb
mkdir -p "$TB"
mkdir -p "$TB/linux/mm"
for f in Makefile mm/x.c .gitattributes; do git -C "$E" cat-file blob "$A:$f" >"$TB/linux/$f"; done
git init -q "$TB/linux"
git -C "$TB/linux" config filter.evil.smudge "$T_DIR/filter-smudge"
git -C "$TB/linux" config filter.evil.clean "$T_DIR/filter-clean"
git -C "$TB/linux" config filter.evil.process "$T_DIR/filter-process"
git -C "$TB/linux" config core.fsmonitor "$T_DIR/fsmonitor"
cp "$(command -v id)" "$TB/linux/suid-id"
chmod 4755 "$TB/linux/suid-id"
tar -C "$TB" --owner=0 --group=0 -cf "$T_DIR/evil.tar" linux
cp "$T_DIR/evil3.mbox" "$K/patches/evilt.mbox"
rm -f "$MK"/*
# shellcheck disable=SC2317 # called by expect_rc
CT() { "$K/build.sh" -C "$T_DIR/tcache" -R "tarball:$T_DIR/evil.tar" "$@"; }
expect_rc "a tarball reference holding .git and a setuid program is unpacked" 0 CT reference
ttree=$(tail -n 1 "$T_OUT")
expect_in "... saying what git would obey was removed" "$T_OUT" "removed what git would obey: linux/.git linux/.gitattributes"
expect_in "... and that a setuid bit was cleared" "$T_OUT" "1 file(s) had setuid, setgid or sticky bits: cleared"
assert "... no .git in the tree" test ! -e "$ttree/.git"
assert "... no setuid or setgid file in the tree" test -z "$(find "$ttree" -perm /6000)"
expect_rc "preflight applies a series in it" 0 CT preflight evilt
assert "... and none of the tarball's programs ran ($(marks))" test -z "$(marks)"
tsrc=$(find "$T_DIR"/tcache/variants/tar-*/evilt/src -maxdepth 0)
assert "... the series is in" grep -qx 'int line20 = 4;' "$tsrc/mm/x.c"
rm -rf "$TB/linux/.git" "$TB/linux/suid-id"
mkfifo "$TB/linux/fifo"
tar -C "$TB" -cf "$T_DIR/fifo.tar" linux
expect_rc "a tarball holding a FIFO is refused" 2 "$K/build.sh" -C "$T_DIR/tcache" -R "tarball:$T_DIR/fifo.tar" reference
expect_in "... saying what it holds" "$T_OUT" "holds a device, FIFO or socket (linux/fifo)"

# safe.directory: a repository of another user is git's to refuse, and
# the kit shows git's words, not "no commit".
if [ "$(id -u)" = 0 ]; then
	O=$T_DIR/other
	git clone -q "$E" "$O" 2>/dev/null
	chown -R nobody "$O"
	mkdir -p "$T_DIR/home"
	expect_rc "a repository owned by another user is refused" 2 env HOME="$T_DIR/home" XDG_CONFIG_HOME="$T_DIR/home" \
		"$K/build.sh" -C "$T_DIR/cache2" -R "git:$O@HEAD" reference
	expect_in "... with git's own words" "$T_OUT" "detected dubious ownership in repository at '$O'"
	assert "... not as a missing commit" sh -c "! grep -q 'no commit' '$T_OUT'"
	assert "... and none of its programs ran" test -z "$(marks)"
fi
expect_rc "a folder that is no repository is refused" 2 "$K/build.sh" -C "$T_DIR/cache2" -R "git:$T_DIR/none@HEAD" reference
expect_in "... with git's words" "$T_OUT" "reference git:$T_DIR/none: git refuses it: fatal: cannot change to '$T_DIR/none'"
expect_rc "an unknown ref is still a missing commit" 2 "$K/build.sh" -C "$T_DIR/cache2" -R "git:$E@no-such-ref" reference
expect_in "... said so" "$T_OUT" "reference git:$E: no commit 'no-such-ref'"
t_clean
t_summary
exit $T_FAILED
