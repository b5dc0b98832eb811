#!/bin/sh
# Variant grammar and series forms against the real reference tree:
# SERIES@N, A+B, an mbox with a cover letter, a folder whose series lists a
# cover letter, and preflight errors.  Builds nothing.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
W=$T_DIR/tree
mkdir -p "$W"
cp -r build.sh lib Makefile tools patches configs initramfs "$W/"
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
expect_in "SERIES@0 says how many patches" "$T_OUT" "series calibration has 3 patches, not 0"
expect_rc "preflight of the mbox, the folder and @1" 0 C preflight calmbox calcover calibration@1
expect_in "preflight reports patches per variant" "$T_OUT" "preflight: calibration@1: 1 patch(es) apply"
for v in calmbox calcover; do
	assert "$v gives the same tree as calibration" cmp cache/variants/*/"$v"/src/mm/memory.c \
		cache/variants/*/calibration/src/mm/memory.c
done
assert "calibration@1 carries the knob switched off" grep -q 'static unsigned int fault_delay_ns __read_mostly;' \
	cache/variants/*/calibration@1/src/mm/memory.c
assert "the shared reference stays pristine" sh -c '! grep -q fault_delay_ns cache/reference/*/linux-source-6.12/mm/memory.c'
expect_rc "stacking a series on itself fails" 2 C preflight calibration+calibration
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
assert "concurrent preflights: the tree is whole" cmp cache/variants/*/concur/src/mm/memory.c \
	cache/variants/*/calibration/src/mm/memory.c
assert "concurrent preflights: as many files as the reference" test \
	"$(find cache/variants/*/concur/src -type f | wc -l)" -ge "$(find cache/reference/*/linux-source-6.12 -type f | wc -l)"
rm -rf "$T_DIR" cache/variants/*/calmbox cache/variants/*/calcover cache/variants/*/calibration@1 \
	cache/variants/*/calibration+calibration cache/variants/*/concur
exit $T_FAILED
