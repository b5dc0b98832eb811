#!/bin/sh
# The memory-model plugin's build side (issue 37, docs/MEMORY-MODEL.md):
# the node ranges of a board in the plugin's address space, the refusals of
# a QEMU the kit does not know and of a source package that is not the
# pinned one; then, when the pinned plugin header is already in the cache
# (./build.sh model-plugin put it there; this test downloads nothing), the
# plugin built and a tiny multiboot guest booted with it twice on a
# 2-node board: the window's exact counts, remote and local by node, and
# the same bytes both times.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
KREPRO_ROOT=$(pwd)
KREPRO_PROG=tests
# shellcheck source=lib/shared/common.sh
. lib/shared/common.sh
# shellcheck source=lib/shared/qemu-plugin.sh
. lib/shared/qemu-plugin.sh

G=1073741824
# sub COMMAND...: a lib function in a subshell (die exits it, not the test)
sub() { ("$@"); }
assert "nodes: 2 x 1G (node 1 at twice its offset)" \
	test "$(model_node_ranges $G $G)" = "0x0-0x3fffffff:0+0x80000000-0xbfffffff:1"
assert "nodes: 4 x 2G (above 4 GiB, no PCI hole in this space)" \
	test "$(model_node_ranges $((2 * G)) $((2 * G)) $((2 * G)) $((2 * G)))" = \
	"0x0-0x7fffffff:0+0x100000000-0x17fffffff:1+0x200000000-0x27fffffff:2+0x300000000-0x37fffffff:3"
expect_rc "nodes: a bad size is refused" 2 model_node_ranges 1G

# A fake qemu-system-x86_64 first on PATH.
mkdir -p "$T_DIR/bin"
fake_qemu() { # VERSION-LINE HAS-PLUGIN
	cat >"$T_DIR/bin/qemu-system-x86_64" <<EOT
#!/bin/sh
case \$1 in
-version) echo '$1' ;;
-help) [ $2 = 1 ] && echo '-plugin [file=]<file>[,<argname>=<argvalue>]' ;;
esac
exit 0
EOT
	chmod +x "$T_DIR/bin/qemu-system-x86_64"
}
fake_qemu 'QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)' 1
PATH=$T_DIR/bin:$PATH expect_rc "qemu: the pinned version (+b3 binNMU) is accepted" 0 sub qp_check_qemu
fake_qemu 'QEMU emulator version 8.2.2 (Debian 1:8.2.2+ds-0ubuntu1)' 1
PATH=$T_DIR/bin:$PATH expect_rc "qemu: another version is refused" 2 sub qp_check_qemu
expect_in "qemu: ... saying what to install" "$T_OUT" "install Debian 12's qemu-system-x86 1:7.2+dfsg-7+deb12u18"
fake_qemu 'QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18)' 0
PATH=$T_DIR/bin:$PATH expect_rc "qemu: no plugin support is refused" 2 sub qp_check_qemu
expect_in "qemu: ... saying so" "$T_OUT" "has no TCG plugin support"
fake_qemu 'QEMU emulator version 7.2.0' 1
PATH=$T_DIR/bin:$PATH expect_rc "qemu: a build not from Debian is refused" 2 sub qp_check_qemu
expect_in "qemu: ... saying so" "$T_OUT" "not a Debian build the kit knows"

# A source package that is not the pinned one stops before anything is extracted.
mkdir -p "$T_DIR/src"
for f in dsc orig debian; do echo fake >"$T_DIR/src/$(qp_get "$f")"; done
KREPRO_CACHE=$T_DIR/cache KREPRO_QEMU_SOURCE=$T_DIR/src expect_rc "source: sha256 mismatch stops" 2 sub qp_header
expect_in "source: ... naming the file and the pin" "$T_OUT" "$(qp_get dsc): sha256 mismatch: expected $(qp_get dsc_sha256)"
assert "source: nothing extracted" test ! -e "$T_DIR/cache/qemu-plugin"

