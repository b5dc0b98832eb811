#include <linux/futex.h>
#include "testcase.h"

static void futex4_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAIT_PRIVATE, 1);
}

WIS_TESTCASE(futex4, "futex(FUTEX_WAIT_PRIVATE)", NULL, NULL, futex4_run);
