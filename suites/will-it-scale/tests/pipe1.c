#include "testcase.h"

static void pipe1_run(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, pipe(fd) == 0, "pipe");
	byte_loop(t, fd);
}

WIS_TESTCASE(pipe1, "pipe read/write", NULL, NULL, pipe1_run);
