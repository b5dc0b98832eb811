# shellcheck shell=sh
# lib/build/commits.sh: build.sh's commit variants: with a git reference
# (-R git:REPO@REF), a variant's part that names no series may name a
# commit of REPO (a full or abbreviated id, a tag, a branch).  It builds
# from that commit's own tree: the reference plus the diff from the
# reference's commit to it, made in the kit's scratch repository (git diff
# --binary of two commits: blobs as committed, no filter, attribute or
# hook of REPO runs) and applied as a series' patch is (git apply), so it
# builds incrementally from the nearest built tree like any variant.
# Sourced by build.sh; only definitions.
# Reads: KREPRO_ROOT, KREPRO_CACHE, the reference (ref_in_use: as given,
# its git commit and repository).  Sets: nothing global.

# is_series NAME: patches/ holds a series NAME (a folder, NAME.mbox or .mbx)
is_series() {
	[ -e "$KREPRO_ROOT/patches/$1" ] || [ -f "$KREPRO_ROOT/patches/$1.mbox" ] ||
		[ -f "$KREPRO_ROOT/patches/$1.mbx" ]
}

# commit_of PART: the full id of the commit PART names in the git
# reference's repository; nothing when PART is a series, has @N, or the
# reference is not git.  A name git finds ambiguous, or no commit, stops
# here with git's own words (exit 2: callers write $(commit_of P) || exit 2).
commit_of() {
	case $1 in *@* | base) return 0 ;; esac
	is_series "$1" && return 0
	case $(ref_in_use spec) in git:*@*) ;; *) return 0 ;; esac
	commit_resolve "$1" "variant part '$1'" "no series patches/$1 and no commit '$1'"
}

# commit_resolve NAME WHAT MISSING: the full id of the commit NAME names in
# the git reference's repository; stops saying WHAT and, when git finds no
# such commit, MISSING (both with git's own words).
commit_resolve() {
	co_repo=$(ref_in_use repo)
	# never an option to git: the variant grammar starts with a letter or
	# digit, and --end-of-options says so to git too
	case $1 in -*) die "$2: not a commit name" ;; esac
	co_err=$KREPRO_CACHE/.commit.err.$$
	if ! co_full=$(ref_git rev-parse --verify --end-of-options "$1^{commit}" 2>"$co_err"); then
		co_why=$(grep -v '^hint:' "$co_err" | head -n 1)
		rm -f "$co_err"
		case $co_why in
		*ambiguous*) die "$2: $co_repo: $co_why (give more digits of the id)" ;;
		esac
		die "$2: $3 in $co_repo${co_why:+ (git: $co_why)}"
	fi
	rm -f "$co_err"
	printf '%s\n' "$co_full"
}

# commit_range GOOD..BAD: the commits a bisect searches, oldest first:
# a first line "good FULL NAME" (NAME: base when GOOD is the reference's
# commit, else its short id), then "FULL SHORT SUBJECT" a commit of the
# range (SHORT: git's unique abbreviation, 12 digits at least; the subject
# with control characters made spaces: it is the repository's text).
# GOOD must be an ancestor of BAD, and the range hold no merge: git
# bisect would test the merge's other side too; the refusal says how to
# narrow the range.
commit_range() {
	case $1 in
	*...* | ..* | *.. | *..*..*) die "bisect: '$1': give a range GOOD..BAD (two commits, two dots)" ;;
	*..*) ;;
	*) die "bisect: '$1': give a range GOOD..BAD" ;;
	esac
	case $(ref_in_use spec) in
	git:*@*) ;;
	*) die "bisect $1: the commits are a git reference's: KREPRO_REFERENCE=git:REPO@REF names the repository (the reference: the commit the kernels build from)" ;;
	esac
	cr_good=$(commit_resolve "${1%%..*}" "bisect $1: GOOD" "no commit '${1%%..*}'") || exit 2
	cr_bad=$(commit_resolve "${1##*..}" "bisect $1: BAD" "no commit '${1##*..}'") || exit 2
	ref_git merge-base --is-ancestor "$cr_good" "$cr_bad" ||
		die "bisect $1: ${1%%..*} is not an ancestor of ${1##*..}: a range runs from an older good commit to a newer bad one"
	cr_m=$(ref_git -c core.abbrev=12 log --merges --format='%h (%s)' "$cr_good..$cr_bad" -- | tail -n 1 | tr '\000-\011\013-\037\177' ' ')
	[ -z "$cr_m" ] || die "bisect $1: the range holds the merge $cr_m; bisect a stretch without merges: ${1%%..*}..${cr_m%% *}^ (before it) or ${cr_m%% *}..${1##*..} (after it, when it is good)"
	cr_name=base
	[ "$cr_good" = "$(ref_in_use commit)" ] || cr_name=$(ref_git -c core.abbrev=12 rev-parse --short "$cr_good")
	echo "good $cr_good $cr_name"
	ref_git -c core.abbrev=12 log --reverse --no-decorate --no-show-signature --format='%H %h %s' "$cr_good..$cr_bad" -- |
		tr '\000-\011\013-\037\177' ' '
}

# commit_diff FULL: the path of the diff from the reference's commit to
# FULL (made once, in the cache).
commit_diff() {
	cd_dir=$KREPRO_CACHE/commits/$(ref_id)
	cd_f=$cd_dir/$1.diff
	if [ ! -f "$cd_f" ]; then
		mkdir -p "$cd_dir"
		# text files diff as text (kit_scratch leaves diff unspecified;
		# no driver: --no-ext-diff --no-textconv besides)
		ref_scratch "$cd_dir/git"
		# --full-index and --binary: git apply needs both for binary
		# files; no rename detection: what git apply reads as plain
		# deletions and additions is the same tree
		scratch_git "$cd_dir/git" diff --binary --full-index --no-renames --no-ext-diff \
			--no-textconv "$(ref_in_use commit)" "$1" -- >"$cd_f.tmp" ||
			die "commit $1: git diff from the reference's $(ref_in_use commit) failed"
		rm -rf "$cd_dir/git"
		mv "$cd_f.tmp" "$cd_f"
	fi
	printf '%s\n' "$cd_f"
}

# variant_commits VARIANT: "PART FULL" for each part of VARIANT that is a
# commit, in order.
variant_commits() {
	for vc_part in $(printf '%s\n' "$1" | tr '+' ' '); do
		vc_full=$(commit_of "$vc_part") || exit 2
		[ -z "$vc_full" ] || printf '%s %s\n' "$vc_part" "$vc_full"
	done
}
