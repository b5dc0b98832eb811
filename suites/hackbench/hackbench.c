/* hackbench: the scheduler benchmark lkp-tests runs as "hackbench".
 *
 * GROUPS groups of FDS receivers and FDS senders; every sender passes LOOPS
 * messages of SIZE bytes to every receiver of its group, over a pipe or a
 * UNIX stream socket per receiver.  Tasks are processes or threads.  The
 * clock starts once every task is ready and stops when the last receiver
 * has read all its messages.  Output, as lkp-tests' parser reads it:
 *
 *   Running in process mode with 2 groups using 20 file descriptors each (== 80 tasks)
 *   Each sender will pass 100 messages of 100 bytes
 *   Time: 0.123
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

#define PROG "hackbench"
#define MAX_TASKS 65536
#define MAX_SIZE 65536

static struct {
	int groups, fds, loops, size, threads, pipes;
} opt = {10, 20, 100, 100, 0, 0};

/* Every task writes one byte to ready[1] when set up, then waits until the
 * parent closes go[1]: the clock starts with all tasks in place. */
static int ready[2], go[2];

static pid_t *pids;
static size_t npids;

static void stop_children(void)
{
	for (size_t i = 0; i < npids; i++)
		if (pids[i] > 0) /* 0 is a reaped task (kill(0) is the group) */
			kill(pids[i], SIGKILL);
}

static _Noreturn void fatal(const char *what)
{
	int e = errno;

	stop_children();
	krp_die(PROG, 2, "%s: %s", what, strerror(e));
}

static void usage(void)
{
	fprintf(stderr,
		"usage: hackbench [-g GROUPS] [-f FDS] [-l LOOPS] [-s BYTES] "
		"[--process|--thread] [--pipe]\n"
		"  -g, --groups  groups of FDS senders and FDS receivers (10)\n"
		"  -f, --fds     receivers (and senders) per group (20)\n"
		"  -l, --loops   messages each sender passes to each receiver (100)\n"
		"  -s, --datasize  bytes per message (100)\n"
		"  -P, --process / -T, --thread   tasks are processes (default) or threads\n"
		"  -p, --pipe    pipes instead of UNIX stream sockets\n");
}

static int number(const char *s, int lo, int hi, const char *name)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		krp_die(PROG, 2, "%s: expected a number from %d to %d, not '%s'", name, lo, hi, s);
	return (int)v;
}

/* Full-message I/O: a stream socket may split a message, and a signal may
 * interrupt a write. */
static void xfer(int fd, char *buf, size_t len, int writing)
{
	while (len) {
		ssize_t n = writing ? write(fd, buf, len) : read(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EPIPE;
			fatal(writing ? "write" : "read");
		}
		buf += n;
		len -= (size_t)n;
	}
}

static void wait_for_go(void)
{
	struct pollfd p = {.fd = go[0], .events = POLLIN};
	char c = 0;

	xfer(ready[1], &c, 1, 1);
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			fatal("poll");
}

struct task {
	int *fds; /* a sender's FDS write ends; a receiver's one read end */
};

static void *sender(void *arg)
{
	const struct task *t = arg;
	char buf[MAX_SIZE];

	memset(buf, 's', (size_t)opt.size);
	wait_for_go();
	for (int i = 0; i < opt.loops; i++)
		for (int j = 0; j < opt.fds; j++)
			xfer(t->fds[j], buf, (size_t)opt.size, 1);
	return NULL;
}

static void *receiver(void *arg)
{
	const struct task *t = arg;
	char buf[MAX_SIZE];
	long left = (long)opt.loops * opt.fds;

	wait_for_go();
	while (left-- > 0)
		xfer(t->fds[0], buf, (size_t)opt.size, 0);
	return NULL;
}

/* start: one task, a child process or a thread; returns its thread id. */
static pthread_t start(void *(*fn)(void *), struct task *t)
{
	pthread_t th = 0;

	if (opt.threads) {
		pthread_attr_t a;

		/* Small stacks: thousands of threads in a small guest. */
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 2 * MAX_SIZE + (64 << 10));
		errno = pthread_create(&th, &a, fn, t);
		pthread_attr_destroy(&a);
		if (errno)
			fatal("pthread_create");
		return th;
	}
	pid_t pid = fork();

	if (pid < 0)
		fatal("fork");
	if (pid == 0) {
		/* The parent's end of go must be the last one, and a task's
		 * failure is its own. */
		close(go[1]);
		close(ready[0]);
		npids = 0;
		fn(t);
		_exit(0);
	}
	pids[npids++] = pid;
	return th;
}

