#include "testcase.h"

/* brk1: grow and shrink the heap by one page.
 * musl's brk() always fails, so the raw system call is used; the kernel
 * returns the new break on success.  Threads share one break: each call
 * still succeeds because every requested address is valid. */

static void brk1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long base = (unsigned long)syscall(SYS_brk, 0UL);

	for (;;) {
		if ((unsigned long)syscall(SYS_brk, base + t->pagesize) != base + t->pagesize) {
			task_msg(t, "brk grow failed");
			_exit(1);
		}
		syscall(SYS_brk, base);
		counter_inc(counter);
		counter_inc(counter);
	}
}

WIS_TESTCASE(brk1, "brk increase/decrease of one page", NULL, NULL, brk1_run);
