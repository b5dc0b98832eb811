#include "testcase.h"

/* malloc1: malloc and free of 128 MiB (mmap/munmap in the allocator) */

#define MALLOC1_SIZE (128UL << 20)

static void malloc1_run(struct wis_task *t)
{
	malloc_loop(t, MALLOC1_SIZE);
}

WIS_TESTCASE(malloc1, "malloc/free of 128MB", NULL, NULL, malloc1_run);
