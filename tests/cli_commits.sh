#!/bin/sh
# Commits as variants (issue 49 item 1), on a small git history of the
# tests' own (never a real kernel): with a git reference, a variant part
# that names no series may name a commit of that repository (an
# abbreviated or full id, a tag, a branch); it builds from the commit's own
# tree (the reference plus the diff between the two commits, as text),
# recorded by its full id in the manifest; nothing of the repository runs
# (its textconv driver and attributes stay data); an ambiguous id or a
# missing commit stops before anything builds, in git's words.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

L=$T_DIR/linux
small_repo "$L" memcontrol "v6.12 (the reference)"
g() { git -C "$L" -c user.name=t -c user.email=t@example.org "$@"; }
sed -i 's/^int line15;$/int line15 = 1; \/* one *\//' "$L/mm/memcontrol.c"
g commit -q -am "mm: memcg: one"
B=$(g rev-parse HEAD)
# the repository asks, for every path, a diff driver whose textconv would
# run a program: the kit's diff must never run it
printf '* diff=evil\n' >"$L/.gitattributes"
g config diff.evil.textconv "touch $T_DIR/textconv-ran; cat"
sed -i 's/^int line25;$/int line25 = 2; \/* two *\//' "$L/mm/memcontrol.c"
g add . && g commit -q -m "mm: memcg: two"
g tag v6.13-rc1
C=$(g rev-parse HEAD)
B10=$(printf '%s' "$B" | cut -c1-10)

K=$T_DIR/kt
copy_checkout "$K"
# shellcheck disable=SC2317 # called through expect_rc
R() { "$K/build.sh" -C "$T_DIR/cache" -R "git:$L@$A" "$@"; }

expect_rc "an abbreviated id is a variant" 0 R patches "$B10"
expect_in "... its patch: the diff from the reference's commit, in the cache" "$T_OUT" "/commits/git-$(printf '%s' "$A" | cut -c1-16)/$B.diff"
D=$(tail -n 1 "$T_OUT")
assert "... as text a reviewer reads" grep -qx '+int line15 = 1; /\* one \*/' "$D"
expect_rc "a tag is a variant" 0 R preflight v6.13-rc1
expect_in "... preflight names its full id" "$T_OUT" "v6.13-rc1 is commit $C (its diff from the reference $(printf '%s' "$A" | cut -c1-12))"
src=$(find "$T_DIR"/cache/variants/git-*/v6.13-rc1/src -maxdepth 0)
assert "... its tree is the commit's" sh -c "grep -qx 'int line15 = 1; /\\* one \\*/' '$src/mm/memcontrol.c' && grep -qx 'int line25 = 2; /\\* two \\*/' '$src/mm/memcontrol.c' && grep -qx '\\* diff=evil' '$src/.gitattributes'"
assert "... the repository's textconv never ran" test ! -e "$T_DIR/textconv-ran"
assert "... the reference tree is untouched" grep -qx 'int line15;' "$T_DIR"/cache/reference/git-*/linux/mm/memcontrol.c

# the manifest, as build.sh kernel writes it (no kernel built: its files faked)
mkdir -p "$T_DIR/fake"
echo config >"$T_DIR/fake/config"
echo kernel >"$T_DIR/fake/bzImage"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the manifest" 0 sh -c 'KREPRO_ROOT=$1 KREPRO_CACHE=$2 KREPRO_PROG=build KCONFIG_NAME=x; . "$1/lib/shared/common.sh"; for m in "$1"/lib/*/*.sh "$1"/lib/*/*/*.sh; do . "$m"; done; reference_use "$3"; write_kernel_manifest "$5" "$4"' sh "$K" "$T_DIR/cache" "git:$L@$A" "$T_DIR/fake" "$B10"
expect_in "... records the commit by its full id" "$T_OUT" "\"commits\": [{\"part\": \"$B10\", \"commit\": \"$B\"}]"
expect_in "... and its diff among the patches" "$T_OUT" "{\"series\": \"commit\", \"file\": \"$B.diff\", \"sha256\": \"$(sha256sum "$D" | cut -d' ' -f1)\"}"
assert "... valid JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T_OUT"
cp "$T_OUT" "$T_DIR/out.manifest"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the manifest of REF~1" 0 sh -c 'KREPRO_ROOT=$1 KREPRO_CACHE=$2 KREPRO_PROG=build KCONFIG_NAME=x; . "$1/lib/shared/common.sh"; for m in "$1"/lib/*/*.sh "$1"/lib/*/*/*.sh; do . "$m"; done; reference_use "$3"; write_kernel_manifest "$5" "$4" >"$6" && manifest_commits "$6"' sh "$K" "$T_DIR/cache" "git:$L@$A" "$T_DIR/fake" "v6.13-rc1~1" "$T_DIR/anc.manifest"
expect_in "... reads back the commit and the name as written" "$T_OUT" "commit $B v6.13-rc1~1"