static void channel(int fd[2])
{
	if (opt.pipes ? pipe(fd) : socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		fatal(opt.pipes ? "pipe" : "socketpair");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-P") || !strcmp(a, "--process"))
			opt.threads = 0;
		else if (!strcmp(a, "-T") || !strcmp(a, "--thread") || !strcmp(a, "--threads"))
			opt.threads = 1;
		else if (!strcmp(a, "-p") || !strcmp(a, "--pipe"))
			opt.pipes = 1;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage();
			return 0;
		} else if (v && (!strcmp(a, "-g") || !strcmp(a, "--groups")))
			opt.groups = number(argv[++i], 1, MAX_TASKS, "groups");
		else if (v && (!strcmp(a, "-f") || !strcmp(a, "--fds")))
			opt.fds = number(argv[++i], 1, 1024, "fds");
		else if (v && (!strcmp(a, "-l") || !strcmp(a, "--loops")))
			opt.loops = number(argv[++i], 1, 100000000, "loops");
		else if (v && (!strcmp(a, "-s") || !strcmp(a, "--datasize")))
			opt.size = number(argv[++i], 1, MAX_SIZE, "datasize");
		else {
			usage();
			return 2;
		}
	}
	long ntasks = 2L * opt.groups * opt.fds;

	if (ntasks > MAX_TASKS)
		krp_die(PROG, 2, "%ld tasks: at most %d", ntasks, MAX_TASKS);

	/* Thread mode keeps every channel open in one process. */
	struct rlimit rl;
	rlim_t need = (rlim_t)(2 * ntasks + 64);

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
		rl.rlim_cur = need;
		if (rl.rlim_max < need)
			rl.rlim_max = need;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	pids = calloc((size_t)ntasks, sizeof(*pids));
	pthread_t *ths = calloc((size_t)ntasks, sizeof(*ths));
	struct task *tasks = calloc((size_t)ntasks, sizeof(*tasks));
	int *ends = calloc((size_t)ntasks, sizeof(*ends)); /* per group: read, write ends */

	if (!pids || !ths || !tasks || !ends)
		fatal("calloc");
	if (pipe(ready) || pipe(go))
		fatal("pipe");
	printf("Running in %s mode with %d groups using %d file descriptors each (== %ld "
	       "tasks)\nEach sender will pass %d messages of %d bytes\n",
	       opt.threads ? "threads" : "process", opt.groups, opt.fds, ntasks, opt.loops,
	       opt.size);
	fflush(stdout);

	long k = 0;

	for (int g = 0; g < opt.groups; g++) {
		int *rd = ends + 2L * g * opt.fds, *wr = rd + opt.fds;

		for (int j = 0; j < opt.fds; j++) {
			int fd[2];

			channel(fd);
			rd[j] = fd[0];
			wr[j] = fd[1];
		}
		for (int j = 0; j < opt.fds; j++, k++) {
			tasks[k].fds = &rd[j];
			ths[k] = start(receiver, &tasks[k]);
		}
		for (int j = 0; j < opt.fds; j++, k++) {
			tasks[k].fds = wr;
			ths[k] = start(sender, &tasks[k]);
		}
		/* Processes hold their own copies: the parent's go. */
		if (!opt.threads)
			for (int j = 0; j < 2 * opt.fds; j++)
				close(rd[j]);
	}
	for (long i = 0; i < ntasks; i++) {
		char c;

		xfer(ready[0], &c, 1, 0);
	}
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	close(go[1]);
	for (long i = 0; i < ntasks; i++) {
		if (opt.threads) {
			pthread_join(ths[i], NULL);
			continue;
		}
		int st;

		while (waitpid(pids[i], &st, 0) < 0)
			if (errno != EINTR)
				fatal("waitpid");
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			pids[i] = 0;
			errno = ECHILD;
			fatal("a task failed");
		}
		pids[i] = 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	printf("Time: %.3f\n", s);
	return 0;
}
