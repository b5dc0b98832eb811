#!/bin/sh
# Command-line behaviour of the scripts and tools: --help, dry runs, and
# one clear line for bad input.  No kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

for c in ./build.sh ./run-matrix.sh; do
	expect_rc "$c --help" 0 "$c" --help
	expect_in "$c --help prints usage" "$T_OUT" "usage:"
done
for t in out/host/krepro-* out/guest/*; do
	expect_rc "$t --help" 0 "$t" --help
done

# --dry-run installs nothing (issue 48): a dependency that looks missing
# (a busybox that "is not static") is named, apt-get never runs.
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T_DIR/fakebin"
	printf '#!/bin/sh\necho "$*" >>"%s/apt-ran"\n' "$T_DIR" >"$T_DIR/fakebin/apt-get"
	# shellcheck disable=SC2016 # the fake tool's own text
	printf '#!/bin/sh\necho "$2: ELF 64-bit LSB executable, dynamically linked"\n' >"$T_DIR/fakebin/file"
	chmod +x "$T_DIR/fakebin/apt-get" "$T_DIR/fakebin/file"
	expect_rc "--dry-run with a dependency missing stops" 2 env -u KREPRO_DEPS_OK PATH="$T_DIR/fakebin:$PATH" \
		./run-matrix.sh --dry-run -o "$T_DIR/res-nodeps"
	expect_in "... naming the package and how a real run gets it" "$T_OUT" "missing Debian package(s): busybox-static (--dry-run installs nothing"
	assert "... and apt-get never ran" test ! -e "$T_DIR/apt-ran"
fi
expect_rc "default matrix --dry-run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res"
expect_in "dry run path params are LKP's" "$T_OUT" "will-it-scale/process-100%-10s-page_fault3/"
expect_in "dry run names the result path" "$T_OUT" "/qemu-2node/krepro-initramfs/qemu-minimal/gcc-"
expect_in "dry run counts runs" "$T_OUT" "2 cells, 6 runs, variants: base calibration"
assert "dry run writes no results" test ! -e "$T_DIR/res/will-it-scale"

for m in jobs/*.yaml suites/*/*.yaml; do
	expect_rc "shipped matrix $m: dry run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$m"
done

printf 'suite: will-it-scale\ntest: page_fault3\nmode process\n' >"$T_DIR/bad.yaml"
expect_rc "malformed matrix fails" 2 ./run-matrix.sh --dry-run "$T_DIR/bad.yaml"
expect_in "malformed matrix names file and line" "$T_OUT" "bad.yaml:3:"
# A part with runs: 1 beside one without runs: (3 by default): the plan
# boots what --dry-run counts (it stopped after run 1 for both).
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 8s\nvariants: [base]\n---\nruns: 1\n---\nnr_task: 2\n' >"$T_DIR/runs.yaml"
expect_rc "runs: 1 beside the default" 0 ./run-matrix.sh --dry-run -o "$T_DIR/resr" "$T_DIR/runs.yaml"
expect_in "... counts 1 + 3 runs" "$T_OUT" "2 cells, 4 runs"
expect_in "... and plans 4 boots" "$T_OUT" "plan: 4 boots (0 runs complete, kept)"
# What the guest sizes on its board is said in the plan (issue 51): the
# parameters a cell leaves to the guest, with their defaults' words.
printf 'suite: autonuma-benchmark\ntest: numa02\nnuma_balancing: 1\n' >"$T_DIR/an.yaml"
expect_rc "autonuma-benchmark numa02 without size and loops" 0 ./run-matrix.sh --dry-run -o "$T_DIR/resa" "$T_DIR/an.yaml"
expect_in "... the plan says the guest sizes both on its board" "$T_OUT" \
	"  defaults the guest resolves on its board: size: a quarter of MemTotal; loops: upstream's"
echo 'loops: 150' >>"$T_DIR/an.yaml"
expect_rc "... and with loops: 150" 0 ./run-matrix.sh --dry-run -o "$T_DIR/resa" "$T_DIR/an.yaml"
assert "... only size is left to the guest" grep -qx "  defaults the guest resolves on its board: size: a quarter of MemTotal" "$T_OUT"
# numa01's two processes first touch one node: left to the guest, a
# quarter of MemTotal each filled node 1 of qemu-2node and the OOM killer
# ended the run.  The plan gives it a quarter of a node (2 GiB / 2 / 4).
printf 'suite: autonuma-benchmark\ntest: numa01\nnuma_balancing: 1\n' >"$T_DIR/an1.yaml"
expect_rc "numa01 without size" 0 ./run-matrix.sh --dry-run -o "$T_DIR/resa" "$T_DIR/an1.yaml"
expect_in "... gets a quarter of a node of qemu-2node, said in the plan" "$T_OUT" \
	"  defaults (docs/KEYS.md): interval=1 monitors=meminfo+proc-vmstat size=256M"
