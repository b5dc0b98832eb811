#include <sys/mman.h>
#include "testcase.h"

/* page_fault2: file private mapping (copy-on-write) page fault */

static void pf2_run(struct wis_task *t)
{
	pf_loop(t, MAP_PRIVATE, t->fd);
}

WIS_TESTCASE(page_fault2, "Separate file private mapping page fault", NULL, map_file_setup,
	     pf2_run);
