#!/bin/sh
# The guest's UnixBench tests, run on the host (the guest binary is
# static): each prints UnixBench's line with a positive result; dc and the
# shell scripts find busybox's dc and sh in PATH as in the guest.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
U=out/guest/unixbench
mkdir -p "$T_DIR/bin" "$T_DIR/work"
for a in dc sh sort od grep tee wc rm; do ln -s "$(command -v busybox)" "$T_DIR/bin/$a"; done
line() { # test -> its result line
	PATH=$T_DIR/bin:$PATH "$U" -t 0.3 -i 1 -d "$T_DIR/work" "$1" 2>&1
}
for t in dhry2reg:'Dhrystone 2 using register variables [1-9][0-9.]* lps' \
	whetstone-double:'Double-Precision Whetstone [1-9][0-9.]* MWIPS' \
	context1:'Pipe-based Context Switching [1-9][0-9.]* lps' \
	pipe:'Pipe Throughput [1-9][0-9.]* lps' \
	syscall:'System Call Overhead [1-9][0-9.]* lps' \
	spawn:'Process Creation [1-9][0-9.]* lps' \
	execl:'Execl Throughput [1-9][0-9.]* lps' \
	dc:'Dc: sqrt(2) to 99 decimal places [1-9][0-9.]* lpm' \
	shell1:'Shell Scripts (1 concurrent) [1-9][0-9.]* lpm' \
	file-copy-256:'File Copy 256 bufsize 500 maxblocks [1-9][0-9.]* KBps' \
	arithoh:'Arithoh [1-9][0-9.]* lps' short:'Arithmetic Test (short) [1-9][0-9.]* lps' \
	double:'Arithmetic Test (double) [1-9][0-9.]* lps' \
	hanoi:'Recursion Test -- Tower of Hanoi [1-9][0-9.]* lps' \
	sysexec:'Exec System Call Overhead [1-9][0-9.]* lps'; do
	name=${t%%:*} re=${t#*:}
	line "$name" >"$T_DIR/$name.out"
	assert "$name: $re" grep -q "^$re (" "$T_DIR/$name.out"
done
# UnixBench's own names of the file tests (lkp-tests' jobs use them)
for t in fstime:'File Copy 1024 bufsize 2000 maxblocks' fsbuffer-r:'File Read 256 bufsize 500 maxblocks' \
	fsdisk-w:'File Write 4096 bufsize 8000 maxblocks'; do
	name=${t%%:*} re=${t#*:}
	line "$name" >"$T_DIR/$name.out"
	assert "UnixBench's name $name is $re" grep -q "^$re [1-9][0-9.]* KBps (" "$T_DIR/$name.out"
done
# dc as Run runs it: the children share one dc.dat; the first prints
# sqrt(2) (to /dev/null here), the rest read its end and exit 0.
expect_in "dc: the workload file is UnixBench's" "$T_DIR/work/dc.dat" "99"
assert "dc: 99 k 2 v p q" sh -c "[ \"\$(tr '\\n' ' ' <'$T_DIR/work/dc.dat')\" = '99 k 2 v p q ' ]"
# copies (lkp's nr_task, Run -c N): each sample runs N copies at once and
# sums their results (ub_calc.h's ub_copies), after UnixBench's line
PATH=$T_DIR/bin:$PATH "$U" -t 0.3 -i 1 -c 2 -d "$T_DIR/work" syscall shell1 >"$T_DIR/copies.out" 2>&1
assert "-c 2: runs" test $? = 0
assert "-c 2: says so first" sh -c "head -n 1 '$T_DIR/copies.out' | grep -qx 'running 2 parallel copies of tests'"
assert "-c 2: UnixBench's lines" sh -c "grep -q '^System Call Overhead [1-9][0-9.]* lps (' '$T_DIR/copies.out' && grep -q '^Shell Scripts (1 concurrent) [1-9][0-9.]* lpm (' '$T_DIR/copies.out'"
PATH=/nonexistent "$U" -t 0.2 -i 1 -c 2 -d "$T_DIR/work" dc >"$T_DIR/nodc2.out" 2>&1
assert "-c 2: a copy that fails fails the test" test $? -ne 0
expect_in "... saying how many gave a result" "$T_DIR/nodc2.out" "dc: 0 of 2 copies gave a result"
"$U" -c 0 syscall >"$T_DIR/c0.out" 2>&1
assert "-c 0 is refused" test $? -ne 0
# a command the looper cannot run fails the test, naming it
PATH=/nonexistent "$U" -t 0.2 -i 1 -d "$T_DIR/work" dc >"$T_DIR/nodc.out" 2>&1
assert "dc without a dc in PATH fails" test $? -ne 0
expect_in "... saying which test" "$T_DIR/nodc.out" "dc failed"
# the plan times a cell by its tests (suites/unixbench/meta's time line:
# all and files count 20 and 9); the program's sets hold that many
for set in all files; do
	want=$(sed -n "s/^time .* $set=\([0-9]*\).*/\1/p; s/^time .* $set=\([0-9]*\)\$/\1/p" suites/unixbench/meta | head -n 1)
	PATH=$T_DIR/bin:$PATH "$U" -t 0.02 -i 1 -d "$T_DIR/work" "$set" >"$T_DIR/set.out" 2>&1
	assert "the set $set runs the $want tests the meta's time line counts" sh -c "[ \$(grep -c ' ([0-9.]* secs, 1 samples)' '$T_DIR/set.out') = '$want' ]"
done
rm -rf "$T_DIR"
t_summary
exit $T_FAILED
