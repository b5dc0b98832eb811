#include "testcase.h"

static void getppid1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		getppid(); /* musl, like glibc today, makes the call every time */
		counter_inc(counter);
	}
}

WIS_TESTCASE(getppid1, "getppid", NULL, NULL, getppid1_run);
