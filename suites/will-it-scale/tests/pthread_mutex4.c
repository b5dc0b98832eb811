#include "testcase.h"

static void pthread_mutex4_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long val = 0;

	/* its address escapes (upstream: alloca), so each update is a memory
	 * one and the compiler keeps it */
	__asm__ __volatile__("" : : "r"(&val) : "memory");
	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

WIS_TESTCASE(pthread_mutex4, "Contended pthread mutex with local update", NULL, NULL,
	     pthread_mutex4_run);
