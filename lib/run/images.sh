# shellcheck shell=sh
# lib/run/images.sh: the kernels and initramfs a run boots: built by build.sh from
# this checkout, or taken from a bundle whose every hash is checked first.
# Reads: MATRIX, the plan's variants (plan_fact), backend_builds (no: an
# import, nothing to build).  Sets BUNDLE_DIR, INITRAMFS, INITRAMFS_SHA, GIC and
# TMPD/kernel.<variant> (its path) and TMPD/kernel.<variant>.sha256; the
# memory model's plugin through model_plugin_prepare (lib/shared/qemu-plugin.sh).
# Other modules ask: variant_kernel (a variant's bzImage), write_images (a
# run's images file), initrd_with (a run's initrd), initramfs_sha,
# bundle_dir; check_kept_images reads the run table (TMPD/runs.tsv).  Shared (bench/shared-state.sh): MATRIX (a bundle's is the
# default matrix).

BUNDLE_DIR='' INITRAMFS_SHA='' # an opened bundle's folder (bundle_dir), the initramfs' hash

# open_bundle FILE: unpack and check --bundle FILE (its matrix is the default).
open_bundle() {
	ob_file=$1
	case $ob_file in /*) ;; *) ob_file=$PWD/$ob_file ;; esac
	need_file bundle "$ob_file" # before it is read (sha256sum of a FIFO waits)
	bundle_size_ok "$ob_file"
	ob_sha=$(sha256sum "$ob_file" 2>/dev/null | cut -c1-16)
	[ -n "$ob_sha" ] || die "bundle $ob_file: cannot read it"
	BUNDLE_DIR=$KREPRO_CACHE/bundles/$ob_sha
	# A subshell: unpack_bundle's working variables stay its own.  A
	# refused bundle leaves nothing in the cache.
	(unpack_bundle "$ob_file" "$BUNDLE_DIR") || {
		rm -rf "$BUNDLE_DIR"
		exit 2
	}
	BUNDLE_DIR=$BUNDLE_DIR/krepro-bundle
	note "bundle $ob_file: every file matches MANIFEST.sha256"
	[ -n "$MATRIX" ] || MATRIX=$BUNDLE_DIR/matrix.yaml
}

# initramfs_sha: the sha256 of the initramfs the session boots (empty for
# an import, which boots nothing here).
initramfs_sha() { printf '%s\n' "$INITRAMFS_SHA"; }

# bundle_dir: the opened bundle's folder (kernels/, inputs/, matrix.yaml),
# or nothing when the session builds its own images.
bundle_dir() { printf '%s\n' "$BUNDLE_DIR"; }

prepare_images() {
	pi_vs=$(plan_fact variants)
	GIC=$KREPRO_OUT/host/gen_init_cpio
	if ! backend_builds; then
		: # nothing to build: the run happened in the lab
	elif [ -n "$BUNDLE_DIR" ]; then
		INITRAMFS=$BUNDLE_DIR/initramfs.cpio.gz
		for v in $pi_vs; do
			[ -f "$BUNDLE_DIR/kernels/$v/bzImage" ] || die "bundle has no kernel '$v' (it has: $(cd "$BUNDLE_DIR/kernels" && echo *))"
			echo "$BUNDLE_DIR/kernels/$v/bzImage" >"$TMPD/kernel.$v"
		done
		# A bundle's code never runs here: its gen_init_cpio.c is compiled only
		# when it is the pinned reference's own file.
		if [ ! -x "$GIC" ]; then
			gic_want=$(conf_get "$KREPRO_ROOT/patches/reference.conf" gen_init_cpio_sha256)
			gic_got=$(sha256sum "$BUNDLE_DIR/inputs/gen_init_cpio.c" | cut -d' ' -f1)
			[ "$gic_got" = "$gic_want" ] ||
				die "bundle: inputs/gen_init_cpio.c is not the reference's (sha256 $gic_got); build the kit's own first: ./build.sh initramfs"
			mkdir -p "$(dirname "$GIC")"
			cc -O2 -o "$GIC" "$BUNDLE_DIR/inputs/gen_init_cpio.c" || die "cannot build gen_init_cpio"
		fi
	else
		# shellcheck disable=SC2086 # variant names are single words
		"$KREPRO_ROOT/build.sh" preflight $pi_vs
		INITRAMFS=$("$KREPRO_ROOT/build.sh" initramfs | tail -n 1)
		for v in $pi_vs; do
			"$KREPRO_ROOT/build.sh" kernel "$v" | tail -n 1 >"$TMPD/kernel.$v"
		done
	fi
	# An import boots nothing here: its job.conf came with the LAVA export.
	INITRAMFS_SHA=
	! backend_builds || INITRAMFS_SHA=$(sha256sum "$INITRAMFS" | cut -d' ' -f1)
	# The memory model's plugin, built here for the installed QEMU (a bundle
	# carries none: it is the kit's own code, not the kernel's).
	! backend_builds || model_plugin_prepare
	! backend_builds || qemu_exact_prepare
	# Each run records the images it booted (write_images), and the
	# commits a variant's kernel was built from (its manifest's "commits").
	for v in $pi_vs; do
		[ -s "$TMPD/kernel.$v" ] || continue
		sha256sum "$(cat "$TMPD/kernel.$v")" | cut -d' ' -f1 >"$TMPD/kernel.$v.sha256"
		manifest_commits "$(dirname "$(cat "$TMPD/kernel.$v")")/manifest.json" >"$TMPD/kernel.$v.commits"
	done
}

# variant_kernel V: the bzImage variant V boots this session (prepare_images).
variant_kernel() { cat "$TMPD/kernel.$1"; }

# write_images RDIR VARIANT INITRAMFS-SHA256: the sha256 of the kernel and
# initramfs a run booted, and the commits its kernel was built from
# ("commit FULL PART", a commit variant's; prepare_images).
write_images() {
	[ -s "$TMPD/kernel.$2.sha256" ] || return 0 # an import: nothing booted here
	{
		printf 'kernel %s\ninitramfs %s\n' "$(cat "$TMPD/kernel.$2.sha256")" "$3"
		[ ! -f "$TMPD/kernel.$2.commits" ] || cat "$TMPD/kernel.$2.commits"
	} >"$1/images"
}

# check_kept_images: every complete run the plan keeps was booted with the
# images this session boots (its images file, write_images): a kept run of
# another kernel (a series edited since) or another initramfs (the kit
# updated since) is another measurement, and in exact mode other digits;
# compared with this session's, it would make a verdict of nothing.  Stops
# naming the run and both hashes.  A run without an images file (an older
# kit's) or an import's (nothing booted here) is not checked.
check_kept_images() {
	[ -n "$INITRAMFS_SHA" ] || return 0
	for v in $(plan_fact variants); do
		[ ! -s "$TMPD/kernel.$v.sha256" ] || printf '%s %s\n' "$v" "$(cat "$TMPD/kernel.$v.sha256")"
	done >"$TMPD/kernel.shas"
	ck_bad=$(awk -F '\t' -v shas="$TMPD/kernel.shas" -v isha="$INITRAMFS_SHA" '
	BEGIN { while ((getline l < shas) > 0) { split(l, w, " "); ksha[w[1]] = w[2] } }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["state"] == "kept" && ($col["variant"] in ksha) {
		f = $col["result"] "/images"; k = ""; n = ""
		while ((getline l < f) > 0) { split(l, w, " "); if (w[1] == "kernel") k = w[2]; if (w[1] == "initramfs") n = w[2] }
		close(f)
		if (k != "" && k != ksha[$col["variant"]]) { print $col["result"] "\tkernel\t" k "\t" ksha[$col["variant"]]; exit }
		if (n != "" && n != isha) { print $col["result"] "\tinitramfs\t" n "\t" isha; exit }
	}' "$TMPD/runs.tsv")
	[ -n "$ck_bad" ] || return 0
	ck_r=${ck_bad%%	*} ck_bad=${ck_bad#*	}
	ck_what=${ck_bad%%	*} ck_bad=${ck_bad#*	}
	die "kept run ${ck_r#"$RESULTS"/} was booted with another $ck_what (sha256 $(printf %.16s "${ck_bad%%	*}"), this session's $(printf %.16s "${ck_bad#*	}")): its numbers are another image's; use another -o, or --rerun to replace its runs"
}

# manifest_commits MANIFEST: "commit FULL PART" for each commit of a git
# reference the kernel was built from (lib/build/commits.sh), none for series.
manifest_commits() {
	[ -f "$1" ] || return 0
	sed -n 's/^  "commits": \[\(.*\)\],$/\1/p' "$1" | tr '}' '\n' |
		sed -n 's/.*"part": "\([A-Za-z0-9._~^-]*\)", "commit": "\([0-9a-f]*\)"$/commit \2 \1/p'
}

# initrd_with LIST OUT: OUT, the session's initramfs followed by a second
# cpio of LIST's files (gen_init_cpio, mtime 0, gzip -n: a run's job, a
# kexec chain's kernels and plans); the kernel unpacks both.
initrd_with() {
	"$GIC" -t 0 "$1" | gzip -n >"$2.add.gz"
	cat "$INITRAMFS" "$2.add.gz" >"$2"
}
