# shellcheck shell=sh
# lib/build/reference.sh: build.sh's reference kernel: the pinned Debian package (or a user's
# tarball or git reference), unpacked once per reference id.
# Sourced by build.sh; only definitions, so a
# script edited while it runs cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE; environment: KREPRO_REFERENCE_DEB.
# Sets: REF_SPEC (reference_use: build.sh's -R or KREPRO_REFERENCE),
# REF_ID, REF_SHA (tarball), REF_REPO and REF_COMMIT (git) (ref_id), which
# other modules ask with ref_in_use.

ref_get() { # key -> value from patches/reference.conf
	conf_get "$KREPRO_ROOT/patches/reference.conf" "$1"
}

# The reference is Debian's pinned package unless -R/KREPRO_REFERENCE names
# tarball:PATH[#SHA256] or git:REPO@REF; either way it is pinned by sha256
# or commit id, and that id is part of every variant's inputs.  A git
# reference also sets REF_REPO (the repository) and REF_COMMIT.
REF_ID='' REF_SPEC='' REF_COMMIT='' REF_REPO=''

# reference_use SPEC: the session's reference (empty: the pinned Debian
# package), pinned here in this shell (a bad pin stops here).
reference_use() {
	REF_SPEC=$1 REF_ID='' REF_COMMIT='' REF_REPO=''
	[ -z "$REF_SPEC" ] || ref_id >/dev/null
}

# ref_in_use spec|commit|repo: the reference as given (tarball:... or
# git:REPO@REF, empty for Debian's), its git commit and repository (empty
# unless a git reference).
ref_in_use() {
	case $1 in
	spec) printf '%s\n' "$REF_SPEC" ;;
	commit) printf '%s\n' "$REF_COMMIT" ;;
	repo) printf '%s\n' "$REF_REPO" ;;
	*) die "ref_in_use: no fact '$1' (a bug: please report it)" ;;
	esac
}

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
		REF_REPO=${REF_SPEC#git:}
		REF_REPO=${REF_REPO%@*}
		# git's own refusal (not a repository, safe.directory's "dubious
		# ownership") as git says it, before looking for the commit
		rg_why=$(ref_git rev-parse --git-dir 2>&1 >/dev/null) ||
			die "reference git:$REF_REPO: git refuses it: $rg_why"
		REF_COMMIT=$(ref_git rev-parse --verify --quiet "${REF_SPEC##*@}^{commit}") ||
			die "reference git:$REF_REPO: no commit '${REF_SPEC##*@}'"
		REF_ID=git-$(printf '%s' "$REF_COMMIT" | cut -c1-16)
		;;
	*) die "bad reference '$REF_SPEC' (tarball:PATH[#SHA256] or git:REPO@REF)" ;;
	esac
	printf '%s\n' "$REF_ID"
}

# A git reference is someone else's repository: nothing in it may run.
# Git runs programs a repository's config names (filter.*.smudge, .clean
# and .process, diff.*.textconv, merge.*.driver, core.fsmonitor,
# core.sshCommand) when an attribute selects them, from the commit's
# .gitattributes or the repository's info/attributes, or when a command
# reads the index, or fetches; and hooks (core.hooksPath too).  So the kit
# runs on the user's repository only plumbing that converts nothing,
# reads no index, runs no hook and fetches nothing: ref_git rev-parse and
# cat-file -e.  Everything that reads or writes files (the export, the
# 3-way merge) runs in a bare repository of the kit's own, ref_scratch,
# which borrows only the user's objects (data) as an alternate.
#
# ref_git ARGS...: git ARGS on REF_REPO, with hooks, fsmonitor and the
# global attributes file off and every transport refused (a promisor
# remote's lazy fetch would run one: GIT_ALLOW_PROTOCOL overrides any
# protocol.*.allow of the repository's config).
ref_git() {
	GIT_ALLOW_PROTOCOL=none GIT_NO_LAZY_FETCH=1 GIT_TERMINAL_PROMPT=0 GIT_OPTIONAL_LOCKS=0 \
		git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.attributesFile=/dev/null \
		--no-pager -C "$REF_REPO" "$@"
}

# scratch_git DIR ARGS...: git ARGS in the kit's scratch repository DIR
# (ref_scratch), reading no system or global config and no system or
# global attributes: the only config is DIR/config, which the kit wrote
# and which defines no filter, textconv or merge driver, so no attribute
# can select a program; DIR/info/attributes (the kit's) unsets every
# converting attribute for every path, and outranks any .gitattributes of
# the commit or the tree; no hooks (an empty template, core.hooksPath),
# no fsmonitor, no transport.
scratch_git() {
	sg_dir=$1
	shift
	GIT_DIR=$sg_dir GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_ATTR_NOSYSTEM=1 \
		GIT_ALLOW_PROTOCOL=none GIT_NO_LAZY_FETCH=1 GIT_TERMINAL_PROMPT=0 \
		git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.attributesFile=/dev/null \
		--no-pager "$@"
}

