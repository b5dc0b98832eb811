#!/bin/sh
# The pinned root (issue 47 items 2 and 5, lib/shared/root.sh): the committed
# lock's format, one line a package; a .deb whose sha256 is not the lock's
# refused naming package, version, expected and got; a version the archive
# no longer has named with the ways on; --lock says which versions changed
# and, on an unchanged archive, that none did; mmdebstrap really runs on a
# tiny lock of the test's own (a .deb made here, no download) and the
# second call reuses its root; the committed lock's root, when the cache
# has it, is reused in under a second; a real download of one .deb.
# Cheap: the full root (a few hundred
# MB) is never made here (docs/REPRODUCIBLE.md has its costs).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
LOCK=root/bookworm.lock

# The committed lock: header keys once, package lines NAME VERSION ARCH
# SHA256, each package once, every package of root/packages in it.
fmt=$(awk '/^[ \t]*(#|$)/ { next }
	/^[a-z]+: / { k = $1; if (k != "suite:" && k != "sources:" && k != "arch:" && k != "variant:" || h[k]++) print "header " NR; next }
	NF != 4 || $1 !~ /^[a-z0-9][a-z0-9+.-]+$/ || $2 !~ /^([0-9]+:)?[0-9][A-Za-z0-9.+~-]*$/ ||
	$3 !~ /^(all|amd64)$/ || $4 !~ /^[0-9a-f]+$/ || length($4) != 64 { print "line " NR; next }
	p[$1]++ { print "twice " $1 }
	END { if (!h["suite:"] || !h["arch:"] || !h["variant:"]) print "no header" }' "$LOCK")
if [ -z "$fmt" ]; then ok "lock: format and each package once"; else no "lock: $fmt"; fi
expect_in "lock: names its suite" "$LOCK" "suite: bookworm"
expect_in "lock: says how to regenerate it" "$LOCK" "./build.sh root --lock"
miss=$(awk 'FILENAME == ARGV[1] { sub(/#.*/, ""); for (i = 1; i <= NF; i++) want[$i] = 1; next }
	{ has[$1] = 1 } END { for (p in want) if (!(p in has)) printf " %s", p }' root/packages "$LOCK")
if [ -z "$miss" ]; then ok "lock: holds every package of root/packages"; else no "lock: lacks$miss"; fi
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "lock: root_lock_id" 0 sh -c 'KREPRO_ROOT=$PWD; . lib/shared/common.sh; . lib/shared/root.sh; root_lock_id'
expect_in "lock: root_lock_id names it and its sha256" "$T_OUT" "root/bookworm.lock sha256:$(sha256sum <"$LOCK" | cut -d' ' -f1)"

# A package line twice is refused with the file and line.
{ cat "$LOCK"; grep '^busybox-static ' "$LOCK"; } >"$T_DIR/twice.lock"
expect_rc "lock: a package twice is refused" 2 env KREPRO_CACHE="$T_DIR/c0" KREPRO_ROOT_LOCK="$T_DIR/twice.lock" ./build.sh root
expect_in "lock: ... naming its file and line" "$T_OUT" "$T_DIR/twice.lock:$(($(wc -l <"$LOCK") + 1)): package busybox-static twice"

# A .deb of the test's own, and a tiny lock (variant extract: unpacked only).
mkdir -p "$T_DIR/pkg/DEBIAN" "$T_DIR/pkg/usr/share/krepro-fake" "$T_DIR/debs" "$T_DIR/bad"
printf 'Package: krepro-fake\nVersion: 1:1.0-1\nArchitecture: all\nMaintainer: krepro tests <t@example.org>\nDescription: a test package\n' \
	>"$T_DIR/pkg/DEBIAN/control"
echo marker >"$T_DIR/pkg/usr/share/krepro-fake/marker"
dpkg-deb --root-owner-group -b "$T_DIR/pkg" "$T_DIR/debs/fake.deb" >/dev/null
good=$(sha256sum <"$T_DIR/debs/fake.deb" | cut -d' ' -f1)
tiny() { # FILE LINE...: a lock of these package lines
	tf=$1
	shift
	printf '# a tiny lock\nsuite: bookworm\nsources: bookworm bookworm-updates bookworm-security\narch: amd64\nvariant: extract\n' >"$tf"
	printf '%s\n' "$@" >>"$tf"
}
tiny "$T_DIR/tiny.lock" "krepro-fake 1:1.0-1 all $good"

# A copy with one byte changed is refused: package, version, expected, got.
cp "$T_DIR/debs/fake.deb" "$T_DIR/bad/fake.deb"
printf 'X' | dd of="$T_DIR/bad/fake.deb" bs=1 seek=$(($(wc -c <"$T_DIR/bad/fake.deb") - 3)) conv=notrunc 2>/dev/null
bad=$(sha256sum <"$T_DIR/bad/fake.deb" | cut -d' ' -f1)
expect_rc "tampered .deb: refused" 2 env KREPRO_CACHE="$T_DIR/c1" KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" KREPRO_ROOT_DEBS="$T_DIR/bad" ./build.sh root
expect_in "tampered .deb: names package and version" "$T_OUT" "krepro-fake 1:1.0-1"
expect_in "tampered .deb: names expected and got" "$T_OUT" "expected $good, got $bad"
if [ -z "$(ls "$T_DIR/c1/roots/debs")" ] && [ ! -d "$T_DIR/c1/roots/$(sha256sum <"$T_DIR/tiny.lock" | cut -c1-16)" ]; then
	ok "tampered .deb: nothing kept, no root"
else no "tampered .deb: something kept in $T_DIR/c1/roots"; fi

# mmdebstrap really runs on the tiny lock; the second call reuses the root.
expect_rc "tiny lock: mmdebstrap makes its root" 0 env KREPRO_CACHE="$T_DIR/c1" KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" ./build.sh root --debs "$T_DIR/debs"
tree=$(tail -n 1 "$T_OUT")
expect_in "tiny lock: progress lines" "$T_OUT" ".debs checked against the lock; mmdebstrap from them alone"
if [ -f "$tree/usr/share/krepro-fake/marker" ] && cmp -s "$tree/etc/krepro/root.lock" "$T_DIR/tiny.lock"; then
	ok "tiny lock: the root holds the package and its lock"
else no "tiny lock: no marker or lock in '$tree'"; fi
expect_rc "tiny lock: second call" 0 env KREPRO_CACHE="$T_DIR/c1" KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" ./build.sh root
expect_in "tiny lock: second call says it is there" "$T_OUT" "is there"
if [ "$(tail -n 1 "$T_OUT")" = "$tree" ]; then ok "tiny lock: same path last"; else
	no "tiny lock: path $(tail -n 1 "$T_OUT"), not $tree"
fi

# The host's apt cache (where the host's installs left the same versions)
# is a source too, each file checked against the lock; another file of the
# same name is not taken.
mkdir -p "$T_DIR/apt1" "$T_DIR/apt2"
cp "$T_DIR/debs/fake.deb" "$T_DIR/apt1/krepro-fake_1%3a1.0-1_all.deb"
cp "$T_DIR/bad/fake.deb" "$T_DIR/apt2/krepro-fake_1%3a1.0-1_all.deb"
expect_rc "host apt cache: a locked .deb there is taken" 0 env KREPRO_APT_ARCHIVES="$T_DIR/apt1" KREPRO_CACHE="$T_DIR/c4" \
	KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" ./build.sh root
expect_in "host apt cache: says so" "$T_OUT" "1 .debs taken from $T_DIR/apt1 (the same versions, checked against the lock)"
expect_rc "host apt cache: another file of that name is not taken" 2 env KREPRO_APT_ARCHIVES="$T_DIR/apt2" KREPRO_CACHE="$T_DIR/c5" \
	KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" KREPRO_DEBIAN_MIRROR=http://127.0.0.1:9/debian ./build.sh root
if [ -z "$(ls "$T_DIR/c5/roots/debs" 2>/dev/null)" ]; then ok "host apt cache: nothing kept of it"; else no "host apt cache: the other file was kept"; fi

# bundle --with-root: the lock's .debs copied out of the cache, said with
# their count and size; a bundle's root-debs/ are used only when its lock
# is the kit's own (its sha256s vouched for by the checkout), never with a
# lock the bundle brings (mmdebstrap runs the packages' scripts).
# shellcheck disable=SC2016 # expanded by the inner shell
expect_rc "--with-root: the root's .debs copied" 0 env KREPRO_CACHE="$T_DIR/c1" KREPRO_ROOT_LOCK="$T_DIR/tiny.lock" \
	sh -c 'KREPRO_ROOT=$PWD; . lib/shared/common.sh; . lib/shared/root.sh; root_debs_to "$1"' sh "$T_DIR/wr/root-debs"
expect_in "... said with count and size" "$T_OUT" "bundle: --with-root: 1 .debs of $T_DIR/tiny.lock"
if cmp -s "$T_DIR/wr/root-debs/krepro-fake_1%3a1.0-1_all.deb" "$T_DIR/debs/fake.deb"; then ok "... the locked .deb itself"; else no "... no krepro-fake .deb in root-debs/"; fi
mkdir -p "$T_DIR/wr/inputs/root"
cp "$LOCK" "$T_DIR/wr/inputs/root/bookworm.lock"
# shellcheck disable=SC2016
brd() { env KREPRO_ROOT_DEBS= sh -c 'KREPRO_ROOT=$PWD; . lib/shared/common.sh; . lib/shared/root.sh; . lib/shared/bundle.sh; bundle_root_debs "$1"' sh "$T_DIR/wr"; }
expect_rc "a bundle's root-debs/ with the kit's own lock" 0 brd
expect_in "... are used" "$T_OUT" "$T_DIR/wr/root-debs"
echo '# another lock' >>"$T_DIR/wr/inputs/root/bookworm.lock"
expect_rc "a bundle's root-debs/ with a lock of its own" 0 brd
expect_in "... are not used, said" "$T_OUT" "its root-debs/ are not used: its lock is not this kit's"
assert "... nor given to root_make" sh -c "! grep -qx '$T_DIR/wr/root-debs' '$T_OUT'"
# A lock's sources and suite are suite names (they become sources.list lines).
tiny "$T_DIR/src.lock" "krepro-fake 1:1.0-1 all $good"
sed -i 's|^sources: .*|sources: bookworm http://evil.example/debian|' "$T_DIR/src.lock"
expect_rc "lock: a sources word that is not a suite is refused" 2 env KREPRO_CACHE="$T_DIR/c6" KREPRO_ROOT_LOCK="$T_DIR/src.lock" ./build.sh root
expect_in "... naming file and line" "$T_OUT" "$T_DIR/src.lock:3: sources: suite names"

# A .deb changed in the cache is refused too, before mmdebstrap sees it.
cached=$T_DIR/c1/roots/debs/krepro-fake_1%3a1.0-1_all.deb
cp "$T_DIR/bad/fake.deb" "$cached"
{ cat "$T_DIR/tiny.lock"; echo '# another id'; } >"$T_DIR/tiny2.lock"
expect_rc "cached .deb changed: refused" 2 env KREPRO_CACHE="$T_DIR/c1" KREPRO_ROOT_LOCK="$T_DIR/tiny2.lock" ./build.sh root
expect_in "cached .deb changed: names it, expected and got" "$T_OUT" "krepro-fake 1:1.0-1 ($cached): sha256 differs from the lock $T_DIR/tiny2.lock: expected $good, got $bad"

# A user without subuids is told what mmdebstrap's unshare mode needs,
# before anything is fetched.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1 && ! grep -q '^nobody:' /etc/subuid 2>/dev/null; then
	mkdir -p "$T_DIR/u/c"
	cp "$T_DIR/tiny.lock" "$T_DIR/u/"
	chmod 755 "$T_DIR"
	chown -R nobody "$T_DIR/u"
	expect_rc "user: no subuid is refused" 2 runuser -u nobody -- env HOME="$T_DIR/u" KREPRO_CACHE="$T_DIR/u/c" \
		KREPRO_OUT="$T_DIR/u/o" KREPRO_ROOT_LOCK="$T_DIR/u/tiny.lock" ./build.sh root
	expect_in "user: says what unshare mode needs" "$T_OUT" "/etc/subuid and /etc/subgid have no line for nobody"
	if [ -z "$(ls "$T_DIR/u/c/roots/debs" 2>/dev/null)" ]; then ok "user: nothing fetched first"; else
		no "user: .debs fetched before the refusal"
	fi
fi

# Guest programs another toolchain built are rebuilt, never mixed into an
# image (the Makefile's guest.toolchain): a compiler whose version line
# differs rebuilds a program make had found up to date; the same one
# again rebuilds nothing.
GO=$T_DIR/gtc
mkdir -p "$T_DIR/wrap"
# shellcheck disable=SC2016 # the wrapper's own text
printf '#!/bin/sh\n[ "$1" != --version ] || { echo "musl-gcc (another) 99.1"; exit 0; }\nexec musl-gcc "$@"\n' >"$T_DIR/wrap/musl-gcc"
chmod +x "$T_DIR/wrap/musl-gcc"
expect_rc "guest toolchain: a program built" 0 make -s OUT="$GO" "$GO/guest/krepro-send"
expect_rc "guest toolchain: same compiler, nothing to do" 0 make OUT="$GO" "$GO/guest/krepro-send"
assert "... no compile" sh -c "! grep -q -- '-o $GO/guest/krepro-send' '$T_OUT'"
expect_rc "guest toolchain: another compiler" 0 make OUT="$GO" MUSL_CC="$T_DIR/wrap/musl-gcc" "$GO/guest/krepro-send"
expect_in "... rebuilds the program" "$T_OUT" "$T_DIR/wrap/musl-gcc"
expect_in "... its stamp names it" "$GO/guest.toolchain" "musl-gcc (another) 99.1"
expect_rc "guest toolchain: that compiler again" 0 make OUT="$GO" MUSL_CC="$T_DIR/wrap/musl-gcc" "$GO/guest/krepro-send"
assert "... no compile" sh -c "! grep -q -- '-o $GO/guest/krepro-send' '$T_OUT'"

# The committed lock's root, when the cache has it: reused, under a second.
id=$(sha256sum <"$LOCK" | cut -c1-16)
if [ -d "cache/roots/$id" ]; then
	t0=$(date +%s%N)
	expect_rc "root: reused from the cache" 0 ./build.sh root
	t1=$(date +%s%N)
	expect_in "root: says it is there" "$T_OUT" "root: $id is there"
	if [ $(((t1 - t0) / 1000000)) -lt 1000 ]; then ok "root: reuse in $(((t1 - t0) / 1000000)) ms"; else
		no "root: reuse took $(((t1 - t0) / 1000000)) ms"
	fi
fi

# The archive (network): a locked version is downloaded, checked and made
# a root (busybox-static: no dependencies); a version it no longer has is
# named with the ways on; --lock says what changed, then, the archive
# unchanged, that nothing did.
tiny "$T_DIR/dl.lock" "$(grep '^busybox-static ' "$LOCK")"
expect_rc "archive: the locked version downloaded, checked, made a root" 0 env KREPRO_APT_ARCHIVES=/nonexistent KREPRO_CACHE="$T_DIR/c3" KREPRO_ROOT_LOCK="$T_DIR/dl.lock" ./build.sh root
expect_in "archive: says it downloads the exact version" "$T_OUT" "downloading 1 .debs of the lock (apt-get download of the exact versions)"
if [ -x "$(tail -n 1 "$T_OUT")/bin/busybox" ]; then ok "archive: the root holds it"; else no "archive: no bin/busybox in the root"; fi
# root_exec (what build.sh runs its builds through) in that root: the
# root's programs and /etc, not the host's; the kit read-only, the output
# folder writable; KREPRO_IN_ROOT says where it runs.
bbroot=$(tail -n 1 "$T_OUT")
mkdir -p "$T_DIR/rx/out" "$T_DIR/rx/cache"
# shellcheck disable=SC2016 # expanded by the inner shells
expect_rc "root_exec: runs a command in the root" 0 env KREPRO_CACHE="$T_DIR/rx/cache" KREPRO_OUT="$T_DIR/rx/out" BB="$bbroot" KIT="$PWD" \
	sh -c 'KREPRO_ROOT=$PWD; . lib/shared/common.sh; . lib/shared/root.sh; root_exec "$BB" /bin/busybox sh -c '"'"'
	[ -e /usr/bin/gcc ] || echo "no host gcc"
	/bin/busybox grep -q "^busybox-static " /etc/krepro/root.lock && echo "the root'"'"'"'"'"'"'"'"'s /etc"
	/bin/busybox touch "$KREPRO_OUT/w" && echo "out writable"
	/bin/busybox touch "$KIT/krepro-root-probe" 2>/dev/null || echo "kit read-only"
	echo "in root $KREPRO_IN_ROOT"'"'"
for w in "no host gcc" "the root's /etc" "out writable" "kit read-only" "in root ${bbroot##*/}"; do
	expect_in "root_exec: $w" "$T_OUT" "$w"
done
if [ -f "$T_DIR/rx/out/w" ] && [ ! -e krepro-root-probe ]; then ok "root_exec: the write reached the host's out/, none the kit"; else
	no "root_exec: out/w missing or the kit written"
fi
rm -f krepro-root-probe
# ... and as a user (bubblewrap's user namespace), where one may have them
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1 && runuser -u nobody -- bwrap --ro-bind / / true 2>/dev/null &&
	runuser -u nobody -- test -r "$bbroot/bin/busybox" -a -x "$PWD"; then
	mkdir -p "$T_DIR/rxu/out" "$T_DIR/rxu/cache" "$T_DIR/rxu/home"
	chmod 755 "$T_DIR"
	chown -R nobody "$T_DIR/rxu"
	# shellcheck disable=SC2016 # expanded by the inner shells
	expect_rc "root_exec: as a user" 0 runuser -u nobody -- env HOME="$T_DIR/rxu/home" KREPRO_CACHE="$T_DIR/rxu/cache" \
		KREPRO_OUT="$T_DIR/rxu/out" BB="$bbroot" sh -c 'KREPRO_ROOT=$PWD; . lib/shared/common.sh; . lib/shared/root.sh
		root_exec "$BB" /bin/busybox sh -c "/bin/busybox touch \$KREPRO_OUT/u && echo user-ok"'
	expect_in "... it ran in the root and wrote out/" "$T_OUT" "user-ok"
fi
tiny "$T_DIR/gone.lock" "krepro-fake 1:1.0-1 all $good" \
	"busybox-static 1:0.0-krepro-gone amd64 $(printf '%064d' 0)"
expect_rc "gone version: refused" 2 env KREPRO_CACHE="$T_DIR/c3" KREPRO_ROOT_LOCK="$T_DIR/gone.lock" KREPRO_ROOT_DEBS="$T_DIR/debs" ./build.sh root
expect_in "gone version: names package and version" "$T_OUT" "not in the archive: busybox-static 1:0.0-krepro-gone"
expect_in "gone version: a folder of .debs" "$T_OUT" "./build.sh root --debs DIR, or KREPRO_ROOT_DEBS=DIR"
expect_in "gone version: or a new lock" "$T_OUT" "./build.sh root --lock: new versions, new hashes"
expect_in "gone version: never another one" "$T_OUT" "the kit takes no other version"
sed 's/^\(busybox-static\) [^ ]*/\1 1:0.0-old/' "$LOCK" >"$T_DIR/re.lock"
expect_rc "--lock: writes a new lock" 0 env KREPRO_ROOT_LOCK="$T_DIR/re.lock" ./build.sh root --lock
expect_in "--lock: says which version changed" "$T_OUT" "changed: busybox-static 1:0.0-old -> "
expect_rc "--lock: again" 0 env KREPRO_ROOT_LOCK="$T_DIR/re.lock" ./build.sh root --lock
expect_in "--lock: an unchanged archive changes nothing" "$T_OUT" "no version changed against the old lock"
expect_in "--lock: prints the lock last" "$T_OUT" "$T_DIR/re.lock"

t_summary
t_clean
