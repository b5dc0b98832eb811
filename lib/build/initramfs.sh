# shellcheck shell=sh
# lib/build/initramfs.sh: build.sh's host tools and guest image: make host/guest, gen_init_cpio from
# the reference tree, the UAPI headers, out/initramfs.cpio.gz.
# Sourced by build.sh; only definitions, so a
# script edited while it runs cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT.  Sets: nothing global.

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

# out_lock WHAT: this process holds KREPRO_OUT's build lock (fd 4, until
# exec 4>&-): one build of the guest programs, the list, the key table and
# the image per output folder at a time (two bench scripts started
# together failed in mv and awk).  WHAT names the waiting build.
out_lock() {
	mkdir -p "$KREPRO_OUT"
	refuse_link "$KREPRO_OUT/.initramfs.lock"
	exec 4>"$KREPRO_OUT/.initramfs.lock"
	if command -v flock >/dev/null 2>&1 && ! flock -n 4; then
		note "$1: another build into $KREPRO_OUT is running; waiting"
		flock 4
	fi
}

# build.sh guest-syms: the guest programs again with their symbols
# (Makefile: guest-syms, out/syms/guest), which only the memory model's
# profile reads: built with the model's plugin, not with every image.
cmd_guest_syms() {
	need_build_deps
	uapi=$(uapi_headers)
	out_lock "guest programs with symbols"
	make -s -C "$KREPRO_ROOT" OUT="$KREPRO_OUT" UAPI="$uapi" guest-syms >&2
	exec 4>&-
}

cmd_initramfs() {
	need_build_deps
	uapi=$(uapi_headers)
	out_lock initramfs
	make -s -C "$KREPRO_ROOT" OUT="$KREPRO_OUT" UAPI="$uapi" guest >&2
	gic=$(gen_init_cpio_path)
	bb=$(command -v busybox || true)
	[ -n "$bb" ] && file -L "$bb" 2>/dev/null | grep -q 'statically linked' ||
		bb=/bin/busybox
	file -L "$bb" | grep -q 'statically linked' ||
		die "busybox at $bb is not static: install Debian package busybox-static"
	list="$KREPRO_OUT/initramfs.list"
	sed -e "s#@BUSYBOX@#$bb#g" -e "s#@GUEST@#$KREPRO_OUT/guest#g" \
		-e "s#@SRC@#$KREPRO_ROOT#g" "$KREPRO_ROOT/initramfs/layout.list" >"$list"
	for g in $(cd "$KREPRO_OUT/guest" && LC_ALL=C ls); do
		echo "file /usr/bin/$g $KREPRO_OUT/guest/$g 0755 0 0"
	done >>"$list"
	# Each suites/<name>/run.sh is /etc/krepro/suites/<name>.sh for /init.
	for s in $(cd "$KREPRO_ROOT/suites" && LC_ALL=C ls -d -- */run.sh); do
		echo "file /etc/krepro/suites/${s%/run.sh}.sh $KREPRO_ROOT/suites/$s 0644 0 0"
	done >>"$list"
	if [ -f "$KREPRO_ROOT/initramfs/knobs.sh" ]; then
		echo "file /etc/krepro/knobs.sh $KREPRO_ROOT/initramfs/knobs.sh 0644 0 0" >>"$list"
	fi
	# The key table (docs/KEYS.md) for knobs.sh, without its texts, and the
	# guest/host contract for init.
	key_table >"$KREPRO_OUT/keys.tmp" || die "the key table is broken (see above)"
	awk '{ print $1, $2, $3, $4, $5 }' "$KREPRO_OUT/keys.tmp" >"$KREPRO_OUT/keys" || die "cannot write $KREPRO_OUT/keys"
	rm -f "$KREPRO_OUT/keys.tmp"
	{
		echo "file /etc/krepro/keys $KREPRO_OUT/keys 0644 0 0"
		echo "file /etc/krepro/contract.h $KREPRO_ROOT/tools/common/contract.h 0644 0 0"
	} >>"$list"
	ts=$(date -u -d "$(ref_get timestamp)" +%s)
	"$gic" -t "$ts" "$list" | gzip -n -9 >"$KREPRO_OUT/initramfs.cpio.gz.tmp"
	mv "$KREPRO_OUT/initramfs.cpio.gz.tmp" "$KREPRO_OUT/initramfs.cpio.gz"
	# what made it, beside it (the image itself stays the guest's bytes)
	{
		echo "sha256 $(sha256sum <"$KREPRO_OUT/initramfs.cpio.gz" | cut -d' ' -f1)"
		echo "tools $(root_tools_id)"
		echo "guest_compiler $(head -n 1 "$KREPRO_OUT/guest.toolchain" 2>/dev/null)"
	} >"$KREPRO_OUT/initramfs.manifest"
	exec 4>&-
	note "initramfs: $(wc -c <"$KREPRO_OUT/initramfs.cpio.gz") bytes, sha256 $(sha256sum "$KREPRO_OUT/initramfs.cpio.gz" | cut -c1-16)"
	printf '%s\n' "$KREPRO_OUT/initramfs.cpio.gz"
}
