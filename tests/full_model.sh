#!/bin/sh
# The memory model (docs/MEMORY-MODEL.md): the kit's QEMU plugin built for
# the installed QEMU, the kit's microbenchmarks (suites/membench) validating
# its caches, NUMA and coherence, its counters repeating byte for byte
# beside CPU hogs, the benchmark's own results unchanged by it, a change
# that costs no instructions but moves a cache line (patches/contended)
# called a regression in model time only (and an A/A called nothing), the
# memcg series' stats flush in coherence transfers and its profile rows,
# NUMA balancing's benefit in autonuma-benchmark's numa01 (seed 003's
# story), UnixBench's and specjbb's model rows, and the 4-node 8-vCPU
# board.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
metric() { # run dir, metric -> its value in stats.json
	sed -n "s/.*\"$2\": \\([-0-9.e+]*\\).*/\\1/p" "$1/stats.json"
}
# ratio A B: A / B, 4 decimals (0 when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", (b + 0 == 0) ? 0 : a / b }'; }
# shellcheck disable=SC2317 # called through assert
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
# shellcheck disable=SC2317 # called through assert
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
run_of() { # test name -> its run 1 under R (the model's machine)
	find "$R" -type d -path "*test=$1/qemu-2node.exact.model/*" -name 1 | head -n 1
}

# --- the plugin, and the refusals -------------------------------------------
expect_rc "build.sh model-plugin: the plugin for the installed QEMU" 0 ./build.sh model-plugin
expect_in "... built against the pinned QEMU source's header" "$T_OUT" "out/qemu-plugin/krepro-model.so"

# --- validation: the kit's own microbenchmarks ------------------------------
cat >"$T_DIR/val.yaml" <<'M'
suite: membench
variants: base
runs: 1
clock: exact
board: qemu-2node
memory_model: on
---
test: chase
size: [16K, 64M]
---
test: [numa-local, numa-remote]
size: 64M
---
test: [counters-shared, counters-padded]
M
expect_rc "membench with the model: six cells, two guests at once" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/val.yaml"
C16=$(find "$R" -type d -path '*size=16K-test=chase/qemu-2node.exact.model/*' -name 1 | head -n 1)
C64=$(find "$R" -type d -path '*size=64M-test=chase/qemu-2node.exact.model/*' -name 1 | head -n 1)
acc16=$(awk -v a="$(metric "$C16" model-stat.loads)" -v b="$(metric "$C16" model-stat.stores)" 'BEGIN { print a + b }')
l1=$(ratio "$(metric "$C16" model-stat.l1d-misses)" "$acc16")
llc=$(ratio "$(metric "$C64" model-stat.cache-misses)" "$(metric "$C64" model-stat.cache-references)")
echo "chase 16K: L1d miss ratio $l1; chase 64M: LLC miss ratio $llc"
assert "model: a report in the run, one window" test "$(metric "$C16" model-stat.windows)" = 1
assert "model.conf records the plugin and the board's layout" grep -q '^arguments=l1d=32K/8,.*nodes=.*cpunode=0+1' "$C16/model.conf"
assert "chase inside 16 KiB: L1 miss ratio under 1%" le "$l1" 0.01
assert "chase over 64 MiB: LLC miss ratio over 90%" ge "$llc" 0.9
for t in numa-local numa-remote; do
	r=$(run_of "$t")
	# node-loads and node-stores are local only, the misses remote (issue 52)
	remote=$(ratio "$(awk -v a="$(metric "$r" model-stat.node-load-misses)" -v b="$(metric "$r" model-stat.node-store-misses)" 'BEGIN { print a + b }')" \
		"$(awk -v a="$(metric "$r" model-stat.node-loads)" -v b="$(metric "$r" model-stat.node-stores)" -v c="$(metric "$r" model-stat.node-load-misses)" -v d="$(metric "$r" model-stat.node-store-misses)" 'BEGIN { print a + b + c + d }')")
	echo "$t: remote share of DRAM accesses $remote"
	eval "remote_$(echo "$t" | tr - _)=\$remote"
