#!/bin/sh
# Test names (issue 28, item 4; issue 36, item 1): each suite's tests are
# one list, the names its guest programs run, read from them at build time
# by its meta's "tests" line (tools/meta-tables.awk) and never typed a
# second time: its `test` parameter's check is "enum:@tests" (or
# "words:@tests"), which the key table, the plan, the guest's knobs.sh and
# docs/KEYS.md read; an unknown test is refused by --dry-run naming the
# closest one.  No kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

./run-matrix.sh --keys >"$T_DIR/keys" || exit 2
# meta_tests SUITE: the suite's list, one name a line, from the key table
meta_tests() {
	awk -v s="$1" '$1 == "test" && $4 == s { sub(/^[a-z]+:/, "", $2); print $2 }' "$T_DIR/keys" | tr '|' '\n'
}
# The build's lists (out/gen/<suite>.tests) are the key table's, and no
# meta types a list of its own.
for s in will-it-scale:60 vm-scalability:48 unixbench:39 autonuma-benchmark:18 membench:6; do
	tn_want=${s#*:} s=${s%:*}
	expect_rc "$s: its meta's test check is the generated list (@tests)" 0 grep -Eq '^param test (enum|words):@tests ' "suites/$s/meta"
	rm -f "$T_DIR/o/gen/$s.tests"
	expect_rc "$s: make writes out/gen/$s.tests" 0 make -s OUT="$T_DIR/o" "$T_DIR/o/gen/$s.tests"
	meta_tests "$s" >"$T_DIR/$s.keys"
	if cmp -s "$T_DIR/$s.keys" "$T_DIR/o/gen/$s.tests"; then ok "$s: the key table's list is the build's, in its order"; else
		no "$s: the key table and out/gen/$s.tests differ:"
		diff "$T_DIR/$s.keys" "$T_DIR/o/gen/$s.tests" | sed 's/^/    | /'
	fi
	assert "$s: $tn_want tests ($(wc -l <"$T_DIR/$s.keys") listed)" test "$(wc -l <"$T_DIR/$s.keys")" -eq "$tn_want"
done
for f in suites/will-it-scale/tests/*.c; do basename "$f" .c; done >"$T_DIR/wis.files"
expect_rc "will-it-scale: one test a file of tests/, in name order" 0 cmp -s "$T_DIR/wis.files" "$T_DIR/o/gen/will-it-scale.tests"
expect_in "unixbench: its sets, UnixBench's names of the file tests, then its tests" "$T_DIR/o/gen/unixbench.tests" "fsdisk-w
dhry2reg"
expect_in "autonuma-benchmark: lkp-tests' sets alone, then each program in each binding" "$T_DIR/o/gen/autonuma-benchmark.tests" "_INVERSE_BIND
numa01
numa01_HARD_BIND"
# A source that gives no names stops the list naming the meta's line.
copy_checkout "$T_DIR/k"
sed -i 's/^tests membench_calc.h:mb_test_names$/tests membench_calc.h:mb_no_such_table/' "$T_DIR/k/suites/membench/meta"
(cd "$T_DIR/k" && ./run-matrix.sh --keys) >"$T_OUT" 2>&1
expect_in "a tests line naming no table is refused at its line" "$T_OUT" \
	"suites/membench/meta:$(grep -n '^tests ' suites/membench/meta | cut -d: -f1): no C table mb_no_such_table[] = { ... } in suites/membench/membench_calc.h"
expect_in "docs/KEYS.md shows the list" docs/KEYS.md "enum:brk1\\|brk2\\|"

# plan time: refused naming the closest, before any build
printf 'suite: will-it-scale\ntest: nosuchtest\nmode: process\n' >"$T_DIR/w.yaml"
expect_rc "will-it-scale test: nosuchtest is refused by --dry-run" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/w.yaml"
expect_in "... naming file, line and the test" "$T_OUT" "w.yaml:2: unknown will-it-scale test 'nosuchtest'"
printf 'suite: will-it-scale\ntest: page_falt3\nmode: process\n' >"$T_DIR/w2.yaml"
expect_rc "a misspelt will-it-scale test is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/w2.yaml"
expect_in "... naming the closest" "$T_OUT" "did you mean 'page_fault3'?"
printf 'suite: vm-scalability\ntest: nosuchcase\n' >"$T_DIR/v.yaml"
expect_rc "vm-scalability test: nosuchcase is refused by --dry-run" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/v.yaml"
expect_in "... naming the test" "$T_OUT" "unknown vm-scalability test 'nosuchcase'"
printf 'suite: vm-scalability\ntest: anon-w-seq-m\n' >"$T_DIR/v2.yaml"
expect_rc "a misspelt vm-scalability case is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/v2.yaml"
expect_in "... naming the closest" "$T_OUT" "did you mean 'anon-w-seq-mt'?"
printf 'suite: unixbench\ntest: pipe+contxt1\n' >"$T_DIR/u.yaml"
expect_rc "an unknown unixbench test in a list is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/u.yaml"
expect_in "... naming it and the closest" "$T_OUT" "unknown unixbench test 'contxt1' in 'pipe+contxt1' (did you mean 'context1'?"
printf 'suite: autonuma-benchmark\ntest: numa01_HARD_BIN\n' >"$T_DIR/a.yaml"
expect_rc "an unknown autonuma-benchmark test is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/a.yaml"
expect_in "... naming the closest" "$T_OUT" "did you mean 'numa01_HARD_BIND'?"
printf 'suite: membench\ntest: counters-share\n' >"$T_DIR/m.yaml"
expect_rc "an unknown membench test is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/m.yaml"
expect_in "... naming file, line and the six tests" "$T_OUT" "m.yaml:2: bad value 'counters-share' for 'test': expected one of chase, numa-local, numa-remote, counters-shared, counters-padded, numa-migrate"
printf 'suite: will-it-scale\ntest: [page_fault1, tlb_flush3, writeseek3]\nmode: thread\nnr_task: 1\n' >"$T_DIR/ok1.yaml"
printf 'suite: unixbench\ntest: [all, files, shell8+pipe]\n' >"$T_DIR/ok2.yaml"
printf 'suite: autonuma-benchmark\ntest: numa02_SMT_INVERSE_BIND\n' >"$T_DIR/ok3.yaml"
printf 'suite: vm-scalability\ntest: [anon-w-seq, msync-mt]\nfs: ext2\n' >"$T_DIR/ok4.yaml"
printf 'suite: membench\ntest: [chase, numa-migrate]\n' >"$T_DIR/ok5.yaml"
for m in ok1 ok2 ok3 ok4 ok5; do
	expect_rc "known tests pass --dry-run ($(sed -n 's/^test: //p' "$T_DIR/$m.yaml"))" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/$m.yaml"
done
# An lkp-tests job is checked the same way.
printf 'testcase: will-it-scale\nnr_task: 1\nwill-it-scale:\n  mode: process\n  test: nosuchtest\n' >"$T_DIR/lkp.yaml"
expect_rc "an lkp-tests job with an unknown test is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/lkp.yaml"
expect_in "... naming it" "$T_OUT" "unknown will-it-scale test 'nosuchtest'"

# the guest reads the same list (the image's key table)
knob() { # CONF-LINES...: knobs.sh's verdict on a job.conf of those lines
	printf '%s\n' "$@" >"$T_DIR/k.conf"
	mkdir -p "$T_DIR/kr"
	# shellcheck disable=SC2016 # expanded by the inner shell
	KREPRO_KNOBCHECK=out/guest/krepro-knobcheck KREPRO_JOB_CONF="$T_DIR/k.conf" KREPRO_KEYS="$T_DIR/keys" KREPRO_CONTRACT=tools/common/contract.h \
		R="$T_DIR/kr" sh -c 'fail() { echo "FAILED: $*"; }; finish() { echo FINISHED; exit 0; }; . initramfs/knobs.sh; echo DONE' >"$T_DIR/k.out" 2>&1
}
knob suite=will-it-scale test=nosuchtest
expect_in "the guest refuses an unknown will-it-scale test" "$T_DIR/k.out" "test must be one of brk1|"
knob suite=unixbench test=pipe+nosuch
expect_in "the guest refuses an unknown unixbench test in a list" "$T_DIR/k.out" "test: 'nosuch' is none of all|files|"
printf 'suite: unixbench\ntest: [fstime, fsbuffer-r+fsdisk-w]\n' >"$T_DIR/ok5.yaml"
expect_rc "UnixBench's own names of the file tests pass --dry-run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/ok5.yaml"
knob suite=unixbench test=pipe+shell8
if grep -q FAILED "$T_DIR/k.out"; then r=1; else r=0; fi
assert "the guest takes known unixbench tests" test "$r" = 0
rm -rf "$T_DIR"
t_summary
