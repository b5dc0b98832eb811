#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include "testcase.h"

/* context_switch1: ping-pong a byte over two pipes with a helper.
 * The helper is a child process in process mode and a thread in thread
 * mode; it inherits the task's CPU, so every round trip is two context
 * switches on one CPU. */

struct cs1_helper {
	int rfd, wfd;
};

static void cs1_echo(int rfd, int wfd)
{
	char c;

	for (;;) {
		if (read(rfd, &c, 1) != 1)
			_exit(1);
		if (write(wfd, &c, 1) != 1)
			_exit(1);
	}
}

#if WIS_THREADS
static void *cs1_thread(void *arg)
{
	struct cs1_helper *h = arg;

	cs1_echo(h->rfd, h->wfd);
	return NULL;
}
#endif

static int cs1_setup(struct wis_task *t)
{
	int to_helper[2], from_helper[2];
	struct cs1_helper h;

	if (pipe(to_helper) < 0 || pipe(from_helper) < 0) {
		task_msg(t, "pipe: %s", strerror(errno));
		return -1;
	}
	h.rfd = to_helper[0];
	h.wfd = from_helper[1];
#if WIS_THREADS
	{
		struct cs1_helper *hp = malloc(sizeof(*hp)); /* lives as long as the helper */
		pthread_t th;
		int err;

		if (!hp) {
			task_msg(t, "out of memory");
			return -1;
		}
		*hp = h;
		err = pthread_create(&th, NULL, cs1_thread, hp);

		if (err) {
			task_msg(t, "pthread_create: %s", strerror(err));
			return -1;
		}
		pthread_detach(th);
	}
#else
	{
		pid_t parent = getpid();
		pid_t pid = fork();

		if (pid < 0) {
			task_msg(t, "fork: %s", strerror(errno));
			return -1;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			cs1_echo(h.rfd, h.wfd);
		}
	}
#endif
	/* fd pair used by the task: write to the helper, read its answer */
	t->fd = to_helper[1];
	t->fd2 = from_helper[0];
	return 0;
}

static void cs1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char c = 'x';

	for (;;) {
		if (write(t->fd, &c, 1) != 1 || read(t->fd2, &c, 1) != 1) {
			task_msg(t, "pipe ping-pong failed");
			_exit(1);
		}
		/* two context switches per round trip: upstream counts both */
		counter_inc(counter);
		counter_inc(counter);
	}
}

WIS_TESTCASE(context_switch1, "Context switch via pipes", NULL, cs1_setup, cs1_run);
