#include <sys/mman.h>
#include "testcase.h"

/* page_fault1: anonymous memory page fault */

static void pf1_run(struct wis_task *t)
{
	pf_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

WIS_TESTCASE(page_fault1, "Anonymous memory page fault", NULL, NULL, pf1_run);