done
# shellcheck disable=SC2154 # set by the eval above
assert "memory bound to the other node: over 99% of DRAM accesses remote" ge "$remote_numa_remote" 0.99
# shellcheck disable=SC2154
assert "bound to the local node: under 1% remote" le "$remote_numa_local" 0.01
for t in counters-shared counters-padded; do
	r=$(run_of "$t")
	eval "coh_$(echo "$t" | tr - _)=$(ratio "$(metric "$r" model-stat.coherence-transfers)" "$(metric "$r" membench.ops)")"
done
# shellcheck disable=SC2154
echo "coherence transfers an increment: one line $coh_counters_shared, padded $coh_counters_padded"
# The issue asks 0.9.  With a buffer of 1M accesses image 77058cb7 read
# 0.8511 (merges forced: one vCPU ran ahead of the other by more than the
# buffer); at 4M, the default, 0.988 with no merge (docs/MEMORY-MODEL.md,
# "Concurrency").
# shellcheck disable=SC2154
assert "two tasks' counters in one line: at least 0.9 transfers an increment" ge "$coh_counters_shared" 0.9
assert "... with no forced merge" test "$(metric "$(run_of counters-shared)" model-stat.forced-merges)" = 0
# shellcheck disable=SC2154
assert "the same counters padded to separate lines: at most 0.01" le "$coh_counters_padded" 0.01
assert "a model throughput beside the headline" test -n "$(metric "$C16" model.membench.ops_per_sec)"

# --- determinism, and nothing changed for the benchmark ---------------------
S=$(run_of counters-shared)
HOGS=
for _ in 1 2 3; do
	sh -c 'while :; do :; done' &
	HOGS="$HOGS $!"
done
printf 'suite: membench\nvariants: base\nruns: 1\nclock: exact\nboard: qemu-2node\nmemory_model: on\ntest: counters-shared\n' >"$T_DIR/again.yaml"
# Booted again with KREPRO_MODEL_STAGE=check: QEMU is asked for every
# access's physical address beside the translation record (xlat.h), and
# the plugin stops at the first disagreement; the report must still be
# the first boot's, byte for byte.
expect_rc "counters-shared booted again beside CPU hogs, every address checked against QEMU's" 0 \
	env KREPRO_MODEL_STAGE=check ./run-matrix.sh --rerun -o "$R" "$T_DIR/again.yaml"
# shellcheck disable=SC2086 # a list of pids
kill $HOGS
S1=$(find "$(dirname "$S")" -maxdepth 1 -type d -name '1.replaced-*' | head -n 1)
assert "the model's report repeats byte for byte" cmp "$S1/memory-model" "$S/memory-model"
assert "and so does stats.json" cmp "$S1/stats.json" "$S/stats.json"
printf 'suite: membench\nvariants: base\nruns: 1\nclock: exact\nboard: qemu-2node\ntest: counters-shared\n' >"$T_DIR/plain.yaml"
expect_rc "the same cell without the model" 0 ./run-matrix.sh -o "$R" "$T_DIR/plain.yaml"
P=$(find "$R" -type d -path '*test=counters-shared/qemu-2node.exact/*' -name 1 | head -n 1)
assert "plain exact results live apart (<board>.exact, not .exact.model)" test -n "$P"
assert "the benchmark's output is identical with and without the model" cmp "$P/membench" "$S/membench"
assert "a plain exact run has no model metrics" sh -c "! grep -q model-stat '$P/stats.json'"

