#include "testcase.h"

static int fallocate1_setup(struct wis_task *t)
{
	t->fd = make_tmp_file_in(t, "/dev/shm", 0, 0);
	return t->fd < 0 ? -1 : 0;
}

WIS_TESTCASE(fallocate1, "Separate file fallocate against tmpfs", NULL, fallocate1_setup,
	     fallocate_run);
