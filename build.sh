#!/bin/sh
# build.sh: reference kernel -> variants -> kernels; tools -> initramfs.
# See docs/ARCHITECTURE.md for the layout of cache/ and out/.
set -eu

KREPRO_ROOT=$(cd "$(dirname "$0")" && pwd)
KREPRO_PROG=build
# shellcheck source=lib/common.sh
. "$KREPRO_ROOT/lib/common.sh"

# The whole script is one function, parsed before it runs: editing this file
# while it runs (a long build, a night of boots) cannot change what runs.
main() {

usage() {
	cat <<'EOF'
usage: ./build.sh [options] COMMAND [ARGS]

Commands:
  deps                 check build dependencies (installs them as root on Debian)
  reference            download, verify and unpack the pinned reference kernel
  preflight VARIANT... apply every patch of the variants; stop on the first failure
  kernel VARIANT       build one kernel variant; prints the bzImage path last
  initramfs            build the guest tools and the initramfs; prints its path last
  tools                build the host tools
  list-variants        list the variants the patch series offer
  patches VARIANT      the patch files of a variant, in order
  uapi                 install the reference's UAPI headers; prints their path
  all [VARIANT...]     tools, initramfs and kernels (default: base + every series)
  bundle -o FILE [-m MATRIX] [--sign SECKEY] [VARIANT...]
                       one archive for reviewers: kernels, initramfs, manifests,
                       matrix, the inputs and a README (default: every built kernel);
                       --sign writes FILE.sig with signify-openbsd
  verify [--key PUBKEY] FILE
                       check a bundle's hashes (and FILE.sig against PUBKEY),
                       rebuild from its inputs in a sandbox, compare

Variants: base (the reference), SERIES (every patch of patches/SERIES or
patches/SERIES.mbox), SERIES@N (its first N patches), A+B (stacked).

Options:
  -C DIR    cache directory (default: $KREPRO_CACHE or ./cache)
  -O DIR    output directory (default: $KREPRO_OUT or ./out)
  -j N      parallel make jobs (default: cores + 1)
  -R SPEC   use another reference: tarball:PATH[#SHA256] or git:REPO@REF
            (default: the Debian package pinned in patches/reference.conf)
  -h, --help  this text

Environment: KREPRO_REFERENCE_DEB=FILE uses an already downloaded
reference package (still checked against the pinned sha256).
EOF
}

JOBS=$(($(nproc) + 1))
REF_SPEC_OPT=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-C) KREPRO_CACHE=$2; shift 2 ;;
	-O) KREPRO_OUT=$2; shift 2 ;;
	-j) JOBS=$2; shift 2 ;;
	-R) REF_SPEC_OPT=$2; shift 2 ;;
	--list-variants) set -- list-variants; break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- all
krepro_dirs
KREPRO_REFERENCE=${REF_SPEC_OPT:-${KREPRO_REFERENCE:-}}
export KREPRO_REFERENCE
REF_SPEC=$KREPRO_REFERENCE

# --- reference kernel -------------------------------------------------------

ref_get() { # key -> value from patches/reference.conf
	conf_get "$KREPRO_ROOT/patches/reference.conf" "$1"
}

# The reference is Debian's pinned package unless -R/KREPRO_REFERENCE names
# tarball:PATH[#SHA256] or git:REPO@REF; either way it is pinned by sha256
# or commit id, and that id is part of every variant's inputs.
REF_ID=

ref_id() { # -> short id of the reference in use (sets REF_ID)
	if [ -n "$REF_ID" ]; then printf '%s\n' "$REF_ID"; return 0; fi
	case $REF_SPEC in
	'') REF_ID=$(ref_get version) ;;
	tarball:*)
		f=${REF_SPEC#tarball:}
		f=${f%%#*}
		[ -f "$f" ] || die "reference tarball '$f' not found"
		REF_SHA=$(sha256sum "$f" | cut -d' ' -f1)
		case $REF_SPEC in *'#'*)
			[ "${REF_SPEC##*#}" = "$REF_SHA" ] ||
				die "reference $f: sha256 mismatch: expected ${REF_SPEC##*#}, got $REF_SHA"
			;;
		esac
		REF_ID=tar-$(printf '%s' "$REF_SHA" | cut -c1-16)
		;;
	git:*@*)
		repo=${REF_SPEC#git:}
		repo=${repo%@*}
		REF_COMMIT=$(git -C "$repo" rev-parse --verify "${REF_SPEC##*@}^{commit}" 2>/dev/null) ||
			die "reference git:$repo: no commit '${REF_SPEC##*@}'"
		REF_ID=git-$(printf '%s' "$REF_COMMIT" | cut -c1-16)
		;;
	*) die "bad reference '$REF_SPEC' (tarball:PATH[#SHA256] or git:REPO@REF)" ;;
	esac
	printf '%s\n' "$REF_ID"
}

ref_json() { # the reference pin, as a JSON object
	ref_id >/dev/null
	case $REF_SPEC in
	'') printf '{"package": "%s", "version": "%s", "sha256": "%s"}' \
		"$(ref_get package)" "$(ref_get version)" "$(ref_get deb_sha256)" ;;
	tarball:*) printf '{"tarball": "%s", "sha256": "%s"}' "$(basename "${REF_SPEC%%#*}")" "$REF_SHA" ;;
	git:*) printf '{"git": "%s", "ref": "%s", "commit": "%s"}' "${REF_SPEC#git:}" \
		"${REF_SPEC##*@}" "$REF_COMMIT" ;;
	esac
}

