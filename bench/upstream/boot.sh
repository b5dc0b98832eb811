# shellcheck shell=sh
# Shared by bench/upstream-*.sh: boot the kit's initramfs with extra files
# appended, in exact mode on the base kernel (qemu-2node's shape), and turn
# the guest's "ROUND r TEST kit K up U" lines into a table.
# Callers set ROOT, then call upstream_workdir, and set ROUNDS and TESTS.

# upstream_workdir TAG: W, a fresh folder (removed on exit unless
# KREPRO_KEEP is set) with W/up for upstream's programs; the kit's base
# kernel and initramfs built.  Exits 1 if the build fails.
upstream_workdir() {
	W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-$1.XXXXXX")
	[ -n "${KREPRO_KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
	"$ROOT/build.sh" all base >"$W/build.log" 2>&1 || {
		tail -n 20 "$W/build.log" >&2
		exit 1
	}
	mkdir -p "$W/up"
}

# upstream_bytes SIZE: SIZE (N, NK, NM or NG, powers of 1024) in bytes;
# fails on anything else.
upstream_bytes() {
	case $1 in
	'' | *[!0-9KMG]* | *[KMG]?* | [!0-9]*) return 1 ;;
	*K) echo $((${1%K} << 10)) ;;
	*M) echo $((${1%M} << 20)) ;;
	*G) echo $((${1%G} << 30)) ;;
	*) echo "$1" ;;
	esac
}

# upstream_whole TAG NAMES VALUE...: exits 2 unless every VALUE is a whole
# number, saying "TAG: NAMES are whole numbers".
upstream_whole() {
	uw_tag=$1 uw_names=$2
	shift 2
	for uw_v; do
		case $uw_v in '' | *[!0-9]*)
			echo "$uw_tag: $uw_names are whole numbers, not '$uw_v'" >&2
			exit 2
			;;
		esac
	done
}

# upstream_known TAG "ALL" TEST...: exits 2 naming the first TEST that is
# not a word of ALL.
upstream_known() {
	uk_tag=$1 uk_all=$2
	shift 2
	for uk_t; do
		case " $uk_all " in *" $uk_t "*) ;; *)
			echo "$uk_tag: unknown test '$uk_t' (see --help)" >&2
			exit 2
			;;
		esac
	done
}

# upstream_usemem SRC OUT: vm-scalability's usemem (SRC a checkout) static
# with musl at its Makefile's -O, glibc's lrand48_r from drand48-r.h, into
# OUT.  Exits 1 naming the compiler's complaint if the build fails.
upstream_usemem() {
	musl-gcc -O -static -pthread -I"$ROOT/bench/upstream" -I"$ROOT/tools/guest" -include drand48-r.h \
		-o "$2" "$1/usemem.c" "$1/usemem_mincore.c" "$1/usemem_hugepages.c" >"$2.log" 2>&1 || {
		cat "$2.log" >&2
		exit 1
	}
}

# upstream_guest_script PREAMBLE: writes $W/compare.sh (mounts, the
# PREAMBLE file: shell functions "kit TEST" and "up TEST", each printing one
# number; then ROUNDS rounds over TESTS, kit first, and COMPARE-DONE) and
# $W/extra.list (it and $W/up/TEST as /up/TEST for every test).
upstream_guest_script() {
	{
		printf '#!/bin/sh\nbusybox mount -t proc proc /proc\n'
		printf 'busybox mount -t sysfs sys /sys\nbusybox mount -t tmpfs tmp /tmp\n'
		# fallocate1 and posix_semaphore1 (sem_open) use /dev/shm
		printf 'busybox mkdir -p /dev/shm\nbusybox mount -t tmpfs shm /dev/shm\n'
		cat "$1"
		cat <<EOF
r=1
while [ \$r -le $ROUNDS ]; do
	for t in $TESTS; do
		echo "ROUND \$r \$t kit \$(kit \$t) up \$(up \$t)"
	done
	r=\$((r + 1))
done
echo COMPARE-DONE
busybox poweroff -f
EOF
	} >"$W/compare.sh"
	{
		echo "dir /up 0755 0 0"
		for t in $TESTS; do echo "file /up/$t $W/up/$t 0755 0 0"; done
		echo "file /compare.sh $W/compare.sh 0755 0 0"
	} >"$W/extra.list"
}

