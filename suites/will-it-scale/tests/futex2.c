#include <linux/futex.h>
#include "testcase.h"

static void futex2_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAIT, 1);
}

WIS_TESTCASE(futex2, "futex(FUTEX_WAIT)", NULL, NULL, futex2_run);
