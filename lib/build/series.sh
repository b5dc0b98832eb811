# shellcheck shell=sh
# lib/build/series.sh: build.sh's variants and patches: series folders and mboxes (git
# mailsplit/mailinfo), variant names (SERIES@N, COMMIT, A+B) -> patch files, preflight.
# Sourced by build.sh; only definitions, so a
# script edited while it runs cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE, the reference (ref_in_use: as given,
# its git commit and repository).  Sets: nothing global.

# A patch file carries a diff when it has a git diff header (renames, mode
# changes and binary diffs have no ---/+++ lines) or a plain one.
has_diff() { grep -q '^diff --git \|^--- ' "$1" && grep -q '^diff --git \|^+++ ' "$1"; }

# Split an mbox (git format-patch, b4 am's .mbx, a mail client) with git's own
# mailsplit (mboxrd ">From " unquoted) and mailinfo (RFC 2047 headers and
# transfer encodings decoded): one NNNN-slug.patch per patch mail, in the
# series' own [PATCH N/M] order when every patch is numbered.  A cover
# letter is skipped; its base-commit: line is kept in OUTDIR/base-commit.
split_mbox() { # mbox outdir
	need_cmd git git
	mkdir -p "$2/raw"
	git mailsplit --mboxrd -o"$2/raw" "$1" >/dev/null || die "$1: git mailsplit cannot read it as an mbox"
	: >"$2/order"
	for m in "$2"/raw/*; do
		[ -f "$m" ] || continue
		k=$(basename "$m" | sed 's/^0*//')
		git mailinfo -k -u "$2/msg" "$2/diff" <"$m" >"$2/info" 2>"$2/mailinfo.log" ||
			die "$1: message $k: git mailinfo: $(head -n 1 "$2/mailinfo.log")"
		ms=$(sed -n 's/^Subject: //p' "$2/info" | head -n 1)
		bc=$(grep -h -m1 -o '^base-commit: [0-9a-f]\{40\}' "$m" | cut -c14-) || true
		[ -z "$bc" ] || echo "$bc" >"$2/base-commit"
		if [ ! -s "$2/diff" ]; then
			# A cover letter ([PATCH 0/N]) or a mail that is no patch is
			# skipped; a numbered patch or a message without a Subject
			# that has no diff is a cut or damaged mbox, never dropped.
			case $ms in
			*PATCH*\ 0/[0-9]*) continue ;;
			*PATCH*) die "$1: message $k ('$ms') has no diff: a cut or damaged mbox?" ;;
			'') die "$1: message $k has no Subject and no diff: a cut or damaged mbox?" ;;
			*) continue ;;
			esac
		fi
		n=$(printf '%s\n' "$ms" | sed -n 's/^\[[^]]*[^0-9]\([0-9][0-9]*\)\/[0-9][0-9]*\].*/\1/p')
		{
			printf 'From: %s <%s>\n' "$(sed -n 's/^Author: //p' "$2/info")" "$(sed -n 's/^Email: //p' "$2/info")"
			sed -n 's/^Date: /Date: /p' "$2/info"
			printf 'Subject: %s\n\n' "$ms"
			cat "$2/msg"
			printf -- '---\n'
			cat "$2/diff"
		} >"$m.patch"
		echo "${n:--} $m.patch" >>"$2/order"
	done
	# The series' own numbering orders it when every patch carries one.
	if ! grep -q '^- ' "$2/order" && [ -s "$2/order" ]; then
		sort -n -s -k1,1 "$2/order" >"$2/order.sorted"
		awk '$1 != NR { exit 1 }' "$2/order.sorted" ||
			die "$1: patches numbered $(cut -d' ' -f1 "$2/order.sorted" | tr '\n' ' ' | sed 's/ $//'), not 1..$(wc -l <"$2/order.sorted"): a patch is missing or repeated"
		mv "$2/order.sorted" "$2/order"
	fi
	i=0
	while read -r _ f; do
		i=$((i + 1))
		# Named about as git format-patch names them: the subject without
		# its [PATCH] tag, letters, digits, '.' and '_' kept, other runs
		# as '-', 52 characters at most.
		slug=$(patch_subject "$f" | sed 's/^\[[^]]*\] *//; s/[^A-Za-z0-9._][^A-Za-z0-9._]*/-/g; s/^-//; s/-$//' | cut -c1-52)
		mv "$f" "$(printf '%s/%04d-%s.patch' "$2" "$i" "${slug:-patch}")"
	done <"$2/order"
	rm -rf "$2/raw" "$2/msg" "$2/diff" "$2/info" "$2/order" "$2/mailinfo.log"
}

