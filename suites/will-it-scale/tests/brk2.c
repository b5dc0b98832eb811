#include "testcase.h"

/* ---- brk2: brk between one and two pages above the start, so the heap
 * grows and shrinks where brk1 makes and removes a VMA; raw system call
 * as in brk1 (musl's brk and sbrk(n) always fail) */

static void brk2_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long addr = (unsigned long)syscall(SYS_brk, 0UL) + t->pagesize;

	if ((unsigned long)syscall(SYS_brk, addr) != addr) {
		task_msg(t, "brk grow failed");
		_exit(1);
	}
	for (;;) {
		if ((unsigned long)syscall(SYS_brk, addr + t->pagesize) != addr + t->pagesize) {
			task_msg(t, "brk grow failed");
			_exit(1);
		}
		syscall(SYS_brk, addr);
		counter_inc(counter);
		counter_inc(counter);
	}
}

WIS_TESTCASE(brk2, "brk unshared increase/decrease of one page", NULL, NULL, brk2_run);
