#include <linux/futex.h>
#include "testcase.h"

static void futex3_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAKE_PRIVATE, 1);
}

WIS_TESTCASE(futex3, "futex(FUTEX_WAKE_PRIVATE)", NULL, NULL, futex3_run);
