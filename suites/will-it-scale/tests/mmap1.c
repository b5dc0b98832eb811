#include <sys/mman.h>
#include "testcase.h"

static void mmap1_run(struct wis_task *t)
{
	map_unmap_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

WIS_TESTCASE(mmap1, "Anonymous memory mmap/munmap of 128MB", NULL, NULL, mmap1_run);
