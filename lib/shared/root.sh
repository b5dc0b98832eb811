# shellcheck shell=sh
# lib/shared/root.sh: build.sh's pinned root (issue 47): a Debian root made with
# mmdebstrap from a committed lock, root/bookworm.lock, which names the
# suite, the architecture and every package of the root with its exact
# version and the sha256 of its .deb (docs/REPRODUCIBLE.md).  What makes
# image bytes runs in it (root_exec: kernels, the initramfs, the plugin),
# and exact boots use its QEMU (root_qemu_words).  KREPRO_BUILD_ROOT=host builds
# with the host's tools instead, said in every manifest.
#
#   ./build.sh root [--debs DIR]  the root of the lock, made once (every .deb
#                                 checked against the lock before mmdebstrap
#                                 sees it), kept in KREPRO_CACHE/roots/<id>;
#                                 prints its path last
#   ./build.sh root --lock        a new lock from the archive's current
#                                 versions (apt's resolution of
#                                 root/packages); says which versions changed
#
# For other modules (the manifest and job.conf, later): root_lock_id prints
# "root/bookworm.lock sha256:HEX" (the lock in use, its whole sha256);
# root_lock_file prints the lock's path.
# Sourced by build.sh; only definitions, so a script edited while it runs
# cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE; environment: KREPRO_ROOT_LOCK (another
# lock file, the tests'), KREPRO_ROOT_DEBS (a folder of .debs, like
# --debs), KREPRO_DEBIAN_MIRROR (lib/shared/qemu-plugin.sh's qp_mirror).  Sets
# nothing global but its rt_ variables.

# root_mode: "pinned" (the default) or "host" (KREPRO_BUILD_ROOT=host:
# the host's tools make the bytes; its manifests say so).
root_mode() {
	case ${KREPRO_BUILD_ROOT:-pinned} in
	pinned | host) printf '%s\n' "${KREPRO_BUILD_ROOT:-pinned}" ;;
	*) die "KREPRO_BUILD_ROOT='$KREPRO_BUILD_ROOT': pinned (the lock's root, the default) or host" ;;
	esac
}

# root_tools_id: what made a build's bytes, for manifests and job.conf:
# "root/bookworm.lock sha256:HEX" (root_lock_id) or "host".
root_tools_id() {
	if [ "$(root_mode)" = host ]; then echo host; else root_lock_id; fi
}

# root_compiler: the result path's compiler, "gcc-N": the pinned root's
# (the major version of the lock's gcc package), or the host's gcc with
# KREPRO_BUILD_ROOT=host.
root_compiler() {
	if [ "$(root_mode)" = host ]; then
		printf 'gcc-%s\n' "$(gcc -dumpversion 2>/dev/null | cut -d. -f1)"
	else
		awk '$1 == "gcc" && NF == 4 { v = $2; sub(/^[0-9]+:/, "", v); split(v, p, "."); print "gcc-" p[1]; exit }' "$(root_lock_file)"
	fi
}

# root_lock_file: the lock in use.
root_lock_file() {
	printf '%s\n' "${KREPRO_ROOT_LOCK:-$KREPRO_ROOT/root/bookworm.lock}"
}

