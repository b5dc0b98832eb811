# shellcheck shell=sh
# lib/shared/bundle.sh: Image bundles: packed by build.sh bundle, checked by build.sh verify
# (rebuilt in a sandbox) and unpacked by run-matrix.sh --bundle.
# Sourced by build.sh and run-matrix.sh; only definitions, so a
# script edited while it runs cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT, BUNDLE_INPUTS; environment:
# TMPDIR, KREPRO_VERIFY_SANDBOX, KREPRO_REFERENCE_DEB.  Sets: BUNDLE_INPUTS,
# KREPRO_BUNDLE_KEY (verify --key), KREPRO_REFERENCE_DEB (exported: verify).
# Shared (bench/shared-state.sh): KREPRO_REFERENCE_DEB (the bundle's reference package).

# A bundle's bounds, checked on the archive's listing before anything is
# unpacked or hashed: a member is a kernel (about 10 MiB), its System.map,
# the initramfs (2 MiB), the kit's sources, and later a root filesystem
# image: at most 1 GiB each, 2 GiB and 100000 members in all (the archive
# itself at most 2 GiB).  A 1 TiB sparse member took minutes to hash.
BUNDLE_MEMBER_MAX=1073741824
BUNDLE_TOTAL_MAX=2147483648
BUNDLE_MEMBERS_MAX=100000

# The kit's own inputs a bundle carries so that `verify` can rebuild.
BUNDLE_INPUTS="build.sh run-matrix.sh lib Makefile configs patches initramfs suites monitors tools root .clang-format"

# Deterministic tar.gz of a directory: sorted, fixed owner and mtime.
pack_dir() { # dir parent-name outfile
	ts=$(date -u -d "$(ref_get timestamp)" +%s)
	tar -C "$(dirname "$1")" --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$ts" --format=gnu -cf - "$(basename "$1")" | gzip -n -9 >"$3"
}

cmd_bundle() {
	outf='' matrix='' seckey='' withroot=
	while [ $# -gt 0 ]; do
		case $1 in
		-o) opt_arg "a file" "$@"; outf=$2; shift 2 ;;
		--with-root) withroot=1; shift ;;
		-m) opt_arg "a matrix file" "$@"; matrix=$2; shift 2 ;;
		--sign) opt_arg "a signify secret key" "$@"; seckey=$2; shift 2 ;;
		-*) die "bundle: unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ -n "$outf" ] || die "bundle: -o FILE is required"
	[ -z "$matrix" ] || need_file "bundle: matrix file" "$matrix"
	# The key first: nothing is built for a bundle that cannot be signed.
	[ -z "$seckey" ] || check_secret_key "$seckey"
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046 # variant names are single words
		set -- $(cd "$KREPRO_OUT/kernels" 2>/dev/null && ls)
	fi
	[ $# -gt 0 ] || die "bundle: no kernels built yet (./build.sh kernel VARIANT)"
	# Bring every artifact up to date with the inputs the bundle records
	# (a no-op when it is): a stale kernel in out/ would fail verify.
	# Through build.sh, so that what is built is built in the pinned root.
	for v in "$@"; do
		"$KREPRO_ROOT/build.sh" -C "$KREPRO_CACHE" -O "$KREPRO_OUT" kernel "$v" >/dev/null || exit 2
	done
	"$KREPRO_ROOT/build.sh" -C "$KREPRO_CACHE" -O "$KREPRO_OUT" initramfs >/dev/null || exit 2
	temp_dir w "${TMPDIR:-/tmp}/krepro-bundle"
	temp_add "$outf.tmp"
	temp_add "$outf.sig.tmp"
	b=$w/krepro-bundle
	mkdir -p "$b/kernels" "$b/inputs"
	for v in "$@"; do
		mkdir -p "$b/kernels/$v"
		cp "$KREPRO_OUT/kernels/$v/bzImage" "$KREPRO_OUT/kernels/$v/config" \
			"$KREPRO_OUT/kernels/$v/manifest.json" "$b/kernels/$v/"
		# the memory model's symbols, when the build left them (optional)
		if [ -f "$KREPRO_OUT/kernels/$v/System.map" ]; then
			cp "$KREPRO_OUT/kernels/$v/System.map" "$b/kernels/$v/"
		fi
	done
	cp "$KREPRO_OUT/initramfs.cpio.gz" "$b/"
	if [ -n "$matrix" ]; then cp "$matrix" "$b/matrix.yaml"; else
		default_matrix >"$b/matrix.yaml"
	fi
	for i in $BUNDLE_INPUTS; do
		[ -e "$KREPRO_ROOT/$i" ] && cp -r "$KREPRO_ROOT/$i" "$b/inputs/"
	done
	cp "$(reference_dir)/usr/gen_init_cpio.c" "$b/inputs/gen_init_cpio.c"
	# --with-root: the pinned root's .debs, for a reviewer once Debian
	# has dropped these versions (lib/shared/root.sh, docs/REPRODUCIBLE.md)
	[ -z "$withroot" ] || root_debs_to "$b/root-debs"
	{
		printf '{\n  "variants": ['
		sep=
		for v in "$@"; do printf '%s"%s"' "$sep" "$v"; sep=', '; done
		printf '],\n  "reference": %s,\n' "$(ref_json)"
		printf '  "initramfs_sha256": "%s",\n' "$(sha256sum "$b/initramfs.cpio.gz" | cut -d' ' -f1)"
		printf '  "tools": "%s",\n' "$(root_tools_id)"
		printf '  "krepro_commit": "%s"\n}\n' "$(git -C "$KREPRO_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
	} >"$b/bundle.json"
	cat >"$b/README.txt" <<EOT
krepro image bundle

kernels/<variant>/bzImage   the kernels (manifest.json: reference, patches, config, compiler, hashes;
                            System.map, when present: the memory model's kernel symbols)
initramfs.cpio.gz           the guest image (busybox + static benchmarks and monitors)
matrix.yaml                 the matrix that was run
inputs/                     the kit's sources, patches and configs these were built from;
                            inputs/root/bookworm.lock: the pinned Debian root they were built in
root-debs/                  (--with-root) that root's .debs, for when Debian's archive dropped them
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

# check_secret_key FILE: FILE is a signify secret key (before any work).
check_secret_key() {
	need_cmd signify-openbsd signify-openbsd
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then die "bundle --sign: key '$1' not found or not readable"; fi
	# A secret key's second line is base64 of "EdBK..." (a public key's: "Ed"
	# and its key number).
	case $(sed -n 2p "$1" | head -c 200 | base64 -d 2>/dev/null | head -c 4) in
	EdBK) ;;
	*) die "bundle --sign: '$1' is not a signify secret key (a public key? signify-openbsd -G -s writes the secret one)" ;;
	esac
}

