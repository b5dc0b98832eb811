#!/bin/sh
# The guest's will-it-scale testcases, run on the host (the guest binaries
# are static): every testcase (a file of suites/will-it-scale/tests/), and
# every one lkp-tests' jobs/will-it-scale.yaml lists, runs in both modes with two
# tasks and each task counts ops; none leaves a file behind in TMPDIR
# (open1-2/unlink1-2 and the "same file" testcases name their files in
# TMPDIR and the runner removes them, as upstream's testcase_cleanup does).
# Each build runs one mode, and only the thread build links musl's
# cancellation path.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
W=out/guest/will-it-scale
bin_of() { # mode -> the build that runs it
	if [ "$1" = thread ]; then echo "$W-threads"; else echo "$W"; fi
}
tests=$("$W" --help 2>&1 | sed -n 's/^  -t TEST *testcase: //p')
assert "--help lists the testcases" test -n "$tests"
# in byte order, as the Makefile's $(sort) lists them into the table
table=$(for f in suites/will-it-scale/tests/*.c; do basename "$f" .c; done | LC_ALL=C sort | tr '\n' ' ')
assert "--help lists every file of suites/will-it-scale/tests, in order" test "${table% }" = "$tests"
# lkp-tests bbbc29c jobs/will-it-scale/will-it-scale.yaml (60 names)
lkp="brk1 brk2 context_switch1 dup1 eventfd1 fallocate1 fallocate2 futex1 futex2 futex3 futex4
getppid1 lock1 lock2 lseek1 lseek2 malloc1 malloc2 mmap1 mmap2 open1 open2 open3 page_fault1
page_fault2 page_fault3 pipe1 poll1 poll2 posix_semaphore1 pread1 pread2 pread3 pthread_mutex1
pthread_mutex2 pthread_mutex3 pthread_mutex4 pthread_mutex5 pwrite1 pwrite2 pwrite3 read1 read2
read3 read4 readseek1 readseek2 readseek3 sched_yield signal1 tlb_flush1 tlb_flush2 tlb_flush3
unix1 unlink1 unlink2 write1 writeseek1 writeseek2 writeseek3"
for t in $lkp; do
	assert "lkp-tests' $t is a testcase" sh -c "echo ' $tests ' | grep -q ' $t '"
done
mkdir -p "$T_DIR/tmp"
# Two measured seconds each, ten testcases at once: in some second every
# task counted (min: is the smallest per-task count of the second).  All
# 120 at once left tlb_flush3's tasks a second without a count on a loaded
# 2-core host.
i=0
for t in $tests; do
	for m in process thread; do
		TMPDIR=$T_DIR/tmp "$(bin_of "$m")" -t "$t" -m "$m" -n 2 -s 2 -w 0 >"$T_DIR/$t.$m" 2>&1 &
	done
	i=$((i + 1))
	[ $((i % 10)) -ne 0 ] || wait
done
wait
for t in $tests; do
	for m in process thread; do
		assert "$t ($m): each task counts ops" sh -c "grep -q '^min:[1-9]' '$T_DIR/$t.$m'"
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
# The guest binaries are stripped: build both again with symbols (the
# same rule, GUEST_STRIP empty).  A process build that links pthread_cancel
# puts every read, write, poll and close through musl's cancellation path
# (upstream's process binary does not).
U=$(./build.sh uapi 2>/dev/null | tail -n 1)
make -s OUT="$T_DIR/sym" UAPI="$U" GUEST_STRIP= "$T_DIR/sym/guest/will-it-scale" \
	"$T_DIR/sym/guest/will-it-scale-threads"
assert "the process build does not link pthread_cancel" \
	sh -c "! nm '$T_DIR/sym/guest/will-it-scale' | grep -q ' T pthread_cancel\$'"
assert "the thread build does (it cancels its tasks, as upstream's)" \
	sh -c "nm '$T_DIR/sym/guest/will-it-scale-threads' | grep -q ' T pthread_cancel\$'"
rm -rf "$T_DIR"
t_summary
exit $T_FAILED
