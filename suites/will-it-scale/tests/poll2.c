#include <poll.h>
#include <sys/resource.h>
#include "testcase.h"

/* poll2: poll of 128 files, each the task's own */

#define POLL2_FILES 128

/* Threads share one descriptor table: room for every task's files (and
 * ten more each, as upstream's limit). */
static int poll2_prepare(unsigned long nr_tasks, size_t pagesize)
{
	rlim_t need = (rlim_t)(POLL2_FILES + 10) * (WIS_THREADS ? nr_tasks : 1);
	struct rlimit rl;

	(void)pagesize;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, PROG ": getrlimit: %s\n", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, PROG ": RLIMIT_NOFILE %llu: %s\n", (unsigned long long)need,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int poll2_setup(struct wis_task *t)
{
	t->fds = malloc(POLL2_FILES * sizeof(*t->fds));
	if (!t->fds) {
		task_msg(t, "out of memory");
		return -1;
	}
	for (int i = 0; i < POLL2_FILES; i++) {
		t->fds[i] = make_tmp_file(t, 0);
		if (t->fds[i] < 0)
			return -1;
	}
	return 0;
}

static void poll2_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	/* on the stack, as upstream's: the compiler unrolls the copy below
	 * (from t->fds it was 3.5 more instructions a file, 4% of poll2) */
	int fds[POLL2_FILES];

	memcpy(fds, t->fds, sizeof(fds));
	for (;;) {
		struct pollfd pfd[POLL2_FILES];

		memset(pfd, 0, sizeof(pfd));
		for (int i = 0; i < POLL2_FILES; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLOUT;
		}
		WIS_CHECK(t, poll(pfd, POLL2_FILES, 0) >= 0, "poll");
		counter_inc(counter);
	}
}

WIS_TESTCASE(poll2, "poll of 128 fds", poll2_prepare, poll2_setup, poll2_run);