expect_rc "a commit the repository lacks is refused" 2 R patches 0123456789abcdef
expect_in "... in git's words, before anything builds" "$T_OUT" "variant part '0123456789abcdef': no series patches/0123456789abcdef and no commit '0123456789abcdef' in $L (git: fatal: Needed a single revision)"
assert "... and nothing was exported" test ! -d "$T_DIR/cache/commits/git-$(printf '%s' "$A" | cut -c1-16)/0123456789abcdef.diff"
# an abbreviation two commits share: 1500 commits made in one git
# fast-import (fixed dates: the same ids every time) hold two whose ids
# share 4 digits
awk -v c="$C" 'BEGIN {
	for (n = 1; n <= 1500; n++) {
		m = "empty " n
		printf "commit refs/heads/many\ncommitter t <t@example.org> 1700000000 +0000\ndata %d\n%s\n", length(m), m
		if (n == 1) printf "from %s\n", c
		printf "\n"
	}
}' | g fast-import --quiet
amb=$(g rev-list --all | cut -c1-4 | sort | uniq -d | head -n 1)
if [ -n "$amb" ]; then
	expect_rc "an abbreviation two commits share is refused" 2 R patches "$amb"
	expect_in "... in git's words, asking for more digits" "$T_OUT" "variant part '$amb': $L: error: short object ID $amb is ambiguous (give more digits of the id)"
else
	no "no two of 1500 commits shared 4 digits (the ambiguity check did not run)"
fi
expect_rc "without a git reference an unknown name is an unknown series" 2 "$K/build.sh" -C "$T_DIR/cache" patches "$B10"
expect_in "... as before" "$T_OUT" "unknown series '$B10'"
expect_rc "REF^ is a variant: the commit's parent" 0 R preflight "v6.13-rc1^"
expect_in "... named as written, by its full id" "$T_OUT" "v6.13-rc1^ is commit $B (its diff from the reference $(printf '%s' "$A" | cut -c1-12))"
expect_rc "REF~N is a variant: N parents back" 0 R preflight "v6.13-rc1~2"
expect_in "... here the reference's own commit" "$T_OUT" "v6.13-rc1~2 is commit $A (the reference itself)"
expect_rc "a name starting with ~ is refused" 2 R patches "~1"
expect_in "... by the grammar" "$T_OUT" "bad variant name '~1'"
expect_rc "a name that is not a git name is refused by the variant grammar" 2 R patches "v6..13"
expect_in "... saying what a variant is" "$T_OUT" "bad variant name 'v6..13' (base, SERIES, SERIES@N, A+B, and with a git reference a commit: an id, a tag, REF^, REF~N)"

# a matrix naming commits: planned with the git reference run-matrix is
# given (KREPRO_REFERENCE), each commit checked before anything builds
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 5s\nvariants: [base, %s, v6.13-rc1]\n' "$B10" >"$T_DIR/m.yaml"
expect_rc "a matrix whose variants are commits plans" 0 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$A" ./run-matrix.sh --dry-run "$T_DIR/m.yaml"
expect_in "... each commit a variant of its own" "$T_OUT" "variants: base $B10 v6.13-rc1"
sed 's/v6.13-rc1]/v6.13-rc1^, v6.13-rc1~2, v6.13-rc1]/' "$T_DIR/m.yaml" >"$T_DIR/anc.yaml"
expect_rc "a matrix naming REF^ and REF~N plans" 0 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$A" ./run-matrix.sh --dry-run "$T_DIR/anc.yaml"
expect_in "... each a variant named as written" "$T_OUT" "variants: base $B10 v6.13-rc1^ v6.13-rc1~2 v6.13-rc1"
expect_in "... its own results folder" "$T_OUT" "/gcc-12/v6.13-rc1^/{1..3}"
sed "s/v6.13-rc1/0123456789abcdef/" "$T_DIR/m.yaml" >"$T_DIR/missing.yaml"
expect_rc "a matrix naming a commit the repository lacks is refused" 2 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$A" ./run-matrix.sh --dry-run "$T_DIR/missing.yaml"
expect_in "... naming the matrix's line" "$T_OUT" "missing.yaml:6: variant '0123456789abcdef': variant part '0123456789abcdef': no series patches/0123456789abcdef and no commit"

