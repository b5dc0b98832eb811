#!/bin/sh
# Exact mode (docs/EXACT.md): the same cell booted three times, two at once
# (-j 2), the third alone while the host is busy, gives identical results;
# the instruction-count calibration knob is measured as its model predicts;
# one run a side detects a 1% change; exact and real results are never
# compared.  (Bisect in exact mode, one boot a step: full_bisect.)
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
ops() { # run dir -> will-it-scale.per_process_ops
	sed -n 's/.*"will-it-scale.per_process_ops": \([0-9.]*\).*/\1/p' "$1/stats.json"
}

# --- determinism: seeds 1 and 2 at once, then seed 1 again beside hogs -----
# Each exact run is one layout seed (run N has seed N): two seeds are two
# layouts, and the same seed booted again, alone and under load, repeats
# every digit (docs/EXACT.md).
cat >"$T_DIR/aa.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: 5s
variants: [base]
runs: 2
clock: exact
monitors: meminfo+proc-vmstat+vmstat+mpstat+softirqs+interrupts+slabinfo+uptime
M
expect_rc "exact: seeds 1 and 2, two boots at once (-j 2)" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/aa.yaml"
V=$(find "$R" -type d -path '*/qemu-2node.exact/*' -name base | head -n 1)
assert "job.conf records each run's seed" sh -c "grep -qx seed=1 '$V/1/job.conf' && grep -qx seed=2 '$V/2/job.conf'"
assert "the seed is on the kernel command line" grep -q 'krepro\.seed=2' "$V/2/qemu.cmd"
assert "two seeds are two layouts: other digits" sh -c "! cmp -s '$V/1/stats.json' '$V/2/stats.json'"
# The pinned root (docs/REPRODUCIBLE.md): the images were built in it and
# the exact boots ran its QEMU; the host's tools (Debian 12, the lock's
# versions) build the same initramfs.
LOCKID=$(sha256sum <root/bookworm.lock | cut -d' ' -f1)
expect_in "the run's host.conf: its images built in the pinned root" "$V/1/host.conf" "tools=root/bookworm.lock"
expect_in "... the lock's sha256" "$V/1/host.conf" "tools_sha256=$LOCKID"
expect_in "the run's host.conf: it booted the root's QEMU" "$V/1/host.conf" "qemu=root:$(printf '%.16s' "$LOCKID")"
expect_in "... its version" "$V/1/host.conf" "qemu_debian=1:7.2+dfsg-7+deb12u"
expect_in "the initramfs's manifest names the lock" out/initramfs.manifest "tools root/bookworm.lock sha256:$LOCKID"
assert "the kernel's manifest names the lock" grep -q "\"tools\": \"root/bookworm.lock sha256:$LOCKID\"" out/kernels/base/manifest.json
assert "qemu.cmd: the root's own loader (not usr/lib64's link to the host's)" grep -q "/roots/$(printf '%.16s' "$LOCKID")/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --inhibit-cache " "$V/1/qemu.cmd"
assert "qemu.cmd: the root's QEMU, its modules" grep -q "QEMU_MODULE_DIR=.*/roots/$(printf '%.16s' "$LOCKID")/usr/lib/x86_64-linux-gnu/qemu " "$V/1/qemu.cmd"
expect_rc "KREPRO_BUILD_ROOT=host: the initramfs with the host's tools" 0 env KREPRO_BUILD_ROOT=host ./build.sh -O "$T_DIR/hostout" initramfs
assert "... the same bytes as the root's" cmp out/initramfs.cpio.gz "$T_DIR/hostout/initramfs.cpio.gz"
# issue 50 item 5: every guest program and its data fit the budget
assert "the initramfs is under 2.5 MB ($(wc -c <out/initramfs.cpio.gz) bytes)" sh -c "[ \$(wc -c <out/initramfs.cpio.gz) -lt 2500000 ]"
HOGS=
for _ in 1 2 3; do
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
done
sed 's/^runs: 2/runs: 1/' "$T_DIR/aa.yaml" >"$T_DIR/aa1.yaml"
expect_rc "seed 1 booted again, alone (-j 1), while the host is busy" 0 ./run-matrix.sh --rerun -j 1 -o "$R" "$T_DIR/aa1.yaml"
# shellcheck disable=SC2086 # a list of pids
kill $HOGS
V1=$(find "$V" -maxdepth 1 -type d -name '1.replaced-*' | head -n 1)
echo "exact per_process_ops: seed 1 $(ops "$V1") and again under load $(ops "$V/1"), seed 2 $(ops "$V/2")"
assert "exact: a benchmark result" test -n "$(ops "$V/1")"
assert "seed 1 again, alone and under load: identical stats.json" cmp "$V1/stats.json" "$V/1/stats.json"
assert "seed 1 again: identical kmsg timestamps" cmp "$V1/kmsg" "$V/1/kmsg"
assert "seed 1 again: not marked NOT-DETERMINISTIC" test ! -e "$V/1/NOT-DETERMINISTIC"
assert "each run records the images it booted" grep -q '^kernel [0-9a-f]\{64\}$' "$V/1/images"
# The run table (docs/ARCHITECTURE.md): kept in the results, one file a
# matrix run; its job and forms columns are what job.conf and host.conf got.
P=$(find "$R/plans" -name '*-aa.tsv' | head -n 1)
assert "the run table is kept in the results, a file a matrix run" test "$(find "$R/plans" -name '*.tsv' | wc -l)" = 2
assert "... its header names the columns" sh -c "head -n 1 '$P' | tr '\t' ' ' | grep -qx 'run cell state variant board backend clock seed model runtime timeout result job forms words'"
assert "... a row a run" test "$(($(wc -l <"$P") - 1))" = 2
# shellcheck disable=SC2016 # awk's
assert "... job.conf is the row's job column, then clock, seed and initramfs (not the variant)" awk -F '\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } {
	n = split($c["job"], w, " "); f = $c["result"] "/job.conf"; i = 0
	while ((getline l <f) > 0) if (++i <= n && l != w[i]) bad = 1
	close(f)
	if (i != n + 3) bad = 1
} END { exit bad + (NR < 3) }' "$P"
# shellcheck disable=SC2016 # awk's
assert "... host.conf's matrix forms are the row's forms" awk -F '\t' 'NR == 1 { for (k = 1; k <= NF; k++) c[$k] = k; next } {
	n = split($c["forms"], w, " "); f = $c["result"] "/host.conf"; i = 0
	while ((getline l <f) > 0) if (l ~ /^matrix\./ && l != w[++i]) bad = 1
	close(f)
	if (i != n) bad = 1
} END { exit bad + (NR < 3) }' "$P"
# A run that does not repeat its digits is named: run 2's kept result is
# forged, then run 2 is booted again with its seed.
sed 's/"will-it-scale.per_process_ops": [0-9.]*/"will-it-scale.per_process_ops": 1/' \
	"$V/2/stats.json" >"$T_DIR/forged.json"