# Every suite's window is marked (docs/MEMORY-MODEL.md, "The window"): a
# suite whose program marks its own in C leaves run.sh alone (its window is
# the program's measured part: will-it-scale's path does not change); every
# other one runs each measured command (its krepro-time) in init's
# model_window, which brackets it with krepro-mark start and stop.
for rs in suites/*/run.sh; do
	s=${rs%/run.sh}
	s=${s#suites/}
	nt=$(grep -c 'krepro-time -o' "$rs")
	nw=$(grep -c 'model_window krepro-time -o' "$rs")
	if grep -l 'krp_model_mark(' "suites/$s"/*.c >/dev/null 2>&1; then
		assert "window: $s marks its own in C, run.sh adds none" test "$nw" = 0
	else
		assert "window: $s runs each of its $nt measured commands in model_window" \
			test "$nt" -ge 1 -a "$nw" = "$nt"
	fi
done
# model_window as init defines it, with a krepro-mark that logs its word
sed -n '/^model_window() {$/,/^}$/p' initramfs/init >"$T_DIR/mw.sh"
mkdir -p "$T_DIR/mw"
printf '#!/bin/sh\necho "mark $*" >>"%s/mw.log"\n' "$T_DIR" >"$T_DIR/mw/krepro-mark"
chmod +x "$T_DIR/mw/krepro-mark"
# shellcheck disable=SC2016 # expanded by the inner sh
PATH=$T_DIR/mw:$PATH expect_rc "window: model_window returns its command's status" 3 \
	sh -c '. "$1" && model_window sh -c "echo run >>\"\$0\"; exit 3" "$2"' sh "$T_DIR/mw.sh" "$T_DIR/mw.log"
assert "window: start, the command, stop" test "$(tr '\n' /  <"$T_DIR/mw.log")" = "mark start/run/mark stop/"
K=out/guest/krepro-mark
if [ -x "$K" ]; then
	expect_rc "krepro-mark start (a no-op here)" 0 "$K" start
	expect_rc "krepro-mark stop" 0 "$K" stop
	expect_rc "krepro-mark: another word is refused" 2 "$K" begin
	expect_in "... naming it" "$T_OUT" "krepro-mark: unknown word 'begin': expected start or stop"
	expect_rc "krepro-mark: no word is refused" 2 "$K"
	for n in 1 2; do
		assert "krepro-mark holds the window mark $n" \
			sh -c "LC_ALL=C grep -qaF \"\$(printf '\\017\\037\\200\\00${n}MRK')\" '$K'"
	done
else
	echo "(krepro-mark checks skipped: make guest has not built $K)"
fi

ver=$(qp_get version)
inc=${KREPRO_CACHE:-$KREPRO_ROOT/cache}/qemu-plugin/${ver#*:}
if [ -f "$inc/.krepro-complete" ] && command -v qemu-system-x86_64 >/dev/null 2>&1 &&
	command -v as >/dev/null 2>&1 && sub qp_check_qemu >/dev/null 2>&1; then
	expect_rc "plugin: builds against the pinned header" 0 \
		make -s OUT="$T_DIR/build" QEMU_PLUGIN_INC="$inc" model-plugin
	# 0x10000000 is node 0 (vCPU 0's), 0x50000000 node 1: guest-physical
	for a in 0x10000000 0x50000000; do
		as --32 --defsym ADDR=$a -o "$T_DIR/$a.o" tests/fixtures/model/chase.S &&
			ld -m elf_i386 -Ttext 0x100000 -o "$T_DIR/$a.elf" "$T_DIR/$a.o"
		for run in 1 2; do
			timeout 60 qemu-system-x86_64 -display none -machine pc -accel tcg \
				-icount shift=2,sleep=off,align=off -smp 2 -m 2G \
				-object memory-backend-ram,id=m0,size=1G -numa node,memdev=m0,cpus=0 \
				-object memory-backend-ram,id=m1,size=1G -numa node,memdev=m1,cpus=1 \
				-device isa-debug-exit,iobase=0xf4,iosize=4 -kernel "$T_DIR/$a.elf" \
				-plugin "$T_DIR/build/qemu-plugin/krepro-model.so,out=$T_DIR/$a.$run,nodes=$(model_node_ranges $G $G),cpunode=0+1" \
				-monitor none -serial none -no-reboot >"$T_DIR/$a.$run.log" 2>&1
		done
	done
	L=$T_DIR/0x10000000.1
	R=$T_DIR/0x50000000.1
	expect_in "boot: one window" "$L" "windows 1"
	expect_in "boot: the window's instructions exactly (4 a load, 4 more)" "$L" "cpu 0 user instructions 65540"
	expect_in "boot: 16384 loads" "$L" "cpu 0 user loads 16384"
	expect_in "boot: all miss the LLC" "$L" "cpu 0 user llc-misses 16384"
	expect_in "boot: node 0's memory is local to vCPU 0" "$L" "cpu 0 user node-load-misses 0"
	expect_in "boot: node 1's memory is remote to vCPU 0" "$R" "cpu 0 user node-load-misses 16384"
	expect_in "boot: every address in a node's range" "$R" "unknown-node 0"
	expect_in "boot: the report is complete" "$R" "end"
	assert "boot: two boots, the same bytes" cmp "$T_DIR/0x50000000.1" "$T_DIR/0x50000000.2"
	assert "boot: two boots, the same bytes (node 0)" cmp "$T_DIR/0x10000000.1" "$T_DIR/0x10000000.2"
else
	echo "(plugin boot skipped: no pinned plugin header in the cache (./build.sh model-plugin), or no matching QEMU or assembler)"
fi
t_summary
t_clean
exit "$T_FAILED"