# bundle_size_ok FILE: the archive is within the bounds (before it is read).
bundle_size_ok() {
	bs_size=$(stat -L -c %s -- "$1") || die "bundle $1: cannot read it"
	[ "$bs_size" -le "$BUNDLE_TOTAL_MAX" ] ||
		die "bundle $1: $bs_size bytes; a bundle is at most 2 GiB (lib/shared/bundle.sh's bounds)"
}

# bundle_tar FILE TAR-ARGS...: tar on the archive FILE's stream, cut at the
# bounds' bytes (members, and their headers' room): listing or unpacking
# never inflates more than that, whatever the archive holds.
bundle_tar() {
	bt_f=$1
	shift
	gzip -dc -- "$bt_f" 2>/dev/null |
		head -c $((BUNDLE_TOTAL_MAX + BUNDLE_MEMBERS_MAX * 1024 + 1048576)) | tar "$@" -f -
}

# unpack_bundle FILE DIR: unpack and check every hash; refuse naming a file.
# FILE (and FILE.sig) are read once, into a private copy in DIR (mode 700):
# the signature is checked on that copy and the copy is what is listed and
# unpacked, never FILE's path again (a bundle swapped after the check
# cannot be what runs).  With KREPRO_BUNDLE_KEY (a signify public key),
# FILE.sig must be its signature of FILE, checked before anything is
# unpacked.  Only regular files and folders are unpacked: a link could lead
# a later member outside.
unpack_bundle() {
	need_file bundle "$1"
	if [ -n "${KREPRO_BUNDLE_KEY:-}" ]; then
		need_cmd signify-openbsd signify-openbsd
		need_file "bundle key" "$KREPRO_BUNDLE_KEY"
		[ -f "$1.sig" ] || die "bundle $1: no signature $1.sig (a key was given)"
	fi
	bundle_size_ok "$1"
	rm -rf "$2"
	(umask 077 && mkdir -p "$2") || die "bundle: cannot create $2"
	chmod 700 "$2"
	ub=$2/bundle.tgz
	cp -- "$1" "$ub" || die "bundle $1: cannot copy it to $2"
	if [ -n "${KREPRO_BUNDLE_KEY:-}" ]; then
		cp -- "$1.sig" "$ub.sig" || die "bundle $1: cannot copy $1.sig to $2"
		signify-openbsd -V -q -p "$KREPRO_BUNDLE_KEY" -x "$ub.sig" -m "$ub" 2>/dev/null ||
			die "bundle $1: signature $1.sig does not verify with $KREPRO_BUNDLE_KEY"
		note "bundle $1: signed by $KREPRO_BUNDLE_KEY"
	fi
	# The listing (numeric owners: no names with spaces) says every
	# member's type and size before a byte is unpacked.
	bundle_tar "$ub" --numeric-owner -tv >"$2/listing" 2>/dev/null || true
	odd=$(grep -v '^[-d]' "$2/listing" | head -n 1 | LC_ALL=C tr -cd '\40-\176' | cut -c1-300)
	[ -z "$odd" ] || die "bundle $1: holds something other than files and folders: $odd"
	big=$(awk -v one="$BUNDLE_MEMBER_MAX" -v all="$BUNDLE_TOTAL_MAX" -v most="$BUNDLE_MEMBERS_MAX" '
		{ n++; sz = $3; name = $0; for (i = 0; i < 5; i++) sub(/^[^ ]+ +/, "", name) }
		sz !~ /^[0-9]+$/ { print "member " name ": no size in the listing"; exit }
		length(sz) > 15 || sz + 0 > one { print name " is " sz " bytes; a member is at most 1 GiB"; exit }
		{ total += sz }
		total > all { print "its members come to more than 2 GiB"; exit }
		n > most { print "more than " most " members"; exit }' "$2/listing" | LC_ALL=C tr -cd '\40-\176' | cut -c1-300)
	[ -z "$big" ] || die "bundle $1: $big (a bundle holds kernels, an initramfs, the kit's sources, a root image: lib/shared/bundle.sh's bounds)"
	bundle_tar "$ub" -x -C "$2" --no-same-owner --no-same-permissions krepro-bundle ||
		die "bundle $1: not a krepro bundle (tar failed)"
	rm -f "$ub" "$ub.sig" "$2/listing"
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

# sandbox_cache DIR: the path a command run by `sandboxed DIR` sees
# DIR/cache at: this checkout's own cache path (KREPRO_CACHE), so a kernel
# built there sees the absolute source paths an ordinary build sees, which
# ccache's direct mode hashes, and its compiles hit the host's ccache
# without preprocessing; DIR/cache itself when unconfined.
sandbox_cache() {
	if [ "${KREPRO_VERIFY_SANDBOX:-on}" = off ] || [ -z "${KREPRO_CACHE:-}" ]; then
		printf '%s\n' "$1/cache"
	else
		printf '%s\n' "$KREPRO_CACHE"
	fi
}

# sandboxed DIR CMD...: CMD builds someone else's patches (their Makefiles run
# by nature) confined by bubblewrap: no network, no capabilities, and an
# unprivileged uid outside the namespace too (as root, setpriv drops to
# 65534 before bwrap, so root's files stay root's).  It sees only the
# system's programs (/usr, /etc), the kit copy DIR/root, the reference
# package and ccache read-only; it writes DIR/cache, DIR/out and DIR/tmp
# only.  The rest of DIR (the unpacked bundle verify compares against),
# /root, /home, /tmp and /run (host sockets) are not in its world.
# Its own PID namespace (--unshare-pid) and --die-with-parent: when CMD
# ends, or verify does, every process it started is killed before bwrap
# returns, so none can touch DIR/out while verify reads it (rebuilt_hash).
# KREPRO_VERIFY_SANDBOX=off runs unconfined, for hosts without namespaces.
# DIR/cache appears inside at sandbox_cache's path.
sandboxed() {
	sd=$1
	shift
	sb_at=$(sandbox_cache "$sd")
	if [ "${KREPRO_VERIFY_SANDBOX:-on}" = off ]; then
		note "verify: KREPRO_VERIFY_SANDBOX=off: the bundle's patches build without a sandbox"
		"$@"
		return
	fi
	need_cmd bwrap bubblewrap
	mkdir -p "$sd/cache" "$sd/out" "$sd/tmp" "$sd/ccache-tmp"
	sb_ccache=$(ccache -k cache_dir 2>/dev/null) || sb_ccache=
	# Not root: a user namespace maps the caller to 65534.  Root: bwrap
	# mounts as root (it can reach /root/.cache/ccache) with no user
	# namespace, keeps only CAP_SETUID/CAP_SETGID, and setpriv inside
	# drops to 65534 for real, with every capability gone.
	if [ "$(id -u)" = 0 ]; then
		need_cmd setpriv util-linux
		chown -R 65534:65534 "$sd/cache" "$sd/out" "$sd/tmp" "$sd/ccache-tmp"
		set -- setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all "$@"
		sb_who="--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID"
	else
		sb_who="--unshare-user --uid 65534 --gid 65534 --cap-drop ALL"
	fi
	# The options go after CMD, then CMD rotates to the end; bwrap mounts
	# in order, so a bind below /tmp comes after the /tmp it replaces.
	# The system's programs are the pinned root's (KREPRO_SYSROOT, set by
	# build.sh verify) or the host's.
	sb_n=$#
	# shellcheck disable=SC2086 # options, one a word
	set -- "$@" $sb_who --unshare-net --unshare-pid --unshare-ipc \
		--unshare-uts --die-with-parent --dev /dev --proc /proc --tmpfs /tmp
	while IFS= read -r sb_w; do
		set -- "$@" "$sb_w"
	done <<EOF
$({
		sys_binds "${KREPRO_SYSROOT:-}"
		echo "--bind $sd/cache $sb_at"
		echo "--ro-bind ${KREPRO_REFERENCE_DEB:+$(dirname "$KREPRO_REFERENCE_DEB")}"
		echo "--ro-bind $([ -d "$sb_ccache" ] && echo "$sb_ccache")"
		echo "--ro-bind $sd/root"
		echo "--bind $sd/out"
		echo "--bind $sd/tmp"
		echo "--bind $sd/ccache-tmp"
	} | bind_words)
EOF
	[ -z "${KREPRO_SYSROOT:-}" ] || set -- "$@" --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin \
		--setenv KREPRO_IN_ROOT "$(basename "$KREPRO_SYSROOT")"
	set -- "$@" --unsetenv KREPRO_ROOT_LOCK
	[ ! -d "$sb_ccache" ] || set -- "$@" --setenv CCACHE_DIR "$sb_ccache"
	set -- "$@" --setenv TMPDIR "$sd/tmp" \
		--setenv HOME "$sd/tmp" --setenv CCACHE_READONLY 1 --setenv CCACHE_TEMPDIR "$sd/ccache-tmp" \
		--setenv KREPRO_DEPS_OK 1 --setenv KREPRO_KERNEL_STORE off
	while [ "$sb_n" -gt 0 ]; do
		set -- "$@" "$1"
		shift
		sb_n=$((sb_n - 1))
	done
	if ! bwrap "$@"; then
		# shellcheck disable=SC2086
		bwrap $sb_who --unshare-net --ro-bind / / true 2>/dev/null ||
			die "verify: bubblewrap cannot make an unprivileged sandbox here (user namespaces off?); KREPRO_VERIFY_SANDBOX=off builds unconfined"
		return 1
	fi
}

# bundle_root_debs BUNDLE-DIR: the folder of .debs a root of the bundle's
# lock may be made from: the bundle's root-debs/ (--with-root) only when
# its lock is byte for byte this kit's own, whose sha256s the user's
# checkout vouches for; else the user's KREPRO_ROOT_DEBS, if any, and
# Debian's archive (signed) as ever.  A bundle's own lock and .debs never
# decide together what is installed: mmdebstrap runs their maintainer
# scripts.
bundle_root_debs() {
	if [ -d "$1/root-debs" ] && [ -f "$1/inputs/root/bookworm.lock" ]; then
		if cmp -s "$1/inputs/root/bookworm.lock" "$(root_lock_file)"; then
			note "bundle: its root's .debs (root-debs/) are used where the cache lacks one: its lock is this kit's, which they are checked against"
			printf '%s\n' "$1/root-debs"
			return 0
		fi
		note "bundle: its root-debs/ are not used: its lock is not this kit's ($(root_lock_file)), so only Debian's archive (or KREPRO_ROOT_DEBS) may give that root's packages"
	fi
	printf '%s\n' "${KREPRO_ROOT_DEBS:-}"
}

# mismatch_detail FILE BUNDLE REBUILT: what differs between BUNDLE/FILE
# and its rebuilt copy REBUILT/FILE, indented: diffoscope's report where
# it is installed; else, for the initramfs, each entry of the archive
# whose mode, size or content differs or that only one holds (read with
# cpio -t and --to-stdout: nothing of the bundle is unpacked), and for a
# kernel the lines of its manifest.json (tools, compiler, config,
# patches) that differ.  KREPRO_DIFFOSCOPE=off: never diffoscope.
mismatch_detail() {
	if [ "${KREPRO_DIFFOSCOPE:-on}" != off ] && command -v diffoscope >/dev/null 2>&1; then
		diffoscope --text - "$2/$1" "$3/$1" 2>/dev/null | head -n 60 | sed 's/^/    /'
		return 0
	fi
	case $1 in
	*.cpio.gz)
		cpio_entries "$2/$1" >"$3/bundle.entries"
		cpio_entries "$3/$1" >"$3/rebuilt.entries"
		diff "$3/bundle.entries" "$3/rebuilt.entries" | sed -n 's/^< /    bundle:  /p; s/^> /    rebuilt: /p' | head -n 40
		;;
	kernels/*/bzImage)
		diff "$2/${1%/bzImage}/manifest.json" "$3/${1%/bzImage}/manifest.json" 2>/dev/null |
			sed -n 's/^< */    bundle:  /p; s/^> */    rebuilt: /p' | head -n 20
		;;
	esac
}

# cpio_entries FILE.cpio.gz: "NAME MODE SIZE SHA256" of each entry (the
# first 4096; a folder's or link's sha256 "-"), from the listing and each
# file's bytes to stdout, never unpacked.
cpio_entries() {
	gzip -dc "$1" 2>/dev/null | head -c 268435456 | cpio -itv --quiet 2>/dev/null | head -n 4096 |
		awk '{ n = $9; for (i = 10; i <= NF; i++) n = n " " $i; print $1, $5, n }' |
		while read -r ce_mode ce_size ce_name; do
			case $ce_mode in
			-*) ce_sum=$(gzip -dc "$1" | cpio -i --quiet --to-stdout -- "$ce_name" 2>/dev/null | sha256sum | cut -c1-16) ;;
			*) ce_sum=- ;;
			esac
			printf '%s %s %s %s\n' "$ce_name" "$ce_mode" "$ce_size" "$ce_sum"
		done | LC_ALL=C sort
}

