#include <sched.h>
#include "testcase.h"

static void sched_yield_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		WIS_CHECK(t, sched_yield() == 0, "sched_yield");
		counter_inc(counter);
	}
}

WIS_TESTCASE(sched_yield, "sched_yield", NULL, NULL, sched_yield_run);
