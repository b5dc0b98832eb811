# shellcheck shell=sh
# lib/build/kernel.sh: build.sh's kernels: a variant's source tree, its merged config, the
# ccache'd build, out/kernels/<variant>/ and its manifest.json.
# Sourced by build.sh; only definitions, so a
# script edited while it runs cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT, JOBS (build.sh -j),
# KCONFIG_NAME.  Sets: KCONFIG_NAME; exports the KBUILD_BUILD_*, CCACHE_*
# and MAKEFLAGS a build runs with.

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

# build_recipe: how a kernel is built from its tree, a line each: the
# config fragments' sha256, the compiler, the build tools (the pinned
# root's lock, or the host) and the recipe's number (bump it when the
# kernel build command changes).  Both a kernel's inputs and its key in
# the kernel store (lib/build/kernel-store.sh) hold them.
build_recipe() {
	config_fragments | xargs sha256sum | sed 's#  .*/#  #'
	gcc --version | head -n 1
	echo "tools $(root_tools_id)"
	echo "recipe 2"
}

# Environment that makes two builds of the same inputs byte-identical.
kbuild_env() {
	KBUILD_BUILD_TIMESTAMP=$(ref_get timestamp)
	KBUILD_BUILD_USER=krepro
	KBUILD_BUILD_HOST=krepro
	KBUILD_BUILD_VERSION=1
	CCACHE_BASEDIR=$KREPRO_CACHE
	CCACHE_NOHASHDIR=1
	# Kconfig records the host's rustc version (CONFIG_RUSTC_VERSION, in
	# .config and autoconf.h) even with Rust off: a rustc on PATH made
	# another config, and every object missed ccache's direct mode against
	# a build without one (the verify sandbox).  No rustc for any build;
	# through MAKEFLAGS so that merge_config.sh's make gets it too.
	MAKEFLAGS=" -- RUSTC=krepro-no-rustc"
	export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER KBUILD_BUILD_HOST KBUILD_BUILD_VERSION
	export CCACHE_BASEDIR CCACHE_NOHASHDIR MAKEFLAGS
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
	refuse_link "$KREPRO_CACHE/variants/$(ref_id)/$v.lock"
	exec 8>"$KREPRO_CACHE/variants/$(ref_id)/$v.lock"
	if command -v flock >/dev/null 2>&1 && ! flock -n 8; then
		note "kernel $v: another build of it is running; waiting"
		flock 8
	fi
	variant_source "$v"
	src="$KREPRO_CACHE/variants/$(ref_id)/$v/src"
	dst="$KREPRO_OUT/kernels/$v"
	kbuild_env
	kb_how=$(build_recipe)
	inputs=$({
		echo "reference $(ref_json)"
		variant_patches "$v" | xargs -r sha256sum | sed 's#  .*/#  #'
		printf '%s\n' "$kb_how"
	} | sha256sum | cut -d' ' -f1)
	# A kernel installed without its System.map (by an older kit) is not up
	# to date: the memory model's profile of it would name no function.
	if [ -f "$dst/bzImage" ] && [ -f "$dst/System.map" ] && [ -f "$dst/inputs" ] && [ "$(cat "$dst/inputs")" = "$inputs" ]; then
		# (a kernel installed before the store: kept there once)
		if [ ! -f "$dst/store_key" ]; then
			sk_tree=$(tree_id "$src") || exit 2
			sk_key=$(store_key "$sk_tree" "$kb_how")
			store_put "$sk_key" "$dst"
			echo "$sk_key" >"$dst/store_key"
		fi
		note "kernel $v is up to date"
		printf '%s\n' "$dst/bzImage"
		return 0
	fi
	# The same tree, config and compiler built before (SERIES and SERIES@N
	# of all its N patches; a commit of a git reference and the series
	# that made it): the same bytes (lib/build/kernel-store.sh).
	sk_tree=$(tree_id "$src") || exit 2
	sk_key=$(store_key "$sk_tree" "$kb_how")
	if [ "${KREPRO_KERNEL_STORE:-on}" != off ] && sk_d=$(store_get "$sk_key"); then
		note "kernel $v: its tree ($(printf %.16s "$sk_tree")), config and compiler were built before: those bytes"
		install_kernel "$v" "$sk_d/bzImage" "$sk_d/config" "$inputs" "$dst" "$sk_d/System.map" "$sk_tree"
		echo "$sk_key" >"$dst/store_key"
		return 0
	fi
	# Every variant of a reference is built in one work tree, one at a time:
	# make then recompiles only what the variant's patches changed against
	# the previous build.  The variant's own folder keeps its logs.  src and
	# build sit side by side, so the paths ccache sees (relative to
	# CCACHE_BASEDIR) are the same as in a reviewer's cache.
	work="$KREPRO_CACHE/variants/$(ref_id)/work"
	refuse_link "$work.lock"
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
	install_kernel "$v" "$bld/arch/x86/boot/bzImage" "$bld/.config" "$inputs" "$dst" "$bld/System.map" "$sk_tree"
	exec 5>&-
	store_put "$sk_key" "$dst"
	echo "$sk_key" >"$dst/store_key"
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

# install_kernel VARIANT BZIMAGE CONFIG INPUTS DST [SYSTEM_MAP [TREE]]: the
# kernel, its config, manifest (TREE: its source tree's tree_id) and
# inputs hash into DST, replaced whole, with the
# build's System.map when there is one (the memory model's profile names
# kernel functions with it, docs/MEMORY-MODEL.md; a kernel without one
# still boots, its profile unsymbolised); prints the bzImage path.
install_kernel() {
	rm -rf "$5.tmp"
	mkdir -p "$5.tmp"
	cp "$2" "$5.tmp/bzImage"
	cp "$3" "$5.tmp/config"
	if [ -n "${6:-}" ] && [ -f "$6" ]; then cp "$6" "$5.tmp/System.map"; fi
	write_kernel_manifest "$1" "$5.tmp" "${7:-}" >"$5.tmp/manifest.json"
	echo "$4" >"$5.tmp/inputs"
	rm -rf "$5"
	mv "$5.tmp" "$5"
	printf '%s\n' "$5/bzImage"
}

write_kernel_manifest() { # variant dir [tree-id]
	printf '{\n  "variant": "%s",\n' "$1"
	printf '  "reference": %s,\n' "$(ref_json)"
	printf '  "patches": ['
	sep=
	for p in $(variant_patches "$1"); do
		printf '%s\n    {"series": "%s", "file": "%s", "sha256": "%s"}' "$sep" \
			"$(patch_series "$p")" "$(basename "$p")" "$(sha256sum "$p" | cut -d' ' -f1)"
		sep=,
	done
	# a commit of a git reference (lib/build/commits.sh) by its full id
	printf '],\n  "commits": ['
	sep=
	wk_list=$(variant_commits "$1") || exit 2
	while read -r wk_part wk_full; do
		[ -n "$wk_part" ] || continue
		printf '%s{"part": "%s", "commit": "%s"}' "$sep" "$wk_part" "$wk_full"
		sep=', '
	done <<EOF
$wk_list
EOF
	printf '],\n  "base_commits": ['
	sep=
	for ser in $(variant_series "$1"); do
		bc=$(series_base_commit "$ser")
		[ -n "$bc" ] || continue
		printf '%s{"series": "%s", "base_commit": "%s"}' "$sep" "$ser" "$bc"
		sep=', '
	done
	# a series applied with less than full context or merged 3-way says so
	# (patches/S.apply)
	printf '],\n  "apply_context": ['
	sep=
	for ser in $(variant_series "$1"); do
		cx=$(series_context "$ser") || exit 2
		cm=$(series_merge "$ser") || exit 2
		[ -n "$cx$cm" ] || continue
		printf '%s{"series": "%s", "context": %s, "merge": "%s", "text": "%s"}' "$sep" "$ser" "${cx:-3}" "${cm:-none}" "$(context_words "$ser")"
		sep=', '
	done
	printf '],\n'
	# the source tree's content (lib/build/kernel-store.sh): the same for every
	# way of reaching that tree
	[ -z "${3:-}" ] || printf '  "tree_sha256": "%s",\n' "$3"
	printf '  "kconfig": "%s",\n' "$KCONFIG_NAME"
	printf '  "config_sha256": "%s",\n' "$(sha256sum "$2/config" | cut -d' ' -f1)"
	printf '  "compiler": "%s",\n' "$(gcc --version | head -n 1)"
	printf '  "tools": "%s",\n' "$(root_tools_id)"
	printf '  "bzImage_sha256": "%s"\n}\n' "$(sha256sum "$2/bzImage" | cut -d' ' -f1)"
}


all_variants() {
	echo base
	series_names
}

cmd_all() {
	# shellcheck disable=SC2046 # variant names are single words
	[ $# -gt 0 ] || set -- $(all_variants)
	# (in the pinned root, build.sh built the host tools on the host first)
	[ -n "${KREPRO_IN_ROOT:-}" ] || cmd_tools >/dev/null
	cmd_preflight "$@"
	cmd_initramfs
	for v in "$@"; do
		cmd_kernel "$v"
	done
}
