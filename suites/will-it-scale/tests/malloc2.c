#include "testcase.h"

static void malloc2_run(struct wis_task *t)
{
	malloc_loop(t, 1024);
}

WIS_TESTCASE(malloc2, "malloc/free of 1kB", NULL, NULL, malloc2_run);
