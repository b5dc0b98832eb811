#!/bin/sh
# The guest's will-it-scale testcases, run on the host (the guest binaries
# are static): every testcase counts ops in both modes, and none leaves a
# file behind in TMPDIR (open1/unlink1 name their files in a folder the
# runner removes, as upstream's testcase_cleanup does).  Each build runs
# one mode, and only the thread build links musl's cancellation path.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
W=out/guest/will-it-scale
bin_of() { # mode -> the build that runs it
	if [ "$1" = thread ]; then echo "$W-threads"; else echo "$W"; fi
}
tests=$("$W" --help 2>&1 | sed -n 's/^  -t TEST *testcase: //p')
assert "--help lists the testcases" test -n "$tests"
for t in page_fault3 context_switch1 mmap1 mmap2 getppid1 open1 unlink1 write1; do
	assert "testcase $t is listed" sh -c "echo ' $tests ' | grep -q ' $t '"
done
mkdir -p "$T_DIR/tmp"
# One measured second each, all at once (the counts only need to be > 0).
for t in $tests; do
	for m in process thread; do
		TMPDIR=$T_DIR/tmp "$(bin_of "$m")" -t "$t" -m "$m" -n 2 -s 1 -w 0 >"$T_DIR/$t.$m" 2>&1 &
	done
done
wait
for t in $tests; do
	for m in process thread; do
		assert "$t ($m): counts ops" sh -c "grep -q '^average:[1-9]' '$T_DIR/$t.$m'"
	done
done
assert "no file left in TMPDIR" sh -c "[ -z \"\$(ls -A '$T_DIR/tmp')\" ]"
# A thread cancelled while it held pthread_mutex1's shared mutex left its
# sibling waiting for ever and the runner joining it (10 runs in 40 hung).
i=1
while [ "$i" -le 8 ]; do
	expect_rc "pthread_mutex1 (thread) ends, round $i" 0 timeout 20 "$W-threads" -t pthread_mutex1 -m thread -n 2 -s 1 -w 0
	i=$((i + 1))
done
expect_rc "the process build refuses thread mode" 2 "$W" -t pipe1 -m thread -n 1 -s 1
expect_in "... and names the build that runs it" "$T_OUT" "run will-it-scale-threads"
expect_rc "the thread build refuses process mode" 2 "$W-threads" -t pipe1 -m process -n 1 -s 1
# The guest binaries are stripped: build both again with symbols.  A
# process build that links pthread_cancel puts every read, write, poll and
# close through musl's cancellation path (upstream's process binary does not).
U=$(./build.sh uapi 2>/dev/null | tail -n 1)
for b in process thread; do
	flag=
	[ $b = process ] || flag=-DWIS_THREAD_BUILD
	musl-gcc -std=c11 -D_GNU_SOURCE -O2 -static -Itools/common -isystem "$U" $flag \
		-o "$T_DIR/wis-$b" suites/will-it-scale/will-it-scale.c tools/common/*.c -lm -lpthread
done
assert "the process build does not link pthread_cancel" \
	sh -c "! nm '$T_DIR/wis-process' | grep -q ' T pthread_cancel\$'"
assert "the thread build does (it cancels its tasks, as upstream's)" \
	sh -c "nm '$T_DIR/wis-thread' | grep -q ' T pthread_cancel\$'"
rm -rf "$T_DIR"
exit $T_FAILED