cp "$T_DIR/forged.json" "$V/2/stats.json"
expect_rc "seed 2 booted again beside a forged result" 0 ./run-matrix.sh --rerun -j 2 -o "$R" "$T_DIR/aa.yaml"
expect_in "run-matrix says the run did not repeat its digits" "$T_OUT" "NOT DETERMINISTIC: "
assert "the run is marked" test -s "$V/2/NOT-DETERMINISTIC"
expect_rc "compare after the forged repeat" 0 ./run-matrix.sh compare "$V" "$V"
expect_in "the report names the run" "$T_OUT" "NOT DETERMINISTIC: base run 2 (seed 2) gave other digits"
# A kept run booted with another initramfs (the kit updated since) is
# another image's numbers: the plan stops before a boot, naming it.
cp "$V/1/images" "$T_DIR/images.kept"
sed 's/^initramfs .*/initramfs 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/' \
	"$T_DIR/images.kept" >"$V/1/images"
expect_rc "a kept run of another initramfs stops the plan" 2 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/aa.yaml"
expect_in "... naming the run and both images" "$T_OUT" "base/1 was booted with another initramfs (sha256 0123456789abcdef, this session's $(sed -n 's/^initramfs //p' "$T_DIR/images.kept" | cut -c1-16))"
expect_in "... and the way out" "$T_OUT" "use another -o, or --rerun to replace its runs"
cp "$T_DIR/images.kept" "$V/1/images"
assert "job.conf records the clock" grep -qx 'clock=exact' "$V/1/job.conf"
assert "QEMU counted instructions" grep -q -- '-icount shift=2,sleep=off,align=off -rtc base=2026-01-01T00:00:00,clock=vm' "$V/1/qemu.cmd"
# lkp-tests' warmup 5 is main.c's WARMUP_ITERATIONS: upstream discards
# samples 0-5, six, before it prints 'measurement'.
assert "warmup 5 discards six samples, as upstream's runner" \
	test "$(sed -n '/^warmup$/,/^measurement$/p' "$V/1/will-it-scale" | grep -c '^min:')" = 6