# The series a patch path belongs to (an mbox's patches live in the cache).
patch_series() {
	case $1 in
	"$KREPRO_CACHE"/commits/*) echo commit ;;
	"$KREPRO_CACHE"/mbox/*)
		ps=${1#"$KREPRO_CACHE"/mbox/}
		ps=${ps%%/*}
		echo "${ps%-*}"
		;;
	*) basename "$(dirname "$1")" ;;
	esac
}

variant_series() { # variant -> its series, one per line (not its commits)
	[ "$1" != base ] || return 0
	for vs_p in $(printf '%s\n' "$1" | tr '+' ' '); do
		vs_c=$(commit_of "$vs_p") || exit 2
		[ -n "$vs_c" ] || printf '%s\n' "${vs_p%%@*}"
	done
}

# The base-commit: a series names (format-patch --base, b4), if any.
series_base_commit() { # series (after series_patches split it)
	bm=$(series_mbox "$1") || exit 2
	if [ -n "$bm" ]; then
		bf=$(series_split_dir "$1" "$bm")/base-commit
		[ ! -f "$bf" ] || head -n 1 "$bf"
		return 0
	fi
	cat "$KREPRO_ROOT/patches/$1"/* 2>/dev/null | grep -m1 -o '^base-commit: [0-9a-f]\{40\}' | cut -c14- || true
}

# series_context SERIES: the lines of context its patches are applied with
# when fewer than git's full three (git apply -C N): "context=N" (0, 1 or
# 2) in patches/SERIES.apply, written by the user who accepts it (a
# series written on a tree where a later backport changed a context
# line); "" for full context.  Never chosen by the kit: recorded in the
# manifest, shown by list-variants, preflight and the reports.
series_context() {
	series_apply_key "$1" context '0 1 2' 'N (0, 1 or 2: the lines of context git apply -C N needs)'
}

# series_merge SERIES: "3way" when patches/SERIES.apply says merge=3way: a
# patch that does not apply is merged with git apply --3way from the
# preimage blobs its index lines name, read from the git reference's
# objects (-R git:REPO@REF: a linux clone holding the tree the series was
# written on).  A conflict is refused naming the file.
series_merge() {
	series_apply_key "$1" merge 3way "3way (git apply --3way from a git reference's blobs; no other merge)"
}

# series_apply_key SERIES KEY "VALUES" WHAT: KEY's value in
# patches/SERIES.apply, "" when unset, refused unless one of VALUES.
series_apply_key() {
	sk_f=$KREPRO_ROOT/patches/$1.apply
	[ -f "$sk_f" ] || return 0
	sk=$(sed -n "s/^$2=//p" "$sk_f" | head -n 1)
	[ -n "$sk" ] || return 0
	for sk_ok in $3; do
		[ "$sk" != "$sk_ok" ] || { printf '%s\n' "$sk"; return 0; }
	done
	die "patches/$1.apply: $2=$4, not '$sk'"
}

# context_words SERIES: how the series' patches are applied when not
# strictly ("applied with N lines of context (...)", "merged 3-way ...")
# or nothing.
context_words() {
	cw=$(series_context "$1") || exit 2
	cm=$(series_merge "$1") || exit 2
	[ -z "$cw" ] || printf 'applied with %s lines of context (git apply -C%s, patches/%s.apply)%s' "$cw" "$cw" "$1" "${cm:+; }"
	[ -z "$cm" ] || printf 'merged 3-way where a patch does not apply (git apply --3way on the git reference'"'"'s blobs, patches/%s.apply)' "$1"
	[ -z "$cw$cm" ] || echo
}

# base_commit_words SERIES: which commit the series wants and whether the
# reference is it (nothing when it names none).
base_commit_words() {
	bw=$(series_base_commit "$1")
	[ -n "$bw" ] || return 0
	bw_commit=$(ref_in_use commit)
	if [ -z "$bw_commit" ]; then
		printf 'series %s names base-commit %s; the reference (%s) has no git commit to compare: check it is the tree the series was made for, or give a linux clone holding it: -R git:REPO@%s\n' \
			"$1" "$bw" "$(ref_get version 2>/dev/null || ref_in_use spec)" "$(printf '%s' "$bw" | cut -c1-12)"
	elif [ "$bw" = "$bw_commit" ]; then
		printf 'series %s names base-commit %s: the reference is that commit\n' "$1" "$bw"
	else
		bw_repo=$(ref_in_use repo)
		if ref_git cat-file -e "$bw^{commit}" 2>/dev/null; then
			printf 'warning: series %s was made on base-commit %s, the reference is %s; %s has it: -R git:%s@%s builds on exactly that commit\n' \
				"$1" "$bw" "$bw_commit" "$bw_repo" "$bw_repo" "$bw"
		else
			printf 'warning: series %s was made on base-commit %s, the reference is %s (not in %s)\n' "$1" "$bw" "$bw_commit" "$bw_repo"
		fi
	fi
}

series_mbox() { # series -> its mbox file, or nothing for a quilt folder
	sdir="$KREPRO_ROOT/patches/$1"
	for ext in mbox mbx; do
		[ -f "$KREPRO_ROOT/patches/$1.$ext" ] && echo "$KREPRO_ROOT/patches/$1.$ext" && return 0
	done
	if [ -d "$sdir" ] && [ ! -f "$sdir/series" ]; then
		# What b4 am saves (*.mbx) or git format-patch --stdout (*.mbox).
		sm=$(find "$sdir" -maxdepth 1 \( -name '*.mbox' -o -name '*.mbx' \) | sort | head -n 1)
		[ -n "$sm" ] || die "patches/$1: no series file and no *.mbox or *.mbx"
		echo "$sm"
		return 0
	fi
	[ -d "$sdir" ] || die "unknown series '$1': no folder patches/$1 or patches/$1.mbox (.mbx)"
}

series_split_dir() { # series mbox -> the cache folder of its split patches
	echo "$KREPRO_CACHE/mbox/$1-$(sha256sum "$2" | cut -c1-16)"
}

series_patches() { # series -> patch file paths, in order
	sdir="$KREPRO_ROOT/patches/$1"
	mbox=$(series_mbox "$1") || exit 2
	if [ -n "$mbox" ]; then
		split=$(series_split_dir "$1" "$mbox")
		if [ ! -d "$split" ]; then
			rm -rf "$split.tmp"
			split_mbox "$mbox" "$split.tmp"
			mv "$split.tmp" "$split"
		fi
		found=$(find "$split" -name '*.patch' | sort)
		[ -n "$found" ] || die "${mbox#"$KREPRO_ROOT"/}: no patches in the mbox"
		printf '%s\n' "$found"
		return 0
	fi
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		p=${line%% *}
		case $p in */* | .*) die "patches/$1/series:$n: bad patch name '$p'" ;; esac
		[ -f "$sdir/$p" ] || die "patches/$1/series:$n: missing patch file '$p'"
		if ! has_diff "$sdir/$p"; then
			# Only a cover letter may be listed without a diff.
			case $(patch_subject "$sdir/$p") in
			*PATCH*\ 0/[0-9]*) continue ;;
			*) die "patches/$1/series:$n: '$p' holds no diff (only a [PATCH 0/N] cover letter may)" ;;
			esac
		fi
		printf '%s\n' "$sdir/$p"
	done <"$sdir/series"
}

