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
 * upstream's small programs (docs/BENCHMARKS.md).  For the same reason:
 * the clock is read with the system call, not the vDSO, as one vDSO read
 * maps the vvar pages and every fork then copies their page tables (2-3
 * pages a fork, measured in the guest; upstream's programs never read the
 * clock); SECONDS is parsed here, not by strtod, and only diag.c of
 * tools/common is linked (Makefile), so the code is six pages as upstream's
 * spawn's (each child maps all of them when it first runs).  */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

	/* the system call: see the top of this file */
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* S as a decimal number of seconds: digits, an optional fraction, an
 * optional exponent (as %g prints one); -1 if it is not one. */
static double parse_seconds(const char *s)
{
	double v = 0, scale = 1;
	int digits = 0, ex = 0, neg = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++)
		v = v * 10 + (*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++)
			v += (*s - '0') * (scale /= 10);
	if (digits && (*s == 'e' || *s == 'E')) {
		s++;
		if (*s == '+' || *s == '-')
			neg = *s++ == '-';
		if (*s < '0' || *s > '9')
			return -1;
		for (; *s >= '0' && *s <= '9' && ex < 100; s++)
			ex = ex * 10 + (*s - '0');
		while (ex-- > 0)
			v = neg ? v / 10 : v * 10;
	}
	return *s || !digits ? -1 : v;
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
	char **cmd = NULL;

	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		puts("usage: " PROG " SECONDS spawn | " PROG " SECONDS run CMD [ARG...]\n"
		     "  spawn: fork and wait for a child that exits at once, until SIGALRM;\n"
		     "  run: run CMD over and over; prints 'LOOPS SECONDS' on stderr");
		return 0;
	}
	if (argc < 3)
		die("usage: " PROG " SECONDS spawn | " PROG " SECONDS run CMD [ARG...]");
	seconds = parse_seconds(argv[1]);
	if (!(seconds > 0 && seconds <= 3600))
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
			exit(0); /* as upstream's child */
		while (wait(&st) < 0)
			if (errno != EINTR)
				die("wait: %s", strerror(errno));
		if (st != 0)
			die("the child failed (status 0x%x)", (unsigned)st);
		loops++;
	}
}