# --- the instruction-count knob and -j 2 ------------------------------------
# calibration with its delay off; fault_work_loops=N adds 2N instructions
# to every fault (page_fault3: one fault per op).
cat >"$T_DIR/work.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 60s
variants: [calibration]
runs: 1
clock: exact
kernel_cmdline: [fault_delay_ns=0+fault_work_loops=0, fault_delay_ns=0+fault_work_loops=12, fault_delay_ns=0+fault_work_loops=300, fault_delay_ns=0+fault_work_loops=600]
M
expect_rc "work knob sweep with -j 2" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/work.yaml"
wd() { find "$R" -type d -path "*fault_work_loops=$1-*/calibration" | head -n 1; }
o0=$(ops "$(wd 0)/1") o12=$(ops "$(wd 12)/1") o300=$(ops "$(wd 300)/1") o600=$(ops "$(wd 600)/1")
echo "fault_work_loops 0/12/300/600: $o0 $o12 $o300 $o600 per_process_ops"
# Time per op grows linearly with the instructions a fault adds: the cost
# of one loop, measured between 0 and 300, predicts 600's change to 0.1
# points.  Not closer, and not for every N: will-it-scale counts ops in 1 s
# windows, and where the 128 MiB mmap/munmap cycle falls against them
# moves with the cost of an op (deterministic, and smaller the longer the
# run: two initramfs images read 0.051 and 0.110 points off at 20 s, 0.008
# and 0.019 at 40 s, three more 0.053, 0.031, 0.003; 2.7 at 5 s; docs/EXACT.md).
# 60 s: an image with usemem's one number parser read 0.120 off at 40 s,
# 0.048 at 60 s (40 s had halved the error that failed the bound at 20 s).
# With layout seeds (image 11de62ad, each cell seed 1) it reads 0.567
# points off, and 0.350 with seed 2: the seeded layout (the guest's page
# cache, environment and phase, the kernel's pool) bends the line by about
# half a point at 60 s, for a reason not yet found (docs/EXACT.md); the
# bound is 1 point until it is.
pred=$(echo "$o0 $o300 $o600" | awk '{ t0 = 1 / $1; per = (1 / $2 - t0) / 300;
	p = 100 * (1 / (t0 + 600 * per) - $1) / $1; m = 100 * ($3 - $1) / $1;
	printf "predicted %.2f%% measured %.2f%% off %.3f", p, m, (p > m ? p - m : m - p) }')
echo "fault_work_loops=600: $pred points"
assert "fault_work_loops=600 within 1 point of the linear prediction" \
	sh -c "echo '$pred' | awk '{ exit !(\$NF <= 1) }'"
# One loop is 2 instructions: 8 ns of instruction clock at shift=2 (read
# 8.03 to 8.14 ns at 20 s as the initramfs changed, 8.06-8.07 at 40 s:
# the window effect again).
assert "one loop costs 2 instructions (8 ns, within 3%)" \
	sh -c "echo '$o0 $o300' | awk '{ per = (1 / \$2 - 1 / \$1) / 300 * 1e9; exit !(per > 7.76 && per < 8.24) }'"
expect_rc "compare: 12 loops against none, one seed a side" 0 \
	./run-matrix.sh compare "$(wd 0)" "$(wd 12)"
expect_in "one seed a side is a number, not a verdict" "$T_OUT" \
	"(exact, seeds 1 vs 1: one seed is one layout, a number and no verdict"
assert "... and no verdict is printed" sh -c "! grep -q 'regression\|improvement' '$T_OUT'"
expect_in "the report names the clock" "$T_OUT" "; clock exact"

