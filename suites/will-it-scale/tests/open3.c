#include "testcase.h"

/* open3: the path is NAME's */
static int name_path_setup(struct wis_task *t)
{
	snprintf(t->path, sizeof(t->path), "%s", named_base);
	return 0;
}

WIS_TESTCASE(open3, "Same file open/close", name_prepare, name_path_setup, open1_run);
