#!/bin/sh
# Test names (issue 28, item 4): each suite's tests are one list, the check
# of its `test` parameter in suites/<name>/meta, read by the plan, the
# guest's knobs.sh and docs/KEYS.md; it is the list the guest's programs
# and run.sh accept (checked here against their sources); an unknown test
# is refused by --dry-run naming the closest one.  No kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

./run-matrix.sh --keys >"$T_DIR/keys" || exit 2
# meta_tests SUITE: the suite's list, one name a line, from the key table
meta_tests() {
	awk -v s="$1" '$1 == "test" && $4 == s { sub(/^[a-z]+:/, "", $2); print $2 }' "$T_DIR/keys" | tr '|' '\n'
}
# The guest's own tables, read from their sources; will-it-scale's is
# generated from its folder of testcases, one file each.
for f in suites/will-it-scale/tests/*.c; do basename "$f" .c; done >"$T_DIR/wis.src"
# shellcheck disable=SC2016 # a literal $ in the pattern
sed -n '/^\tcase \$vms_test in$/,/^\tesac$/p' suites/vm-scalability/run.sh | sed '1d;$d' |
	awk '/^\t[a-z]/ || c { c = /\\$/; gsub(/[)\\\t ]/, ""); n = split($0, w, "|"); for (i = 1; i <= n; i++) if (w[i] != "") print w[i] }' >"$T_DIR/vms.src"
{
	echo all
	echo files
	awk '/^static const struct ub_test tests\[\] = \{/ { p = 1; next } p && /^\};/ { exit }
		p && /\{"/ { match($0, /"[^"]+"/); print substr($0, RSTART + 1, RLENGTH - 2) }' suites/unixbench/unixbench.c
	# UnixBench's own names of the file tests (the aliases table)
	awk '/^\} aliases\[\] = \{/ { p = 1; next } p && /^\};/ { exit }
		p { while (match($0, /\{"[^"]+"/)) { print substr($0, RSTART + 2, RLENGTH - 3); $0 = substr($0, RSTART + RLENGTH) } }' suites/unixbench/unixbench.c
} >"$T_DIR/ub.src"
awk -F'"' '/an_test_names\[AN_NTESTS\] = / { for (i = 2; i <= NF; i += 2) print $i } /^[ \t]+"numa02_SMT"\};/ { print "numa02_SMT" }' \
	suites/autonuma-benchmark/autonuma_calc.h | sort -u | while IFS= read -r t; do
	for b in '' _HARD_BIND _INVERSE_BIND; do echo "$t$b"; done
done >"$T_DIR/an.src"
# and lkp-tests' sets, a suffix alone (an_set_parse): numa01 and numa02, each also bound
printf '%s\n' _HARD_BIND _INVERSE_BIND >>"$T_DIR/an.src"
awk -F'"' '/mb_test_names\[MB_NTESTS\] = / { p = 1 } p { for (i = 2; i <= NF; i += 2) print $i } p && /;$/ { exit }' \
	suites/membench/membench_calc.h >"$T_DIR/mb.src"
for p in will-it-scale:wis vm-scalability:vms unixbench:ub autonuma-benchmark:an membench:mb; do
	s=${p%:*} f=$T_DIR/${p#*:}.src
	meta_tests "$s" | sort >"$T_DIR/$s.meta"
	sort "$f" >"$f.sorted"
	assert "$s: the guest's tests read from its source ($(wc -l <"$f") names)" test "$(wc -l <"$f")" -ge 3
	if cmp -s "$T_DIR/$s.meta" "$f.sorted"; then ok "$s: suites/$s/meta lists exactly the tests the guest runs"; else
		case $s in
		will-it-scale) where="a testcase is a file suites/will-it-scale/tests/NAME.c and NAME in the 'param test enum:' line of suites/will-it-scale/meta" ;;
		*) where="add a name to the 'param test' line of suites/$s/meta and to the guest's table" ;;
		esac
		no "$s: suites/$s/meta and the guest differ (<: only in meta, >: only in the guest; $where):"
		diff "$T_DIR/$s.meta" "$f.sorted" | sed 's/^/    | /'
	fi
done
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
printf 'testcase: will-it-scale\nwill-it-scale:\n  mode: process\n  test: nosuchtest\n' >"$T_DIR/lkp.yaml"
expect_rc "an lkp-tests job with an unknown test is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/lkp.yaml"
expect_in "... naming it" "$T_OUT" "unknown will-it-scale test 'nosuchtest'"

# the guest reads the same list (the image's key table)
knob() { # CONF-LINES...: knobs.sh's verdict on a job.conf of those lines
	printf '%s\n' "$@" >"$T_DIR/k.conf"
	mkdir -p "$T_DIR/kr"
	# shellcheck disable=SC2016 # expanded by the inner shell
	KREPRO_JOB_CONF="$T_DIR/k.conf" KREPRO_KEYS="$T_DIR/keys" KREPRO_CONTRACT=tools/common/contract.h \
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