# root_lock_id: "NAME sha256:HEX", NAME the lock's path inside the kit
# (root/bookworm.lock) or as given.
root_lock_id() {
	rl_f=$(root_lock_file)
	need_file "root lock" "$rl_f"
	rl_n=${rl_f#"$KREPRO_ROOT"/}
	printf '%s sha256:%s\n' "$rl_n" "$(sha256sum <"$rl_f" | cut -d' ' -f1)"
}

# rt_hdr LOCK KEY: a header value of the lock ("KEY: VALUE").
rt_hdr() {
	sed -n "s/^$2:[[:space:]]*//p" "$1" | head -n 1
}

# rt_check LOCK OUT: the lock's format checked (an error names the file
# and line); its package lines "NAME VERSION ARCH SHA256" into OUT.
rt_check() {
	need_file "root lock" "$1"
	awk -v f="$1" -v out="$2" '
	function bad(why) { printf "%s:%d: %s\n", f, NR, why > "/dev/stderr"; err = 1; exit 2 }
	/^[ \t]*(#|$)/ { next }
	/^[a-z]+:/ {
		k = $1; sub(/:$/, "", k)
		if (k != "suite" && k != "sources" && k != "arch" && k != "variant")
			bad("unknown header key (suite, sources, arch, variant)")
		if (k in hdr) bad("header key " k " twice")
		if (NF < 2) bad("header key " k " has no value")
		if (k == "variant" && ($2 != "essential" && $2 != "extract" || NF != 2))
			bad("variant is essential (extract: unpacked only, for tests)")
		if ((k == "suite" || k == "arch") && NF != 2) bad(k " is one word")
		if (k == "sources") for (i = 2; i <= NF; i++) if ($i !~ /^[a-z][a-z0-9-]*$/) bad("sources: suite names (bookworm, bookworm-security)")
		if (k == "suite" && $2 !~ /^[a-z][a-z0-9-]*$/) bad("suite: a suite name (bookworm)")
		if (k == "arch" && $2 !~ /^[a-z0-9][a-z0-9-]*$/) bad("arch: an architecture (amd64)")
		hdr[k] = 1
		next
	}
	{
		if (NF != 4) bad("expected NAME VERSION ARCH SHA256 (4 fields)")
		if ($1 !~ /^[a-z0-9][a-z0-9+.-]+$/) bad("not a Debian package name")
		if ($2 !~ /^([0-9]+:)?[0-9][A-Za-z0-9.+~-]*$/) bad("not a Debian version")
		if ($3 !~ /^[a-z0-9][a-z0-9-]*$/) bad("not an architecture")
		if ($4 !~ /^[0-9a-f]+$/ || length($4) != 64) bad("not a sha256 (64 hex digits)")
		if ($1 in seen) bad("package " $1 " twice (first at line " seen[$1] ")")
		seen[$1] = NR
		print $1, $2, $3, $4 > out
		n++
	}
	END {
		if (err) exit 2
		if (!("suite" in hdr) || !("arch" in hdr) || !("variant" in hdr))
			{ printf "%s: no suite:, arch: or variant: line\n", f > "/dev/stderr"; exit 2 }
		if (!n) { printf "%s: no package line\n", f > "/dev/stderr"; exit 2 }
	}' "$1" || die "root lock $1: not a lock (format: docs/REPRODUCIBLE.md; ./build.sh root --lock writes one)"
}

# rt_debname NAME VERSION ARCH: the .deb's file name as apt-get download
# writes it (an epoch's ':' as %3a).
rt_debname() {
	printf '%s_%s_%s.deb\n' "$1" "$(printf '%s' "$2" | sed 's/:/%3a/')" "$3"
}

# rt_apt ARGS...: apt-get (or apt-cache with RT_APT=apt-cache) with the
# root's private state under KREPRO_CACHE/roots/apt: its own sources (the
# lock's suites on the host's Debian mirrors), lists, cache and an empty
# dpkg status, no host preferences, no recommends; any user can run it.
rt_apt() {
	"${RT_APT:-apt-get}" -q -o "Dir::Etc::SourceList=$rt_a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$rt_a/lists" -o "Dir::Cache=$rt_a/cache" -o "Dir::State::status=$rt_a/status" \
		-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
		-o Debug::NoLocking=1 -o APT::Install-Recommends=false -o Acquire::Languages=none \
		-o "APT::Architecture=$rt_arch" -o "APT::Architectures=$rt_arch" "$@"
}

# rt_apt_update SUITE...: the private apt state for these suites, its lists
# fresh (one apt-get update; the caller holds roots/.lock).
rt_apt_update() {
	need_cmd apt-get apt
	rt_a=$KREPRO_CACHE/roots/apt
	mkdir -p "$rt_a/lists/partial" "$rt_a/cache/archives/partial"
	: >"$rt_a/status"
	rt_key=
	[ ! -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
		rt_key='[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] '
	for rt_s in "$@"; do
		case $rt_s in
		*-security) rt_m=$(KREPRO_DEBIAN_MIRROR='' qp_mirror "$rt_s" http://deb.debian.org/debian-security) ;;
		*) rt_m=$(qp_mirror "$rt_s") ;;
		esac || exit 2
		printf 'deb %s%s %s main\n' "$rt_key" "$rt_m" "$rt_s"
	done >"$rt_a/sources.list"
	note "root: apt-get update ($*, private lists in $rt_a)"
	rt_apt update >"$rt_a/apt.log" 2>&1 || {
		tail -n 5 "$rt_a/apt.log" >&2
		die "root: apt-get update of $rt_a/sources.list failed"
	}
}

# rt_debs_index DIR: "NAME VERSION ARCH PATH" of every .deb in DIR, read
# from their control fields (not their names).
rt_debs_index() {
	for rt_f in "$1"/*.deb; do
		[ -f "$rt_f" ] || continue
		rt_c=$(dpkg-deb -f "$rt_f" Package Version Architecture 2>/dev/null |
			sed 's/^[A-Za-z]*: //' | tr '\n' ' ') || continue
		printf '%s%s\n' "$rt_c" "$rt_f"
	done
}

# rt_take FILE NAME VERSION ARCH SHA256 WHERE: FILE copied into the .deb
# cache after its copy's sha256 is the lock's; a difference is refused
# naming the package, version, both hashes and where FILE came from.
rt_take() {
	rt_t=$rt_debs/.in.$$
	temp_add "$rt_t"
	cp "$1" "$rt_t" || die "root: cannot copy $1 into $rt_debs"
	rt_got=$(sha256sum <"$rt_t" | cut -d' ' -f1)
	if [ "$rt_got" != "$5" ]; then
		rm -f "$rt_t"
		die "root: $2 $3 ($1, $6): sha256 differs from the lock $rt_lock: expected $5, got $rt_got; refused"
	fi
	mv "$rt_t" "$rt_debs/$(rt_debname "$2" "$3" "$4")"
	rt_ctl "$rt_debs/$(rt_debname "$2" "$3" "$4")"
}

# rt_ctl DEB: DEB's control fields, read once into DEB.ctl beside it (a
# dpkg-deb a .deb, 225 of them, took 29 s on a busy machine).
rt_ctl() {
	[ -s "$1.ctl" ] && return 0
	dpkg-deb -f "$1" >"$1.ctl.tmp" || die "root: $1: dpkg-deb cannot read it"
	mv "$1.ctl.tmp" "$1.ctl"
}

# rt_fetch PKGS DEBSDIR: every .deb of PKGS (the lock's package lines) in
# the .deb cache, each checked: first the cache, then DEBSDIR (--debs,
# KREPRO_ROOT_DEBS), then the archive (apt-get download of the exact
# version).  A version the archive no longer has is named with the ways on;
# another version is never taken.
rt_fetch() {
	rt_n=$(wc -l <"$1")
	rt_need=$rt_tmp/need
	: >"$rt_need"
	# (rt_debname's name, made by one awk: a process a package costs)
	awk '{ b = $2; sub(/:/, "%3a", b); print $1, $2, $3, $4, $1 "_" b "_" $3 ".deb" }' "$1" |
		while read -r rt_p rt_v rt_ar rt_sha rt_b; do
			[ -f "$rt_debs/$rt_b" ] || printf '%s %s %s %s\n' "$rt_p" "$rt_v" "$rt_ar" "$rt_sha"
		done >"$rt_need"
	note "root: $((rt_n - $(wc -l <"$rt_need"))) of $rt_n .debs in the cache ($rt_debs)"
	# the host's apt cache, where its installs left the same versions
	# (each checked against the lock like any other copy)
	rt_host=${KREPRO_APT_ARCHIVES:-/var/cache/apt/archives}
	if [ -s "$rt_need" ] && [ -d "$rt_host" ]; then
		rt_k=0
		: >"$rt_tmp/need2"
		while read -r rt_p rt_v rt_ar rt_sha; do
			rt_f=$rt_host/$(rt_debname "$rt_p" "$rt_v" "$rt_ar")
			if [ -f "$rt_f" ] && [ "$(sha256sum <"$rt_f" | cut -d' ' -f1)" = "$rt_sha" ]; then
				rt_take "$rt_f" "$rt_p" "$rt_v" "$rt_ar" "$rt_sha" "the host's apt cache"
				rt_k=$((rt_k + 1))
			else
				printf '%s %s %s %s\n' "$rt_p" "$rt_v" "$rt_ar" "$rt_sha" >>"$rt_tmp/need2"
			fi
		done <"$rt_need"
		[ "$rt_k" = 0 ] || note "root: $rt_k .debs taken from $rt_host (the same versions, checked against the lock)"
		mv "$rt_tmp/need2" "$rt_need"
	fi
	if [ -s "$rt_need" ] && [ -n "$2" ]; then
		[ -d "$2" ] || die "root: --debs/KREPRO_ROOT_DEBS '$2' is not a folder"
		rt_debs_index "$2" >"$rt_tmp/given"
		rt_k=0
		: >"$rt_tmp/need2"
		while read -r rt_p rt_v rt_ar rt_sha; do
			rt_f=$(awk -v p="$rt_p" -v v="$rt_v" -v a="$rt_ar" \
				'$1 == p && $2 == v && $3 == a { sub(/^[^ ]* [^ ]* [^ ]* /, ""); print; exit }' "$rt_tmp/given")
			if [ -n "$rt_f" ]; then
				rt_take "$rt_f" "$rt_p" "$rt_v" "$rt_ar" "$rt_sha" "given in $2"
				rt_k=$((rt_k + 1))
			else
				printf '%s %s %s %s\n' "$rt_p" "$rt_v" "$rt_ar" "$rt_sha" >>"$rt_tmp/need2"
			fi
		done <"$rt_need"
		note "root: $rt_k .debs taken from $2 (checked against the lock)"
		mv "$rt_tmp/need2" "$rt_need"
	fi
	[ -s "$rt_need" ] || return 0
	# shellcheck disable=SC2046 # the lock's suites, single words
	rt_apt_update $(rt_hdr "$rt_lock" sources)
	note "root: downloading $(wc -l <"$rt_need") .debs of the lock (apt-get download of the exact versions)"
	# downloaded beside the cache (not in TMPDIR, which may be memory)
	rt_dl=$rt_debs/.dl.$$
	temp_add "$rt_dl"
	mkdir -p "$rt_dl"
	# shellcheck disable=SC2046 # NAME=VERSION words
	if ! (cd "$rt_dl" && rt_apt download $(awk '{ print $1 "=" $2 }' "$rt_need")) >"$rt_tmp/dl.log" 2>&1; then
		rt_gone=$(sed -n "s/^E: Version '\([^']*\)' for '\([^']*\)' was not found\$/\2 \1/p" "$rt_tmp/dl.log")
		[ -n "$rt_gone" ] || {
			tail -n 5 "$rt_tmp/dl.log" >&2
			die "root: apt-get download of the lock's .debs failed"
		}
		printf '%s\n' "$rt_gone" | sed 's/^/  not in the archive: /' >&2
		die "root: $(printf '%s\n' "$rt_gone" | wc -l) version(s) of the lock $rt_lock left the archive (first: $(printf '%s\n' "$rt_gone" | head -n 1)); the kit takes no other version: give a folder holding these .debs (./build.sh root --debs DIR, or KREPRO_ROOT_DEBS=DIR; checked against the lock's sha256; snapshot.debian.org keeps every version), or make a new lock from the archive's current versions (./build.sh root --lock: new versions, new hashes, another root)"
	fi
	while read -r rt_p rt_v rt_ar rt_sha; do
		rt_f=$rt_dl/$(rt_debname "$rt_p" "$rt_v" "$rt_ar")
		[ -f "$rt_f" ] || die "root: apt-get download gave no $(basename "$rt_f")"
		rt_take "$rt_f" "$rt_p" "$rt_v" "$rt_ar" "$rt_sha" "from the archive"
	done <"$rt_need"
	rm -rf "$rt_dl"
}

# rt_repo PKGS DIR: a flat apt repository in DIR holding exactly the lock's
# .debs (hard links into the cache, each checked again against the lock
# now, before mmdebstrap sees it) and their Packages index, whose SHA256
# fields are the lock's (apt checks them too), its other fields the .debs'
# control (rt_ctl).  One sha256sum and one stat for all: a process a .deb
# is what costs here.
rt_repo() {
	mkdir -p "$2"
	awk '{ b = $2; sub(/:/, "%3a", b); print $1, $2, $3, $4, $1 "_" b "_" $3 ".deb" }' "$1" >"$rt_tmp/repo"
	while read -r rt_p rt_v rt_ar rt_sha rt_b; do
		[ -f "$rt_debs/$rt_b" ] || die "root: $rt_debs/$rt_b: missing (a bug: please report it)"
		rt_ctl "$rt_debs/$rt_b"
	done <"$rt_tmp/repo"
	(cd "$rt_debs" && awk '{ print $5 }' "$rt_tmp/repo" | xargs ln -t "$2" 2>/dev/null) ||
		(cd "$rt_debs" && awk '{ print $5 }' "$rt_tmp/repo" | xargs cp -t "$2") ||
		die "root: cannot link or copy the .debs of $rt_debs into $2"
	(cd "$2" && awk '{ print $5 }' "$rt_tmp/repo" | xargs sha256sum) >"$rt_tmp/repo.sha" ||
		die "root: sha256sum of the .debs in $2 failed"
	(cd "$2" && awk '{ print $5 }' "$rt_tmp/repo" | xargs stat -c '%s %n') >"$rt_tmp/repo.size" ||
		die "root: stat of the .debs in $2 failed"
	awk -v d="$rt_debs" -v l="$rt_lock" 'FILENAME == ARGV[1] { got[$2] = $1; next }
		FILENAME == ARGV[2] { size[$2] = $1; next }
		got[$5] != $4 { printf "root: %s %s (%s/%s): sha256 differs from the lock %s: expected %s, got %s; refused (remove the file: the next call fetches it again)\n", \
			$1, $2, d, $5, l, $4, got[$5] > "/dev/stderr"; exit 2 }
		{ c = d "/" $5 ".ctl"
		  while ((getline line < c) > 0) if (line != "") print line
		  close(c)
		  printf "Filename: ./%s\nSize: %s\nSHA256: %s\n\n", $5, size[$5], $4 }' \
		"$rt_tmp/repo.sha" "$rt_tmp/repo.size" "$rt_tmp/repo" >"$2/Packages" ||
		die "root: a .deb of the cache is not the lock's"
	chmod -R a+rX "$2"
}

# rt_verify PKGS TREE: the root's dpkg database holds exactly the lock's
# packages and versions.
rt_verify() {
	dpkg-query --admindir="$2/var/lib/dpkg" -W -f '${Package} ${Version} ${Architecture}\n' 2>/dev/null |
		sed 's/:[a-z0-9-]* / /' | LC_ALL=C sort >"$rt_tmp/installed"
	awk '{ print $1, $2, $3 }' "$1" | LC_ALL=C sort >"$rt_tmp/locked"
	if ! cmp -s "$rt_tmp/installed" "$rt_tmp/locked"; then
		diff "$rt_tmp/locked" "$rt_tmp/installed" | sed -n 's/^</  locked, not installed:/p; s/^>/  installed, not locked:/p' | head -n 20 >&2
		die "root: the root mmdebstrap made is not the lock's package set"
	fi
}

# rt_mmdebstrap PKGS REPO TREE: mmdebstrap makes TREE from REPO alone (no
# other source: no other version can come in), dpkg without its fsyncs
# (TREE is a temporary folder renamed into place once whole), always in unshare mode: as
# root only its mount namespace is private (the repository's bind mount
# never outlives it) and TREE is written directly; as a user, its tarball
# is unpacked as the user.
rt_mmdebstrap() {
	rt_var=$(rt_hdr "$rt_lock" variant)
	rt_out=$3
	[ "$(id -u)" = 0 ] || rt_out=-
	# SUITE '': the essential set from the only repository there is
	set -- --mode=unshare --variant="$rt_var" --architectures="$rt_arch" \
		--include="$(awk '{ print $1 }' "$1" | paste -sd, -)" --hook-dir="$rt_hooks" \
		--dpkgopt=force-unsafe-io \
		--aptopt='Acquire::Languages "none"' '' "$rt_out" "deb [trusted=yes] file://$2 ./"
	# the extract variant runs no customize hook: unmount after extracting
	[ "$rt_var" != extract ] || set -- --extract-hook="$rt_hooks/customize00.sh" "$@"
	if [ "$rt_out" != - ]; then
		mmdebstrap --format=directory "$@" || die "root: mmdebstrap failed"
		return 0
	fi
	mkdir -p "$3"
	{
		mmdebstrap --format=tar "$@"
		echo "$?" >"$rt_tmp/mm.rc"
	} | tar -x --no-same-owner --exclude='./dev/*' -C "$3" || die "root: unpacking mmdebstrap's tarball failed"
	[ "$(cat "$rt_tmp/mm.rc")" = 0 ] || die "root: mmdebstrap (unshare mode) failed"
}

# rt_unshare_ready: what a user needs for mmdebstrap's unshare mode, else
# a message naming what is missing.
rt_unshare_ready() {
	rt_u=$(id -un)
	need_cmd newuidmap uidmap
	if ! grep -q "^$rt_u:" /etc/subuid 2>/dev/null || ! grep -q "^$rt_u:" /etc/subgid 2>/dev/null; then
		die "root: as user $rt_u, mmdebstrap needs its unshare mode: /etc/subuid and /etc/subgid have no line for $rt_u (as root: usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $rt_u), or run ./build.sh root as root"
	fi
	[ "$(cat /proc/sys/kernel/unprivileged_userns_clone 2>/dev/null || echo 1)" = 1 ] ||
		die "root: as user $rt_u, mmdebstrap's unshare mode needs user namespaces: kernel.unprivileged_userns_clone is 0 (sysctl -w kernel.unprivileged_userns_clone=1), or run ./build.sh root as root"
}

# root_make [DEBSDIR]: the lock's root, made once; prints its path.
root_make() {
	rt_lock=$(root_lock_file) rt_tmp=
	temp_dir rt_tmp "${TMPDIR:-/tmp}/krepro-root"
	rt_check "$rt_lock" "$rt_tmp/pkgs"
	rt_sha=$(sha256sum <"$rt_lock" | cut -d' ' -f1)
	rt_id=$(printf '%s' "$rt_sha" | cut -c1-16)
	rt_dest=$KREPRO_CACHE/roots/$rt_id
	# a root never changes once made: another cache (-C, a test's) uses
	# the kit's own when it has this lock's
	[ -d "$rt_dest" ] || [ ! -d "$KREPRO_ROOT/cache/roots/$rt_id" ] || rt_dest=$KREPRO_ROOT/cache/roots/$rt_id
	if [ -d "$rt_dest" ]; then
		note "root: $rt_id is there (lock $(root_lock_id | cut -d' ' -f1), $(wc -l <"$rt_tmp/pkgs") packages)"
		printf '%s\n' "$rt_dest"
		return 0
	fi
	rt_arch=$(rt_hdr "$rt_lock" arch)
	mkdir -p "$KREPRO_CACHE/roots/debs"
	rt_debs=$KREPRO_CACHE/roots/debs
	refuse_link "$KREPRO_CACHE/roots/.lock"
	exec 7>"$KREPRO_CACHE/roots/.lock"
	! command -v flock >/dev/null 2>&1 || flock 7
	if [ ! -d "$rt_dest" ]; then
		rt_t0=$(date +%s)
		# what mmdebstrap needs, before anything is fetched
		need_cmd mmdebstrap mmdebstrap
		rt_hooks=/usr/share/mmdebstrap/hooks/file-mirror-automount
		[ -f "$rt_hooks/customize00.sh" ] || die "root: mmdebstrap has no $rt_hooks (Debian 12's mmdebstrap 1.3.5 has)"
		[ "$(id -u)" = 0 ] || rt_unshare_ready
		note "root: making $rt_id from $(root_lock_id) ($(wc -l <"$rt_tmp/pkgs") packages, $(rt_hdr "$rt_lock" suite) $rt_arch, variant $(rt_hdr "$rt_lock" variant))"
		rt_fetch "$rt_tmp/pkgs" "$1"
		rm -rf --one-file-system "$rt_dest.tmp"
		mkdir -p "$rt_dest.tmp"
		rt_repo "$rt_tmp/pkgs" "$rt_dest.tmp/repo"
		note "root: $(wc -l <"$rt_tmp/pkgs") .debs checked against the lock; mmdebstrap from them alone"
		rt_mmdebstrap "$rt_tmp/pkgs" "$rt_dest.tmp/repo" "$rt_dest.tmp/tree"
		# the automount hook leaves the repository's empty mount point
		rmdir -p "$rt_dest.tmp/tree$rt_dest.tmp/repo" 2>/dev/null || true
		[ "$(rt_hdr "$rt_lock" variant)" = extract ] || rt_verify "$rt_tmp/pkgs" "$rt_dest.tmp/tree"
		mkdir -p "$rt_dest.tmp/tree/etc/krepro"
		cp "$rt_lock" "$rt_dest.tmp/tree/etc/krepro/root.lock"
		mv "$rt_dest.tmp/tree" "$rt_dest"
		rm -rf --one-file-system "$rt_dest.tmp"
		note "root: $rt_id made in $(($(date +%s) - rt_t0)) s, $(du -sm "$rt_dest" | cut -f1) MB"
	fi
	exec 7>&-
	printf '%s\n' "$rt_dest"
}

# root_relock: a new lock from the archive's current versions: apt's
# resolution (from an empty system) of Debian's essential set and
# root/packages, each version's sha256 from the archive's index; says
# which versions changed against the old lock, then replaces it.
root_relock() {
	rt_lock=$(root_lock_file) rt_tmp=
	temp_dir rt_tmp "${TMPDIR:-/tmp}/krepro-root"
	rt_suite=bookworm rt_sources='bookworm bookworm-updates bookworm-security'
	rt_arch=$(dpkg --print-architecture)
	need_file "package list" "$KREPRO_ROOT/root/packages"
	rt_list=$(awk '{ sub(/#.*/, ""); for (i = 1; i <= NF; i++) print $i }' "$KREPRO_ROOT/root/packages" | tr '\n' ' ')
	[ -n "$rt_list" ] || die "root/packages: no package"
	mkdir -p "$KREPRO_CACHE/roots"
	refuse_link "$KREPRO_CACHE/roots/.lock"
	exec 7>"$KREPRO_CACHE/roots/.lock"
	! command -v flock >/dev/null 2>&1 || flock 7
	# shellcheck disable=SC2086 # suite names
	rt_apt_update $rt_sources
	note "root: resolving root/packages with apt ($(printf '%s' "$rt_list" | wc -w) packages and the essential set)"
	# shellcheck disable=SC2086 # package names
	rt_apt -s install '?essential' $rt_list >"$rt_tmp/sim" 2>&1 || {
		tail -n 8 "$rt_tmp/sim" >&2
		die "root: apt cannot resolve root/packages in $rt_sources"
	}
	sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([^]]*\)\]).*$/\1 \2 \3/p' "$rt_tmp/sim" | LC_ALL=C sort >"$rt_tmp/res"
	[ "$(wc -l <"$rt_tmp/res")" = "$(grep -c '^Inst ' "$rt_tmp/sim")" ] ||
		die "root: apt's simulation has Inst lines the kit cannot read ($rt_tmp/sim)"
	# shellcheck disable=SC2046 # NAME=VERSION words
	RT_APT=apt-cache rt_apt show --no-all-versions $(awk '{ print $1 "=" $2 }' "$rt_tmp/res") >"$rt_tmp/show" 2>&1 ||
		die "root: apt-cache show of the resolved versions failed"
	awk '/^Package: / { p = $2 } /^Version: / { v = $2 } /^Architecture: / { a = $2 }
		/^SHA256: / { s = $2 } /^$/ { if (p != "") print p, v, a, s; p = v = a = s = "" }
		END { if (p != "") print p, v, a, s }' "$rt_tmp/show" | LC_ALL=C sort >"$rt_tmp/new"
	awk '{ print $1, $2, $3 }' "$rt_tmp/new" | cmp -s - "$rt_tmp/res" ||
		die "root: the archive's index does not hold every resolved version"
	{
		printf '# %s: the packages of the kit'\''s pinned root (lib/shared/root.sh,\n' "${rt_lock#"$KREPRO_ROOT"/}"
		printf '# docs/REPRODUCIBLE.md): apt'\''s resolution of root/packages and the\n'
		printf '# essential set, the whole closure.  Regenerate: ./build.sh root --lock\n'
		printf '# Package lines: NAME VERSION ARCH SHA256-OF-THE-.deb\n'
		printf 'suite: %s\nsources: %s\narch: %s\nvariant: essential\n' "$rt_suite" "$rt_sources" "$rt_arch"
		cat "$rt_tmp/new"
	} >"$rt_tmp/lock"
	rt_check "$rt_tmp/lock" "$rt_tmp/check"
	if [ -f "$rt_lock" ]; then
		rt_check "$rt_lock" "$rt_tmp/old"
		LC_ALL=C sort "$rt_tmp/old" -o "$rt_tmp/old"
		awk 'NR == FNR { ov[$1] = $2; os[$1] = $4; next }
			{ seen[$1] = 1
			  if (!($1 in ov)) { print "  added: " $1 " " $2; n++ }
			  else if (ov[$1] != $2) { print "  changed: " $1 " " ov[$1] " -> " $2; n++ }
			  else if (os[$1] != $4) { print "  new hash: " $1 " " $2 " (same version, another .deb)"; n++ } }
			END { for (p in ov) if (!(p in seen)) print "  removed: " p " " ov[p] | "LC_ALL=C sort"
			      close("LC_ALL=C sort") }' "$rt_tmp/old" "$rt_tmp/new" >"$rt_tmp/diff"
		if [ -s "$rt_tmp/diff" ]; then
			cat "$rt_tmp/diff" >&2
			note "root: $(wc -l <"$rt_tmp/diff") package(s) changed against the old lock: a new lock, new hashes, another root"
		else
			note "root: no version changed against the old lock"
		fi
	fi
	if ! cmp -s "$rt_tmp/lock" "$rt_lock" 2>/dev/null; then
		mkdir -p "$(dirname "$rt_lock")"
		{ cp "$rt_tmp/lock" "$rt_lock.tmp" && mv "$rt_lock.tmp" "$rt_lock"; } || die "root: cannot write $rt_lock"
	fi
	note "root: lock $(root_lock_id) ($(wc -l <"$rt_tmp/new") packages)"
	exec 7>&-
	printf '%s\n' "$rt_lock"
}

