#include "testcase.h"

/* pthread_mutex1's mutex held over an update of a global variable; not
 * static: a static one that is only written may be optimised away. */
unsigned long wis_mutex3_val;

static void pthread_mutex3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		wis_mutex3_val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

WIS_TESTCASE(pthread_mutex3, "Contended pthread mutex with global update", NULL, NULL,
	     pthread_mutex3_run);