# --- instructions and memory disagree: the contended series -----------------
# fault_shared_count counts page faults in one shared counter: the same
# instructions, a cache line bounced between the two tasks.  The memcg
# series (stats folded every 4 updates, flushed by the faulting task) in
# the same boots: the tasks run in a memory cgroup (memcg: on) on every
# side.
cat >"$T_DIR/cont.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 2
runtime: 10s
variants: [base, contended, memcg]
board: qemu-2node
clock: exact
seeds: 1-3
memory_model: on
memcg: on
M
expect_rc "base vs contended and memcg, 3 seeds a side, with the model" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/cont.yaml"
cp "$T_OUT" "$T_DIR/cont.out"
sed -n '/^summary (contended vs base)/,/^$/p' "$T_DIR/cont.out" >"$T_DIR/cont.summary"
cat "$T_DIR/cont.summary"
expect_in "exact mode's own headline: no regression called" "$T_DIR/cont.summary" "will-it-scale.per_process_ops: "
assert "... (no significant change, or an improvement)" sh -c "! grep '^will-it-scale.per_process_ops: ' '$T_DIR/cont.summary' | grep -q regression"
expect_in "... and the summary says the plain and model rows disagree" "$T_DIR/cont.summary" "plain and model disagree on will-it-scale.per_process_ops: the plain row says no significant change"
expect_in "the model's throughput in the same report: a regression, with seeds and a floor" "$T_DIR/cont.summary" "model.will-it-scale.per_process_ops: -"
assert "... called a regression" sh -c "grep '^model.will-it-scale.per_process_ops: ' '$T_DIR/cont.summary' | grep -q 'floor.*: regression'"
expect_in "the coherence transfers show in the table" "$T_DIR/cont.out" "model-stat.coherence-transfers"
CELL=$(find "$R" -type d -path '*/memcg=on-process-2-10s-page_fault3/qemu-2node.exact.model/*' -name base | head -n 1)
CELL=$(dirname "$CELL")
for v in base contended memcg; do
	assert "$v's model profile is symbolised with its own System.map" grep -q '^ksyms_sha256=' "$CELL/$v/1/model.conf"
done
# User functions (tools/qemu-plugin/uprogs.h): the guest's programs, with
# their symbols, name the benchmark's own loop apart from the monitor's
# code at the same addresses.
assert "the profile names the benchmark's user function (will-it-scale:pf_loop)" \
	grep -q '"model-profile.cache-misses.will-it-scale:pf_loop": ' "$CELL/base/1/stats.json"
# memcg: the flush touches every CPU's counters; the table's columns are
# base, contended, memcg, and a profile row one side lacks reads 0 there.
expect_rc "compare memcg against base alone" 0 ./run-matrix.sh compare "$CELL/base" "$CELL/memcg"
cp "$T_OUT" "$T_DIR/memcg.out"
sed -n '/^summary/,/^$/p' "$T_DIR/memcg.out"
# change FILE METRIC: the metric's %change (or points) in a compare table
change() {
	awk -v m="$2" '$NF == m { for (i = 2; i < NF; i++) if ($i ~ /^[-+][0-9.]+%?$/) { sub(/%$/, "", $i); print $i; exit } }' "$1"
}
coh=$(change "$T_DIR/memcg.out" model-stat.coherence-transfers)
rs=$(change "$T_DIR/memcg.out" model-profile.coherence-transfers.mem_cgroup_css_rstat_flush)
echo "memcg: model-stat.coherence-transfers ${coh:-?}%, mem_cgroup_css_rstat_flush's share ${rs:-?} points"
assert "memcg: at least ten times the coherence transfers" ge "${coh:-0}" 900
assert "memcg: the stats flush is a profile row, its share of the transfers up at least 5 points" ge "${rs:-0}" 5
assert "memcg: the model throughput is called a regression" \
	grep -q '^model.will-it-scale.per_process_ops: -.*: regression$' "$T_DIR/memcg.out"
# Seed 002's node rows (issue 52): page_fault3's node-store-misses
# +398.2% and node-load-misses +18.1% in 0-day's table; the model counts
# an RFO or a load another node's cache supplies as perf's Haswell
# encoding does.  A row in the table is a significant change.
nsm=$(change "$T_DIR/memcg.out" model-stat.node-store-misses)
nlm=$(change "$T_DIR/memcg.out" model-stat.node-load-misses)
echo "memcg: model-stat.node-store-misses ${nsm:-?}%, node-load-misses ${nlm:-?}% (seed 002: +398.2%, +18.1%)"
assert "memcg: node-store-misses up, significant, as in seed 002" ge "${nsm:-0}" 50
assert "memcg: node-load-misses up, significant, as in seed 002" ge "${nlm:-0}" 10
awk '$NF ~ /^model-stat\./ { print $NF }' "$T_DIR/memcg.out" >"$T_DIR/memcg.rows"
assert "memcg: the model-stat rows in 0-day's order (by name, as seed 002's perf-stat rows)" env LC_ALL=C sort -c "$T_DIR/memcg.rows"

