#!/bin/sh
# from-report (issue 28 item 3, issue 27 row 8): whatever it writes passes
# the kit's own --dry-run, or it exits non-zero saying why; parts that
# describe the same test are one part; an email decides the test, never the
# host's settings; quoted-printable with CRLF line ends is read.  Runs over
# every fixture email.  No kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=tests/fixtures/reports

for f in "$R"/*.txt; do
	em=$(basename "$f" .txt)
	expect_rc "from-report $em" 0 ./run-matrix.sh from-report -o "$T_DIR/$em.yaml" "$f"
	expect_rc "... its matrix passes --dry-run" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res-$em" "$T_DIR/$em.yaml"
	for k in variants variant board runs timeout clock boot fault kernel_cmdline monitors interval monitor_ab; do
		if grep -q "^$k:" "$T_DIR/$em.yaml"; then no "$em: host setting '$k' came from the email"; fi
	done
done

# the sentence's parameters: block and the details' header name one test
y=$T_DIR/same-test-2023.yaml
assert "same-test-2023: one part" test "$(grep -c '^---$' "$y")" = 1
expect_in "... the test" "$y" "test: page_fault2"
# crafted: host settings in the parameters: block
y=$T_DIR/host-keys-2024.yaml
expect_in "host-keys-2024: the test's parameters are taken" "$y" "nr_task: 16"
expect_in "... and the host settings named as not taken" "$y" "# not taken from the email (host settings; a report decides the test only): runs, timeout, fault, board, variants, kernel_cmdline, clock, monitors"
# quoted-printable, CRLF line ends, soft breaks inside a value
y=$T_DIR/qp-crlf-2025.yaml
expect_in "qp-crlf-2025: a value broken by a CRLF soft break is joined" "$y" "test: anon-w-seq-mt"
expect_in "... as is the machine" "$y" "(Cooper Lake) with 192G memory"
assert "... one part (the details' header is the same test)" test "$(grep -c '^---$' "$y")" = 1

# an email whose test the kit refuses: non-zero, saying why, nothing written
sed 's/test: page_fault2/test: nosuchtest/; s|/page_fault2/|/nosuchtest/|' "$R/same-test-2023.txt" >"$T_DIR/bad.txt"
expect_rc "an email naming an unknown test: from-report exits non-zero" 2 ./run-matrix.sh from-report -o "$T_DIR/bad.yaml" "$T_DIR/bad.txt"
expect_in "... saying --dry-run refuses it and why" "$T_OUT" "does not pass --dry-run, not written: the matrix:"
expect_in "... naming the test" "$T_OUT" "unknown will-it-scale test 'nosuchtest'"
assert "... and writes nothing" test ! -e "$T_DIR/bad.yaml"
sed 's/testcase: will-it-scale/testcase: netperf/; s|/will-it-scale$|/netperf|' "$R/same-test-2023.txt" >"$T_DIR/np.txt"
expect_rc "an email whose only suite the kit lacks: non-zero" 2 ./run-matrix.sh from-report "$T_DIR/np.txt"
expect_in "... saying so" "$T_OUT" "no test the kit can run: "

# issue 35 row 5: every line of the parameters block is taken or named as
# not taken, on stderr and in the matrix; the block never ends silently at
# an unknown key, a "|" value or a list; a matrix without the suite's
# required parameters is never written.  Crafted from a 2023 email with its
# details (and so the header's parameters) cut off.
sed -n '1,/^Details are/p' "$R/same-test-2023.txt" >"$T_DIR/head.txt"
printf '\tsysctl.vm.swappiness: 10\n\tmode: process\n' >"$T_DIR/ins"
sed "/^	mode: process/{r $T_DIR/ins
d}" "$T_DIR/head.txt" >"$T_DIR/knob.txt"
expect_rc "an unknown key (sysctl.vm.swappiness) in the block: from-report works" 0 \
	./run-matrix.sh from-report -o "$T_DIR/knob.yaml" "$T_DIR/knob.txt"
expect_in "... the key is named as not taken on stderr" "$T_OUT" "not taken: not parameters of the kit: sysctl.vm.swappiness, ignored"
expect_in "... and in the matrix" "$T_DIR/knob.yaml" "# not parameters of the kit: sysctl.vm.swappiness, ignored"
expect_in "... the lines after it are read (test)" "$T_DIR/knob.yaml" "test: page_fault2"
expect_in "... (mode)" "$T_DIR/knob.yaml" "mode: process"
sed 's/^	nr_task: 100%/	nr_task: [1, 50%]/' "$T_DIR/head.txt" >"$T_DIR/list.txt"
expect_rc "a list value in the block: from-report works" 0 \
	./run-matrix.sh from-report -o "$T_DIR/list.yaml" "$T_DIR/list.txt"
expect_in "... the list is an axis" "$T_DIR/list.yaml" "nr_task: [1, 50%]"
expect_in "... the lines after it are read" "$T_DIR/list.yaml" "test: page_fault2"
printf '\tnr_task: 50%%\n\tscript: |\n\t  echo hi\n\t  echo there\nnot a parameter\n' >"$T_DIR/ins"
sed "/^\tnr_task: 100%/{r $T_DIR/ins
d}" "$T_DIR/head.txt" >"$T_DIR/bar.txt"
expect_rc "a '|' value and a line that is no 'key: value' in the block: from-report works" 0 \
	./run-matrix.sh from-report -o "$T_DIR/bar.yaml" "$T_DIR/bar.txt"
expect_in "... the '|' value is named as not taken" "$T_OUT" "not taken: script: | (a multi-line value: the kit takes one line)"
expect_in "... as is the odd line" "$T_OUT" "not taken: not a parameter (not a 'key: value' line)"
expect_in "... both named in the matrix too" "$T_DIR/bar.yaml" "# not taken from the email: script: | (a multi-line value: the kit takes one line)"
expect_in "... the line before them is read" "$T_DIR/bar.yaml" "nr_task: 50%"
expect_in "... and the lines after them" "$T_DIR/bar.yaml" "test: page_fault2"
assert "... its script lines are not read as parameters" test "$(grep -c 'echo' "$T_DIR/bar.yaml")" = 0
sed '/^\ttest: page_fault2/d; /^\tmode: process/d' "$T_DIR/head.txt" >"$T_DIR/notest.txt"
expect_rc "an email without the suite's required parameters: refused" 2 \
	./run-matrix.sh from-report -o "$T_DIR/notest.yaml" "$T_DIR/notest.txt"
expect_in "... naming what is missing (mode is lkp-tests' both when the email has none: lkp unset)" "$T_OUT" "the email's will-it-scale test has no 'test', which suites/will-it-scale/meta requires"
assert "... and writing nothing" test ! -e "$T_DIR/notest.yaml"
# issue 46 row 14: a blank line inside the block does not end it: the
# lines after it are taken or named (runtime, thp_enabled and
# cpufreq_governor were dropped without a word)
# (same-test-2023.txt's head, with the blank line and two lines after it)
expect_rc "a blank line inside the block: from-report works" 0 \
	./run-matrix.sh from-report -o "$T_DIR/blank.yaml" "$R/same-test-blank-2023.txt"
expect_in "... the line after the blank is taken (runtime)" "$T_DIR/blank.yaml" "runtime: 300s"
expect_in "... (thp_enabled, as thp)" "$T_DIR/blank.yaml" "thp: always"
expect_in "... (test)" "$T_DIR/blank.yaml" "test: page_fault2"
expect_in "... and cpufreq_governor is named as not taken" "$T_OUT" "cpufreq_governor: not applicable under QEMU"
assert "... the prose after the block is no parameter" sh -c "! grep -q 'If you fix' '$T_DIR/blank.yaml'"
# a real 0-day email (the seeds): the joined block's description is named
expect_rc "seed 002: from-report works" 0 ./run-matrix.sh from-report /work/shared/seeds/002_1c5d8fddece67fb9.txt
expect_in "... naming test-description as not taken" "$T_OUT" "not taken: test-description (the test's description)"

# row 11: -o EXISTING is refused before the work (the email here would
# fail the work: the refusal must be -o's)
: >"$T_DIR/exists.yaml"
expect_rc "from-report -o EXISTING: refused" 2 ./run-matrix.sh from-report -o "$T_DIR/exists.yaml" "$T_DIR/bad.txt"
expect_in "... before the work, saying so" "$T_OUT" "exists; not overwriting it"
assert "... the file is untouched" test ! -s "$T_DIR/exists.yaml"
rm -rf "$T_DIR"
t_summary
