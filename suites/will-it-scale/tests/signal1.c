#include <signal.h>
#include "testcase.h"

static void signal1_handler(int sig)
{
	(void)sig;
}

static void signal1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal1_handler;
	WIS_CHECK(t, sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	for (;;) {
		raise(SIGUSR1);
		counter_inc(counter);
	}
}

WIS_TESTCASE(signal1, "signal delivery", NULL, NULL, signal1_run);
