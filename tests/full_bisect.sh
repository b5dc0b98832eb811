#!/bin/sh
# Bisection against an effect of known place: memcg's patch 4 of 5 (a
# faulting task flushes its due statistics) is the step that slows
# page_fault3 in a memory cgroup; patches 2 and 3 move it by less than a
# tenth of the series.  The series bisect must name patch 4, and commit 4
# when the series is five commits of a git tree (issue 49), with the same
# digits.  The searches run in exact mode (3 seeds a side, two boots at
# once, one base for every step); real mode is checked on calibration's
# full series: its statistics and its own base per step.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
cat >"$T_DIR/m.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: 7s
clock: exact
runs: 3
memcg: on
M
expect_rc "bisect memcg on per_process_ops (exact)" 0 ./run-matrix.sh bisect -j 2 -o "$T_DIR/res" -m "$T_DIR/m.yaml" \
	memcg will-it-scale.per_process_ops
expect_in "names the patch whose flush slows the faults" "$T_OUT" "0004-mm-memcontrol-let-a-faulting-task-flush-its-due-stat.patch"
expect_in "says which patch of how many" "$T_OUT" "patch 4 of 5"
expect_in "the full series moved the metric" "$T_OUT" "memcg@5: will-it-scale.per_process_ops"
expect_in "a step below a tenth of the series is not its step" "$T_OUT" "below a tenth of the whole change: "
expect_in "exact mode: three seeds a side" "$T_OUT" "3 runs each"
expect_in "exact mode: the verdicts are over seeds, with their floor" "$T_OUT" "(exact, seeds 3 vs 3, p="
assert "exact mode: one base for every step" sh -c "[ \$(find '$T_DIR/res' -type d -name base | wc -l) = 1 ] && [ ! -e '$T_DIR/res/step-3' ]"
assert "exact mode: no step booted more than its seeds" test ! -d "$(find "$T_DIR/res" -type d -name 4 | head -n 1)"

# The same patches as commits of a developer's git tree (issue 49): the
# pinned tree committed, memcg git am'ed on it; bisect over the
# commits names the commit of patch 4, with the same digits as the
# series' steps (each commit's tree is its series step's: the kernel
# store gives the same bytes, nothing is built; job.conf carries no
# variant name).  Base is the series bisect's (kept runs: the same tree).
pinned_repo "$T_DIR/linux.git" memcg
C4=$(git --git-dir="$T_DIR/linux.git" rev-parse series~1)
RID=git-$(printf '%.16s' "$A")
# shellcheck disable=SC2317 # called through expect_rc
cbisect() { env KREPRO_REFERENCE="git:$T_DIR/linux.git@$A" ./run-matrix.sh bisect -j 2 -o "$T_DIR/res" -m "$T_DIR/m.yaml" "$1" will-it-scale.per_process_ops; }
expect_rc "bisect over the commits of a git tree (the pinned tree + memcg, git am)" 0 cbisect "$A..series"
expect_in "names the commit of patch 4, of 5" "$T_OUT" "first commit of $A..series that moves will-it-scale.per_process_ops: commit 4 of 5"
expect_in "... by its full id" "$T_OUT" "    $C4"
expect_in "... and subject" "$T_OUT" "    mm: memcontrol: let a faulting task flush its due statistics"
expect_in "prints the step table" "$T_OUT" "steps (will-it-scale.per_process_ops, base against each; seconds: build and boots):"
expect_in "... a row a step" "$T_OUT" "  4/5  $(printf '%.12s' "$C4") mm: memcontrol: let a faulting task flush its due statistics"
expect_in "each commit's kernel came from the kernel store" "$T_DIR/res/bisect.log" "config and compiler were built before: those bytes"
# shellcheck disable=SC2016 # awk's
assert "each commit read its series step's digits, seed for seed" sh -c '
	d=$(dirname "$(find "$1/res" -type d -name "memcg@2" | head -n 1)")
	for k in 2 3 4 5; do
		c=$(git --git-dir="$1/linux.git" rev-parse --short=12 "series~$((5 - k))")
		for r in 1 2 3; do
			a=$(grep -o "per_process_ops[^,}]*" "$d/memcg@$k/$r/stats.json")
			b=$(grep -o "per_process_ops[^,}]*" "$d/$c/$r/stats.json")
			[ -n "$a" ] && [ "$a" = "$b" ] || exit 1
		done
	done' sh "$T_DIR"
