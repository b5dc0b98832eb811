#!/bin/sh
# Tenants (seed 003 style: main + noise, fit/nofit, each in its own cgroup)
# and the LAVA path: export job definitions, boot the exported artifacts the
# way LAVA's qemu method does (results on the console), import the log.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
cat >"$T_DIR/ten.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 6s
variants: base
tenants: 3
fit: [fit, nofit]
runs: 1
M
expect_rc "3 tenants x fit/nofit run" 0 ./run-matrix.sh -o "$R" "$T_DIR/ten.yaml"
for f in fit nofit; do
	for t in 1 2 3; do
		d=$(ls -d "$R"/will-it-scale/fit=$f-process-1-6s-tenant=vm_$t-tenants=3-page_fault3/qemu-2node/*/*/*/base/1)
		assert "$f vm_$t: own per_process_ops" grep -q '"will-it-scale.per_process_ops": [1-9]' "$d/stats.json"
		expect_in "$f vm_$t: job.conf names the tenant" "$d/job.conf" "tenant=vm_$t"
		assert "$f vm_$t: system monitors shared" grep -q '"meminfo.MemTotal"' "$d/stats.json"
	done
done
c=$(ls -d "$R"/will-it-scale/fit=fit-process-1-6s-tenant=vm_1-tenants=3-page_fault3/qemu-2node/*/*/*/base/1)
assert "fit: main tenant sized at half of node 0" grep -q 'tenant vm_1: [0-9]*K' "$c/console.log"
# nofit with a workload that really takes its memory: the main tenant gets
# more than node 0 (1 GiB) but what the noise tenants leave, not a global OOM.
printf 'suite: specjbb\nwarehouses: 1\nrampup: 1\nruntime: 4s\ntenants: 3\nfit: nofit\nvariants: base\nruns: 1\n' >"$T_DIR/nofit.yaml"
expect_rc "specjbb nofit beside two noise tenants runs" 0 ./run-matrix.sh -o "$R" "$T_DIR/nofit.yaml"
d=$(ls -d "$R"/specjbb/fit=nofit-*tenant=vm_1-*/qemu-2node/*/*/*/base/1)
assert "nofit vm_1: specjbb.bops" grep -q '"specjbb.bops": [1-9]' "$d/stats.json"
kb=$(sed -n 's/^krepro: tenant vm_1: \([0-9]*\)K.*/\1/p' "$d/console.log")
assert "nofit vm_1 (${kb}K) is larger than node 0 (1 GiB)" test "${kb:-0}" -gt 1048576

# Two guests at once with tenants (exact, -j 2): split_tenants' loop
# counter was the slots' own, so every slot wrote failed.0 and the matrix
# ended "parallel slot 1 stopped before its runs were done", report-less.
printf 'suite: specjbb\nwarehouses: 1\nrampup: 1\nruntime: 2s\ntenants: 3\nvariants: base\nclock: exact\nseeds: 1-2\n' >"$T_DIR/j2.yaml"
expect_rc "tenants, two guests at once (-j 2): the matrix ends well" 0 ./run-matrix.sh -j 2 -o "$T_DIR/j2" "$T_DIR/j2.yaml"
assert "... no slot said to have stopped early" sh -c "! grep -q 'stopped before its runs' '$T_OUT'"
assert "... each tenant's two runs stored" test "$(find "$T_DIR/j2" -name stats.json | wc -l)" = 6

L=$T_DIR/lava
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 6s\nvariants: base\nruns: 1\n' >"$T_DIR/l.yaml"
expect_rc "export LAVA jobs" 0 ./run-matrix.sh -o "$T_DIR/lres" --export-lava "$L" "$T_DIR/l.yaml"
expect_in "a qemu job with kernel and initrd" "$L/001.yaml" "method: qemu"
expect_in "images carry sha256" "$L/001.yaml" "sha256sum: $(sha256sum "$L/artifacts/base.bzImage" | cut -d' ' -f1)"
expect_in "numa options passed" "$L/001.yaml" "-numa node,nodeid=1,memdev=m1,cpus=1"
assert "nothing booted, no results" test ! -e "$T_DIR/lres/will-it-scale"
assert "a qemu job's initrd holds the local job.conf (no result_port)" sh -c "! grep -q result_port '$L/jobs/001.conf'"
expect_in "the export records the images' hashes" "$L/jobs/001.images" "kernel $(sha256sum "$L/artifacts/base.bzImage" | cut -d' ' -f1)"
expect_rc "lab board: kexec job" 0 ./run-matrix.sh -o "$T_DIR/lres" --board lab-brickland3 --export-lava "$T_DIR/lab" "$T_DIR/l.yaml"
expect_in "lab job boots by kexec" "$T_DIR/lab/001.yaml" "method: kexec"
expect_in "a lab job sends its results on the console" "$T_DIR/lab/jobs/001.conf" "result_port=console"
# What LAVA's qemu boot does with the job's images on a device with the
# kit's dictionary (lava/krepro-qemu.jinja2): both serial ports in one
# stream, captured as its log.
timeout 120 qemu-system-x86_64 -machine pc -accel tcg -cpu qemu64 -smp 2,sockets=2,cores=1,threads=1 -m 2G \
	-object memory-backend-ram,id=m0,size=1G -numa node,nodeid=0,memdev=m0,cpus=0 \
	-object memory-backend-ram,id=m1,size=1G -numa node,nodeid=1,memdev=m1,cpus=1 \
	-nodefaults -display none -no-reboot -monitor none \
	-chardev "file,id=con,path=$T_DIR/lava.log,mux=on" -serial chardev:con -serial chardev:con \
	-kernel "$L/artifacts/base.bzImage" -initrd "$L/artifacts/001-initrd.cpio.gz" \
	-append "console=ttyS0,115200 panic=-1 nokaslr" >/dev/null 2>&1
