#!/bin/sh
# Series against the tree they were written for (issue 28 item 1), on a
# small git history of the tests' own (never a real kernel): a series
# written before a later change to one of its context lines is refused
# strictly, with the hint that it applies with 2 lines of context; accepted
# only when patches/SERIES.apply says context=2, and then marked in
# preflight, list-variants and the manifest; a series that conflicts for
# real is refused naming file and hunk either way; base-commit: is compared
# with a git reference (-R git:REPO@REF), naming the commit to build on.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

L=$T_DIR/linux
small_repo "$L" memcontrol "v6.12 (the tree the series were written on)"
g() { git -C "$L" -c user.name=t -c user.email=t@example.org "$@"; }
# two series written on A, each one patch
g checkout -q -b ctx
sed -i 's/^int line15;$/int line15 = 1; \/* the series *\//' "$L/mm/memcontrol.c"
g commit -q -am "mm: memcg: a change that needs only two lines of context"
g format-patch -q -1 --base="$A" --stdout >"$T_DIR/ctx2.mbox"
g checkout -q -b conflict "$A"
sed -i 's/^int line30;$/int line30 = 2; \/* the series *\//' "$L/mm/memcontrol.c"
g commit -q -am "mm: memcg: a change that conflicts"
g format-patch -q -1 --base="$A" --stdout >"$T_DIR/conflict.mbox"
# one hunk changing lines 20 and 26: the backport's line 23 is an inner
# context line, so no context setting applies it; a 3-way merge does
g checkout -q -b merge3 "$A"
sed -i 's/^int line20;$/int line20 = 4; \/* the series *\//; s/^int line26;$/int line26 = 4; \/* the series *\//' "$L/mm/memcontrol.c"
g commit -q -am "mm: memcg: a change around a later backport"
g format-patch -q -1 --base="$A" --stdout >"$T_DIR/merge3.mbox"
# the same change written on a tree of its own: blobs the clone lacks
M=$T_DIR/elsewhere
mkdir -p "$M/mm"
gm() { git -C "$M" -c user.name=t -c user.email=t@example.org "$@"; }
gm init -q
g show "$A:mm/memcontrol.c" | sed 's/^int line1;$/int line1; \/* elsewhere *\//' >"$M/mm/memcontrol.c"
gm add . && gm commit -q -m "another tree"
sed -i 's/^int line20;$/int line20 = 5; \/* the series *\//; s/^int line26;$/int line26 = 5; \/* the series *\//' "$M/mm/memcontrol.c"
gm commit -q -am "mm: memcg: written on another tree"
gm format-patch -q -1 --stdout >"$T_DIR/noblobs.mbox"
# the reference: A and a later backport changing line 12 (the series'
# outermost context line) and line 30 (the conflicting series' own line)
g checkout -q -b stable "$A"
sed -i 's/^int line12;$/int line12; \/* backport *\//; s/^int line23;$/int line23; \/* backport *\//; s/^int line30;$/int line30 = 3; \/* backport *\//' "$L/mm/memcontrol.c"
g commit -q -am "mm: a later stable backport"
B=$(g rev-parse HEAD)

K=$T_DIR/kt
copy_checkout "$K"
cp "$T_DIR/ctx2.mbox" "$T_DIR/conflict.mbox" "$T_DIR/merge3.mbox" "$T_DIR/noblobs.mbox" "$K/patches/"
C() { "$K/build.sh" -C "$T_DIR/cache" -R "git:$L@stable" "$@"; }

