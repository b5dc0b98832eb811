#include "testcase.h"

static void dup1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		int fd2 = dup(t->fd);

		WIS_CHECK(t, fd2 >= 0, "dup");
		close(fd2);
		counter_inc(counter);
	}
}

WIS_TESTCASE(dup1, "Separate file dup/close", NULL, empty_file_setup, dup1_run);