assert "... and the guest sizes only loops" grep -qx "  defaults the guest resolves on its board: loops: upstream's" "$T_OUT"
printf 'suite: unixbench\ntest: whetstone-double+context1\nruntime: 2s\n' >"$T_DIR/ubl.yaml"
expect_rc "a unixbench test list joined by '+' is accepted" 0 ./run-matrix.sh --dry-run -o "$T_DIR/resu" "$T_DIR/ubl.yaml"
for v in 'pipe++spawn' '+pipe' 'pipe+' 'pipe+../x'; do
	printf 'suite: unixbench\ntest: %s\n' "$v" >"$T_DIR/ubl.yaml"
	expect_rc "test '$v' is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/resu" "$T_DIR/ubl.yaml"
	expect_in "... saying what a test list is" "$T_OUT" "joined by '+'"
done

printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 8s\nboard: no-such-board\n' >"$T_DIR/nb.yaml"
expect_rc "unknown board fails" 2 ./run-matrix.sh --dry-run "$T_DIR/nb.yaml"
expect_in "unknown board is named" "$T_OUT" "board 'no-such-board' not found"

copy_checkout "$T_DIR/root"
printf 'type: qemu\ncpus: 2\nmemory: 1G\ncolour: blue\n' >"$T_DIR/root/boards/qemu-2node"
expect_rc "malformed board fails" 2 "$T_DIR/root/run-matrix.sh" --dry-run -o "$T_DIR/res2"
expect_in "malformed board names file, line and key" "$T_OUT" "boards/qemu-2node:4: unknown key 'colour'"
printf 'type: lab\ncpus: 2\nmemory: 1G\nnodes: 1\nssh: root@box\nconsole: cat /dev/null\npower_cycle: true\n' >"$T_DIR/root/boards/lab-x"
expect_rc "lab board without a controller fails" 2 "$T_DIR/root/run-matrix.sh" --dry-run --board lab-x -o "$T_DIR/res2"
expect_in "lab board: controller is asked for" "$T_OUT" "boards/lab-x: a lab board needs controller:"
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 8s\nboot: kexec\nboard: lab-brickland3\n' >"$T_DIR/lk.yaml"
printf 'suite: will-it-scale\ntest: page_fault3\nkernel_cmdline: console=ttyS1\n' >"$T_DIR/c.yaml"
expect_rc "a kernel_cmdline overriding run-matrix's own is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/res4" "$T_DIR/c.yaml"
expect_in "the refusal names the parameter" "$T_OUT" "kernel_cmdline: 'console=ttyS1' is set by run-matrix"
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nkernel_cmdline: [memcg_charge_batch=1, memcg_charge_batch=64]\n' >"$T_DIR/c2.yaml"
expect_rc "a kernel_cmdline axis is listed" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res4" "$T_DIR/c2.yaml"
expect_in "each boot parameter value has its result path" "$T_OUT" "/kernel_cmdline=memcg_charge_batch=64-process-1-test=page_fault3/"
expect_rc "kexec chains on a lab board are refused" 2 ./run-matrix.sh -o "$T_DIR/res3" "$T_DIR/lk.yaml"
expect_in "the refusal says why" "$T_OUT" "kexecs every run from its own system"

# Exact mode (docs/EXACT.md): refused where it cannot be, before any build.
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 5s\nclock: exact\n' >"$T_DIR/ex.yaml"
expect_rc "clock: exact dry run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res5" "$T_DIR/ex.yaml"
expect_in "exact results are their own machine in the path" "$T_OUT" "/qemu-2node.exact/krepro-initramfs/"
expect_in "dry run names the clock" "$T_OUT" "clock exact"
# The default seeds of an exact cell (full_verdicts measures their floor
# with fewer, to keep CI's time).
expect_in "an exact cell without runs or seeds plans the default 8 seeds" "$T_OUT" "seeds 1-8 (exact mode: run N has the N-th)"
expect_rc "clock: exact on a lab board is refused" 2 ./run-matrix.sh -o "$T_DIR/res5" --board lab-loopback "$T_DIR/ex.yaml"
expect_in "the refusal says a lab clock is real" "$T_OUT" "board lab-loopback is a lab machine, whose clock is always real"
assert "nothing was built for it" test ! -e "$T_DIR/res5/will-it-scale"
printf 'type: qemu\ncpus: 2\nmemory: 1G\naccel: kvm\nclock: exact\n' >"$T_DIR/root/boards/qemu-kvm-exact"
expect_rc "clock: exact with KVM is refused" 2 "$T_DIR/root/run-matrix.sh" -o "$T_DIR/res5" --board qemu-kvm-exact "$T_DIR/ex.yaml"
expect_in "the refusal names KVM" "$T_OUT" "board qemu-kvm-exact has accel: kvm"
printf 'clock: fast\n' >>"$T_DIR/root/boards/qemu-kvm-exact"
expect_rc "a bad board clock is refused" 2 "$T_DIR/root/run-matrix.sh" --dry-run -o "$T_DIR/res5" --board qemu-kvm-exact "$T_DIR/ex.yaml"
expect_in "bad board clock named" "$T_OUT" "clock must be real or exact, not 'fast'"
expect_rc "-j 2 on real-mode cells is refused" 2 ./run-matrix.sh -j 2 -o "$T_DIR/res5" suites/will-it-scale/smoke.yaml
expect_in "the -j refusal says why" "$T_OUT" "parallel guests need clock: exact"
expect_rc "-j with a bad count is refused" 2 ./run-matrix.sh -j 0 --dry-run -o "$T_DIR/res5"

