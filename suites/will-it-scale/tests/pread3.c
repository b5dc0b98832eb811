#include "testcase.h"

static void pread3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pread(t->fd, buf, sizeof(buf), t->off) == (ssize_t)sizeof(buf),
			  "pread");
		counter_inc(counter);
	}
}

WIS_TESTCASE(pread3, "Same file pread to different offsets", name_pages_prepare,
	     name_page_rdonly_setup, pread3_run);
