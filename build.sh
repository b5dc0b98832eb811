#!/bin/sh
# build.sh: reference kernel -> variants -> kernels; tools -> initramfs.
# See docs/ARCHITECTURE.md for the layout of cache/ and out/.
# Shared with the modules (bench/shared-state.sh): KREPRO_ROOT,
# KREPRO_PROG, JOBS (-j); the reference goes to reference_use.
set -eu

KREPRO_ROOT=$(cd "$(dirname "$0")" && pwd)
KREPRO_PROG=build
# shellcheck source=lib/shared/common.sh
. "$KREPRO_ROOT/lib/shared/common.sh"
# shellcheck source=lib/build/reference.sh
. "$KREPRO_ROOT/lib/build/reference.sh"
# shellcheck source=lib/build/commits.sh
. "$KREPRO_ROOT/lib/build/commits.sh"
# shellcheck source=lib/build/series.sh
. "$KREPRO_ROOT/lib/build/series.sh"
# shellcheck source=lib/build/kernel.sh
. "$KREPRO_ROOT/lib/build/kernel.sh"
# shellcheck source=lib/build/kernel-store.sh
. "$KREPRO_ROOT/lib/build/kernel-store.sh"
# shellcheck source=lib/build/initramfs.sh
. "$KREPRO_ROOT/lib/build/initramfs.sh"
# shellcheck source=lib/shared/bundle.sh
. "$KREPRO_ROOT/lib/shared/bundle.sh"
# shellcheck source=lib/shared/cells.sh
. "$KREPRO_ROOT/lib/shared/cells.sh"
# shellcheck source=lib/shared/qemu-plugin.sh
. "$KREPRO_ROOT/lib/shared/qemu-plugin.sh"
# shellcheck source=lib/shared/root.sh
. "$KREPRO_ROOT/lib/shared/root.sh"

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
  commit-range GOOD..BAD
                       with a git reference: the commits bisect searches,
                       oldest first (refused: a merge in the range, GOOD
                       not an ancestor of BAD)
  uapi                 install the reference's UAPI headers; prints their path
  model-plugin         the memory-model QEMU plugin for the installed QEMU (its
                       plugin header from the pinned Debian source package)
                       and the guest programs with symbols for its profile;
                       prints its path last (docs/MEMORY-MODEL.md)
  root [--debs DIR]    the pinned Debian root of root/bookworm.lock, made once
                       with mmdebstrap (every .deb checked against the lock;
                       --debs: a folder of .debs for versions the archive
                       dropped) and kept in the cache; prints its path last
                       (docs/REPRODUCIBLE.md)
  root --lock          a new lock from the archive's current versions of
                       root/packages; says which versions changed
  all [VARIANT...]     tools, initramfs and kernels (default: base + every series)
  bundle -o FILE [-m MATRIX] [--sign SECKEY] [--with-root] [VARIANT...]
                       one archive for reviewers: kernels, initramfs, manifests,
                       matrix, the inputs and a README (default: every built kernel);
                       --sign writes FILE.sig with signify-openbsd; --with-root
                       adds the pinned root's .debs (about 135 MB)
  verify [--key PUBKEY] FILE
                       check a bundle's hashes (and FILE.sig against PUBKEY),
                       rebuild from its inputs in a sandbox, compare

Variants: base (the reference), SERIES (every patch of patches/SERIES or
patches/SERIES.mbox), SERIES@N (its first N patches), A+B (stacked); with
a git reference (-R git:REPO@REF) a commit of REPO: an id, a tag, a
branch, REF^ or REF~N (its tree: the reference plus the diff to it).

Options:
  -C DIR    cache directory (default: $KREPRO_CACHE or ./cache)
  -O DIR    output directory (default: $KREPRO_OUT or ./out)
  -j N      parallel make jobs (default: cores + 1)
  -R SPEC   use another reference: tarball:PATH[#SHA256] or git:REPO@REF
            (default: the Debian package pinned in patches/reference.conf)
  -h, --help  this text

Environment: KREPRO_REFERENCE_DEB=FILE uses an already downloaded
reference package (still checked against the pinned sha256);
KREPRO_QEMU_SOURCE=DIR a folder already holding QEMU's source package
files (checked the same way), KREPRO_DEBIAN_MIRROR=URI the mirror
model-plugin and root fetch from (default: the host's apt sources);
KREPRO_ROOT_DEBS=DIR is root's --debs DIR, KREPRO_ROOT_LOCK=FILE another
lock file; KREPRO_BUILD_ROOT=host builds kernels, the initramfs and the
plugin with the host's tools instead of in the pinned root (the default,
made on first use; docs/REPRODUCIBLE.md), and manifests say so.
EOF
}

JOBS=$(($(nproc) + 1))
REF_SPEC_OPT=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-C) opt_arg "a directory" "$@"; KREPRO_CACHE=$2; shift 2 ;;
	-O) opt_arg "a directory" "$@"; KREPRO_OUT=$2; shift 2 ;;
	-j) opt_arg "a number" "$@"; JOBS=$2; shift 2 ;;
	-R) opt_arg "a reference (tarball:PATH or git:REPO@REF)" "$@"; REF_SPEC_OPT=$2; shift 2 ;;
	--list-variants) set -- list-variants; break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- all
krepro_dirs
KREPRO_REFERENCE=${REF_SPEC_OPT:-${KREPRO_REFERENCE:-}}
export KREPRO_REFERENCE
# Pin a user's reference once, in this shell (a bad pin stops here).
reference_use "$KREPRO_REFERENCE"

cmd=$1
shift
# What makes image bytes runs in the pinned root (lib/shared/root.sh): what needs
# the network (the reference, the plugin header) and the host tools come
# first, here; then this script again, in the root, for the same command.
# (preflight only applies patches, which are data to git apply: it runs
# here, and a kit copy that only checks its series needs no root.)
case $cmd in
kernel | initramfs | uapi | model-plugin | all)
	if [ "$(root_mode)" = pinned ] && [ -z "${KREPRO_IN_ROOT:-}" ]; then
		need_cmd bwrap bubblewrap
		# the root is made (first use) while the reference is fetched and
		# unpacked: two processes busy instead of one, one after the other
		mkdir -p "$KREPRO_CACHE/roots"
		br_f=$KREPRO_CACHE/roots/.path.$$
		root_ready >"$br_f" &
		br_pid=$!
		cmd_reference
		[ "$cmd" != model-plugin ] || qp_header >/dev/null
		[ "$cmd" != all ] || cmd_tools >/dev/null
		wait "$br_pid" || { rm -f "$br_f"; exit 2; }
		br_root=$(cat "$br_f")
		rm -f "$br_f"
		[ -d "$br_root" ] || die "the pinned root was not made (see above)"
		root_exec "$br_root" "$KREPRO_ROOT/build.sh" -C "$KREPRO_CACHE" -O "$KREPRO_OUT" -j "$JOBS" "$cmd" "$@"
		exit $?
	fi
	;;
esac
case $cmd in
uapi) need_build_deps; uapi_headers ;;
model-plugin) cmd_model_plugin ;;
root) cmd_root "$@" ;;
patches)
	[ $# -eq 1 ] || die "patches: name one variant"
	variant_patches "$1" >/dev/null
	variant_patches "$1"
	;;
commit-range)
	[ $# -eq 1 ] || die "commit-range: name one range GOOD..BAD"
	commit_range "$1"
	;;
bundle) cmd_bundle "$@" ;;
verify) cmd_verify "$@" ;;
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