expect_rc "import the LAVA log" 0 ./run-matrix.sh import-lava -o "$T_DIR/lres" "$L" 001 "$T_DIR/lava.log"
d=$(ls -d "$T_DIR"/lres/will-it-scale/process-1-6s-page_fault3/qemu-2node.lava/*/*/*/base/1)
assert "imported run has per_process_ops" grep -q '"will-it-scale.per_process_ops": [1-9]' "$d/stats.json"
expect_rc "importing twice is refused" 2 ./run-matrix.sh import-lava -o "$T_DIR/lres" "$L" 001 "$T_DIR/lava.log"
expect_in "refusal says it is complete" "$T_OUT" "complete already"
expect_rc "import-lava --rerun takes a corrected log" 0 ./run-matrix.sh import-lava -o "$T_DIR/lres" --rerun "$L" 001 "$T_DIR/lava.log"
assert "the replaced run is kept beside it" sh -c "ls -d '$d'.replaced-*"
assert "no shell error in an import" sh -c "! grep -q 'parameter not set' '$T_OUT'"

# --- a real LAVA: Debian's lava-dispatcher boots the exported job ------------
# The device dictionary is what lava-server's qemu template renders from the
# job's context (memory, extra_options, no_kvm); lava-run, its log and its
# rewriting of the console are LAVA's own.
expect_in "the qemu job pins TCG (LAVA's template would add -enable-kvm)" "$L/001.yaml" "no_kvm: true"
expect_in "and the board's CPU model" "$L/001.yaml" "- -accel tcg -cpu qemu64"
mem=$(sed -n 's/^  memory: //p' "$L/001.yaml")
extra=$(sed -n '/^  extra_options:/,/^actions:/s/^  - \(.*\)$/\x27\1\x27/p' "$L/001.yaml" | paste -sd, -)
machine=$(sed -n 's/^  machine: //p' "$L/001.yaml")
sed "s/@MACHINE@/$machine/; s/@MEMORY@/$mem/; s/@EXTRA@/$extra/" tests/fixtures/lava/qemu-device.yaml.in >"$T_DIR/qemu-device.yaml"
expect_rc "lava-run boots the exported qemu job" 0 timeout 600 lava-run --job-id 1 --output-dir "$T_DIR/lava-out" \
	--device "$T_DIR/qemu-device.yaml" "$L/001.yaml"
cp "$T_OUT" "$T_DIR/lava-run.log"
expect_in "LAVA saw the results sent" "$T_DIR/lava-run.log" "krepro: results sent (ok)"
expect_in "QEMU ran with the board's CPU under TCG" "$T_DIR/lava-run.log" "-accel tcg -cpu qemu64"
assert "and without KVM" sh -c "! grep -q -- '-enable-kvm' '$T_DIR/lava-run.log'"
assert "LAVA escaped the guest's quotes (what broke binary frames)" grep -q 'msg.*\\\\\\"' "$T_DIR/lava-run.log"
expect_rc "import-lava reads lava-run's log" 0 ./run-matrix.sh import-lava -o "$T_DIR/lreal" "$L" 001 "$T_DIR/lava-run.log"
d=$(ls -d "$T_DIR"/lreal/will-it-scale/process-1-6s-page_fault3/qemu-2node.lava/*/*/*/base/1)
assert "the LAVA run has per_process_ops" grep -q '"will-it-scale.per_process_ops": [1-9]' "$d/stats.json"
assert "and the guest's kmsg, quotes and all" grep -q '"' "$d/kmsg"
# The same log as the server stores it (output.yaml) and as lavacli prints it.
sed 's/^/- /' "$T_DIR/lava-run.log" >"$T_DIR/output.yaml"
expect_rc "import-lava reads the server's output.yaml" 0 ./run-matrix.sh import-lava -o "$T_DIR/lreal" --rerun "$L" 001 "$T_DIR/output.yaml"
sed -n 's/^{"dt": "\([^".]*\)[^"]*", "lvl": "\(target\|feedback\)", "msg": "\(.*\)"}$/\1 \3/p' "$T_DIR/lava-run.log" >"$T_DIR/lavacli.log"
expect_rc "import-lava reads lavacli's timestamped lines" 0 ./run-matrix.sh import-lava -o "$T_DIR/lreal" --rerun "$L" 001 "$T_DIR/lavacli.log"
# The lab job: a deploy that fetches kernel and initrd, validated by LAVA.
expect_in "the lab job deploys from --lava-url" "$T_DIR/lab/001.yaml" "to: downloads"
expect_rc "lava-run --validate accepts the lab (kexec) job" 0 lava-run --validate --job-id 2 \
	--output-dir "$T_DIR/lava-lab" --device tests/fixtures/lava/x86-device.yaml "$T_DIR/lab/001.yaml"
t_clean
t_summary
exit $T_FAILED
