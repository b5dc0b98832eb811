#include "testcase.h"

static void pwrite3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pwrite(t->fd, buf, sizeof(buf), t->off) == (ssize_t)sizeof(buf),
			  "pwrite");
		counter_inc(counter);
	}
}

WIS_TESTCASE(pwrite3, "Same file pwrite to different offsets", name_pages_prepare,
	     name_page_rdwr_setup, pwrite3_run);