# Variants: base | PART[+PART...], PART = SERIES or SERIES@N (first N patches).
variant_patches() { # variant -> patch paths
	case $1 in
	base) return 0 ;;
	'' | *[!A-Za-z0-9_.@+~^-]* | [+.~^]* | *+ | *++* | *..* | *+[.~^]*) die "bad variant name '$1' (base, SERIES, SERIES@N, A+B, and with a git reference a commit: an id, a tag, REF^, REF~N)" ;;
	esac
	vp_why=$(variant_stack_problem "$1")
	[ -z "$vp_why" ] || die "bad variant '$1': $vp_why"
	rest=$1
	while [ -n "$rest" ]; do
		part=${rest%%+*}
		if [ "$part" = "$rest" ]; then rest=; else rest=${rest#*+}; fi
		ser=${part%@*}
		# a commit of a git reference (lib/build/commits.sh): its diff; the
		# reference's own commit is its tree, no patch (from-report
		# --repo's parent)
		cm=$(commit_of "$part") || exit 2
		if [ -n "$cm" ]; then
			[ "$cm" = "$(ref_in_use commit)" ] || commit_diff "$cm" || exit 2
			continue
		fi
		list=$(series_patches "$ser") || exit 2
		if [ "$ser" != "$part" ]; then
			cnt=${part#*@}
			case $cnt in '' | *[!0-9]*) die "bad variant '$1': '$part' needs SERIES@N with a number" ;; esac
			total=$(printf '%s\n' "$list" | wc -l)
			if [ "$cnt" -lt 1 ] || [ "$cnt" -gt "$total" ]; then
				die "bad variant '$1': series $ser has $total patches, not $cnt"
			fi
			list=$(printf '%s\n' "$list" | head -n "$cnt")
		fi
		printf '%s\n' "$list"
	done
}