# upstream_boot: boots, prints the boot's wall time; exits 1 on a failure.
upstream_boot() {
	"$ROOT/out/host/gen_init_cpio" "$W/extra.list" | gzip -n >"$W/extra.cpio.gz"
	cat "$ROOT/out/initramfs.cpio.gz" "$W/extra.cpio.gz" >"$W/initrd"
	ub_t0=$(date +%s)
	qemu-system-x86_64 -machine pc -accel tcg,thread=single -cpu qemu64 \
		-icount shift=2,sleep=off,align=off -rtc base=2026-01-01T00:00:00,clock=vm \
		-smp 2,sockets=2,cores=1,threads=1 -m 2G \
		-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,memdev=m0,cpus=0 \
		-object memory-backend-ram,id=m1,size=1G -numa node,nodeid=1,memdev=m1,cpus=1 \
		-nodefaults -display none -no-reboot -monitor none -serial file:"$W/console.log" \
		-kernel "$ROOT/out/kernels/base/bzImage" -initrd "$W/initrd" \
		-append "console=ttyS0,115200 panic=-1 nokaslr rdinit=/compare.sh" >"$W/qemu.log" 2>&1
	grep -q COMPARE-DONE "$W/console.log" || {
		tail -n 30 "$W/console.log" >&2
		exit 1
	}
	echo "boot: $(($(date +%s) - ub_t0)) s"
}

# upstream_table rate|seconds: per test the mean of each side, kit/upstream,
# and the rounds in which the kit read lower.  For seconds (a time: lower is
# better) the ratio is upstream/kit, so that above 1 is the kit faster, as
# for a rate.  A side's number may be followed by a word, the run's mode
# ("ROUND r TEST kit K MODE up U MODE"); then each row also has, per mode
# (in the order of the words' names), each side's runs in it and their mean
# ("N:MEAN") and the ratio of those means, paired by mode ("-" where a side
# had no run in it).
upstream_table() {
	tr -d '\r' <"$W/console.log" | awk -v secs="$([ "$1" = seconds ] && echo 1)" '
	function ratio(kit, up) { return secs ? (kit ? up / kit : 0) : (up ? kit / up : 0) }
	function cell(s, t, md) {
		if (!((s, t, md) in n2)) return "-"
		return sprintf("%d:%.*f", n2[s, t, md], secs ? 2 : 1, sum2[s, t, md] / n2[s, t, md]) }
	$1 == "ROUND" { t = $3; kv = $5; km = ""; uv = $7; um = ""
		if (NF == 9 && $7 == "up") { km = $6; uv = $8; um = $9 }
		k[t] += kv; u[t] += uv; n[t]++; if (kv < uv) low[t]++
		if (km != "") { sum2["k", t, km] += kv; n2["k", t, km]++
			sum2["u", t, um] += uv; n2["u", t, um]++ }
		for (s = 0; s < 2; s++) { md = s ? um : km
			if (md != "" && !(md in seenmode)) { seenmode[md] = 1; modes[++nm] = md } }
		if (!(t in seen)) { seen[t] = 1; order[++m] = t } }
	END {
		for (i = 2; i <= nm; i++) for (j = i; j > 1 && modes[j - 1] > modes[j]; j--) {
			x = modes[j]; modes[j] = modes[j - 1]; modes[j - 1] = x }
		printf "%-34s %12s %12s %8s %" (nm ? "-9" : "") "s", "test", secs ? "kit s" : "kit",
			secs ? "upstream s" : "upstream", secs ? "up/kit" : "kit/up", "kit lower"
		for (j = 1; j <= nm; j++) printf " %10s %10s %8s", modes[j] " kit",
			modes[j] " up", secs ? "up/kit" : "kit/up"
		printf "\n"
		for (i = 1; i <= m; i++) { t = order[i]
			printf "%-34s %12.*f %12.*f %8.3f %" (nm ? "-9" : "") "s", t, secs ? 2 : 1, k[t] / n[t],
				secs ? 2 : 1, u[t] / n[t], ratio(k[t], u[t]), low[t] + 0 "/" n[t]
			for (j = 1; j <= nm; j++) { md = modes[j]
				r = "-"
				if ((("k", t, md) in n2) && (("u", t, md) in n2))
					r = sprintf("%.3f", ratio(sum2["k", t, md] / n2["k", t, md],
						sum2["u", t, md] / n2["u", t, md]))
				printf " %10s %10s %8s", cell("k", t, md), cell("u", t, md), r }
			printf "\n" }
	}'
}