# --- exact and real are never compared --------------------------------------
sed 's/^clock: exact/clock: real/; s/^runs: 2/runs: 1/; /^monitors/d' "$T_DIR/aa.yaml" >"$T_DIR/real.yaml"
expect_rc "the same cell in real mode" 0 ./run-matrix.sh -o "$R" "$T_DIR/real.yaml"
RV=$(find "$R" -type d -path '*/qemu-2node/*' -name base | head -n 1)
expect_rc "compare refuses exact against real" 2 ./run-matrix.sh compare "$V" "$RV"
expect_in "the refusal names both clocks" "$T_OUT" "a comparison never mixes modes"

# --- two runs of one seed that differ are flagged, never averaged ---------
cp -r "$V" "$T_DIR/forged"
rm -f "$T_DIR/forged"/*/NOT-DETERMINISTIC
sed 's/^seed=2$/seed=1/' "$V/2/job.conf" >"$T_DIR/forged/2/job.conf"
expect_rc "compare with two runs of seed 1 that differ" 0 ./run-matrix.sh compare "$T_DIR/forged" "$V"
expect_in "the report names the metric that differs" "$T_OUT" \
	"NOT DETERMINISTIC: forged will-it-scale.per_process_ops differs between exact boots"

# --- a results folder with spaces (issue 12) ---------------------------------
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 3s\nvariants: [base, calibration]\nruns: 1\nclock: exact\n' >"$T_DIR/sp.yaml"
expect_rc "-o with spaces: both runs complete" 0 ./run-matrix.sh -j 2 -o "$T_DIR/dir with space" "$T_DIR/sp.yaml"
assert "-o with spaces: no failed run" sh -c "! find '$T_DIR/dir with space' -name FAILED | grep -q ."
expect_in "-o with spaces: one comparison, not one per word" "$T_DIR/dir with space/report.txt" \
	"runs: base 1, calibration 1; clock exact"

# --- an lkp-tests job file runs as its matrix (issue 13) ----------------------
# lkp-tests' own will-it-scale.yaml shape, no nr_task: its sweep of task
# counts (issue 50 item 3), 1 and 2 on qemu-2node
cat >"$T_DIR/job.yaml" <<'J'
---
:#! jobs/will-it-scale.yaml:
suite: will-it-scale
testcase: will-it-scale
category: benchmark
will-it-scale:
  mode: process
  test:
  - page_fault3
runtime: 3s
runs: 1
clock: exact
:#! hosts/lkp-bdw-ep3d:
testbox: lkp-bdw-ep3d
nr_cpu: 88
cpufreq_governor: performance
commit: 6f12c591f0ac4a63bb7f451c0bbb5f4c81a81147
meminfo:
turbostat:
J
expect_rc "an lkp-tests job file runs" 0 ./run-matrix.sh -o "$T_DIR/lkp" "$T_DIR/job.yaml"
expect_in "cpufreq_governor is reported as not applicable" "$T_OUT" "cpufreq_governor: not applicable under QEMU"
JD=$(find "$T_DIR/lkp" -name job.yaml -path '*/base/1/*' | head -n 1)
assert "the run carries a job.yaml beside job.conf" test -f "$(dirname "$JD")/job.conf"
assert "ignored keys stay out of the result path" sh -c "! echo '$JD' | grep -q 'performance\|lkp-bdw\|6f12c5'"
# shellcheck disable=SC2016 # expanded by the inner sh
expect_rc "its job.yaml reads back as the same job" 0 sh -c './run-matrix.sh --keys >"$1.keys" && out/host/krepro-lkpjob --keys "$1.keys" "$1"' sh "$JD"
for kv in "suite: will-it-scale" "test: page_fault3" "mode: process" "runtime: 3s" "monitors: meminfo"; do
	expect_in "job.yaml round trip: $kv" "$T_OUT" "$kv"
done
assert "... no nr_task: the sweep's job" sh -c "! grep -q nr_task '$T_OUT'"
JR=$(dirname "$JD")
expect_in "the sweep: lkp-tests' counts from the guest's topology" "$JR/will-it-scale.counts" "1 2"
expect_in "... read from sysfs as lscpu would (an L3 a socket, a socket a node under qemu64)" "$JR/will-it-scale.sweep" "cpus=2 nodes=2 threads_per_core=1 l2_instances=2 l3_instances=2"
assert "... one CSV block a count, 5 s measured each (3 s runtime: lkp's floor)" sh -c "[ \$(grep -c '^tasks,processes' '$JR/will-it-scale') = 2 ] && [ \$(sed -n '/^measurement/,/^average/p' '$JR/will-it-scale' | grep -c '^min:') = 10 ]"
for k in 1.processes 2.processes 2.linear scalability per_process_ops; do
	assert "... will-it-scale.$k in stats.json" grep -q "\"will-it-scale.$k\": " "$JR/stats.json"
done
# scalability: 2 tasks' processes over twice the 1-task average, as lkp-tests' parse
assert "... scalability is 2.processes / 2.linear" sh -c "grep -o '\"will-it-scale\.[12a-z.]*\": [0-9.e+-]*' '$JR/stats.json' | tr -d '\"' | awk -F': ' '{ v[\$1] = \$2 } END { exit !(v[\"will-it-scale.2.linear\"] == 2 * v[\"will-it-scale.1.processes\"] && (d = v[\"will-it-scale.scalability\"] - v[\"will-it-scale.2.processes\"] / v[\"will-it-scale.2.linear\"]) < 1e-9 && d > -1e-9) }'"
expect_rc "compare --all shows each count's results" 0 ./run-matrix.sh compare --all "$(dirname "$JR")" "$(dirname "$JR")"
expect_in "... 2.processes among them" "$T_OUT" "will-it-scale.2.processes"

# --- context_switch1 counts both switches of a round trip (issue 14) ---------
# Task and helper share one CPU, so a pipe round trip is two context
# switches, and upstream adds 2 per round trip: the ops are the guest's
# own count of context switches (/proc/stat ctxt as vmstat's system.cs;
# measured 65,192 ops against 64,427 switches a second, whose mean also
# holds the quiet edges of the run).  The kit counted 1: ratio 0.51.
printf 'suite: will-it-scale\ntest: context_switch1\nmode: process\nnr_task: 1\nruntime: 3s\nvariants: [base]\nruns: 1\nclock: exact\nmonitors: vmstat\n' >"$T_DIR/cs1.yaml"
expect_rc "context_switch1 runs" 0 ./run-matrix.sh -o "$T_DIR/cs1" "$T_DIR/cs1.yaml"
CS=$(find "$T_DIR/cs1" -name stats.json -path '*/base/1/*' | head -n 1)
cs_ops=$(grep -o '"will-it-scale.per_process_ops": [0-9.]*' "$CS" | awk '{ print $2 }')
cs_sw=$(grep -o '"vmstat.system.cs": [0-9.]*' "$CS" | awk '{ print $2 }')
echo "context_switch1: per_process_ops $cs_ops, vmstat.system.cs $cs_sw"
assert "context_switch1 counts 2 per round trip (ops / context switches in 0.9 .. 1.2)" \
	sh -c "echo '$cs_ops $cs_sw' | awk '{ r = \$1 / \$2; exit !(\$2 > 0 && r > 0.9 && r < 1.2) }'"

# --- vm-scalability: upstream's bytes, and the file case's filesystem --------
# usemem reports 1/8 of the mapping plus the bytes touched (upstream's
# composite throughput): a task that writes its 32 MiB says 37748736.  The
# file case runs on the filesystem the job names (in the result path), and
# fails saying why when none is named (it used to fall back to tmpfs).
cat >"$T_DIR/vms.yaml" <<'M'
suite: vm-scalability
nr_task: 2
runtime: 5s
variants: base
runs: 1
clock: exact
---
test: anon-w-seq
size: 64M
---
test: mmap-pread-rand-mt
size: 256M
fs: ext2
---
test: mmap-pread-rand-mt
size: 256M
M
expect_rc "vm-scalability cells run (the one without fs fails: exit 1)" 1 ./run-matrix.sh -j 2 -o "$T_DIR/vms" "$T_DIR/vms.yaml"
VS=$T_DIR/vms/vm-scalability
AW=$(find "$VS" -type f -name vm-scalability -path '*anon-w-seq*/base/1/*')
assert "anon-w-seq: both tasks report 1.125 x 32 MiB" sh -c "[ \$(grep -c '^37748736 bytes / ' '$AW') = 2 ]"
assert "size resolved once, on the host: job.conf gets bytes, the path keeps 64M" \
	sh -c "grep -qx 'size=67108864' '$(dirname "$AW")/job.conf' && case '$AW' in */*-64M-*/* | */64M-*/* | */*-64M/*) ;; *) exit 1 ;; esac"
MP=$(find "$VS" -type f -name vm-scalability -path '*/fs=ext2-2-5s-256M-mmap-pread-rand-mt/*/base/1/*')
assert "mmap-pread-rand-mt: fs in the result path" test -n "$MP"
expect_in "mmap-pread-rand-mt: the file is on ext2" "$MP" "# fs: ext2 file_size: 134217728"
assert "mmap-pread-rand-mt: throughput parsed" grep -q '"vm-scalability.throughput"' "$(dirname "$MP")/stats.json"
NF=$(find "$VS" -name FAILED -path '*/2-5s-256M-mmap-pread-rand-mt/*')
assert "mmap-pread-rand-mt without fs: the run failed" test -n "$NF"
expect_in "the failure says why" "$NF" "maps a file: name its filesystem with the job key fs"

# --- UnixBench: Whetstone, pipe-based context switching, Dc ---------------
cat >"$T_DIR/ub.yaml" <<'M'
suite: unixbench
test: whetstone-double+context1+pipe+dc
runtime: 2s
samples: 1
variants: base
runs: 1
clock: exact
M
expect_rc "unixbench whetstone-double+context1+pipe+dc" 0 ./run-matrix.sh -o "$T_DIR/ub" "$T_DIR/ub.yaml"
UB=$(find "$T_DIR/ub" -type f -name unixbench -path '*/base/1/*')
expect_in "Double-Precision Whetstone in MWIPS" "$UB" "Double-Precision Whetstone "
assert "... a positive score" grep -Eq '^Double-Precision Whetstone [1-9][0-9.]* MWIPS \(' "$UB"
assert "Pipe-based Context Switching counts round trips" \
	grep -Eq '^Pipe-based Context Switching [1-9][0-9.]* lps \(' "$UB"
assert "Dc runs busybox dc in the guest" grep -Eq '^Dc: sqrt\(2\) to 99 decimal places [1-9][0-9.]* lpm \(' "$UB"
for k in whetstone-double context1 pipe dc; do
	assert "stats.json has unixbench.$k" grep -q "\"unixbench.$k\"" "$(dirname "$UB")/stats.json"
done
expect_rc "index of the variant" 0 ./run-matrix.sh index "$(dirname "$(dirname "$UB")")"
expect_in "the index has the Whetstone row" "$T_OUT" "Double-Precision Whetstone"
expect_in "... and the context switching row" "$T_OUT" "Pipe-based Context Switching"

# --- hackbench: a suite added as one folder ------------------------------
expect_rc "hackbench's smoke matrix (both modes, pipes and sockets)" 0 \
	./run-matrix.sh --clock exact -j 2 -o "$T_DIR/hb" suites/hackbench/smoke.yaml
for c in pipe-3-20-process-2 pipe-3-20-thread-2 socket-3-20-process-2 socket-3-20-thread-2; do
	HB=$(find "$T_DIR/hb/hackbench/$c" -type f -name hackbench -path '*/base/1/*')
	assert "hackbench $c: 3 rounds" test "$(grep -c '^Time: ' "$HB" 2>/dev/null)" = 3
	assert "hackbench $c: 80 tasks, lkp-tests' lines" \
		grep -q '^Running in .* mode with 2 groups using 20 file descriptors each (== 80 tasks)$' "$HB"
	assert "hackbench $c: throughput in stats.json" \
		grep -Eq '"hackbench.throughput": [1-9]' "$(dirname "$HB")/stats.json"
done

# --- autonuma-benchmark: the twelve builds lkp-tests reports -------------
expect_rc "autonuma-benchmark's smoke matrix (every build, bound ones too)" 0 \
	./run-matrix.sh -j 2 -o "$T_DIR/an" suites/autonuma-benchmark/smoke.yaml
for t in numa01 numa01_HARD_BIND numa01_INVERSE_BIND numa01_THREAD_ALLOC numa01_THREAD_ALLOC_HARD_BIND \
	numa01_THREAD_ALLOC_INVERSE_BIND numa02 numa02_HARD_BIND numa02_INVERSE_BIND numa02_SMT \
	numa02_SMT_HARD_BIND numa02_SMT_INVERSE_BIND; do
	c=$t
	case $t in numa01 | numa01_THREAD_ALLOC | numa02 | numa02_SMT) c=numa02SMT_numa01THREAD_ALLOC ;; esac
	AN=$(find "$T_DIR/an/autonuma-benchmark" -type f -name stats.json -path "*-$c/*/base/1/*")
	assert "autonuma $t: seconds in stats.json (cell $c)" grep -Eq "\"autonuma-benchmark.$t.seconds\": [0-9]*[.]?[0-9]*[1-9]" "$AN"
done
# lkp-tests' minimal_thread_per_numa (start_bench.sh -m): numa01 and numa02
# on 2 CPUs (qemu-2node has one core a package), numa01 a thread a process
AN=$(find "$T_DIR/an/autonuma-benchmark" -type d -path "*-minimal_thread_per_numa/*/base/1" | head -n 1)
expect_in "minimal_thread_per_numa: upstream's line" "$AN/autonuma-benchmark" "Migrate on fault test, use 2 CPUs."
assert "... numa01 and numa02 ran" sh -c "grep -q '\"autonuma-benchmark.numa01.seconds\"' '$AN/stats.json' && grep -q '\"autonuma-benchmark.numa02.seconds\"' '$AN/stats.json'"

