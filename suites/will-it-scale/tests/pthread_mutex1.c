#include "testcase.h"

static void pthread_mutex1_run(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex);
}

WIS_TESTCASE(pthread_mutex1, "Contended pthread mutex", NULL, NULL, pthread_mutex1_run);
