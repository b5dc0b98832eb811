#include "testcase.h"

static void writeseek3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, t->off, SEEK_SET);
		WIS_CHECK(t, write(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write");
		counter_inc(counter);
	}
}

WIS_TESTCASE(writeseek3, "Same file seek+write to different offsets", name_pages_prepare,
	     name_page_rdwr_setup, writeseek3_run);