# QEMU still missing after its package "installed" (issue 12): the run
# stops before any boot instead of storing failed runs.
mkdir -p "$T_DIR/bin"
for f in /usr/bin/* /usr/sbin/*; do
	case ${f##*/} in qemu-system-x86_64) ;; *) ln -sf "$f" "$T_DIR/bin/" ;; esac
done
PATH=$T_DIR/bin expect_rc "no QEMU on PATH: the run stops" 2 ./run-matrix.sh -o "$T_DIR/res7" "$T_DIR/ex.yaml"
expect_in "no QEMU: the package is named" "$T_OUT" "qemu-system-x86"
assert "no QEMU: no run stored" sh -c "! find '$T_DIR/res7' -name stats.json | grep -q ."

# The lab listener takes results only from the board's address (issue 12).
echo data >"$T_DIR/payload"
send_to_listener() { # PEER OUT: krepro-send from 127.0.0.1 to a listener taking PEER only
	rm -f "$T_DIR/lport"
	out/host/krepro-listen -b 127.0.0.1 -a "$1" -P "$T_DIR/lport" -t 5 -o "$2" 2>"$2.err" &
	lp=$!
	i=0
	while [ ! -s "$T_DIR/lport" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	out/guest/krepro-send -d "tcp:127.0.0.1:$(cat "$T_DIR/lport")" "$T_DIR/payload" >/dev/null 2>&1
	wait "$lp"
}
send_to_listener 127.0.0.2 "$T_DIR/got1"
assert "listener: another peer's stream is not taken" test ! -e "$T_DIR/got1"
expect_in "listener: the refused peer is named" "$T_DIR/got1.err" "refused a connection from 127.0.0.1 (only 127.0.0.2 may send)"
send_to_listener 127.0.0.1 "$T_DIR/got2"
assert "listener: the board's own stream is taken" test -s "$T_DIR/got2"

# An mbox cut inside its second message (issue 12): refused, not a 1-patch
# series; a cover letter is still skipped.
{ cat patches/calibration/0001-*.patch; echo; head -n 3 patches/calibration/0002-*.patch; } >"$T_DIR/root/patches/cut.mbox"
expect_rc "a cut mbox is refused" 2 "$T_DIR/root/build.sh" -C "$T_DIR/cache2" patches cut
expect_in "the refusal names the damaged message" "$T_OUT" "message 2 has no Subject and no diff: a cut or damaged mbox?"
{ printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 0/3] cover\n\nthree patches\n\n'; for p in patches/calibration/0*.patch; do cat "$p" && echo; done; } >"$T_DIR/root/patches/whole.mbox"
expect_rc "an mbox with a cover letter splits" 0 "$T_DIR/root/build.sh" -C "$T_DIR/cache2" patches whole
assert "three patches, the cover letter skipped" test "$(wc -l <"$T_OUT")" = 3

expect_rc "bisect with a missing matrix is refused" 2 ./run-matrix.sh bisect -o "$T_DIR/res6" -m "$T_DIR/MISSING.yaml" calibration x
expect_in "the refusal names the matrix" "$T_OUT" "matrix file '$T_DIR/MISSING.yaml' not found"

echo "not a debian package" >"$T_DIR/fake.deb"
KREPRO_REFERENCE_DEB=$T_DIR/fake.deb expect_rc "reference sha256 mismatch stops" 2 \
	./build.sh -C "$T_DIR/cache" reference
expect_in "mismatch says expected and got" "$T_OUT" "sha256 mismatch: expected e849faf3"
expect_in "mismatch names what it got" "$T_OUT" "got $(sha256sum "$T_DIR/fake.deb" | cut -c1-16)"

expect_rc "unknown variant fails" 2 ./build.sh -C "$T_DIR/cache" preflight no-such-series
expect_in "unknown variant is named" "$T_OUT" "unknown series 'no-such-series'"
expect_rc "build.sh list-variants" 0 ./build.sh list-variants
expect_in "list-variants shows calibration patches" "$T_OUT" "mm: turn the calibration fault delay on"
expect_in "list-variants unfolds a folded Subject" "$T_OUT" "[PATCH 2/5] mm: memcontrol: make the stats update batch a boot parameter"

# The boot words a cell gives its kernel (they once vanished: IFS=+ around
# the cell's read kept it from finding kernel_cmdline).
ka=$(KREPRO_ROOT=$PWD sh -c '. lib/shared/common.sh; . lib/shared/cells.sh; kernel_args "suite=will-it-scale kernel_cmdline=fault_delay_ns=0+fault_work_loops=12 variants=calibration"')
assert "kernel_args gives the cell's boot words ('$ka')" test "$ka" = " fault_delay_ns=0 fault_work_loops=12"

rm -rf "$T_DIR"
t_summary
exit $T_FAILED
