#!/bin/sh
# 0-day's own files (issue 13): ./run-matrix.sh JOB.yaml reads lkp-tests job
# files with libyaml (nested program maps, block lists, documents; keys that
# do not apply are reported once and never reach the result path), and
# ./run-matrix.sh from-report turns a report email into its matrix.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
F=tests/fixtures/lkp

expect_rc "a 0-day will-it-scale job, dry run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/will-it-scale-page_fault3.yaml"
expect_in "its program map is the cell" "$T_OUT" "cell 1/1: suite=will-it-scale nr_task=50% mode=process test=page_fault3"
expect_in "nr_task 50% of the board's 2 CPUs in the path" "$T_OUT" "will-it-scale/process-50%-test=page_fault3/qemu-2node"
expect_in "cpufreq_governor: not applicable, said once" "$T_OUT" "cpufreq_governor: not applicable under QEMU"
assert "said once" test "$(grep -c 'cpufreq_governor' "$T_OUT")" = 1
expect_in "the machine's memory is not the guest's" "$T_OUT" "memory: describes the test machine"
assert "no ignored key in any path" sh -c "! grep -- '->' '$T_OUT' | grep -q 'performance\|lkp-bdw\|6f12c59'"

expect_rc "a vm-scalability job with a block list" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/vm-scalability-lru-shm.yaml"
expect_in "the list is an axis: two cells" "$T_OUT" "2 cells, 6 runs"
expect_in "transparent_hugepage.thp_enabled is thp" "$T_OUT" "test=lru-file-mmap-read thp=never"

printf 'testcase: will-it-scale\nwill-it-scale:\n  mode: process\n  test: "page fault3"\n' >"$T_DIR/bad.yaml"
expect_rc "a value that cannot be a path is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/bad.yaml"
expect_in "naming file and line" "$T_OUT" "$T_DIR/bad.yaml:4: test: value 'page fault3'"
printf 'testcase: netperf\nnetperf:\n  test: TCP_RR\n' >"$T_DIR/np.yaml"
expect_rc "a suite the kit lacks is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/np.yaml"
expect_in "naming the suites it has (every folder, hackbench too)" "$T_OUT" "np.yaml:1: testcase 'netperf': the kit has no such suite (it has autonuma-benchmark, hackbench, membench, specjbb, unixbench, vm-scalability, will-it-scale)"