series_names() {
	for s in "$KREPRO_ROOT"/patches/*/ "$KREPRO_ROOT"/patches/*.mbox "$KREPRO_ROOT"/patches/*.mbx; do
		[ -e "$s" ] || continue
		n=$(basename "$s")
		n=${n%.mbox}
		echo "${n%.mbx}"
	done | sort -u
}

cmd_list_variants() {
	echo "base	the reference kernel ($(ref_json))"
	lv_bad=0
	for name in $(series_names); do
		# One broken series is reported and the others are still listed.
		if ! (variant_patches "$name" >"$KREPRO_CACHE/.list") 2>"$KREPRO_CACHE/.list.err"; then
			echo "$name	BROKEN: $(sed 's/^build: error: //' "$KREPRO_CACHE/.list.err" | head -n 1)"
			lv_bad=1
			continue
		fi
		bc=$(series_base_commit "$name")
		cx=$(context_words "$name") || cx="BROKEN: $(series_context "$name" 2>&1 | sed 's/^build: error: //')"
		echo "$name	(also $name@1..$name@$(wc -l <"$KREPRO_CACHE/.list"), and A+B stacks)${bc:+ base-commit $bc}${cx:+; $cx}"
		while IFS= read -r p; do
			subj=$(patch_subject "$p")
			printf '    %s  %s\n' "$(basename "$p")" "$subj"
		done <"$KREPRO_CACHE/.list"
	done
	rm -f "$KREPRO_CACHE/.list" "$KREPRO_CACHE/.list.err"
	return "$lv_bad"
}

# apply_3way SERIES TREE PATCH LOG: when the series says merge=3way, merge
# PATCH into TREE with git apply --3way (0 when it merged cleanly).  The
# preimage blobs come from the git reference's objects (an alternate of a
# scratch repository beside TREE, never inside it: a .git in the tree
# would change the kernel's version string); its index holds only the
# files the patch changes.  A conflict leaves markers and fails.
apply_3way() {
	am=$(series_merge "$1") || exit 2
	[ -n "$am" ] || return 1
	case $(ref_in_use spec) in
	git:*@*) ;;
	*) die "patches/$1.apply: merge=3way needs the blobs of the tree the series was written on: give a linux clone as the reference, -R git:REPO@REF" ;;
	esac
	ref_id >/dev/null
	ag=$2.git
	# the kit's own repository, never the user's (ref_scratch,
	# scratch_git: nothing of the reference repository runs)
	[ -d "$ag" ] || ref_scratch "$ag"
	# the files the patch changes that the tree has (git apply refuses
	# any path outside it)
	sed -n 's#^--- a/##p' "$3" | while IFS= read -r af; do
		[ ! -f "$2/$af" ] || printf '%s\n' "$af"
	done >"$ag/paths"
	echo "$(basename "$3"): git apply --3way (patches/$1.apply)" >>"$4"
	scratch_git "$ag" --work-tree="$2" update-index --add --stdin <"$ag/paths" >>"$4" 2>&1 &&
		(cd "$2" && scratch_git "$ag" --work-tree="$2" apply -p1 --3way --whitespace=nowarn --verbose "$3") >>"$4" 2>&1
}

# tree_apply TREE ARGS...: git apply ARGS in TREE, with the kit's empty
# repository beside it (TREE.apply) as GIT_DIR and TREE as the work tree.
tree_apply() {
	ta_t=$1
	shift
	[ -d "$ta_t.apply" ] || kit_scratch "$ta_t.apply"
	(cd "$ta_t" && scratch_git "$ta_t.apply" --work-tree="$ta_t" apply "$@")
}

# Apply a variant's patches to a hardlinked copy of the reference tree.
# GNU patch replaces files by rename, so the shared reference stays pristine.
variant_source() { # variant -> prepares $KREPRO_CACHE/src/<variant>
	v=$1
	src="$KREPRO_CACHE/variants/$(ref_id)/$v/src"
	stamp=$({
		ref_id
		variant_patches "$v" | xargs -r sha256sum
		# a series applied with less context is another tree (only then
		# in the stamp: existing trees keep theirs)
		for ser in $(variant_series "$v"); do
			sx=$(series_context "$ser") || exit 2
			[ -z "$sx" ] || echo "context $ser $sx"
			sm=$(series_merge "$ser") || exit 2
			[ -z "$sm" ] || echo "merge $ser $sm"
		done
	} | sha256sum | cut -c1-16)
	if [ -f "$src/.krepro-patched" ] && [ "$(cat "$src/.krepro-patched")" = "$stamp" ]; then
		return 0
	fi
	ref=$(reference_dir)
	mkdir -p "$KREPRO_CACHE/variants/$(ref_id)/$v"
	# One patcher per variant source at a time: a second preflight or build
	# of the same variant waits here, then finds the tree ready.
	refuse_link "$KREPRO_CACHE/variants/$(ref_id)/$v/src.lock"
	exec 7>"$KREPRO_CACHE/variants/$(ref_id)/$v/src.lock"
	if command -v flock >/dev/null 2>&1; then
		flock 7
		if [ -f "$src/.krepro-patched" ] && [ "$(cat "$src/.krepro-patched")" = "$stamp" ]; then
			exec 7>&-
			return 0
		fi
	fi
	rm -rf "$src" "$src.tmp" "$src.tmp.apply"
	cp -al "$ref" "$src.tmp"
	log="$KREPRO_CACHE/variants/$(ref_id)/$v/patch.log"
	: >"$log"
	for p in $(variant_patches "$v"); do
		# git apply, as a better patch: renames, mode changes and binary
		# diffs, no fuzz, no path outside the tree.  It writes a new file
		# for each one it changes, so the hardlinked reference stays
		# pristine.  In the kit's own empty repository (kit_scratch,
		# scratch_git): git discovers none, neither the checkout's nor one
		# a reference tree carries.
		# Full context unless the series' patches/S.apply says otherwise.
		ps=$(patch_series "$p")
		pc=$(series_context "$ps") || exit 2
		[ -z "$pc" ] || echo "$(basename "$p"): git apply -C$pc (patches/$ps.apply)" >>"$log"
		if ! tree_apply "$src.tmp" -p1 ${pc:+-C"$pc"} --whitespace=nowarn --verbose "$p" >>"$log" 2>&1 &&
			! apply_3way "$ps" "$src.tmp" "$p" "$log"; then
			why=$(grep '^error: ' "$log" | grep -v '^error: while searching for:\|^error: patch failed: ' |
				head -n 1 | sed 's/^error: //')
			where=$(grep '^error: patch failed: ' "$log" | tail -n 1 | sed 's/^error: patch failed: //')
			# A merge that failed says why; else would it apply with less
			# context?
			hint=
			sm=$(series_merge "$ps") || exit 2
			if [ -n "$sm" ]; then
				cf=$(sed -n "s/^Applied patch to '\(.*\)' with conflicts\.\$/\1/p" "$log" | tr '\n' ' ')
				hint="; nor does it merge 3-way${cf:+: conflicts in ${cf% }}"
				sm_spec=$(ref_in_use spec)
				! grep -q 'lacks the necessary blob' "$log" ||
					hint="$hint: the reference's git objects lack its preimage blobs (is ${sm_spec#git:} a clone holding the tree it was written on?)"
			else
				# Would it apply with less context?  Said, never done.
				for c in 2 1; do
					[ -z "$pc" ] || [ "$c" -lt "$pc" ] || continue
					if tree_apply "$src.tmp" -p1 -C"$c" --check "$p" >/dev/null 2>&1; then
						hint="; it applies with $c lines of context (git apply -C$c): a tree with later changes to a context line?  To accept that, write context=$c into patches/$ps.apply"
						break
					fi
				done
			fi
			rm -rf "$src.tmp" "$src.tmp.git" "$src.tmp.apply"
			die "variant $v: series $ps, patch $(basename "$p") does not apply${pc:+ with $pc lines of context}: ${why:-see $log}${where:+ (hunk at $where; $log)}$hint"
		fi
	done
	rm -rf "$src.tmp.git" "$src.tmp.apply"
	echo "$stamp" >"$src.tmp/.krepro-patched"
	mv "$src.tmp" "$src"
	exec 7>&-
}

cmd_preflight() {
	[ $# -gt 0 ] || die "preflight: name at least one variant"
	for v in "$@"; do variant_patches "$v" >/dev/null; done
	cmd_reference
	for v in "$@"; do
		for ser in $(variant_series "$v"); do
			bw=$(base_commit_words "$ser")
			[ -z "$bw" ] || note "$bw"
		done
		variant_source "$v"
		pf_cx=
		for ser in $(variant_series "$v"); do
			cx=$(context_words "$ser") || exit 2
			[ -z "$cx" ] || pf_cx="$pf_cx; series $ser $cx"
		done
		pf_cm=$(variant_commits "$v") || exit 2
		pf_cm=$(printf '%s\n' "$pf_cm" | awk -v r="$(ref_in_use commit)" 'NF == 2 { printf "; %s is commit %s (%s)", $1, $2, $2 == r ? "the reference itself" : "its diff from the reference " substr(r, 1, 12) }')
		note "preflight: $v: $(variant_patches "$v" | wc -l) patch(es) apply$pf_cx$pf_cm"
	done
}
