#include "testcase.h"

static void readseek3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, t->off, SEEK_SET);
		WIS_CHECK(t, read(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "read");
		counter_inc(counter);
	}
}

WIS_TESTCASE(readseek3, "Same file seek+read to different offsets", name_pages_prepare,
	     name_page_rdonly_setup, readseek3_run);
