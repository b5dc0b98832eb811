#include <linux/futex.h>
#include "testcase.h"

static void futex1_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAKE, 1);
}

WIS_TESTCASE(futex1, "futex(FUTEX_WAKE)", NULL, NULL, futex1_run);