reference_dir() {
	case $REF_SPEC in
	'') printf '%s/reference/%s/%s\n' "$KREPRO_CACHE" "$(ref_get version)" "$(ref_get topdir)" ;;
	*) printf '%s/reference/%s/linux\n' "$KREPRO_CACHE" "$(ref_id)" ;;
	esac
}

# A user's own reference: a tarball or a git commit, unpacked once.
custom_reference() {
	parent=$(dirname "$(reference_dir)")
	rm -rf "$parent.tmp"
	mkdir -p "$parent.tmp/x"
	case $REF_SPEC in
	tarball:*)
		f=${REF_SPEC#tarball:}
		note "unpacking reference tarball ${f%%#*} (sha256 $REF_SHA)"
		tar -xf "${f%%#*}" -C "$parent.tmp/x" || die "reference ${f%%#*}: tar failed"
		top=$(find "$parent.tmp/x" -mindepth 1 -maxdepth 1 -type d)
		if [ "$(printf '%s\n' "$top" | wc -l)" != 1 ] || [ ! -f "$top/Makefile" ]; then
			die "reference ${f%%#*}: expected one top folder holding a kernel tree"
		fi
		mv "$top" "$parent.tmp/linux"
		;;
	git:*)
		repo=${REF_SPEC#git:}
		note "exporting reference ${repo%@*} at $REF_COMMIT"
		git -C "${repo%@*}" archive --format=tar --prefix=linux/ "$REF_COMMIT" |
			tar -x -C "$parent.tmp" || die "reference git archive failed"
		;;
	esac
	rmdir "$parent.tmp/x" 2>/dev/null || rm -rf "$parent.tmp/x"
	touch "$parent.tmp/linux/.krepro-complete"
	rm -rf "$parent"
	mv "$parent.tmp" "$parent"
}

# The reference tree, unpacked once: an interrupted unpack leaves only
# <parent>.tmp, redone by the next call; concurrent calls wait for the
# first one's unpack (fd 6) and then find the tree complete.
cmd_reference() {
	[ -z "$REF_SPEC" ] || ref_id >/dev/null
	dest=$(reference_dir)
	[ -f "$dest/.krepro-complete" ] && return 0
	mkdir -p "$(dirname "$(dirname "$dest")")"
	exec 6>"$(dirname "$dest").lock"
	if command -v flock >/dev/null 2>&1; then
		flock 6
	fi
	if [ ! -f "$dest/.krepro-complete" ]; then
		if [ -n "$REF_SPEC" ]; then custom_reference; else debian_reference; fi
	fi
	exec 6>&-
}

debian_reference() {
	pkg=$(ref_get package)
	ver=$(ref_get version)
	want=$(ref_get deb_sha256)
	dest=$(reference_dir)
	need_cmd apt-get apt
	need_cmd xz xz-utils
	dl="$KREPRO_CACHE/downloads"
	mkdir -p "$dl"
	deb=${KREPRO_REFERENCE_DEB:-}
	if [ -z "$deb" ]; then
		deb=$(find "$dl" -maxdepth 1 -name "${pkg}_*.deb" -print | head -n 1)
	fi
	if [ -z "$deb" ]; then
		note "downloading $pkg=$ver (apt-get download)"
		(cd "$dl" && apt-get download -q "$pkg=$ver" >"$dl/apt.log" 2>&1) || {
			tail -n 5 "$dl/apt.log" >&2
			die "apt-get download $pkg=$ver failed; if the version left the archive, set KREPRO_REFERENCE_DEB to a copy of the package"
		}
		deb=$(find "$dl" -maxdepth 1 -name "${pkg}_*.deb" -print | head -n 1)
	fi
	got=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ "$got" != "$want" ]; then
		die "reference $deb: sha256 mismatch: expected $want, got $got (patches/reference.conf)"
	fi
	note "reference $pkg $ver verified (sha256 $got)"
	parent=$(dirname "$dest")
	rm -rf "$parent.tmp"
	mkdir -p "$parent.tmp"
	note "unpacking the reference tree into $parent"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$(ref_get tarball)" | xz -dc |
		tar -x -C "$parent.tmp"
	[ -d "$parent.tmp/$(ref_get topdir)" ] || die "reference package has no $(ref_get topdir)/"
	touch "$parent.tmp/$(ref_get topdir)/.krepro-complete"
	rm -rf "$parent"
	mv "$parent.tmp" "$parent"
}

