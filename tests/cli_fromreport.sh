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
rm -rf "$T_DIR"
t_summary