# from-report: the four seeds (excerpts; seed 002 as its archive has it, on
# one line) and a quoted, quoted-printable reply to a 2023-style report.
R=tests/fixtures/reports
fr() { # name fixture: from-report, then the matrix must dry-run
	expect_rc "from-report $1" 0 ./run-matrix.sh from-report -o "$T_DIR/$1.yaml" "$R/$2"
	expect_rc "from-report $1: its matrix dry-runs" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/$1.yaml"
	cp "$T_OUT" "$T_DIR/$1.dry"
}
fr seed000 seed000-excerpt.txt
expect_in "seed 000: 2014's 'test case: BOX/TEST/PARAMS'" "$T_DIR/seed000.yaml" "suite: vm-scalability
runtime: 300s
test: mmap-pread-rand-mt"
expect_in "seed 000: the file case on ext2, in xfs's stead" "$T_DIR/seed000.yaml" "# file system: xfs in the report; ext2 stands in (docs/BENCHMARKS.md)
suite: vm-scalability
runtime: 300s
test: mmap-pread-rand-mt
fs: ext2"
expect_in "seed 000: the test box as a comment" "$T_DIR/seed000.yaml" "# test machine: Brickland Ivy Bridge-EX with 512G memory, 120 logical CPUs."
expect_in "seed 000: the commit" "$T_DIR/seed000.yaml" '# commit: 05b8430123359886ef6a4146fba384e30d771b3f ("mm: memcontrol: use root_mem_cgroup res_counter")'
fr seed001 seed001-excerpt.txt
expect_in "seed 001: UnixBench results -> the unixbench suite" "$T_DIR/seed001.yaml" "suite: unixbench"
expect_in "seed 001: naming the tests shown" "$T_DIR/seed001.yaml" "execl, C, shell1, shell8, shell16, fstime-r"
fr seed002 seed002-excerpt.txt
expect_in "seed 002: the report's test with its parameters" "$T_DIR/seed002.yaml" "suite: vm-scalability
runtime: 300s
size: 1T
test: lru-shm"
expect_in "seed 002: its machine" "$T_DIR/seed002.yaml" "# test machine: 128 threads 4 Sockets Haswell-EP with 512G memory"
expect_in "seed 002: one part per 'also has significant impact' row" "$T_DIR/seed002.yaml" "suite: will-it-scale
mode: process
nr_task: 50%
test: page_fault3
# change: will-it-scale.per_process_ops -4.6% regression"
expect_in "seed 002: that row's machine" "$T_DIR/seed002.yaml" "# test machine: 88 threads Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz with 64G memory"
expect_in "seed 002: cpufreq_governor said not applicable" "$T_DIR/seed002.yaml" "# cpufreq_governor: not applicable under QEMU"
assert "seed 002: not in the matrix" sh -c "! grep -q '^cpufreq_governor' '$T_DIR/seed002.yaml'"
expect_in "seed 002: two cells" "$T_DIR/seed002.dry" "2 cells"
fr seed003 seed003-excerpt.txt
expect_in "seed 003: the tenant pivot's axes" "$T_DIR/seed003.yaml" "suite: specjbb
tenants: 3
fit: [nofit, fit]
ksm: [off, on]
thp: [never, always]"
expect_in "seed 003: 8 cells" "$T_DIR/seed003.dry" "8 cells"
fr quoted quoted-2023.txt
expect_in "a quoted QP reply: the main test" "$T_DIR/quoted.yaml" "suite: will-it-scale
nr_task: 100%
mode: thread
test: mmap1"
expect_in "and its table row, soft line breaks joined" "$T_DIR/quoted.yaml" "# test machine: 224 threads 4 sockets Intel(R) Xeon(R) Platinum 8380H with 192G"
expect_in "=3D decoded" "$T_DIR/quoted.yaml" "test: anon-w-seq"
printf 'Hello,\nnothing to see.\n' >"$T_DIR/none.txt"
expect_rc "an email with no test is refused" 2 ./run-matrix.sh from-report "$T_DIR/none.txt"
expect_in "saying what it looks for" "$T_OUT" "no test found"
expect_rc "-o never overwrites" 2 ./run-matrix.sh from-report -o "$T_DIR/seed000.yaml" "$R/seed000-excerpt.txt"

# vm-scalability's lru-file cases: lkp-tests parses GNU dd's summary line;
# the guest's ddread prints it for busybox.  The parser reads the real
# tool's output (coreutils dd on this host) as lkp-tests does: KB/s =
# (bytes >> 10) / seconds, summed over the readers.
mkdir -p "$T_DIR/dd"
truncate -s 3000000 "$T_DIR/dd.file"
{
	echo ./case-lru-file-readonce
	LC_ALL=C dd bs=4k if="$T_DIR/dd.file" of=/dev/null 2>&1
	LC_ALL=C dd bs=4k if="$T_DIR/dd.file" of=/dev/null 2>&1
} >"$T_DIR/dd/vm-scalability"
expect_rc "krepro-stats reads GNU dd's output" 0 out/host/krepro-stats run "$T_DIR/dd"
want=$(awk '/ copied, / { for (i = 1; i <= NF; i++) if ($i == "s,") s += int($1 / 1024) / $(i - 1) }
	END { printf "%.0f", s }' "$T_DIR/dd/vm-scalability")
got=$(sed -n 's/.*"vm-scalability.throughput": \([0-9.]*\).*/\1/p' "$T_DIR/dd/stats.json")
assert "GNU dd: throughput is lkp-tests' sum of (bytes >> 10) / seconds ($got, want $want)" \
	sh -c "[ -n '$got' ] && awk 'BEGIN { exit !($want > 0 && ($got - $want) * ($got - $want) < 1) }'"
expect_in "GNU dd: workload is the bytes / 1024" "$T_DIR/dd/stats.json" '"vm-scalability.workload": 5859.375'

rm -rf "$T_DIR"
t_summary
exit $T_FAILED
