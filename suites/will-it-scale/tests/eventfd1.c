#include <stdint.h>
#include <sys/eventfd.h>
#include "testcase.h"

static void eventfd1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	uint64_t w = 1, r;
	int fd = eventfd(0, 0);

	WIS_CHECK(t, fd >= 0, "eventfd");
	for (;;) {
		WIS_CHECK(t, write(fd, &w, sizeof(w)) == (ssize_t)sizeof(w), "eventfd write");
		WIS_CHECK(t, read(fd, &r, sizeof(r)) == (ssize_t)sizeof(r), "eventfd read");
		counter_inc(counter);
	}
}

WIS_TESTCASE(eventfd1, "eventfd read/write of 8 bytes", NULL, NULL, eventfd1_run);
