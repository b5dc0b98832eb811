#include "testcase.h"

static int mib_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, WIS_FILESIZE);
}

WIS_TESTCASE(read1, "Separate file read", NULL, mib_file_setup, read1_run);