# A/A: the contended run's base against base with an unused boot word (the
# same kernel, inputs perturbed, the same seeds): neither row may call a
# change.
cat >"$T_DIR/aa.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 2
runtime: 10s
variants: [base]
board: qemu-2node
clock: exact
seeds: 1-3
memory_model: on
memcg: on
kernel_cmdline: krepro_aa=4444
M
# These three boots check every access's physical address against QEMU's
# (KREPRO_MODEL_STAGE=check: a boot whose translation record disagrees
# stops): page_fault3 maps and unmaps all the time.
expect_rc "A/A with the model: base with an unused boot word, 3 seeds, every address checked" 0 \
	env KREPRO_MODEL_STAGE=check ./run-matrix.sh -j 2 -o "$R" "$T_DIR/aa.yaml"
AA2=$(find "$R" -type d -path '*krepro_aa=4444-*/qemu-2node.exact.model/*' -name base | head -n 1)
expect_rc "compare the two" 0 ./run-matrix.sh compare "$CELL/base" "$AA2"
sed -n '/^summary/,/^$/p' "$T_OUT" >"$T_DIR/aa.summary"
assert "A/A: no node row of the model moves" sh -c "! grep -q 'model-stat\.node-' '$T_OUT'"
cat "$T_DIR/aa.summary"
expect_in "A/A: the model's row is there" "$T_DIR/aa.summary" "model.will-it-scale.per_process_ops: "
assert "A/A: no regression or improvement called on either row" sh -c "! grep -q 'regression\|improvement' '$T_DIR/aa.summary'"

# --- NUMA balancing's benefit: seed 003's story ------------------------------
# autonuma-benchmark numa01 with NUMA balancing off and on: exact mode
# counts the balancer's scans as instructions, so the plain row can only
# lose; the model's row sees the memory moved to the node that uses it
# (issue 51).  A run that ends before the balancer's first scan is named.
cat >"$T_DIR/numa.yaml" <<'M'
suite: autonuma-benchmark
variants: base
clock: exact
board: qemu-2node
memory_model: on
test: numa01
---
size: 64M
loops: 150
seeds: 1-3
numa_balancing: [0, 1]
---
size: 32M
loops: 20
runs: 1
numa_balancing: 1
M
expect_rc "numa01, NUMA balancing off and on, 3 seeds each, with the model; and one run too short" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/numa.yaml"
N0=$(find "$R" -type d -path '*/150-numa_balancing=0-*/qemu-2node.exact.model/*' -name base | head -n 1)
N1=$(find "$R" -type d -path '*/150-numa_balancing=1-*/qemu-2node.exact.model/*' -name base | head -n 1)
NS=$(find "$R" -type d -path '*/20-numa_balancing=1-*/qemu-2node.exact.model/*' -name base | head -n 1)
expect_rc "compare: balancing on against off" 0 ./run-matrix.sh compare "$N0" "$N1"
cp "$T_OUT" "$T_DIR/numa.out"
sed -n '/^summary/,/^$/p' "$T_DIR/numa.out" >"$T_DIR/numa.summary"
cat "$T_DIR/numa.summary"
# numa01 writes its memory (memset): the stores' DRAM accesses tell where
# it lives.  share RUN KIND: the remote part of KIND's (load, store).
share() {
	ratio "$(metric "$1" "model-stat.node-$2-misses")" "$(awk -v a="$(metric "$1" "model-stat.node-${2}s")" -v b="$(metric "$1" "model-stat.node-$2-misses")" 'BEGIN { print a + b }')"
}
echo "remote share of DRAM stores: balancing off $(share "$N0/1" store), on $(share "$N1/1" store); pages migrated $(metric "$N1/1" proc-vmstat.numa_pages_migrated)"
assert "with NUMA balancing pages move" ge "$(metric "$N1/1" proc-vmstat.numa_pages_migrated)" 1
assert "... and the remote share of the stores falls by more than half" awk -v a="$(share "$N1/1" store)" -v b="$(share "$N0/1" store)" 'BEGIN { exit !(a < b / 2) }'
assert "the model's numa01 time falls, called with seeds an improvement" \
	sh -c "grep '^model.autonuma-benchmark.numa01.seconds: -' '$T_DIR/numa.summary' | grep -q 'seeds.*: improvement$'"