# A commit that does not build is skipped and named (git bisect skip):
# patches 1-3 with an #error in the build's first program (fixdep), then
# the fix with patch 4 (memcg@4's tree: its kernel from the store); the
# only commit between good and bad does not build, so the answer is both,
# and exit 3.
W=$T_DIR/linux.git.wt
gw() { GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' git -C "$W" -c user.name=krepro -c user.email=krepro@localhost "$@"; }
gw sparse-checkout add /scripts/basic/fixdep.c 2>/dev/null
if ! { gw checkout -q -b broken "$A" && gw apply "$PWD"/patches/memcg/000[123]-*.patch &&
	echo '#error krepro: a commit that does not build' >>"$W/scripts/basic/fixdep.c" &&
	gw commit -qam "mm: memcontrol: batches, and a build that fails" && sed -i '$d' "$W/scripts/basic/fixdep.c" &&
	gw apply "$PWD"/patches/memcg/0004-*.patch && gw commit -qam "mm: memcontrol: the build fixed, the flush in"; }; then
	no "the broken branch: git failed"
fi
expect_rc "bisect over a commit that does not build" 3 cbisect "$A..broken"
expect_in "... skips it, saying so" "$T_OUT" "mm: memcontrol: batches, and a build that fails does not build: skipped"
expect_in "... in the step table" "$T_OUT" "does not build: skipped"
expect_in "... the answer is the commits left" "$T_OUT" "bisect: the first commit of $A..broken that moves will-it-scale.per_process_ops is one of these (the others between do not build):"
expect_in "... the fix among them" "$T_OUT" " mm: memcontrol: the build fixed, the flush in"
# from-report --repo on that tree: a 0-day-shaped email (seed 002's
# excerpt, its ids made commit 4's, and commit 3's over its table) gives a
# matrix comparing commit 3 (the reference) with commit 4; run with the
# bisect's cell in place of the email's tests, its runs are the bisect's
# (the same 12 digits, the same kernels: kept, nothing booted), and its
# verdict is the series' memcg@3 against memcg@4, digit for digit.
C3=$(git --git-dir="$T_DIR/linux.git" rev-parse series~2)
zero_day_email "$C4" "$C3" "$T_DIR/email.txt"
expect_rc "from-report --repo with the real tree" 0 ./run-matrix.sh from-report -o "$T_DIR/fr.yaml" --repo "$T_DIR/linux.git" "$T_DIR/email.txt"
expect_in "... the parent is the reference" "$T_DIR/fr.yaml" "reference: git:$T_DIR/linux.git@$C3"
{ sed -n '/^# 0-day build:/p; /^reference:/p; /^variants:/p' "$T_DIR/fr.yaml"; cat "$T_DIR/m.yaml"; } >"$T_DIR/frm.yaml"
expect_rc "... its comparison run (the bisect's cell)" 0 ./run-matrix.sh -j 2 -o "$T_DIR/res" "$T_DIR/frm.yaml"
assert "... nothing booted: the bisect's runs of those commits, kept" test "$(grep -c ' run [1-3]: complete, kept$' "$T_OUT")" = 6
expect_in "... the report says the kit's compiler is not the email's" "$T_OUT" "0-day built with gcc-7, the kit with gcc"
grep '^will-it-scale.per_process_ops: ' "$T_OUT" >"$T_DIR/fr.verdict"
d=$(dirname "$(find "$T_DIR/res" -type d -name "memcg@3" | head -n 1)")
./run-matrix.sh compare "$d/memcg@3" "$d/memcg@4" 2>&1 | grep '^will-it-scale.per_process_ops: ' >"$T_DIR/series.verdict"
assert "... its verdict is the series', digit for digit" sh -c "grep -q 'regression' '$T_DIR/fr.verdict' && cmp -s '$T_DIR/fr.verdict' '$T_DIR/series.verdict'"
# Debian's base back in out/ (from the store), the git reference's trees gone
./build.sh kernel base >/dev/null 2>&1
for r in "$RID" "git-$(printf '%.16s' "$C3")"; do
	rm -rf "cache/reference/$r" "cache/reference/$r.lock" "cache/reference/$r.tree" "cache/variants/$r" "cache/commits/$r"
done
rm -rf out/kernels/[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]

# Real mode: 3 runs a side, and base is timed again beside every step (a
# base kept from an earlier step once made patch 1 read -19.5% on a host
# that had slowed down meanwhile).
sed 's/^clock: exact/clock: real/; s/^runtime: 7s/runtime: 5s/' "$T_DIR/m.yaml" >"$T_DIR/real.yaml"
expect_rc "real mode: a metric the series does not move: nothing to bisect" 1 ./run-matrix.sh bisect \
	-o "$T_DIR/real" -m "$T_DIR/real.yaml" calibration meminfo.MemTotal
expect_in "says so" "$T_OUT" "nothing to bisect"
expect_in "real mode: 3 runs a side" "$T_OUT" "3 runs each"
assert "real mode: the step measured its own base" \
	test -d "$(find "$T_DIR/real/step-3" -type d -name base | head -n 1)"
t_clean
t_summary
exit $T_FAILED