# sys_binds SYSROOT: bubblewrap's binds of a system's programs (/usr,
# /etc, /bin, /lib...), one "KIND SRC DST" a line for bind_words: the
# pinned root's at SYSROOT, or the host's (SYSROOT empty).
sys_binds() {
	printf -- '--ro-bind %s/usr /usr\n--ro-bind %s/etc /etc\n' "$1" "$1"
	for sy_d in /bin /sbin /lib /lib32 /lib64 /libx32; do
		if [ -L "$1$sy_d" ]; then
			printf -- '--symlink %s %s\n' "$(readlink "$1$sy_d")" "$sy_d"
		elif [ -d "$1$sy_d" ]; then
			printf -- '--ro-bind %s%s %s\n' "$1" "$sy_d" "$sy_d"
		fi
	done
}

# bind_words: "KIND PATH [TO]" lines (an empty PATH skipped) into
# bubblewrap's option words, one a line, each bind below folders made
# open first (bwrap makes them 0700; below /tmp, after its tmpfs).
bind_words() {
	bw_seen=
	while read -r bw_kind bw_path bw_to; do
		[ -n "$bw_path" ] || continue
		bw_to=${bw_to:-$bw_path}
		case $bw_kind in
		--symlink) printf '%s\n' "$bw_kind" "$bw_path" "$bw_to"; continue ;;
		esac
		bw_up=$(dirname "$bw_to") bw_dirs=
		while [ "$bw_up" != / ] && [ "$bw_up" != /tmp ]; do
			bw_dirs="$bw_up
