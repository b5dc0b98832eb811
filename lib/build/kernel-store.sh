# shellcheck shell=sh
# lib/build/kernel-store.sh: build.sh's store of built kernels, keyed by what makes
# their bytes: the source tree's content (not how it was reached: a series
# on Debian's tree and the same patches as commits of a git tree are one
# tree), the config fragments, the compiler and the build tools.  A
# variant whose key was built before, under any reference or name, takes
# those bytes instead of building (the kit's builds are reproducible:
# docs/REPRODUCIBLE.md).  KREPRO_CACHE/kernels/KEY holds bzImage,
# System.map and config; a kernel is about 20 MB there.
# KREPRO_KERNEL_STORE=off builds anyway (what measures or checks a build:
# verify's sandbox, the benches, the tests of the work tree).
# Sourced by build.sh; only definitions.
# Reads: KREPRO_CACHE, the reference (ref_id, reference_dir); environment:
# KREPRO_KERNEL_STORE.  Sets: nothing global.

# tree_listing DIR [PATHS]: one line a file or symbolic link of DIR (or
# only the relative paths listed in the file PATHS), sorted by path:
# "PATH<TAB>TYPE<TAB>SHA256" (TYPE f, fx for an executable file, as git
# keeps modes: a umask's group bits are no change; l for a link, with its
# target instead).  The kit's own marks (.krepro-*) are not the tree's.
tree_listing() {
	tl_w=$(mktemp -d "$KREPRO_CACHE/.tree.XXXXXX")
	# type, mode and link target of each (./ before a listed path: a
	# file named -x is no option to find)
	if [ -n "${2:-}" ]; then
		sed 's#^#./#' "$2" | tr '\n' '\0' | (cd "$1" && xargs -0 -r sh -c 'exec find "$@" -maxdepth 0 -printf "%p\t%y\t%m\t%l\n"' sh)
	else
		(cd "$1" && find . ! -type d ! -name '.krepro-*' -printf '%p\t%y\t%m\t%l\n')
	fi | sed 's#^\./##' >"$tl_w/meta" || {
		rm -rf "$tl_w"
		return 1
	}
	# the content's sha256 of each file
	(cd "$1" && awk -F '\t' '$2 == "f" { print "./" $1 }' "$tl_w/meta" | tr '\n' '\0' |
		xargs -0 -r sha256sum) >"$tl_w/sums" || {
		rm -rf "$tl_w"
		return 1
	}
	LC_ALL=C awk -F '\t' '
	FILENAME == ARGV[1] { sha[substr($0, 69)] = substr($0, 1, 64); next }
	$2 == "f" { print $1 "\tf" (substr($3, length($3) - 2, 1) % 2 ? "x" : "") "\t" sha[$1]; next }
	{ print $1 "\t" $2 "\t" $4 }' "$tl_w/sums" "$tl_w/meta" | LC_ALL=C sort
	rm -rf "$tl_w"
}

# ref_tree_listing: tree_listing of the reference in use, made once (the
# reference's tree never changes: it is pinned).
ref_tree_listing() {
	rl_f=$KREPRO_CACHE/reference/$(ref_id).tree
	if [ ! -s "$rl_f" ]; then
		note "reference $(ref_id): listing its files' content (once)"
		tree_listing "$(reference_dir)" >"$rl_f.tmp.$$" || die "reference $(ref_id): its files could not be listed"
		mv "$rl_f.tmp.$$" "$rl_f"
	fi
	printf '%s\n' "$rl_f"
}

# tree_id SRC: the sha256 of SRC's tree_listing.  A variant's source is
# the reference hard-linked (variant_source) with a new file for each one
# its patches changed: only the paths whose inode is not the reference's
# are read; the rest are the reference's listing.
tree_id() {
	ti_ref=$(reference_dir)
	ti_l=$(ref_tree_listing) || exit 2
	ti_w=$(mktemp -d "$KREPRO_CACHE/.tree.XXXXXX")
	(cd "$ti_ref" && find . ! -type d ! -name '.krepro-*' -printf '%P\t%i\n') >"$ti_w/ref"
	(cd "$1" && find . ! -type d ! -name '.krepro-*' -printf '%P\t%i\n') >"$ti_w/src"
	# changed: in SRC with another inode than the reference's, or new;
	# gone: in the reference, not in SRC
	awk -F '\t' -v gone="$ti_w/gone" '
	FILENAME == ARGV[1] { ino[$1] = $2; next }
	{ seen[$1] = 1; if (ino[$1] != $2) print $1 }
	END { for (p in ino) if (!(p in seen)) print p > gone }' "$ti_w/ref" "$ti_w/src" >"$ti_w/changed"
	: >>"$ti_w/gone"
	tree_listing "$1" "$ti_w/changed" >"$ti_w/new" || {
		rm -rf "$ti_w"
		die "tree of $1: its files could not be listed"
	}
	LC_ALL=C awk -F '\t' '
	FILENAME == ARGV[1] { drop[$1] = 1; next }
	FILENAME == ARGV[2] { drop[$1] = 1; print; next }
	!($1 in drop)' "$ti_w/gone" "$ti_w/new" "$ti_l" | LC_ALL=C sort | sha256sum | cut -d' ' -f1
	rm -rf "$ti_w"
}

# store_key TREE-ID RECIPE: the store's key of a kernel of that tree built
# as RECIPE (build_recipe's lines: config, compiler, tools, recipe).
store_key() {
	printf 'tree %s\n%s\n' "$1" "$2" | sha256sum | cut -d' ' -f1
}

# store_get KEY: the store's folder of KEY when it holds a complete kernel.
store_get() {
	sg_d=$KREPRO_CACHE/kernels/$1
	[ -f "$sg_d/bzImage" ] && [ -f "$sg_d/System.map" ] && [ -f "$sg_d/config" ] || return 1
	printf '%s\n' "$sg_d"
}

# store_put KEY KERNEL-DIR: KERNEL-DIR's bzImage, System.map and config kept
# under KEY (once; a folder is complete or absent).
store_put() {
	sp_d=$KREPRO_CACHE/kernels/$1
	[ ! -d "$sp_d" ] || return 0
	mkdir -p "$KREPRO_CACHE/kernels"
	rm -rf "$sp_d.tmp.$$"
	mkdir "$sp_d.tmp.$$"
	if ! cp "$2/bzImage" "$2/System.map" "$2/config" "$sp_d.tmp.$$/" ||
		! mv "$sp_d.tmp.$$" "$sp_d" 2>/dev/null; then
		rm -rf "$sp_d.tmp.$$" # a full disk, or another build's came first
	fi
}