# rebuilt_hash OUT REL PRIV: the sha256 of OUT/REL, a file a sandboxed
# build wrote, read by the host itself.  The build is someone else's code:
# a process it leaves behind could swap the file for a symbolic link to the
# bundle's own copy (a "match" for a kernel never rebuilt), to /etc/shadow,
# or for a FIFO that never ends.  So every component of REL below OUT must
# be a real folder and REL a regular file, nothing followed (each refused,
# naming it); the file is then copied with cp -P into PRIV, a folder the
# sandbox never saw, checked again there and hashed there.  Called after
# sandboxed returns: bwrap --unshare-pid ends with the namespace's init,
# and the kernel kills every process left in it before bwrap exits, so
# nothing of the build runs while OUT is read (with
# KREPRO_VERIFY_SANDBOX=off nothing kills them: that mode trusts the build).
rebuilt_hash() {
	rh_p=$1 rh_rest=$2
	while :; do
		case $rh_rest in
		*/*) rh_c=${rh_rest%%/*} rh_rest=${rh_rest#*/} ;;
		*) rh_c=$rh_rest rh_rest= ;;
		esac
		case $rh_c in '' | . | ..) die "verify: rebuilt file '$2': bad path" ;; esac
		rh_p=$rh_p/$rh_c
		if [ -L "$rh_p" ]; then
			die "verify: rebuilt $2: $rh_p is a symbolic link, not a file the build wrote: refused (a process of the build replaced it?)"
		fi
		[ -n "$rh_rest" ] || break
		[ -d "$rh_p" ] || die "verify: rebuilt $2: $rh_p is not a folder: refused"
	done
	[ -e "$rh_p" ] || die "verify: rebuilt $2: $rh_p is missing (the build did not write it)"
	[ -f "$rh_p" ] || die "verify: rebuilt $2: $rh_p is not a regular file (a FIFO, device or folder): refused"
	rh_d=$3/$2
	mkdir -p "$(dirname "$rh_d")" || die "verify: cannot create $(dirname "$rh_d")"
	rm -f "$rh_d"
	cp -P -- "$rh_p" "$rh_d" || die "verify: rebuilt $2: cannot copy $rh_p to $rh_d"
	if [ -L "$rh_d" ] || [ ! -f "$rh_d" ]; then
		die "verify: rebuilt $2: $rh_p changed while it was copied: refused"
	fi
	sha256sum <"$rh_d" | cut -d' ' -f1
}