# a run of a commit variant: its images name the commit, job.yaml's
# commit: is the full id (lkp-tests' own field), the report says it
mkdir -p "$T_DIR/run"
printf 'suite=will-it-scale\ntest=page_fault3\nclock=exact\n' >"$T_DIR/run/job.conf"
printf 'variant=%s\n' "$B10" >"$T_DIR/run/host.conf"
printf 'kernel 00\ninitramfs 11\ncommit %s %s\n' "$B" "$B10" >"$T_DIR/run/images"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "job.yaml of a commit variant's run" 0 sh -c 'KREPRO_ROOT=$PWD; . ./lib/shared/common.sh; . ./lib/run/runs.sh; write_job_yaml "$1/job.conf" qemu-2node "$1/job.yaml"' sh "$T_DIR/run"
assert "... commit: the full id" grep -qx "commit: '$B'" "$T_DIR/run/job.yaml"
mkdir -p "$T_DIR/kout/kernels/$B10"
cp "$T_DIR/out.manifest" "$T_DIR/kout/kernels/$B10/manifest.json"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the report's lines for the variant" 0 sh -c 'KREPRO_OUT=$1; . ./lib/run/images.sh; . ./lib/run/report.sh; context_notes base "$2"' sh "$T_DIR/kout" "$B10"
expect_in "... name the commit by its full id (report.txt, under each comparison)" "$T_OUT" "variant $B10: $B10 is commit $B"

# bisect's range (issue 49 item 3): the commits GOOD..BAD, oldest first,
# GOOD named base when it is the reference's commit
expect_rc "commit-range lists a range's commits" 0 R commit-range "$A..v6.13-rc1"
assert "... GOOD first (the reference's commit: base), then each commit oldest first: id, git's short id, subject" \
	test "$(cut -d' ' -f1,3- "$T_OUT" | tr '\n' '|')" = "good base|$B mm: memcg: one|$C mm: memcg: two|"
assert "... short ids of 12 digits" test "$(sed -n '2s/^[0-9a-f]* \([0-9a-f]*\) .*/\1/p' "$T_OUT")" = "$(printf '%s' "$B" | cut -c1-12)"
expect_rc "a GOOD that is not the reference" 0 R commit-range "$B10..$C"
expect_in "... is named by its short id" "$T_OUT" "good $B $(printf '%s' "$B" | cut -c1-12)"
expect_rc "a GOOD newer than BAD is refused" 2 R commit-range "$C..$A"
expect_in "... saying which way a range runs" "$T_OUT" "is not an ancestor of $A: a range runs from an older good commit to a newer bad one"
expect_rc "three dots are refused" 2 R commit-range "$A...$C"
expect_in "... asking for two" "$T_OUT" "give a range GOOD..BAD (two commits, two dots)"
expect_rc "a BAD the repository lacks is refused" 2 R commit-range "$A..0123456789abcdef"
expect_in "... in git's words" "$T_OUT" "bisect $A..0123456789abcdef: BAD: no commit '0123456789abcdef' in $L (git: fatal: Needed a single revision)"
expect_rc "without a git reference there is no range" 2 "$K/build.sh" -C "$T_DIR/cache" commit-range "$A..$C"
expect_in "... said with the way to give one" "$T_OUT" "the commits are a git reference's: KREPRO_REFERENCE=git:REPO@REF"
# a side branch merged: the range holds a merge; a subject carrying an
# escape sequence is printed without it
g checkout -q -b side "$B"
sed -i 's/^int line35;$/int line35 = 3;/' "$L/mm/memcontrol.c"
g commit -q -am "$(printf 'mm: side \033[31mred')"
g checkout -q -b merged "$C"
g merge -q --no-edit -m "Merge branch side" side >/dev/null
M=$(g rev-parse --short=12 HEAD)
expect_rc "a range holding a merge is refused" 2 R commit-range "$A..merged"
expect_in "... naming the merge and two ranges without it" "$T_OUT" "the range holds the merge $M (Merge branch side); bisect a stretch without merges: $A..$M^ (before it) or $M..merged (after it, when it is good)"
expect_rc "... as bisect says it, before anything builds or boots" 2 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$A" \
	./run-matrix.sh bisect -o "$T_DIR/bis" "$A..merged" will-it-scale.per_process_ops
