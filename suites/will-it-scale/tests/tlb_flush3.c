#include <sys/mman.h>
#include "testcase.h"

static void tlb_flush3_run(struct wis_task *t)
{
	tlb_flush_loop(t, MAP_SIZE, MAP_SHARED, t->fd, 1);
}

WIS_TESTCASE(tlb_flush3, "TLB flush of separate file shared mapping", NULL, map_file_setup,
	     tlb_flush3_run);