$bw_dirs"
			bw_up=$(dirname "$bw_up")
		done
		for bw_d in $bw_dirs; do
			case $bw_seen in *"|$bw_d|"*) continue ;; esac
			bw_seen="$bw_seen|$bw_d|"
			printf '%s\n' --perms 0755 --dir "$bw_d"
		done
		printf '%s\n' "$bw_kind" "$bw_path" "$bw_to"
	done
}

# root_ready: the pinned root's path, made first if it is not there (with
# its progress).  Not for KREPRO_BUILD_ROOT=host.
# shellcheck disable=SC2120 # bundle.sh and boot.sh pass LOCK and DEBS
root_ready() {
	[ -z "${1:-}" ] || KREPRO_ROOT_LOCK=$1
	root_make "${2:-${KREPRO_ROOT_DEBS:-}}" | tail -n 1
}

# root_exec ROOT CMD...: CMD run with the pinned root at ROOT as its
# system (its /usr, /etc: gcc, make, musl, busybox, awk...) through
# bubblewrap, the host's folders the build needs at their own paths: the
# kit read-only; KREPRO_CACHE, KREPRO_OUT (and the kit's own cache/ and
# out/) and ccache's folder writable; a private /tmp.  Paths stay what they are on the host, so the bytes (and
# ccache's direct-mode hashes) are those of a build on a host with the
# root's versions.  KREPRO_IN_ROOT (the lock's id) tells build.sh it runs
# there.  Not a sandbox for someone else's code: that is verify's sandboxed.
root_exec() {
	re_r=$1
	shift
	need_cmd bwrap bubblewrap
	re_cc=$(ccache -k cache_dir 2>/dev/null) || re_cc=
	[ -z "$re_cc" ] || mkdir -p "$re_cc" || re_cc=
	mkdir -p "$KREPRO_CACHE" "$KREPRO_OUT"
	re_ref=
	re_spec=$(ref_in_use spec)
	case $re_spec in
	tarball:*) re_ref=${re_spec#tarball:} re_ref=${re_ref%%#*} ;;
	git:*) re_ref=${re_spec#git:} re_ref=${re_ref%@*} ;;
	esac
	[ -z "$re_ref" ] || re_ref=$(cd "$(dirname "$re_ref")" && pwd)/$(basename "$re_ref")
	re_n=$#
	set -- "$@" --die-with-parent --unshare-ipc --unshare-uts --dev /dev --proc /proc --tmpfs /tmp
	while IFS= read -r re_w; do
		set -- "$@" "$re_w"
	done <<EOF
$({
		sys_binds "$re_r"
		echo "--ro-bind $KREPRO_ROOT"
		echo "--ro-bind $re_ref"
		echo "--ro-bind ${KREPRO_REFERENCE_DEB:+$(cd "$(dirname "$KREPRO_REFERENCE_DEB")" && pwd)}"
		echo "--ro-bind ${KREPRO_QEMU_SOURCE:+$(cd "$KREPRO_QEMU_SOURCE" && pwd)}"
		# the kit's own cache and out/ stay writable when others are used
		# (a cache of links into the kit's, as tests make)
		re_rw "$KREPRO_ROOT/cache" "$KREPRO_ROOT/out" "$KREPRO_CACHE" "$KREPRO_OUT" "$re_cc"
	} | bind_words)
EOF
	[ -z "$re_cc" ] || set -- "$@" --setenv CCACHE_DIR "$re_cc"
	set -- "$@" --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv TMPDIR /tmp \
		--setenv KREPRO_IN_ROOT "$(basename "$re_r")" --setenv KREPRO_DEPS_OK 1
	while [ "$re_n" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		re_n=$((re_n - 1))
	done
	bwrap "$@"
}

# re_rw DIR...: root_exec's writable binds: each folder at its real path
# (a link to it, in the kit or elsewhere, then leads there) and, when the
# path given is a link outside the kit, there too.
re_rw() {
	for rw_d in "$@"; do
		if [ -z "$rw_d" ] || [ ! -d "$rw_d" ]; then continue; fi
		rw_p=$(cd "$rw_d" && pwd -P)
		echo "--bind $rw_p"
		[ "$rw_p" != "$rw_d" ] || continue
		case $rw_d in "$KREPRO_ROOT"/*) ;; *) echo "--bind $rw_p $rw_d" ;; esac
	done
}

# root_qemu_words DIR: the command that runs the pinned root at DIR's
# qemu-system-x86_64 on this host, one word a line: through the root's own
# loader (its real file: usr/lib64's link points at the host's /lib, whose
# loader is another glibc's: on Debian 13 it crashed at once), libraries
# only from the root (--inhibit-cache: not the host's ld.so.cache), its
# modules (QEMU_MODULE_DIR: the TCG accelerator is one) and firmware (-L).
# Every path of a boot stays the host's (kernels, sockets, the plugin).
root_qemu_words() {
	printf '%s\n' env "QEMU_MODULE_DIR=$1/usr/lib/x86_64-linux-gnu/qemu" \
		"$1/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --inhibit-cache --library-path "$1/usr/lib/x86_64-linux-gnu" \
		"$1/usr/bin/qemu-system-x86_64" -L "$1/usr/share/qemu" -L "$1/usr/share/seabios" -L "$1/usr/lib/ipxe/qemu"
}

# root_debs_to DIR: the lock's .debs (those of its root, already made)
# copied into DIR for a bundle (--with-root); says their count and size.
root_debs_to() {
	rt_lock=$(root_lock_file) rt_tmp=
	temp_dir rt_tmp "${TMPDIR:-/tmp}/krepro-root"
	rt_check "$rt_lock" "$rt_tmp/pkgs"
	root_ready "" "" >/dev/null || exit 2
	mkdir -p "$1"
	while read -r rd_p rd_v rd_a rd_s; do
		rd_f=$KREPRO_CACHE/roots/debs/$(rt_debname "$rd_p" "$rd_v" "$rd_a")
		[ -f "$rd_f" ] || rd_f=$KREPRO_ROOT/cache/roots/debs/$(rt_debname "$rd_p" "$rd_v" "$rd_a")
		[ -f "$rd_f" ] || die "bundle --with-root: $rd_p $rd_v: no .deb in the cache ($(dirname "$rd_f")); ./build.sh root fetches it"
		cp "$rd_f" "$1/" || die "bundle --with-root: cannot copy $rd_f"
	done <"$rt_tmp/pkgs"
	note "bundle: --with-root: $(wc -l <"$rt_tmp/pkgs") .debs of $(root_lock_id | cut -d' ' -f1), $(du -sm "$1" | cut -f1) MB"
}

# build.sh root [--lock] [--debs DIR]
cmd_root() {
	rt_mode=make rt_given=${KREPRO_ROOT_DEBS:-}
	while [ $# -gt 0 ]; do
		case $1 in
		--lock) rt_mode=lock; shift ;;
		--debs) opt_arg "a folder of .debs" "$@"; rt_given=$2; shift 2 ;;
		*) die "root: unknown argument '$1' (root [--lock] [--debs DIR])" ;;
		esac
	done
	case $rt_mode in
	lock) root_relock ;;
	make) root_make "$rt_given" ;;
	esac
}
