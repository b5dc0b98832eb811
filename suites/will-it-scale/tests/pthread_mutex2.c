#include "testcase.h"

static void pthread_mutex2_run(struct wis_task *t)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	mutex_loop(t, &m);
}

WIS_TESTCASE(pthread_mutex2, "Uncontended pthread mutex", NULL, NULL, pthread_mutex2_run);