# kit_scratch DIR: an empty bare repository of the kit's own at DIR, for
# scratch_git: git never discovers one in a tree (a tarball's .git).  diff
# is left unspecified (!diff), not unset: it selects no driver (the config
# defines none) and a text file then diffs as text (a commit variant's
# diff, lib/build/commits.sh), binary ones found by content.
kit_scratch() {
	rm -rf "$1"
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git init -q --bare --template= "$1" ||
		die "cannot create $1"
	mkdir -p "$1/objects/info" "$1/info"
	printf '* -filter !diff -ident -text -eol -working-tree-encoding -export-subst -export-ignore merge=text\n' \
		>"$1/info/attributes"
}

# ref_scratch DIR: a bare repository of the kit's own at DIR whose objects
# are the git reference's (objects/info/alternates), nothing else of it.
ref_scratch() {
	kit_scratch "$1"
	rs_obj=$(ref_git rev-parse --path-format=absolute --git-path objects) || rs_obj=
	[ -d "$rs_obj" ] || die "reference $REF_REPO: no git objects"
	printf '%s\n' "$rs_obj" >"$1/objects/info/alternates"
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
		# data only: no owner (tar as root would keep it); the modes as
		# written, so that tarball_as_data can say which bits it clears
		tar -x --no-same-owner -f "${f%%#*}" -C "$parent.tmp/x" ||
			die "reference ${f%%#*}: tar failed"
		tarball_as_data "${f%%#*}" "$parent.tmp/x"
		top=$(find "$parent.tmp/x" -mindepth 1 -maxdepth 1 -type d)
		if [ "$(printf '%s\n' "$top" | wc -l)" != 1 ] || [ ! -f "$top/Makefile" ]; then
			die "reference ${f%%#*}: expected one top folder holding a kernel tree"
		fi
		mv "$top" "$parent.tmp/linux"
		;;
	git:*)
		repo=${REF_SPEC#git:}
		note "exporting reference ${repo%@*} at $REF_COMMIT"
		# git archive in the kit's scratch repository (scratch_git: no
		# driver defined, every converting attribute unset): the blobs as
		# committed, nothing of the user's repository run.
		ref_scratch "$parent.tmp/git"
		{
			scratch_git "$parent.tmp/git" archive --format=tar --prefix=linux/ "$REF_COMMIT"
			echo "$?" >"$parent.tmp/archive.rc"
		} | tar -x --no-same-owner -C "$parent.tmp" || die "reference git:${repo%@*}: tar failed"
		[ "$(cat "$parent.tmp/archive.rc")" = 0 ] || die "reference git:${repo%@*}: git archive of $REF_COMMIT failed"
		rm -rf "$parent.tmp/git" "$parent.tmp/archive.rc"
		;;
	esac
	rmdir "$parent.tmp/x" 2>/dev/null || rm -rf "$parent.tmp/x"
	touch "$parent.tmp/linux/.krepro-complete"
	rm -rf "$parent"
	mv "$parent.tmp" "$parent"
}

# tarball_as_data TARBALL DIR: the unpacked tree DIR made data: a device,
# FIFO or socket refuses the tarball; setuid, setgid and sticky bits go;
# what git would obey (.git, which the kernel's setlocalversion and any
# git call inside the tree would find and whose config can name programs,
# .gitattributes and .gitmodules) is removed; each said.
tarball_as_data() {
	td_odd=$(find "$2" ! -type f ! -type d ! -type l -print | head -n 1)
	[ -z "$td_odd" ] || die "reference $1: holds a device, FIFO or socket (${td_odd#"$2"/}): a kernel tree is files, folders and links"
	td_n=$(find "$2" -perm /7000 ! -type l -print -exec chmod ug-s,o-t {} + | wc -l)
	[ "$td_n" = 0 ] || note "reference $1: $td_n file(s) had setuid, setgid or sticky bits: cleared"
	td_git=$(find "$2" \( -name .git -o -name .gitattributes -o -name .gitmodules \) -prune -print | sed "s|^$2/||" | sort)
	if [ -n "$td_git" ]; then
		note "reference $1: removed what git would obey: $(printf '%s\n' "$td_git" | head -n 5 | tr '\n' ' ')$([ "$(printf '%s\n' "$td_git" | wc -l)" -le 5 ] || echo ...)"
		printf '%s\n' "$td_git" | while IFS= read -r td_p; do rm -rf "${2:?}/$td_p"; done
	fi
}

# The reference tree, unpacked once: an interrupted unpack leaves only
# <parent>.tmp, redone by the next call; concurrent calls wait for the
# first one's unpack (fd 6) and then find the tree complete.
cmd_reference() {
	[ -z "$REF_SPEC" ] || ref_id >/dev/null
	dest=$(reference_dir)
	[ -f "$dest/.krepro-complete" ] && return 0
	mkdir -p "$(dirname "$(dirname "$dest")")"
	refuse_link "$(dirname "$dest").lock"
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
