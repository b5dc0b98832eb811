#include "testcase.h"

static void write1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];
	size_t size = 0;

	for (;;) {
		ssize_t n = write(t->fd, buf, sizeof(buf));

		WIS_CHECK(t, n >= 0, "write");
		size += (size_t)n;
		if (size >= WIS_FILESIZE) {
			size = 0;
			lseek(t->fd, 0, SEEK_SET);
		}
		counter_inc(counter);
	}
}

WIS_TESTCASE(write1, "Separate file write", NULL, empty_file_setup, write1_run);