expect_in "... (run-matrix)" "$T_OUT" "the range holds the merge $M"
assert "... no results folder" test ! -d "$T_DIR/bis/will-it-scale"
expect_rc "the side branch's range" 0 R commit-range "$B..side"
assert "... its subject without the escape character" sh -c "tail -n 1 '$T_OUT' | grep -q ' mm: side  \[31mred\$' && ! grep -q \"\$(printf '\\033')\" '$T_OUT'"

# A matrix names its reference (reference:, issue 49 item 2): planned on it
# with no KREPRO_REFERENCE; one a matrix, and not another than the
# environment's
{ printf 'reference: git:%s@%s\n' "$L" "$A"; cat "$T_DIR/m.yaml"; } >"$T_DIR/ref.yaml"
expect_rc "a matrix's reference: its commits plan without KREPRO_REFERENCE" 0 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh --dry-run "$T_DIR/ref.yaml"
expect_in "... each commit a variant" "$T_OUT" "variants: base $B10 v6.13-rc1"
expect_rc "... another reference in KREPRO_REFERENCE is refused" 2 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$B" ./run-matrix.sh --dry-run "$T_DIR/ref.yaml"
expect_in "... naming both" "$T_OUT" "ref.yaml:1: reference 'git:$L@$A', but KREPRO_REFERENCE is 'git:$L@$B': give one of them"
sed "1s/.*/reference: [git:$(printf '%s' "$L" | sed 's/[\/&]/\\&/g')@$A, git:$(printf '%s' "$L" | sed 's/[\/&]/\\&/g')@$B]/" "$T_DIR/ref.yaml" >"$T_DIR/ref2.yaml"
expect_rc "two references in one matrix are refused" 2 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh --dry-run "$T_DIR/ref2.yaml"
expect_in "... saying one a matrix" "$T_OUT" "one reference a matrix: 'git:$L@$A' and 'git:$L@$B'"
{ printf 'reference: git:%s@v6.13-rc1~2\n' "$L"; cat "$T_DIR/m.yaml"; } >"$T_DIR/refanc.yaml"
expect_rc "a matrix's reference may name REF~N" 0 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh --dry-run "$T_DIR/refanc.yaml"
expect_in "... (its commits plan on it)" "$T_OUT" "variants: base $B10 v6.13-rc1"
{ printf 'reference: tarball:%s/none.tar.xz#0a1b2c\n' "$T_DIR"; sed 's/^variants:.*/variants: base/' "$T_DIR/m.yaml"; } >"$T_DIR/reftar.yaml"
expect_rc "a matrix's reference: tarball:PATH#SHA256 parses ('#' inside a value is not a comment)" 2 ./run-matrix.sh --dry-run "$T_DIR/reftar.yaml"
expect_in "... and reaches the tarball's check" "$T_OUT" "reference tarball '$T_DIR/none.tar.xz' not found"
sed "1s/.*/reference: \/no\/prefix/" "$T_DIR/ref.yaml" >"$T_DIR/ref3.yaml"
expect_rc "a reference that is neither tarball: nor git: is refused" 2 ./run-matrix.sh --dry-run "$T_DIR/ref3.yaml"
expect_in "... saying the two forms" "$T_OUT" "bad value '/no/prefix' for 'reference': expected tarball:PATH[#SHA256] or git:REPO@REF"

# from-report --repo (issue 49 item 2): seed 002's excerpt with its ids
# made this repository's: the commit is C, the parent over its table B
zero_day_email "$C" "$B" "$T_DIR/email.txt"
expect_rc "from-report --repo: the email's commit and its parent" 0 env KREPRO_CACHE="$T_DIR/cache" \
	./run-matrix.sh from-report -o "$T_DIR/fr.yaml" --repo "$L" "$T_DIR/email.txt"
expect_in "... says which two, from where" "$T_OUT" "from-report: $(printf %.12s "$B") (the parent) against $(printf %.12s "$C"), from $L"
expect_in "... the parent is the matrix's reference" "$T_DIR/fr.yaml" "reference: git:$L@$B"
expect_in "... parent and commit are its variants, named by 12 digits" "$T_DIR/fr.yaml" "variants: [$(printf %.12s "$B"), $(printf %.12s "$C")]"
expect_in "... the email's compiler and kconfig, recorded" "$T_DIR/fr.yaml" "# 0-day build: compiler gcc-7, kconfig x86_64-rhel-7.2 (the report says how the kit's differs)"
expect_rc "... it plans as written (no KREPRO_REFERENCE)" 0 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh --dry-run "$T_DIR/fr.yaml"
expect_rc "... the parent builds as the reference itself" 0 env KREPRO_CACHE="$T_DIR/cache" KREPRO_REFERENCE="git:$L@$B" "$K/build.sh" -C "$T_DIR/cache" preflight "$(printf %.12s "$B")"
expect_in "... with no patch" "$T_OUT" "0 patch(es) apply; $(printf %.12s "$B") is commit $B (the reference itself)"
expect_rc "bisect -m that matrix: its reference is the range's repository" 2 env KREPRO_CACHE="$T_DIR/cache" \
	./run-matrix.sh bisect -o "$T_DIR/bis2" -m "$T_DIR/fr.yaml" "$A..merged" will-it-scale.per_process_ops
