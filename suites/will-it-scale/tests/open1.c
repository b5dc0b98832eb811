#include "testcase.h"

/* open1: task i's file is NAME.i beside NAME */
static int open1_setup(struct wis_task *t)
{
	if (snprintf(t->path, sizeof(t->path), "%s.%lu", named_base, t->idx) >=
	    (int)sizeof(t->path)) {
		task_msg(t, "TMPDIR too long");
		return -1;
	}
	return create_path(t);
}

WIS_TESTCASE(open1, "Separate file open/close", name_prepare, open1_setup, open1_run);