cmd_verify() {
	if [ "${1:-}" = --key ]; then
		opt_arg "a signify public key" "$@"
		KREPRO_BUNDLE_KEY=$2
		shift 2
	fi
	[ $# -eq 1 ] || die "verify: name one bundle file"
	temp_dir w "${TMPDIR:-/tmp}/krepro-verify"
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
	# the Makefile's table generator is the kit's too (it reads the meta files)
	cp "$KREPRO_ROOT/tools/meta-tables.awk" "$r/tools/"
	# (monitors: their meta files' parameters are in the image's key table)
	for d in patches configs initramfs suites monitors tools/guest tools/common; do
		[ -d "$b/inputs/$d" ] || die "bundle $1: no inputs/$d"
		cp -r "$b/inputs/$d" "$r/$d"
	done
	cp "$KREPRO_ROOT/patches/reference.conf" "$r/patches/reference.conf"
	# The bundle's lock (data, checked by rt_check) names the root its
	# images were built in: the rebuild runs in that root (lib/shared/root.sh).
	mkdir -p "$r/root"
	if [ -f "$b/inputs/root/bookworm.lock" ]; then
		cp "$b/inputs/root/bookworm.lock" "$r/root/bookworm.lock"
		if ! cmp -s "$r/root/bookworm.lock" "$(root_lock_file)"; then
			note "verify: the bundle's lock differs from this kit's ($(root_lock_file)): the rebuild uses the bundle's; lines that differ:"
			diff "$(root_lock_file)" "$r/root/bookworm.lock" | sed -n 's/^</  this kit:/p; s/^>/  bundle:  /p' | head -n 20 >&2
		fi
	else
		note "verify: the bundle carries no root/bookworm.lock (an older kit's): the rebuild uses this kit's lock"
		cp "$(root_lock_file)" "$r/root/bookworm.lock"
	fi
	KREPRO_SYSROOT=
	if [ "$(root_mode)" = pinned ]; then
		KREPRO_SYSROOT=$(root_ready "$r/root/bookworm.lock" "$(bundle_root_debs "$b")") || exit 2
		note "verify: rebuilding in the pinned root of the bundle's lock ($KREPRO_SYSROOT)"
	fi
	# The reference package is fetched here, outside the sandbox (which has
	# no network), and checked against the kit's own pin.
	[ -n "${KREPRO_REFERENCE_DEB:-}" ] || cmd_reference
	deb=$(find "$KREPRO_CACHE/downloads" -maxdepth 1 -name '*.deb' 2>/dev/null | head -n 1)
	KREPRO_REFERENCE_DEB=${KREPRO_REFERENCE_DEB:-$deb}
	export KREPRO_REFERENCE_DEB
	need_build_deps
	vc=$(sandbox_cache "$w")
	sandboxed "$w" "$r/build.sh" -C "$vc" -O "$w/out" initramfs >/dev/null
	for f in initramfs.cpio.gz $(cd "$b" && ls -d kernels/*/bzImage); do
		case $f in kernels/*)
			v=${f#kernels/}
			sandboxed "$w" "$r/build.sh" -C "$vc" -O "$w/out" kernel "${v%/bzImage}" >/dev/null
			;;
		esac
		want=$(sha256sum <"$b/$f" | cut -d' ' -f1)
		# sandboxed has returned: its PID namespace, and every process
		# the build left running, is gone; rebuilt_hash copies the file
		# out of out/ before hashing it.
		got=$(rebuilt_hash "$w/out" "$f" "$w/rebuilt") || exit 2
		if [ "$want" = "$got" ]; then
			echo "match     $f  $want"
			ok=$((ok + 1))
		else
			echo "MISMATCH  $f  bundle $want, rebuilt $got"
			case $f in kernels/*)
				rebuilt_hash "$w/out" "${f%/bzImage}/manifest.json" "$w/rebuilt" >/dev/null || exit 2
				;;
			esac
			mismatch_detail "$f" "$b" "$w/rebuilt"
			bad=$((bad + 1))
		fi
	done
	rm -rf "$w"
	echo "verify: $ok artifact(s) match, $bad differ"
	[ "$bad" = 0 ]
}