expect_in "... (the range read in it: its merge refused)" "$T_OUT" "the range holds the merge $M"
expect_rc "from-report --repo of a folder that is not there" 2 ./run-matrix.sh from-report --repo "$T_DIR/no-such-repo" "$T_DIR/email.txt"
expect_in "... says so before any work" "$T_OUT" "from-report: --repo $T_DIR/no-such-repo: no such folder"
mkdir -p "$T_DIR/a repo"
git -C "$L" clone -q --bare . "$T_DIR/a repo/linux.git" 2>/dev/null
expect_rc "from-report --repo of a path the reference key cannot hold" 2 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh from-report --repo "$T_DIR/a repo/linux.git" "$T_DIR/email.txt"
expect_in "... refused before any work, saying what the key holds" "$T_OUT" "the matrix's reference: cannot hold this path (letters, digits and _.-+/:@#%=,~^ only)"
expect_rc "from-report without --repo" 0 ./run-matrix.sh from-report -o "$T_DIR/fr0.yaml" "$T_DIR/email.txt"
expect_in "... says the commit is not compared, and how to" "$T_OUT" "from-report: the email's commit $(printf %.12s "$C") is not compared: from-report --repo REPO (a git tree holding it) writes its comparison; base here"
assert "... in the matrix's first comment line" sh -c "head -n 1 '$T_DIR/fr0.yaml' | grep -q 'is not compared: from-report --repo REPO'"
assert "... and no reference or variants" sh -c "! grep -q '^reference:\|^variants:' '$T_DIR/fr0.yaml'"
sed "s/$C/0123456789abcdef0123456789abcdef01234567/" "$T_DIR/email.txt" >"$T_DIR/email-other.txt"
expect_rc "from-report --repo of a tree without the commit" 0 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh from-report -o "$T_DIR/fr1.yaml" --repo "$L" "$T_DIR/email-other.txt"
assert "... the first comment line says why, in git's words" sh -c "head -n 1 '$T_DIR/fr1.yaml' | grep -q \"is not compared: reference git:$L: no commit '0123456789abcdef0123456789abcdef01234567'\""
assert "... base" sh -c "! grep -q '^reference:\|^variants:' '$T_DIR/fr1.yaml'"
# the report's lines for the email's build (from the matrix and a manifest)
mkdir -p "$T_DIR/bout/kernels/x"
printf '{\n  "kconfig": "qemu-minimal",\n  "compiler": "gcc (Debian 12.2.0-14) 12.2.0",\n  "tools": "t"\n}\n' >"$T_DIR/bout/kernels/x/manifest.json"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "the report compares the email's build with the kit's" 0 sh -c 'KREPRO_OUT=$1; . ./lib/shared/common.sh; . ./lib/run/images.sh; . ./lib/run/report.sh; build_notes "$2" x' sh "$T_DIR/bout" "$T_DIR/fr.yaml"
expect_in "... another compiler" "$T_OUT" "0-day built with gcc-7, the kit with gcc (Debian 12.2.0-14) 12.2.0: another compiler, another kernel"
expect_in "... another config" "$T_OUT" "0-day built with kconfig x86_64-rhel-7.2, the kit with configs/qemu-minimal.config: another config, another kernel"
sed 's/gcc-7/gcc-12/; s/x86_64-rhel-7.2/qemu-minimal/' "$T_DIR/fr.yaml" >"$T_DIR/fr12.yaml"
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "... the same gcc major and config" 0 sh -c 'KREPRO_OUT=$1; . ./lib/shared/common.sh; . ./lib/run/images.sh; . ./lib/run/report.sh; build_notes "$2" x' sh "$T_DIR/bout" "$T_DIR/fr12.yaml"
assert "... say nothing" test ! -s "$T_OUT"

t_clean
t_summary
exit $T_FAILED
