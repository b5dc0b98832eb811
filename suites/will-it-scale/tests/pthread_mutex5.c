#include "testcase.h"

/* pthread_mutex1's mutex held over an update of a thread-local variable;
 * not static, as pthread_mutex3's. */
_Thread_local unsigned long wis_mutex5_val;

static void pthread_mutex5_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		wis_mutex5_val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

WIS_TESTCASE(pthread_mutex5, "Contended pthread mutex with TLS update", NULL, NULL,
	     pthread_mutex5_run);
