#!/bin/sh
# The guest's will-it-scale testcases, run on the host (the guest binaries
# are static): every testcase counts ops in both modes, and none leaves a
# file behind in TMPDIR (open1/unlink1 name their files in a folder the
# runner removes, as upstream's testcase_cleanup does).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
W=out/guest/will-it-scale
tests=$("$W" --help 2>&1 | sed -n 's/^  -t TEST *testcase: //p')
assert "--help lists the testcases" test -n "$tests"
for t in page_fault3 context_switch1 mmap1 mmap2 getppid1 open1 unlink1 write1; do
	assert "testcase $t is listed" sh -c "echo ' $tests ' | grep -q ' $t '"
done
mkdir -p "$T_DIR/tmp"
# One measured second each, all at once (the counts only need to be > 0).
for t in $tests; do
	for m in process thread; do
		TMPDIR=$T_DIR/tmp "$W" -t "$t" -m "$m" -n 2 -s 1 -w 0 >"$T_DIR/$t.$m" 2>&1 &
	done
done
wait
for t in $tests; do
	for m in process thread; do
		assert "$t ($m): counts ops" sh -c "grep -q '^average:[1-9]' '$T_DIR/$t.$m'"
	done
done
assert "no file left in TMPDIR" sh -c "[ -z \"\$(ls -A '$T_DIR/tmp')\" ]"
rm -rf "$T_DIR"
exit $T_FAILED