# --- lkp-tests' other cases: a sample of what each new path needs ---------
# (all 26 added will-it-scale testcases x both modes and all 39 added
# vm-scalability cases (suites/vm-scalability/cases.yaml) booted once when
# they came: docs/BENCHMARKS.md)
cat >"$T_DIR/lkpcases.yaml" <<'M'
nr_task: 2
clock: exact
variants: base
runs: 1
---
suite: will-it-scale
test: [fallocate1, read3, tlb_flush1, pthread_mutex4]
mode: process
runtime: 3s
warmup: 1s
---
suite: vm-scalability
size: 64M
runtime: 5s
test: [anon-cow-seq-mt, small-allocs, anon-w-seq-hugetlb, shm-xread-rand-mt]
---
suite: vm-scalability
size: 64M
runtime: 5s
fs: ext2
test: [msync, mremap-xread-rand-mt, lru-file-readtwice, truncate-seq, migrate]
M
expect_rc "lkp-tests' added cases boot (a sample)" 0 ./run-matrix.sh -j 2 -o "$T_DIR/lkp" "$T_DIR/lkpcases.yaml"
for t in fallocate1 read3 tlb_flush1 pthread_mutex4; do
	# (the matrix's warmup: 1s is in the path, after the test: -TEST-warmup=1s)
	LC=$(find "$T_DIR/lkp/will-it-scale" -type f -name stats.json -path "*-$t-warmup=1s/*/base/1/*")
	assert "will-it-scale $t: every task counted" grep -Eq '"will-it-scale.per_process_ops": [1-9]' "$LC"
done
for t in anon-cow-seq-mt small-allocs anon-w-seq-hugetlb shm-xread-rand-mt msync mremap-xread-rand-mt \
	lru-file-readtwice truncate-seq; do
	LC=$(find "$T_DIR/lkp/vm-scalability" -type f -name stats.json -path "*-$t/*/base/1/*")
	assert "vm-scalability $t: throughput" grep -Eq '"vm-scalability.throughput": [1-9]' "$LC"
done
LC=$(find "$T_DIR/lkp/vm-scalability" -type f -name stats.json -path "*-migrate/*/base/1/*")
assert "vm-scalability migrate: throughput" grep -Eq '"vm-scalability.throughput": [1-9]' "$LC"
assert "vm-scalability migrate: steps counted (migrate_mbps)" \
	grep -Eq '"vm-scalability.migrate_mbps": [1-9]' "$LC"
assert "vm-scalability migrate: the kernel moved pages (pgmigrate_success)" \
	grep -Eq '"proc-vmstat.pgmigrate_success": [1-9]' "$LC"

t_clean
t_summary
exit $T_FAILED
