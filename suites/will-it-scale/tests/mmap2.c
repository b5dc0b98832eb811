#include <sys/mman.h>
#include "testcase.h"

static void mmap2_run(struct wis_task *t)
{
	map_unmap_loop(t, MAP_PRIVATE, t->fd);
}

WIS_TESTCASE(mmap2, "Separate file mmap/munmap of 128MB", NULL, map_file_setup, mmap2_run);