# --- variants and patches ---------------------------------------------------

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
	"$KREPRO_CACHE"/mbox/*)
		ps=${1#"$KREPRO_CACHE"/mbox/}
		ps=${ps%%/*}
		echo "${ps%-*}"
		;;
	*) basename "$(dirname "$1")" ;;
	esac
}

variant_series() { # variant -> its series, one per line
	[ "$1" = base ] || printf '%s\n' "$1" | tr '+' '\n' | sed 's/@.*//'
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
	'' | *[!A-Za-z0-9_@+-]* | +* | *+ | *++*) die "bad variant name '$1' (base, SERIES, SERIES@N, A+B)" ;;
	esac
	rest=$1
	while [ -n "$rest" ]; do
		part=${rest%%+*}
		if [ "$part" = "$rest" ]; then rest=; else rest=${rest#*+}; fi
		ser=${part%@*}
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
		echo "$name	(also $name@1..$name@$(wc -l <"$KREPRO_CACHE/.list"), and A+B stacks)${bc:+ base-commit $bc}"
		while IFS= read -r p; do
			subj=$(patch_subject "$p")
			printf '    %s  %s\n' "$(basename "$p")" "$subj"
		done <"$KREPRO_CACHE/.list"
	done
	rm -f "$KREPRO_CACHE/.list" "$KREPRO_CACHE/.list.err"
	return "$lv_bad"
}

# Apply a variant's patches to a hardlinked copy of the reference tree.
# GNU patch replaces files by rename, so the shared reference stays pristine.
variant_source() { # variant -> prepares $KREPRO_CACHE/src/<variant>
	v=$1
	src="$KREPRO_CACHE/variants/$(ref_id)/$v/src"
	stamp=$({
		ref_id
		variant_patches "$v" | xargs -r sha256sum
	} | sha256sum | cut -c1-16)
	if [ -f "$src/.krepro-patched" ] && [ "$(cat "$src/.krepro-patched")" = "$stamp" ]; then
		return 0
	fi
	ref=$(reference_dir)
	mkdir -p "$KREPRO_CACHE/variants/$(ref_id)/$v"
	# One patcher per variant source at a time: a second preflight or build
	# of the same variant waits here, then finds the tree ready.
	exec 7>"$KREPRO_CACHE/variants/$(ref_id)/$v/src.lock"
	if command -v flock >/dev/null 2>&1; then
		flock 7
		if [ -f "$src/.krepro-patched" ] && [ "$(cat "$src/.krepro-patched")" = "$stamp" ]; then
			exec 7>&-
			return 0
		fi
	fi
	rm -rf "$src" "$src.tmp"
	cp -al "$ref" "$src.tmp"
	log="$KREPRO_CACHE/variants/$(ref_id)/$v/patch.log"
	: >"$log"
	for ser in $(variant_series "$v"); do
		bc=$(series_base_commit "$ser")
		[ -n "$bc" ] || continue
		if [ -z "${REF_COMMIT:-}" ]; then
			note "series $ser names base-commit $bc; the reference ($(ref_get version 2>/dev/null || echo "$REF_SPEC")) has no git commit to compare: check it is the tree the series was made for"
		elif [ "$bc" != "$REF_COMMIT" ]; then
			note "warning: series $ser was made on base-commit $bc, the reference is $REF_COMMIT"
		fi
	done
	for p in $(variant_patches "$v"); do
		# git apply, as a better patch: renames, mode changes and binary
		# diffs, no fuzz, no path outside the tree.  It writes a new file
		# for each one it changes, so the hardlinked reference stays
		# pristine.  GIT_CEILING_DIRECTORIES: never the checkout's repo.
		if ! (cd "$src.tmp" && GIT_CEILING_DIRECTORIES=$(dirname "$src.tmp") \
			git apply -p1 --whitespace=nowarn --verbose "$p") >>"$log" 2>&1; then
			why=$(grep '^error: ' "$log" | grep -v '^error: while searching for:\|^error: patch failed: ' |
				head -n 1 | sed 's/^error: //')
			where=$(grep -m1 '^error: patch failed: ' "$log" | sed 's/^error: patch failed: //')
			rm -rf "$src.tmp"
			die "variant $v: series $(patch_series "$p"), patch $(basename "$p") does not apply: ${why:-see $log}${where:+ (hunk at $where; $log)}"
		fi
	done
	echo "$stamp" >"$src.tmp/.krepro-patched"
	mv "$src.tmp" "$src"
	exec 7>&-
}