expect_rc "a series needing 2 lines of context is refused strictly" 2 C preflight ctx2
expect_in "... naming file and hunk" "$T_OUT" "does not apply: mm/memcontrol.c: patch does not apply (hunk at mm/memcontrol.c:12;"
expect_in "... saying it applies with 2 lines of context and how to accept it" "$T_OUT" "it applies with 2 lines of context (git apply -C2): a tree with later changes to a context line?  To accept that, write context=2 into patches/ctx2.apply"
expect_in "... and which commit it wants, which the reference is not" "$T_OUT" "warning: series ctx2 was made on base-commit $A, the reference is $B; $L has it: -R git:$L@$A builds on exactly that commit"
expect_rc "it applies on exactly its base-commit" 0 "$K/build.sh" -C "$T_DIR/cache" -R "git:$L@$A" preflight ctx2
expect_in "... preflight says the reference is that commit" "$T_OUT" "series ctx2 names base-commit $A: the reference is that commit"

printf 'context=2\n' >"$K/patches/ctx2.apply"
expect_rc "with context=2 in patches/ctx2.apply it applies to the later tree" 0 C preflight ctx2
expect_in "... and preflight says how" "$T_OUT" "preflight: ctx2: 1 patch(es) apply; series ctx2 applied with 2 lines of context (git apply -C2, patches/ctx2.apply)"
assert "... at the right place" grep -q '^int line15 = 1; /\* the series \*/$' "$T_DIR"/cache/variants/git-*/ctx2/src/mm/memcontrol.c
assert "... over the backport" grep -q '^int line12; /\* backport \*/$' "$T_DIR"/cache/variants/git-*/ctx2/src/mm/memcontrol.c
assert "... recorded in the patch log" grep -q 'git apply -C2 (patches/ctx2.apply)' "$T_DIR"/cache/variants/git-*/ctx2/patch.log
expect_rc "list-variants" 0 C list-variants
expect_in "... shows the context" "$T_OUT" "ctx2	(also ctx2@1..ctx2@1, and A+B stacks) base-commit $A; applied with 2 lines of context (git apply -C2, patches/ctx2.apply)"
# the manifest, as build.sh kernel writes it (no kernel built: its files faked)
mkdir -p "$T_DIR/fake"
echo config >"$T_DIR/fake/config"
echo kernel >"$T_DIR/fake/bzImage"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the manifest" 0 sh -c 'KREPRO_ROOT=$1 KREPRO_CACHE=$2 REF_SPEC=$3 KREPRO_PROG=build KCONFIG_NAME=x; . "$1/lib/shared/common.sh"; for m in "$1"/lib/*/*.sh "$1"/lib/*/*/*.sh; do . "$m"; done; ref_id >/dev/null; write_kernel_manifest ctx2 "$4"' sh "$K" "$T_DIR/cache" "git:$L@stable" "$T_DIR/fake"
expect_in "... records the context" "$T_OUT" '"apply_context": [{"series": "ctx2", "context": 2, "merge": "none", "text": "applied with 2 lines of context (git apply -C2, patches/ctx2.apply)"}]'
mkdir -p "$T_DIR/kout/kernels/ctx2"
cp "$T_OUT" "$T_DIR/kout/kernels/ctx2/manifest.json"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the report's lines for the variant" 0 sh -c 'KREPRO_OUT=$1; . ./lib/run/images.sh; . ./lib/run/report.sh; context_notes base ctx2' sh "$T_DIR/kout"
expect_in "... say it too (report.txt, under each comparison naming it)" "$T_OUT" "variant ctx2: series ctx2 applied with 2 lines of context (git apply -C2, patches/ctx2.apply)"
printf 'context=5\n' >"$K/patches/ctx2.apply"
expect_rc "a bad context is refused" 2 C preflight ctx2
expect_in "... saying what it may be" "$T_OUT" "patches/ctx2.apply: context=N (0, 1 or 2"

expect_rc "a conflicting series is refused strictly" 2 C preflight conflict
expect_in "... naming file and hunk" "$T_OUT" "series conflict, patch 0001-mm-memcg-a-change-that-conflicts.patch does not apply: mm/memcontrol.c: patch does not apply (hunk at mm/memcontrol.c:27;"
if grep -q 'it applies with' "$T_OUT"; then no "... no context hint for a real conflict"; else ok "... no context hint for a real conflict"; fi
printf 'context=1\n' >"$K/patches/conflict.apply"
expect_rc "and with context=1 too" 2 C preflight conflict
expect_in "... naming file and hunk and the context" "$T_OUT" "does not apply with 1 lines of context: mm/memcontrol.c: patch does not apply (hunk at mm/memcontrol.c:27;"

