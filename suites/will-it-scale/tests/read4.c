#include "testcase.h"

/* read4: NAME (1 MiB), opened O_DIRECT by each task */
static int name_direct_setup(struct wis_task *t)
{
	return name_open(t, O_DIRECT | O_RDONLY);
}

WIS_TESTCASE(read4, "Same file O_DIRECT read", name_mib_prepare, name_direct_setup,
	     read_direct_run);
