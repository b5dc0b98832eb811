#include <poll.h>
#include "testcase.h"

static void poll1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		struct pollfd pfd = {.fd = t->fd, .events = POLLOUT};

		WIS_CHECK(t, poll(&pfd, 1, 0) >= 0, "poll");
		counter_inc(counter);
	}
}

WIS_TESTCASE(poll1, "poll of 1 fd", NULL, empty_file_setup, poll1_run);
