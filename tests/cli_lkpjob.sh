#!/bin/sh
# lkp-tests job files (issue 13): ./run-matrix.sh JOB.yaml reads 0-day's job
# files with libyaml: nested program maps, block lists, documents; keys that
# do not apply are reported once and never reach the result path.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
F=tests/fixtures/lkp

expect_rc "a 0-day will-it-scale job, dry run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/will-it-scale-page_fault3.yaml"
expect_in "its program map is the cell" "$T_OUT" "cell 1/1: suite=will-it-scale nr_task=50% mode=process test=page_fault3"
expect_in "nr_task 50% of the board's 2 CPUs in the path" "$T_OUT" "will-it-scale/process-50%-page_fault3/qemu-2node"
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
printf 'testcase: hackbench\nhackbench:\n  mode: process\n' >"$T_DIR/hb.yaml"
expect_rc "a suite the kit lacks is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/hb.yaml"
expect_in "naming the suites it has" "$T_OUT" "hb.yaml:1: testcase 'hackbench': the kit has no such suite"

rm -rf "$T_DIR"
exit $T_FAILED
