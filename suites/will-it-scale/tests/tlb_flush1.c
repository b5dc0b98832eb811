#include <sys/mman.h>
#include "testcase.h"

static void tlb_flush1_run(struct wis_task *t)
{
	tlb_flush_loop(t, MAP_SIZE, MAP_PRIVATE, t->fd, 0);
}

WIS_TESTCASE(tlb_flush1, "TLB flush of separate file private mapping", NULL, map_file_setup,
	     tlb_flush1_run);
