#include <sys/mman.h>
#include "testcase.h"

#define TLB_FLUSH2_SIZE (1UL << 20) /* tlb_flush2's anonymous mapping */

static void tlb_flush2_run(struct wis_task *t)
{
	tlb_flush_loop(t, TLB_FLUSH2_SIZE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

WIS_TESTCASE(tlb_flush2, "TLB flush of anonymous memory private mapping", NULL, NULL,
	     tlb_flush2_run);