expect_rc "a series whose inner context changed is refused strictly" 2 C preflight merge3
expect_in "... naming file and hunk" "$T_OUT" "patch 0001-mm-memcg-a-change-around-a-later-backport.patch does not apply: mm/memcontrol.c: patch does not apply (hunk at mm/memcontrol.c:17;"
printf 'context=1\n' >"$K/patches/merge3.apply"
expect_rc "... and with 1 line of context" 2 C preflight merge3
printf 'merge=3way\n' >"$K/patches/merge3.apply"
expect_rc "with merge=3way it merges from the git reference's blobs" 0 C preflight merge3
expect_in "... and preflight says how" "$T_OUT" "preflight: merge3: 1 patch(es) apply; series merge3 merged 3-way where a patch does not apply (git apply --3way on the git reference's blobs, patches/merge3.apply)"
src3=$(find "$T_DIR"/cache/variants/git-*/merge3/src -maxdepth 0)
assert "... the series' lines are in" sh -c "grep -qx 'int line20 = 4; /\\* the series \\*/' '$src3/mm/memcontrol.c' && grep -qx 'int line26 = 4; /\\* the series \\*/' '$src3/mm/memcontrol.c'"
assert "... over the backport" grep -qx 'int line23; /\* backport \*/' "$src3/mm/memcontrol.c"
assert "... recorded in the patch log" grep -q 'git apply --3way (patches/merge3.apply)' "$src3/../patch.log"
assert "... no scratch repository is left in or beside the tree" sh -c "[ ! -e '$src3/.git' ] && [ ! -e '$src3.tmp.git' ]"
assert "... the reference tree is untouched (hardlinked copy)" grep -qx 'int line20;' "$T_DIR"/cache/reference/git-*/linux/mm/memcontrol.c
expect_rc "list-variants" 0 C list-variants
expect_in "... shows the merge" "$T_OUT" "merge3	(also merge3@1..merge3@1, and A+B stacks) base-commit $A; merged 3-way where a patch does not apply"
printf 'merge=ours\n' >"$K/patches/merge3.apply"
expect_rc "another merge is refused" 2 C preflight merge3
expect_in "... saying what it may be" "$T_OUT" "patches/merge3.apply: merge=3way (git apply --3way from a git reference's blobs; no other merge), not 'ours'"
printf 'merge=3way\n' >"$K/patches/merge3.apply"
git -C "$L" archive --prefix=linux/ -o "$T_DIR/ref.tar.gz" stable
expect_rc "merge=3way without a git reference is refused" 2 "$K/build.sh" -C "$T_DIR/cache" -R "tarball:$T_DIR/ref.tar.gz" preflight merge3
expect_in "... saying what it needs" "$T_OUT" "patches/merge3.apply: merge=3way needs the blobs of the tree the series was written on: give a linux clone as the reference, -R git:REPO@REF"
printf 'merge=3way\n' >"$K/patches/conflict.apply"
expect_rc "a real conflict is refused with merge=3way too" 2 C preflight conflict
expect_in "... naming file and hunk" "$T_OUT" "does not apply: mm/memcontrol.c: patch does not apply (hunk at mm/memcontrol.c:27;"
expect_in "... as a conflict of the merge" "$T_OUT" "; nor does it merge 3-way: conflicts in mm/memcontrol.c"
printf 'merge=3way\n' >"$K/patches/noblobs.apply"
expect_rc "a series whose blobs the clone lacks is refused" 2 C preflight noblobs
expect_in "... saying so" "$T_OUT" "the reference's git objects lack its preimage blobs (is $L@stable a clone holding the tree it was written on?)"

rm -rf "$T_DIR"
t_summary
