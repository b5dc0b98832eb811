#!/bin/sh
# Variant grammar and series forms against the real reference tree:
# SERIES@N, A+B, an mbox with a cover letter, a folder whose series lists a
# cover letter, series from git format-patch and b4 (renames, modes, binary,
# UTF-8), and preflight errors.  Builds nothing.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
W=$T_DIR/tree
copy_checkout "$W"
# the pinned reference's trees (a git reference's may sit beside them)
VR=cache/variants/$(sed -n 's/^version=//p' patches/reference.conf)
# shellcheck disable=SC2317 # called through expect_rc
C() { "$W/build.sh" -C "$PWD/cache" -O "$T_DIR/o" "$@"; }

cover() { # subject -> a git format-patch style cover letter
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: krepro <krepro@localhost>\nDate: Sun, 29 Nov 2026 00:00:00 +0000\n'
	printf 'Subject: [PATCH 0/2] %s\n\nTwo patches.\n\n mm/memory.c | 14 ++++++++++----\n 1 file changed\n\n-- \n2.39.5\n\n' "$1"
}
{ cover calib; cat patches/calibration/0001-*.patch; echo; cat patches/calibration/0002-*.patch; echo; cat patches/calibration/0003-*.patch; } >"$W/patches/calmbox.mbox"
{ cover memcg; for p in patches/memcg/0*.patch; do cat "$p" && echo; done; } >"$W/patches/memmbox.mbox"
mkdir -p "$W/patches/calcover"
cover calib >"$W/patches/calcover/0000-cover-letter.patch"
cp patches/calibration/0*.patch "$W/patches/calcover/"
(cd "$W/patches/calcover" && ls -- *.patch >series)

expect_rc "list-variants shows the mbox series" 0 C list-variants
expect_in "mbox split skips the cover letter" "$T_OUT" "calmbox	(also calmbox@1..calmbox@3"
expect_in "series folder skips a listed cover letter" "$T_OUT" "calcover	(also calcover@1..calcover@3"
expect_in "mbox split names patches as git format-patch does" "$T_OUT" \
	"0001-mm-add-a-fault_delay_ns-knob-for-performance-harness.patch  [PATCH 1/3]"
expect_in "mbox split names a patch after its whole folded Subject" "$T_OUT" \
	"0004-mm-memcontrol-let-a-faulting-task-flush-its-due-stat.patch  [PATCH 4/5] mm: memcontrol: let a faulting task flush its due statistics"
expect_rc "preflight of SERIES@0 is refused" 2 C preflight calibration@0
expect_in "SERIES@0 says what N must be" "$T_OUT" "'calibration@0' needs SERIES@N, N a number from 1"
expect_rc "preflight of SERIES@4 is refused" 2 C preflight calibration@4
expect_in "SERIES@N past the end says how many patches" "$T_OUT" "series calibration has 3 patches, not 4"
expect_rc "preflight of the mbox, the folder and @1" 0 C preflight calmbox calcover calibration@1
expect_in "preflight reports patches per variant" "$T_OUT" "preflight: calibration@1: 1 patch(es) apply"
for v in calmbox calcover; do
	assert "$v gives the same tree as calibration" cmp "$VR/$v"/src/mm/memory.c \
		"$VR"/calibration/src/mm/memory.c
done
assert "calibration@1 carries the knob switched off" grep -q 'static unsigned int fault_delay_ns __read_mostly;' \
	"$VR"/calibration@1/src/mm/memory.c