cmd_preflight() {
	[ $# -gt 0 ] || die "preflight: name at least one variant"
	for v in "$@"; do variant_patches "$v" >/dev/null; done
	cmd_reference
	for v in "$@"; do
		variant_source "$v"
		note "preflight: $v: $(variant_patches "$v" | wc -l) patch(es) apply"
	done
}

# --- kernels ----------------------------------------------------------------

KCONFIG_NAME=qemu-minimal

config_fragments() {
	printf '%s\n' "$KREPRO_ROOT/configs/$KCONFIG_NAME.config"
}

check_required() { # .config
	req="$KREPRO_ROOT/configs/$KCONFIG_NAME.required"
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		grep -qx "$line" "$1" ||
			die "configs/$KCONFIG_NAME.required:$n: Kconfig dropped ${line%%=*} (wanted $line); check its dependencies"
	done <"$req"
}

# Environment that makes two builds of the same inputs byte-identical.
kbuild_env() {
	KBUILD_BUILD_TIMESTAMP=$(ref_get timestamp)
	KBUILD_BUILD_USER=krepro
	KBUILD_BUILD_HOST=krepro
	KBUILD_BUILD_VERSION=1
	CCACHE_BASEDIR=$KREPRO_CACHE
	CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER KBUILD_BUILD_HOST KBUILD_BUILD_VERSION
	export CCACHE_BASEDIR CCACHE_NOHASHDIR
}

# Run make in the background, printing a progress line every 30 s.
make_with_progress() { # label log make-args...
	label=$1 log=$2
	shift 2
	start=$(date +%s)
	make "$@" >"$log" 2>&1 &
	mpid=$!
	while kill -0 "$mpid" 2>/dev/null; do
		i=0
		while [ $i -lt 30 ] && kill -0 "$mpid" 2>/dev/null; do
			sleep 1
			i=$((i + 1))
		done
		kill -0 "$mpid" 2>/dev/null || break
		note "$label: $(grep -c '^  CC ' "$log" || true) files compiled, $(($(date +%s) - start)) s"
	done
	if ! wait "$mpid"; then
		tail -n 25 "$log" >&2
		die "$label: make failed after $(($(date +%s) - start)) s (full log: $log)"
	fi
	note "$label: done in $(($(date +%s) - start)) s"
}

cmd_kernel() {
	[ $# -eq 1 ] || die "kernel: name exactly one variant"
	v=$1
	variant_patches "$v" >/dev/null
	need_build_deps
	cmd_reference
	# One build per variant at a time (its source and build folders are shared).
	mkdir -p "$KREPRO_CACHE/variants/$(ref_id)"
	exec 8>"$KREPRO_CACHE/variants/$(ref_id)/$v.lock"
	if command -v flock >/dev/null 2>&1 && ! flock -n 8; then
		note "kernel $v: another build of it is running; waiting"
		flock 8
	fi
	variant_source "$v"
	src="$KREPRO_CACHE/variants/$(ref_id)/$v/src"
	dst="$KREPRO_OUT/kernels/$v"
	kbuild_env
	inputs=$({
		echo "reference $(ref_json)"
		variant_patches "$v" | xargs -r sha256sum | sed 's#  .*/#  #'
		config_fragments | xargs sha256sum | sed 's#  .*/#  #'
		gcc --version | head -n 1
		echo "recipe 2" # bump when the kernel build command changes
	} | sha256sum | cut -d' ' -f1)
	if [ -f "$dst/bzImage" ] && [ -f "$dst/inputs" ] && [ "$(cat "$dst/inputs")" = "$inputs" ]; then
		note "kernel $v is up to date"
		printf '%s\n' "$dst/bzImage"
		return 0
	fi
	# Another variant with the same patches, config and compiler (SERIES
	# and SERIES@N of all its N patches) built the same bytes already.
	for twin in "$KREPRO_OUT"/kernels/*/inputs; do
		if [ ! -f "$twin" ] || [ "$(cat "$twin")" != "$inputs" ]; then continue; fi
		tw=$(dirname "$twin")
		[ -f "$tw/bzImage" ] || continue
		note "kernel $v: same patches, config and compiler as $(basename "$tw"): its bzImage"
		install_kernel "$v" "$tw/bzImage" "$tw/config" "$inputs" "$dst"
		return 0
	done
	# Every variant of a reference is built in one work tree, one at a time:
	# make then recompiles only what the variant's patches changed against
	# the previous build.  The variant's own folder keeps its logs.  src and
	# build sit side by side, so the paths ccache sees (relative to
	# CCACHE_BASEDIR) are the same as in a reviewer's cache.
	work="$KREPRO_CACHE/variants/$(ref_id)/work"
	exec 5>"$work.lock"
	if command -v flock >/dev/null 2>&1 && ! flock -n 5; then
		note "kernel $v: another variant is building in $work; waiting"
		flock 5
	fi
	sync_work_tree "$src" "$work"
	wsrc=$work/src bld=$work/build
	logs="$KREPRO_CACHE/variants/$(ref_id)/$v"
	mkdir -p "$bld"
	# shellcheck disable=SC2046 # one fragment path per word
	(cd "$wsrc" && scripts/kconfig/merge_config.sh -n -O "$bld" $(config_fragments)) \
		>"$logs/merge_config.log" 2>&1 || {
		tail -n 20 "$logs/merge_config.log" >&2
		die "kernel $v: merge_config.sh failed"
	}
	check_required "$bld/.config"
	note "kernel $v: building bzImage with make -j$JOBS (log: $logs/make.log)"
	# ccache (base_dir) hands the compiler relative paths (../src/...), which
	# the kernel's own -fmacro-prefix-map=<abs srctree>/ does not strip: map
	# them too, so __FILE__ strings are the same with or without ccache.
	make_with_progress "kernel $v" "$logs/make.log" -C "$wsrc" O="$bld" -j"$JOBS" \
		CC="ccache gcc" HOSTCC="ccache gcc" KCPPFLAGS="-fmacro-prefix-map=../src/=" bzImage
	install_kernel "$v" "$bld/arch/x86/boot/bzImage" "$bld/.config" "$inputs" "$dst"
	exec 5>&-
}

# sync_work_tree VARIANT-SRC WORK: makes WORK/src hold VARIANT-SRC's content.
# Unchanged files stay hard links with their old times; every file that
# differs is replaced by a new copy, so its time is now and make rebuilds
# what depends on it (times alone would not: a patched file can be older
# than the object built from another variant's version of it).  Anything
# diff reports that is not a plain file path starts the tree afresh, which
# only costs a full (ccache) build.
sync_work_tree() {
	from=$1 to=$2/src
	if [ -f "$to/.krepro-work" ]; then
		diff -rq --no-dereference -x .krepro-patched -x .krepro-work "$to" "$from" >"$2/sync.diff" 2>&1 || :
		# diff sees content only; git also carries the executable bit.
		(cd "$to" && find . -type f -perm -u+x | sort) >"$2/exec.to"
		(cd "$from" && find . -type f -perm -u+x | sort) >"$2/exec.from"
		comm -3 "$2/exec.to" "$2/exec.from" | sed "s/^$(printf '\t')//; s#^\./##" |
			while IFS= read -r p; do
				[ -f "$from/$p" ] || continue # gone: the diff's "Only in" removes it
				echo "Files $to/$p and $from/$p differ"
			done >>"$2/sync.diff"
		if apply_tree_diff "$from" "$to" <"$2/sync.diff"; then
			return 0
		fi
		note "work tree: $(head -n 1 "$2/sync.diff"): building afresh"
	fi
	rm -rf "$2"
	mkdir -p "$2"
	cp -al "$from" "$to"
	rm -f "$to/.krepro-patched"
	: >"$to/.krepro-work"
}

apply_tree_diff() { # from to < diff -rq output; fails on anything unexpected
	while IFS= read -r line; do
		case $line in
		"Files $2/"*" and $1/"*" differ")
			p=${line#"Files $2/"}
			p=${p%%" and $1/"*}
			[ "$line" = "Files $2/$p and $1/$p differ" ] && [ -f "$1/$p" ] || return 1
			rm -f "$2/$p"
			cp -p "$1/$p" "$2/$p" && touch "$2/$p" || return 1
			;;
		"Only in $2"*": "*)
			p=${line#"Only in $2"}
			d=${p%%": "*} n=${p#*": "}
			case $n in */* | . | .. | '') return 1 ;; esac
			rm -rf "${2:?}$d/$n"
			;;
		"Only in $1"*": "*)
			p=${line#"Only in $1"}
			d=${p%%": "*} n=${p#*": "}
			case $n in */* | . | .. | '') return 1 ;; esac
			[ -d "$2$d" ] || return 1
			cp -R "$1$d/$n" "$2$d/$n" || return 1
			;;
		*) return 1 ;;
		esac
	done
}

# install_kernel VARIANT BZIMAGE CONFIG INPUTS DST: the kernel, its config,
# manifest and inputs hash into DST, replaced whole; prints the bzImage path.
install_kernel() {
	rm -rf "$5.tmp"
	mkdir -p "$5.tmp"
	cp "$2" "$5.tmp/bzImage"
	cp "$3" "$5.tmp/config"
	write_kernel_manifest "$1" "$5.tmp" >"$5.tmp/manifest.json"
	echo "$4" >"$5.tmp/inputs"
	rm -rf "$5"
	mv "$5.tmp" "$5"
	printf '%s\n' "$5/bzImage"
}

write_kernel_manifest() { # variant dir
	printf '{\n  "variant": "%s",\n' "$1"
	printf '  "reference": %s,\n' "$(ref_json)"
	printf '  "patches": ['
	sep=
	for p in $(variant_patches "$1"); do
		printf '%s\n    {"series": "%s", "file": "%s", "sha256": "%s"}' "$sep" \
			"$(patch_series "$p")" "$(basename "$p")" "$(sha256sum "$p" | cut -d' ' -f1)"
		sep=,
	done
	printf '],\n  "base_commits": ['
	sep=
	for ser in $(variant_series "$1"); do
		bc=$(series_base_commit "$ser")
		[ -n "$bc" ] || continue
		printf '%s{"series": "%s", "base_commit": "%s"}' "$sep" "$ser" "$bc"
		sep=', '
	done
	printf '],\n'
	printf '  "kconfig": "%s",\n' "$KCONFIG_NAME"
	printf '  "config_sha256": "%s",\n' "$(sha256sum "$2/config" | cut -d' ' -f1)"
	printf '  "compiler": "%s",\n' "$(gcc --version | head -n 1)"
	printf '  "bzImage_sha256": "%s"\n}\n' "$(sha256sum "$2/bzImage" | cut -d' ' -f1)"
}

# --- tools and initramfs ----------------------------------------------------

cmd_tools() {
	need_build_deps
	make -s -C "$KREPRO_ROOT" OUT="$KREPRO_OUT" host >&2
	printf '%s\n' "$KREPRO_OUT/host"
}

# gen_init_cpio comes from the reference tree: the kernel's own tool writes
# entries in list order with fixed owners and a fixed mtime.
gen_init_cpio_path() {
	g="$KREPRO_OUT/host/gen_init_cpio"
	if [ ! -x "$g" ]; then
		cmd_reference
		mkdir -p "$KREPRO_OUT/host"
		cc -O2 -o "$g" "$(reference_dir)/usr/gen_init_cpio.c"
	fi
	printf '%s\n' "$g"
}

# musl-gcc has no Linux UAPI headers: install the reference tree's own.
uapi_headers() {
	u="$KREPRO_CACHE/uapi/$(ref_id)"
	if [ ! -f "$u/.krepro-complete" ]; then
		cmd_reference
		rm -rf "$u" "$KREPRO_CACHE/uapi/build"
		make -s -C "$(reference_dir)" O="$KREPRO_CACHE/uapi/build" ARCH=x86_64 \
			INSTALL_HDR_PATH="$u" headers_install >&2 || die "headers_install failed"
		rm -rf "$KREPRO_CACHE/uapi/build"
		touch "$u/.krepro-complete"
	fi
	printf '%s\n' "$u/include"
}

cmd_initramfs() {
	need_build_deps
	uapi=$(uapi_headers)
	make -s -C "$KREPRO_ROOT" OUT="$KREPRO_OUT" UAPI="$uapi" guest >&2
	gic=$(gen_init_cpio_path)
	bb=$(command -v busybox || true)
	[ -n "$bb" ] && file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
		bb=/bin/busybox
	file -L "$bb" | grep -q 'statically linked' ||
		die "busybox at $bb is not static: install Debian package busybox-static"
	mkdir -p "$KREPRO_OUT"
	list="$KREPRO_OUT/initramfs.list"
	sed -e "s#@BUSYBOX@#$bb#g" -e "s#@GUEST@#$KREPRO_OUT/guest#g" \
		-e "s#@SRC@#$KREPRO_ROOT#g" "$KREPRO_ROOT/initramfs/layout.list" >"$list"
	for g in $(cd "$KREPRO_OUT/guest" && LC_ALL=C ls); do
		echo "file /usr/bin/$g $KREPRO_OUT/guest/$g 0755 0 0"
	done >>"$list"
	for s in $(cd "$KREPRO_ROOT/initramfs/suites" && LC_ALL=C ls -- *.sh); do
		echo "file /etc/krepro/suites/$s $KREPRO_ROOT/initramfs/suites/$s 0644 0 0"
	done >>"$list"
	if [ -f "$KREPRO_ROOT/initramfs/knobs.sh" ]; then
		echo "file /etc/krepro/knobs.sh $KREPRO_ROOT/initramfs/knobs.sh 0644 0 0" >>"$list"
	fi
	ts=$(date -u -d "$(ref_get timestamp)" +%s)
	"$gic" -t "$ts" "$list" | gzip -n -9 >"$KREPRO_OUT/initramfs.cpio.gz.tmp"
	mv "$KREPRO_OUT/initramfs.cpio.gz.tmp" "$KREPRO_OUT/initramfs.cpio.gz"
	note "initramfs: $(wc -c <"$KREPRO_OUT/initramfs.cpio.gz") bytes, sha256 $(sha256sum "$KREPRO_OUT/initramfs.cpio.gz" | cut -c1-16)"
	printf '%s\n' "$KREPRO_OUT/initramfs.cpio.gz"
}

all_variants() {
	echo base
	series_names
}

cmd_all() {
	# shellcheck disable=SC2046 # variant names are single words
	[ $# -gt 0 ] || set -- $(all_variants)
	cmd_tools >/dev/null
	cmd_preflight "$@"
	cmd_initramfs
	for v in "$@"; do
		cmd_kernel "$v"
	done
}

# --- bundles ----------------------------------------------------------------

# The kit's own inputs a bundle carries so that `verify` can rebuild.
BUNDLE_INPUTS="build.sh run-matrix.sh lib Makefile configs patches initramfs tools .clang-format"

# Deterministic tar.gz of a directory: sorted, fixed owner and mtime.
pack_dir() { # dir parent-name outfile
	ts=$(date -u -d "$(ref_get timestamp)" +%s)
	tar -C "$(dirname "$1")" --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$ts" --format=gnu -cf - "$(basename "$1")" | gzip -n -9 >"$3"
}

cmd_bundle() {
	outf='' matrix='' seckey=''
	while [ $# -gt 0 ]; do
		case $1 in
		-o) outf=$2; shift 2 ;;
		-m) matrix=$2; shift 2 ;;
		--sign) seckey=$2; shift 2 ;;
		-*) die "bundle: unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ -n "$outf" ] || die "bundle: -o FILE is required"
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046 # variant names are single words
		set -- $(cd "$KREPRO_OUT/kernels" 2>/dev/null && ls)
	fi
	[ $# -gt 0 ] || die "bundle: no kernels built yet (./build.sh kernel VARIANT)"
	# Bring every artifact up to date with the inputs the bundle records
	# (a no-op when it is): a stale kernel in out/ would fail verify.
	for v in "$@"; do
		cmd_kernel "$v" >/dev/null
	done
	cmd_initramfs >/dev/null
	w=$(mktemp -d "${TMPDIR:-/tmp}/krepro-bundle.XXXXXX")
	b=$w/krepro-bundle
	mkdir -p "$b/kernels" "$b/inputs"
	for v in "$@"; do
		mkdir -p "$b/kernels/$v"
		cp "$KREPRO_OUT/kernels/$v/bzImage" "$KREPRO_OUT/kernels/$v/config" \
			"$KREPRO_OUT/kernels/$v/manifest.json" "$b/kernels/$v/"
	done
	cp "$KREPRO_OUT/initramfs.cpio.gz" "$b/"
	if [ -n "$matrix" ]; then cp "$matrix" "$b/matrix.yaml"; else
		"$KREPRO_ROOT/run-matrix.sh" --print-default-matrix >"$b/matrix.yaml"
	fi
	for i in $BUNDLE_INPUTS; do
		[ -e "$KREPRO_ROOT/$i" ] && cp -r "$KREPRO_ROOT/$i" "$b/inputs/"
	done
	cp "$(reference_dir)/usr/gen_init_cpio.c" "$b/inputs/gen_init_cpio.c"
	{
		printf '{\n  "variants": ['
		sep=
		for v in "$@"; do printf '%s"%s"' "$sep" "$v"; sep=', '; done
		printf '],\n  "reference": %s,\n' "$(ref_json)"
		printf '  "initramfs_sha256": "%s",\n' "$(sha256sum "$b/initramfs.cpio.gz" | cut -d' ' -f1)"
		printf '  "krepro_commit": "%s"\n}\n' "$(git -C "$KREPRO_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
	} >"$b/bundle.json"
	cat >"$b/README.txt" <<EOT
krepro image bundle

kernels/<variant>/bzImage   the kernels (manifest.json: reference, patches, config, compiler, hashes)
initramfs.cpio.gz           the guest image (busybox + static benchmarks and monitors)
matrix.yaml                 the matrix that was run
inputs/                     the kit's sources, patches and configs these were built from
MANIFEST.sha256             sha256 of every file above

Rerun it (checks every hash first, builds nothing):
    ./run-matrix.sh --bundle THIS_FILE            (from a krepro checkout)
Check the images are what the inputs build:
    ./build.sh verify THIS_FILE
EOT
	(cd "$b" && find . -type f | LC_ALL=C sort | sed 's#^\./##' | xargs sha256sum >"$w/manifest")
	mv "$w/manifest" "$b/MANIFEST.sha256"
	pack_dir "$b" krepro-bundle "$outf.tmp"
	if [ -n "$seckey" ]; then
		need_cmd signify-openbsd signify-openbsd
		signify-openbsd -S -s "$seckey" -m "$outf.tmp" -x "$outf.sig.tmp" ||
			die "bundle: signing with $seckey failed"
		mv "$outf.sig.tmp" "$outf.sig"
	else
		rm -f "$outf.sig"
	fi
	mv "$outf.tmp" "$outf"
	rm -rf "$w"
	note "bundle: $# kernel(s), $(wc -c <"$outf") bytes"
	printf '%s\n' "$outf"
}

# unpack_bundle FILE DIR: unpack and check every hash; refuse naming a file.
# With KREPRO_BUNDLE_KEY (a signify public key), FILE.sig must be its
# signature of FILE, checked before anything is unpacked.  Only regular
# files and folders are unpacked: a link could lead a later member outside.
unpack_bundle() {
	[ -f "$1" ] || die "bundle '$1' not found"
	if [ -n "${KREPRO_BUNDLE_KEY:-}" ]; then
		need_cmd signify-openbsd signify-openbsd
		[ -f "$KREPRO_BUNDLE_KEY" ] || die "bundle key '$KREPRO_BUNDLE_KEY' not found"
		[ -f "$1.sig" ] || die "bundle $1: no signature $1.sig (a key was given)"
		signify-openbsd -V -q -p "$KREPRO_BUNDLE_KEY" -x "$1.sig" -m "$1" 2>/dev/null ||
			die "bundle $1: signature $1.sig does not verify with $KREPRO_BUNDLE_KEY"
		note "bundle $1: signed by $KREPRO_BUNDLE_KEY"
	fi
	odd=$(tar -tvzf "$1" 2>/dev/null | grep -v '^[-d]' | head -n 1) ||
		true
	[ -z "$odd" ] || die "bundle $1: holds something other than files and folders: $odd"
	rm -rf "$2"
	mkdir -p "$2"
	tar -xzf "$1" -C "$2" --no-same-owner --no-same-permissions ||
		die "bundle $1: not a krepro bundle (tar failed)"
	b=$2/krepro-bundle
	[ -f "$b/MANIFEST.sha256" ] || die "bundle $1: no MANIFEST.sha256"
	(cd "$b" && find . -type f ! -name MANIFEST.sha256 | sed 's#^\./##' | LC_ALL=C sort) >"$2/files"
	cut -c67- "$b/MANIFEST.sha256" | LC_ALL=C sort >"$2/listed"
	extra=$(comm -23 "$2/files" "$2/listed" | head -n 1)
	[ -z "$extra" ] || die "bundle $1: file not in MANIFEST.sha256: $extra"
	gone=$(comm -13 "$2/files" "$2/listed" | head -n 1)
	[ -z "$gone" ] || die "bundle $1: files listed in MANIFEST.sha256 are missing: $gone"
	# Every file is present and listed: one hashing pass finds any altered.
	bad=$(cd "$b" && sha256sum -c --quiet MANIFEST.sha256 2>/dev/null | sed -n 's/: FAILED.*//p' | head -n 1)
	[ -z "$bad" ] || die "bundle $1: $bad was altered (sha256 differs from MANIFEST.sha256)"
}

# sandboxed DIR CMD...: CMD builds someone else's patches (their Makefiles run
# by nature) confined by bubblewrap: no network, no capabilities, uid 65534
# in a user namespace (also when run as root), everything read-only but DIR;
# ccache is read, never written.
# KREPRO_VERIFY_SANDBOX=off runs unconfined, for hosts without namespaces.
sandboxed() {
	sd=$1
	shift
	if [ "${KREPRO_VERIFY_SANDBOX:-on}" = off ]; then
		note "verify: KREPRO_VERIFY_SANDBOX=off: the bundle's patches build without a sandbox"
		"$@"
		return
	fi
	need_cmd bwrap bubblewrap
	# The host's /tmp stays visible but read-only like the rest (the
	# reference package or ccache may live there); temp files go to DIR.
	mkdir -p "$sd/tmp"
	set -- bwrap --unshare-user --uid 65534 --gid 65534 --unshare-net --unshare-pid --unshare-ipc \
		--unshare-uts --die-with-parent --cap-drop ALL --ro-bind / / --dev /dev --proc /proc \
		--bind "$sd" "$sd" --setenv TMPDIR "$sd/tmp" --setenv CCACHE_READONLY 1 \
		--setenv CCACHE_TEMPDIR "$sd/ccache-tmp" --setenv KREPRO_DEPS_OK 1 "$@"
	if ! "$@"; then
		bwrap --unshare-user --unshare-net --ro-bind / / true 2>/dev/null ||
			die "verify: bubblewrap cannot make a sandbox here (user namespaces off?); KREPRO_VERIFY_SANDBOX=off builds unconfined"
		return 1
	fi
}

cmd_verify() {
	if [ "${1:-}" = --key ]; then
		[ $# -ge 2 ] || die "verify: --key needs a signify public key"
		KREPRO_BUNDLE_KEY=$2
		shift 2
	fi
	[ $# -eq 1 ] || die "verify: name one bundle file"
	w=$(mktemp -d "${TMPDIR:-/tmp}/krepro-verify.XXXXXX")
	unpack_bundle "$1" "$w"
	b=$w/krepro-bundle
	note "verify: hashes of the bundle's files check out; rebuilding from inputs/ in a sandbox (no network, writes only to $w)"
	ok=0 bad=0
	# A fresh cache, so nothing built before is reused (ccache still is).
	# The bundle's scripts and Makefile never run: this kit's own build.sh,
	# lib/ and Makefile rebuild from the bundle's data (patches, configs,
	# the guest's init and C sources, built for the guest only).
	r=$w/root
	mkdir -p "$r/tools"
	cp -r "$KREPRO_ROOT/build.sh" "$KREPRO_ROOT/run-matrix.sh" "$KREPRO_ROOT/lib" "$KREPRO_ROOT/Makefile" "$r/"
	for d in patches configs initramfs tools/guest tools/common; do
		[ -d "$b/inputs/$d" ] || die "bundle $1: no inputs/$d"
		cp -r "$b/inputs/$d" "$r/$d"
	done
	cp "$KREPRO_ROOT/patches/reference.conf" "$r/patches/reference.conf"
	# The reference package is fetched here, outside the sandbox (which has
	# no network), and checked against the kit's own pin.
	[ -n "${KREPRO_REFERENCE_DEB:-}" ] || cmd_reference
	deb=$(find "$KREPRO_CACHE/downloads" -maxdepth 1 -name '*.deb' 2>/dev/null | head -n 1)
	KREPRO_REFERENCE_DEB=${KREPRO_REFERENCE_DEB:-$deb}
	export KREPRO_REFERENCE_DEB
	need_build_deps
	sandboxed "$w" "$r/build.sh" -C "$w/cache" -O "$w/out" initramfs >/dev/null
	for f in initramfs.cpio.gz $(cd "$b" && ls -d kernels/*/bzImage); do
		case $f in kernels/*)
			v=${f#kernels/}
			sandboxed "$w" "$r/build.sh" -C "$w/cache" -O "$w/out" kernel "${v%/bzImage}" >/dev/null
			;;
		esac
		want=$(sha256sum "$b/$f" | cut -d' ' -f1)
		got=$(sha256sum "$w/out/$f" | cut -d' ' -f1)
		if [ "$want" = "$got" ]; then
			echo "match     $f  $want"
			ok=$((ok + 1))
		else
			echo "MISMATCH  $f  bundle $want, rebuilt $got"
			bad=$((bad + 1))
		fi
	done
	rm -rf "$w"
	echo "verify: $ok artifact(s) match, $bad differ"
	[ "$bad" = 0 ]
}

# Pin a user's reference once, in this shell (a bad pin stops here).
[ -z "$REF_SPEC" ] || ref_id >/dev/null

cmd=$1
shift
case $cmd in
uapi) need_build_deps; uapi_headers ;;
patches)
	[ $# -eq 1 ] || die "patches: name one variant"
	variant_patches "$1" >/dev/null
	variant_patches "$1"
	;;
bundle) cmd_bundle "$@" ;;
verify) cmd_verify "$@" ;;
unpack-bundle) unpack_bundle "$@" ;;
deps) need_build_deps ;;
reference) cmd_reference; reference_dir ;;
preflight) cmd_preflight "$@" ;;
kernel) cmd_kernel "$@" ;;
initramfs) cmd_initramfs ;;
tools) cmd_tools ;;
list-variants) cmd_list_variants ;;
all) cmd_all "$@" ;;
*) die "unknown command '$cmd' (see --help)" ;;
esac
}
main "$@"
exit $?
