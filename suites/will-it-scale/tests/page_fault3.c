#include <sys/mman.h>
#include "testcase.h"

/* page_fault3: separate file shared mapping page fault */

static void pf3_run(struct wis_task *t)
{
	pf_loop(t, MAP_SHARED, t->fd);
}

WIS_TESTCASE(page_fault3, "Separate file shared mapping page fault", NULL, map_file_setup, pf3_run);