assert "the shared reference stays pristine" sh -c '! grep -q fault_delay_ns cache/reference/*/linux-source-6.12/mm/memory.c'
expect_rc "stacking a series on itself is refused" 2 C preflight calibration+calibration
expect_in "the refusal names the series twice" "$T_OUT" "series 'calibration' twice"
expect_rc "stacking a series on its own mbox fails" 2 C preflight calibration+calmbox
expect_in "stack failure names the patch" "$T_OUT" "patch 0001-mm-add-a-fault_delay_ns-knob"
# The kit's own series stay checkpatch-clean.  Run beside each file: from
# this checkout's root, checkpatch misreads a tracked patch (every blank
# context line becomes "trailing whitespace").
CHECKPATCH=$(echo "$PWD"/cache/reference/*/linux-source-6.12/scripts/checkpatch.pl)
for p in patches/*/0*.patch; do
	# shellcheck disable=SC2016 # expanded by the inner shell
	assert "checkpatch: $p" sh -c 'cd "$(dirname "$2")" && perl "$1" --no-tree -q "$(basename "$2")"' sh "$CHECKPATCH" "$p"
done
# Two preflights of one new series at once (issue 12): both succeed and the
# tree is whole (one waited for the other instead of patching over it).
mkdir -p "$W/patches/concur"
cp patches/calibration/0*.patch patches/calibration/series "$W/patches/concur/"
C preflight concur >"$T_DIR/p1.log" 2>&1 &
p1=$!
sleep 0.5
C preflight concur >"$T_DIR/p2.log" 2>&1
r2=$?
wait "$p1"
r1=$?
assert "concurrent preflights: both succeed" test "$r1$r2" = 00
assert "concurrent preflights: the tree is whole" cmp "$VR"/concur/src/mm/memory.c \
	"$VR"/calibration/src/mm/memory.c
assert "concurrent preflights: as many files as the reference" test \
	"$(find "$VR"/concur/src -type f | wc -l)" -ge "$(find cache/reference/*/linux-source-6.12 -type f | wc -l)"

# Series as kernel developers make them (issue 13): git format-patch with a
# cover letter and --base, a rename, a mode change, a binary file, a UTF-8
# author and subject, a commit message paragraph starting with "From "; and
# what Debian's b4 am -m saves (*.mbx) from such a thread, offline.
ref=$(find cache/reference -mindepth 2 -maxdepth 2 -name 'linux-source-*' -type d | head -n 1)
G=$T_DIR/g
mkdir -p "$G/Documentation/mm"
cp "$ref/Documentation/mm/highmem.rst" "$ref/Documentation/mm/index.rst" "$G/Documentation/mm/"
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=krepro \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=krepro@localhost
gc() { git -C "$G" -c user.name="${GA:-krepro}" -c user.email=krepro@localhost commit -q "$@"; }
git -C "$G" init -q && git -C "$G" add -A && gc -m base
git -C "$G" mv Documentation/mm/highmem.rst Documentation/mm/high-memory.rst && gc -m "docs: mm: rename highmem.rst"
chmod +x "$G/Documentation/mm/index.rst" && gc -a -m "docs: mm: make index.rst executable"
printf '\000\001\002binary\377\000' >"$G/Documentation/mm/krepro.bin"
git -C "$G" add Documentation/mm/krepro.bin && gc -m "docs: mm: add a binary blob"
echo "Jörg was here." >>"$G/Documentation/mm/index.rst"
GA="Jörg Rödel" gc -a -m "docs: mm: Jörg's ünïcode note" -m "From the start, this paragraph begins with From.

From me to you."
base=$(git -C "$G" rev-parse HEAD~4)
git -C "$G" format-patch -q --stdout --thread --cover-letter --base="$base" HEAD~4 >"$W/patches/gfp.mbox"
git -C "$G" format-patch -q --stdout --thread --base="$base" HEAD~4..HEAD~1 >"$T_DIR/b4in.mbox"
mkdir -p "$W/patches/b4s"
msgid=$(grep -m1 -i '^Message-Id:' "$T_DIR/b4in.mbox" | sed 's/^[^<]*<//; s/>.*//')
(cd "$T_DIR" && HOME=$T_DIR b4 -n am -m "$T_DIR/b4in.mbox" -o "$W/patches/b4s" "$msgid") >"$T_DIR/b4.log" 2>&1
assert "b4 am saved an .mbx" sh -c "ls '$W/patches/b4s/'*.mbx"
expect_rc "list-variants reads the format-patch mbox and the b4 .mbx" 0 C list-variants
expect_in "the cover letter is skipped, every patch counted" "$T_OUT" "gfp	(also gfp@1..gfp@4, and A+B stacks) base-commit $base"
expect_in "a rename-only patch is kept" "$T_OUT" "[PATCH 1/4] docs: mm: rename highmem.rst"
expect_in "a mode-only patch is kept" "$T_OUT" "[PATCH 2/4] docs: mm: make index.rst executable"
expect_in "a binary-only patch is kept" "$T_OUT" "[PATCH 3/4] docs: mm: add a binary blob"
expect_in "an RFC 2047 subject is decoded" "$T_OUT" "[PATCH 4/4] docs: mm: Jörg's ünïcode note"
expect_in "b4's .mbx is a series" "$T_OUT" "b4s	(also b4s@1..b4s@3"
expect_rc "preflight applies rename, mode, binary and UTF-8 patches" 0 C preflight gfp
expect_in "preflight says which base-commit the series names" "$T_OUT" "series gfp names base-commit $base; the reference (6.12"
S=$VR/gfp/src/Documentation/mm
assert "the rename is applied" sh -c "test -f '$S/high-memory.rst' && test ! -e '$S/highmem.rst'"
assert "the mode change is applied" test -x "$S/index.rst"
assert "the binary file is applied" cmp "$S/krepro.bin" "$G/Documentation/mm/krepro.bin"
assert "the UTF-8 line is applied" grep -q 'Jörg was here.' "$S/index.rst"
assert "a From paragraph did not split the mail" sh -c "grep -q 'From me to you' cache/mbox/gfp-*/0004-*.patch"
assert "the reference stays pristine" sh -c "test -f '$ref/Documentation/mm/highmem.rst' && test ! -x '$ref/Documentation/mm/index.rst'"
expect_rc "@N counts the series' own numbering" 0 C patches gfp@3
expect_in "gfp@3 ends with [PATCH 3/4]" "$T_OUT" "0003-docs-mm-add-a-binary-blob.patch"
# b4 0.12 (Debian 12) drops the blank line that ends a binary hunk, so git am
# refuses its .mbx too; the kit names the patch and git's reason.
expect_rc "b4's binary patch is refused, not dropped" 2 C preflight b4s
expect_in "naming the patch and the reason" "$T_OUT" "patch 0003-docs-mm-add-a-binary-blob.patch does not apply: corrupt binary patch"
expect_rc "b4's rename and mode patches apply" 0 C preflight b4s@2
# One broken series is reported and the others still listed.
mkdir -p "$W/patches/aaa-broken"
echo '0001-missing.patch' >"$W/patches/aaa-broken/series"
expect_rc "list-variants with a broken series exits 1" 1 C list-variants
expect_in "naming it" "$T_OUT" "aaa-broken	BROKEN: patches/aaa-broken/series:1: missing patch file '0001-missing.patch'"
expect_in "and still listing those after it" "$T_OUT" "memcg	(also memcg@1..memcg@5"
# SERIES@N of all N patches is the same kernel as SERIES: not built twice.
if [ -f out/kernels/calibration/bzImage ]; then
	mkdir -p "$T_DIR/twin/kernels"
	cp -r out/kernels/calibration "$T_DIR/twin/kernels/"
	expect_rc "calibration@3 after calibration" 0 ./build.sh -O "$T_DIR/twin" kernel calibration@3
	expect_in "reuses the twin's bzImage (the kernel store)" "$T_OUT" "kernel calibration@3: its tree ("
	expect_in "... saying why" "$T_OUT" "), config and compiler were built before: those bytes"
	assert "the same bytes" cmp "$T_DIR/twin/kernels/calibration@3/bzImage" out/kernels/calibration/bzImage
	expect_in "its manifest names its own variant" "$T_DIR/twin/kernels/calibration@3/manifest.json" '"variant": "calibration@3"'
else
	no "out/kernels/calibration is built by the tests before this one"
fi
# Variants build in one work tree (make recompiles what changed): after gfp
# (a rename, a mode change, a new binary file) the tree is gfp's exactly,
# and base built next is base again, bit for bit.
if [ -f out/kernels/base/bzImage ]; then
	expect_rc "build gfp in the shared work tree (not from the kernel store)" 0 env KREPRO_KERNEL_STORE=off "$W/build.sh" -C "$PWD/cache" -O "$T_DIR/o" kernel gfp
	WS=$VR/work/src
	assert "the work tree holds gfp's files" diff -r --no-dereference -x .krepro-patched -x .krepro-work \
		"$WS" "$VR/gfp/src"
	assert "with gfp's mode change" test -x "$WS/Documentation/mm/index.rst"
	expect_rc "base right after gfp (built: not from the kernel store)" 0 env KREPRO_KERNEL_STORE=off ./build.sh -O "$T_DIR/after-gfp" kernel base
	expect_in "... built in the work tree" "$T_OUT" "kernel base: building bzImage"
	assert "the work tree is base's again" sh -c "test -f '$WS/Documentation/mm/highmem.rst' &&
		test ! -e '$WS/Documentation/mm/high-memory.rst' && test ! -x '$WS/Documentation/mm/index.rst' &&
		test ! -e '$WS/Documentation/mm/krepro.bin'"
	assert "base after gfp is base, bit for bit" cmp "$T_DIR/after-gfp/kernels/base/bzImage" out/kernels/base/bzImage
else
	no "out/kernels/base is built by the tests before this one"
fi
unset GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 GIT_CONFIG_KEY_1 GIT_CONFIG_VALUE_1

t_clean
rm -rf "$VR"/calmbox "$VR"/calcover "$VR"/calibration@1 \
	"$VR"/calibration+calibration "$VR"/concur "$VR"/gfp \
	"$VR"/b4s "$VR"/b4s@2
t_summary
exit $T_FAILED
