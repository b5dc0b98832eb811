#include <semaphore.h>
#include "testcase.h"

static void posix_semaphore1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	sem_t sem;

	WIS_CHECK(t, sem_init(&sem, 0, 1) == 0, "sem_init");
	for (;;) {
		sem_wait(&sem);
		sem_post(&sem);
		counter_inc(counter);
	}
}

WIS_TESTCASE(posix_semaphore1, "POSIX semaphores", NULL, NULL, posix_semaphore1_run);