assert "the plain row does not call it an improvement" \
	sh -c "grep '^autonuma-benchmark.numa01.seconds: ' '$T_DIR/numa.summary' | grep -qv ': improvement$'"
expect_in "one line says the plain and model rows disagree" "$T_DIR/numa.summary" \
	"plain and model disagree on autonuma-benchmark.numa01.seconds: the plain row says "
assert "no run named too short for the balancer" sh -c "! grep -q 'BALANCER IDLE' '$T_DIR/numa.out'"
expect_rc "compare: the 0.75 s run against balancing off" 0 ./run-matrix.sh compare "$N0" "$NS"
expect_in "the run that ended before the balancer's first scan is named" "$T_OUT" \
	"BALANCER IDLE: runs 1 of base had NUMA balancing on, but no page was scanned in the window"

# --- every suite's headline in model time: UnixBench and specjbb ------------
printf 'suite: unixbench\ntest: pipe\nruntime: 1s\nsamples: 1\nvariants: base\nruns: 1\nclock: exact\nboard: qemu-2node\nmemory_model: on\n' >"$T_DIR/ub.yaml"
printf 'suite: specjbb\nwarehouses: 1\nrampup: 1\nruntime: 2s\nvariants: base\nruns: 1\nclock: exact\nboard: qemu-2node\nmemory_model: on\n' >"$T_DIR/jbb.yaml"
# the two boots at once (their own results folders: one run-matrix a folder)
./run-matrix.sh -o "$R.ub" "$T_DIR/ub.yaml" >"$T_DIR/ub.log" 2>&1 &
ub_pid=$!
./run-matrix.sh -o "$R.jbb" "$T_DIR/jbb.yaml" >"$T_DIR/jbb.log" 2>&1 &
jbb_pid=$!
wait "$ub_pid"
ub_rc=$?
wait "$jbb_pid"
jbb_rc=$?
assert "ub: one run with the model, beside jbb's (log $T_DIR/ub.log)" test "$ub_rc" = 0
assert "jbb: one run with the model (log $T_DIR/jbb.log)" test "$jbb_rc" = 0
for s in ub jbb; do
	d=$(find "$R.$s" -type d -path "*/qemu-2node.exact.model/*" -name base | head -n 1)
	expect_rc "$s: compare" 0 ./run-matrix.sh compare "$d" "$d"
	h=$([ $s = ub ] && echo unixbench.index || echo specjbb.bops)
	expect_in "$s: the summary prints $h" "$T_OUT" "$h: "
	expect_in "$s: ... and its model row, model.$h" "$T_OUT" "model.$h: "
done

# --- the 4-node, 8-vCPU board -------------------------------------------------
printf 'suite: membench\nvariants: base\nruns: 1\nboard: qemu-4node8\ntest: numa-remote\nsize: 64M\n' >"$T_DIR/four.yaml"
t0=$(date +%s)
expect_rc "qemu-4node8 (memory model on by its board): numa-remote" 0 ./run-matrix.sh -o "$R" "$T_DIR/four.yaml"
echo "qemu-4node8 with the model: one boot in $(($(date +%s) - t0)) s"
F=$(find "$R" -type d -path '*/qemu-4node8.exact.model/*' -name 1 | head -n 1)
assert "... its runs are the model's machine" test -n "$F"
assert "... eight vCPUs in the report" grep -q '^config cpus 8$' "$F/memory-model"
assert "... memory of the last node: over 99% remote from node 0" ge "$(share "$F" load)" 0.99

t_clean
t_summary
exit $T_FAILED
