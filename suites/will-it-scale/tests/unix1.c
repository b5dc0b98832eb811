#include <sys/socket.h>
#include "testcase.h"

static void unix1_run(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == 0, "socketpair");
	byte_loop(t, fd);
}

WIS_TESTCASE(unix1, "unix domain socket read/write", NULL, NULL, unix1_run);
