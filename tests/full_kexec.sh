#!/bin/sh
# kexec A/B chain: one QEMU boots base, the guest kexecs into calibration,
# then base and calibration again; each step's results land in its own run
# and boots with the cell's kernel_cmdline.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
cat >"$T_DIR/chain.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 6s
variants: [base, calibration]
runs: 2
boot: kexec
kernel_cmdline: fault_delay_ns=2000
M
# No cached KVM verdict: the probe runs inside the chain's collect (its
# initrd once replaced the chain's, and every step was a probe).
mkdir -p "$T_DIR/cache"
for f in cache/*; do [ "$f" = cache/kvm-probe ] || ln -s "$PWD/$f" "$T_DIR/cache/"; done
expect_rc "a 4-step kexec chain runs" 0 env KREPRO_CACHE="$T_DIR/cache" ./run-matrix.sh -o "$R" "$T_DIR/chain.yaml"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	expect_in "... after a KVM probe of its own" "$T_OUT" "(probe boot: "
else
	expect_in "... KVM decided without a probe (no /dev/kvm here)" "$T_OUT" "no probe)"
fi
expect_in "one QEMU for the whole chain" "$T_OUT" "kexec chain of 4 boots in one QEMU"
V=$(ls -d "$R"/will-it-scale/kernel_cmdline=fault_delay_ns=2000-process-1-6s-page_fault3/qemu-2node/krepro-initramfs/qemu-minimal/gcc-*)
n=$(grep -c 'kexec_core: Starting new kernel' "$V/base/1/console-chain.log")
assert "the guest kexeced three times" test "$n" = 3
s=1
for r in 1 2; do
	for v in base calibration; do
		assert "$v run $r (step $s): per_process_ops parsed" grep -q '"will-it-scale.per_process_ops": [1-9]' "$V/$v/$r/stats.json"
		expect_in "$v run $r ran as chain step $s" "$V/$v/$r/cmdline" "krepro.step=$s"
		expect_in "$v run $r (step $s) booted with the cell's kernel_cmdline" "$V/$v/$r/cmdline" "fault_delay_ns=2000"
		expect_in "$v run $r console holds only its step" "$V/$v/$r/console.log" "krepro: chain step $s of 4"
		assert "$v run $r: the guest bound its session to step $s" grep -aq "^files=[0-9]* status=ok step=$s\$" "$V/$v/$r/frames.bin"
		s=$((s + 1))
	done
done
t_clean
t_summary
exit $T_FAILED
