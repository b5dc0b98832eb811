#!/bin/sh
# The lab path end to end: boards/lab-loopback is a VM on this host running
# Debian's sshd and kexec-tools; run-matrix ssh-es in, uploads each variant,
# kexecs into it, gets the results over TCP and the console from the console
# command, and power-cycles the board when a run hangs.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
trap 'lab/loopback-board.sh stop' EXIT
R=$T_DIR/res
expect_rc "the loopback lab board starts" 0 lab/loopback-board.sh start
expect_rc "its sshd answers with the board's own kexec-tools" 0 lab/loopback-board.sh ssh 'kexec --version'
expect_in "kexec-tools is Debian's" "$T_OUT" "kexec-tools"

cat >"$T_DIR/lab.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 8s
variants: [base, calibration]
runs: 1
board: lab-loopback
M
expect_rc "a base/calibration matrix runs on the lab board" 0 ./run-matrix.sh -o "$R" "$T_DIR/lab.yaml"
expect_in "progress names the lab path" "$T_OUT" "(lab: ssh krepro-loopback, kexec)"
V=$(ls -d "$R"/will-it-scale/process-1-8s-page_fault3/lab-loopback/krepro-initramfs/qemu-minimal/gcc-*)
for v in base calibration; do
	assert "$v: per_process_ops parsed from results sent over TCP" grep -q '"will-it-scale.per_process_ops": [1-9]' "$V/$v/1/stats.json"
	expect_in "$v: the job told the guest where to send" "$V/$v/1/job.conf" "result_port=tcp:10.0.2.2:"
	expect_in "$v: the listener got them from the board" "$V/$v/1/listen.log" "bytes from 127.0.0.1"
	expect_in "$v: console captured through the console command: the kexec" "$V/$v/1/console.log" "kexec_core: Starting new kernel"
	expect_in "$v: console shows the guest's own init" "$V/$v/1/console.log" "krepro: results sent (ok)"
	expect_in "$v: the guest ran the variant's kernel" "$V/$v/1/kmsg" "Linux version"
done
expect_in "the calibration kernel's delay knob is on" "$V/calibration/1/cmdline" "nokaslr"
expect_rc "after the runs the board reboots into its own system" 0 lab/loopback-board.sh wait 120
expect_rc "which is the board's system, with sshd" 0 lab/loopback-board.sh ssh 'test -x /usr/sbin/sshd'

cat >"$T_DIR/hang.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 8s
variants: [base]
runs: 1
fault: hang
timeout: 40s
board: lab-loopback
M
expect_rc "a hanging run is recorded failed" 1 ./run-matrix.sh -o "$T_DIR/hres" "$T_DIR/hang.yaml"
H=$(find "$T_DIR/hres" -name FAILED -path '*/lab-loopback/*/base/1/*')
expect_in "the hang is classified" "${H:-/dev/null}" "timeout after 40 s (hang)"
expect_in "the hung board was power-cycled" "$T_OUT" "power-cycling lab-loopback"
expect_rc "after the power cycle the board answers ssh" 0 lab/loopback-board.sh wait 5

sed 's/fault: hang/fault: panic/' "$T_DIR/hang.yaml" >"$T_DIR/panic.yaml"
expect_rc "a panicking run is recorded failed" 1 ./run-matrix.sh -o "$T_DIR/pres" "$T_DIR/panic.yaml"
P=$(find "$T_DIR/pres" -name FAILED -path '*/lab-loopback/*/base/1/*')
expect_in "the panic is classified from the console" "${P:-/dev/null}" "kernel panic: "
expect_rc "the panicked board rebooted into its system by itself" 0 lab/loopback-board.sh wait 5
assert "no power cycle was needed for the panic (panic=-1 reboots)" sh -c "! grep -q power-cycling '$T_OUT'"
t_clean
t_summary
exit $T_FAILED
