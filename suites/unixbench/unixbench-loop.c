/* unixbench-loop: the fork loops of unixbench's Process Creation, Dc and
 * Shell Scripts tests, in a program of their own as UnixBench's spawn and
 * looper are.
 *
 * unixbench-loop SECONDS spawn          fork; the child exits at once; wait
 * unixbench-loop SECONDS run CMD ARG... fork; the child runs CMD; wait
 *
 * Loops until SECONDS have passed (spawn: an interval timer's SIGALRM, as
 * upstream's alarm, no clock read in the loop; run: the clock read every
 * loop, so a sample has at least one), then prints "LOOPS SECS" on
 * standard error and exits 0.  Standard input and output are the children's, as looper's are;
 * unixbench starts it with no other file open (each fork copies and each
 * exit closes every open file) and its standard error a file, as Run
 * starts upstream's programs.
 *
 * Why a program of its own: under QEMU -icount a fork costs what the
 * kernel does for the parent's memory (its page tables copied, every
 * written page made copy-on-write and copied again on the next write), so
 * the loop in unixbench's own 100 KB program read 4-12% fewer forks than
 * upstream's small programs (docs/BENCHMARKS.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

#define PROG "unixbench-loop"

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	krp_vmessage(PROG, fmt, ap);
	va_end(ap);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One fork: the child execs cmd; the parent waits.  Returns the child's
 * wait status. */
static int fork_once(char **cmd)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	return st;
}

static double t0;
static volatile unsigned long loops; /* a global, written every loop */

/* The sample's time is up (SIGALRM): report the loops done so far. */
static void report(int sig)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%lu %.6f\n", loops, now() - t0);

	(void)sig;
	if (write(STDERR_FILENO, buf, (size_t)n) != n)
		_exit(1);
	_exit(0);
}

int main(int argc, char **argv)
{
	struct itimerval it = {{0, 0}, {0, 0}};
	double seconds;
	char *e, **cmd = NULL;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		puts("usage: " PROG " SECONDS spawn | " PROG " SECONDS run CMD [ARG...]\n"
		     "  spawn: fork and wait for a child that exits at once, until SIGALRM;\n"
		     "  run: run CMD over and over; prints 'LOOPS SECONDS' on stderr");
		return 0;
	}
	if (argc < 3)
		die("usage: " PROG " SECONDS spawn | " PROG " SECONDS run CMD [ARG...]");
	seconds = strtod(argv[1], &e);
	if (*e || !(seconds > 0 && seconds <= 3600))
		die("'%s' is not a number of seconds in (0, 3600]", argv[1]);
	if (strcmp(argv[2], "run") == 0 && argc > 3)
		cmd = argv + 3;
	else if (strcmp(argv[2], "spawn") != 0 || argc != 3)
		die("usage: " PROG " SECONDS spawn | " PROG " SECONDS run CMD [ARG...]");
	if (cmd) { /* the clock read every loop: a sample has at least one */
		double end;

		t0 = now();
		end = t0 + seconds;
		do {
			int st = fork_once(cmd);

			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
				die("%s failed (status 0x%x)", cmd[0], (unsigned)st);
			loops++;
		} while (now() < end);
		fprintf(stderr, "%lu %.6f\n", loops, now() - t0);
		return 0;
	}
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
	signal(SIGALRM, report);
	t0 = now();
	setitimer(ITIMER_REAL, &it, NULL);
	for (;;) { /* spawn: as upstream's, no clock in the loop */
		int st;
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0)
			_exit(0);
		while (wait(&st) < 0)
			if (errno != EINTR)
				die("wait: %s", strerror(errno));
		if (st != 0)
			die("the child failed (status 0x%x)", (unsigned)st);
		loops++;
	}
}
