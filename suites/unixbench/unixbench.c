/* unixbench: a subset of BYTE UnixBench in one static program.
 *
 * unixbench [-t SECONDS] [-i SAMPLES] [-c COPIES] [-d DIR] TEST...
 *
 * Every test runs SAMPLES samples of SECONDS each; the samples are combined
 * as UnixBench's Run does (drop the worst third, geometric mean) and
 * printed as UnixBench's text line, e.g.
 *   Execl Throughput 2915.4 lps (29.6 secs, 3 samples)
 * With COPIES over 1, each sample runs that many copies of the test at
 * once, each a process, and sums their results as Run -c N does
 * (ub_copies); a line saying so comes first.
 * Tests: dhry2reg, execl, file-{read,write,copy}-{256,1024,4096} (bufsize
 * 256/500, 1024/2000, 4096/8000 maxblocks), files (all nine), whetstone-double,
 * pipe, context1, syscall, spawn, dc, shell1, shell8, shell16, arithoh,
 * short, int, long, float, double, hanoi, sysexec, all.
 * Shell scripts run "multi.sh N", a script of /bin/sh (busybox sh in the
 * guest), over a fixed workload written into DIR (default $TMPDIR or
 * /tmp).  The file tests are ub_fstime.h, the shell scripts and dc
 * ub_shell.h: parts of this program, one a job, included below. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "ub_calc.h"
#include "ub_dhry.h"

#define PROG "unixbench"
#define MAX_SAMPLES 100
#define MAX_COPIES 4096

static double seconds = 10;
static unsigned samples = 3;
static unsigned copies = 1;
static const char *dir;

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout); /* what was measured so far comes first */
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

/* One sample: fills *count and *secs. */
typedef void (*sample_fn)(const void *arg, double *count, double *secs);

struct ub_test {
	const char *token; /* command-line name */
	const char *name;  /* UnixBench's name */
	const char *unit;  /* lps, lpm, KBps */
	sample_fn fn;
	const void *arg;
	int not_in_all; /* run only when named (below) */
};

/* ---- execl: the program re-executes itself until the time is up ---- */

/* Child image: "FULLPATH --execl-child END_US COUNT", its standard error a
 * pipe to the parent.  Each exec makes upstream's execl's calls: the
 * count by atoi, the end by sscanf, both printed again by sprintf, one
 * clock read, and the program re-executed by its full path in argv[0]
 * (callgrind: about 4,700 user instructions an exec, as upstream's; the
 * kit's strtoull/strtod/snprintf child took 2,700, 1% of an exec under
 * -icount, and went through /proc/self/exe). */
static int execl_child(char **argv)
{
	unsigned long iter = (unsigned long)atoi(argv[3]), end = 0;
	char count_str[24], end_str[24];
	struct timespec ts;

	sscanf(argv[2], "%lu", &end);
	sprintf(count_str, "%lu", ++iter);
	sprintf(end_str, "%lu", end);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if ((unsigned long)ts.tv_sec * 1000000UL + (unsigned long)ts.tv_nsec / 1000 >= end) {
		fprintf(stderr, "%lu\n", iter);
		return 0;
	}
	execl(argv[0], argv[0], "--execl-child", end_str, count_str, (char *)NULL);
	return 127;
}

static void sample_execl(const void *arg, double *count, double *secs)
{
	static char fullpath[PATH_MAX];
	int p[2];
	char endbuf[32], rbuf[64];
	double t0 = now();
	pid_t pid;
	ssize_t n;
	int st;

	(void)arg;
	if (!fullpath[0]) {
		ssize_t len = readlink("/proc/self/exe", fullpath, sizeof(fullpath) - 1);

		if (len <= 0)
			die("execl: readlink /proc/self/exe: %s",
			    len < 0 ? strerror(errno) : "empty");
		fullpath[len] = '\0';
	}
	if (pipe(p) < 0)
		die("pipe: %s", strerror(errno));
	snprintf(endbuf, sizeof(endbuf), "%lu", (unsigned long)((t0 + seconds) * 1e6));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], 2) < 0)
			_exit(127);
		close(p[1]);
		execl(fullpath, fullpath, "--execl-child", endbuf, "0", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], rbuf, sizeof(rbuf) - 1);
	close(p[0]);
	waitpid(pid, &st, 0);
	*secs = now() - t0;
	if (n <= 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("execl: the re-executed child failed");
	rbuf[n] = '\0';
	*count = strtod(rbuf, NULL);
}

/* One sample's interval timer: SECONDS, once (the file and arithmetic
 * tests stop on its SIGALRM, as upstream's programs on alarm()'s). */
static struct itimerval sample_timer(void)
{
	struct itimerval it = {{0, 0}, {0, 0}};

	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
	return it;
}

#include "ub_fstime.h"

/* ---- loops timed against the clock every BATCH iterations ---- */

#define TIMED_LOOP(batch, body)                                                                    \
	do {                                                                                       \
		double t0_ = now(), end_ = t0_ + seconds, n_ = 0;                                  \
		for (;;) {                                                                         \
			for (int k_ = 0; k_ < (batch); k_++) {                                     \
				body;                                                              \
			}                                                                          \
			n_ += (batch);                                                             \
			if (now() >= end_)                                                         \
				break;                                                             \
		}                                                                                  \
		*secs = now() - t0_;                                                               \
		*count = n_;                                                                       \
	} while (0)

static void sample_pipe(const void *arg, double *count, double *secs)
{
	char buf[512];
	int p[2];

	(void)arg;
	memset(buf, 'p', sizeof(buf));
	if (pipe(p) < 0)
		die("pipe: %s", strerror(errno));
	TIMED_LOOP(1024, if (write(p[1], buf, sizeof(buf)) != sizeof(buf) ||
			     read(p[0], buf, sizeof(buf)) != sizeof(buf))
			     die("pipe: %s", strerror(errno)));
	close(p[0]);
	close(p[1]);
}

/* System Call Overhead as UnixBench's syscall "mix": close(dup(fd)) on the
 * read end of a pipe whose write end is closed, getpid through syscall()
 * (libc's variadic function, not getpid()'s inline system call), getuid(),
 * umask(022).  With dup(0) (the console) and getpid() the kit read 1.027
 * of upstream's in exact mode, 1.000 now. */
static void sample_syscall(const void *arg, double *count, double *secs)
{
	int p[2];

	(void)arg;
	if (pipe(p) < 0 || close(p[1]) < 0)
		die("pipe: %s", strerror(errno));
	TIMED_LOOP(1024, {
		close(dup(p[0]));
		(void)syscall(SYS_getpid);
		(void)getuid();
		umask(022);
	});
	close(p[0]);
}

/* context1: two processes pass a counter back and forth through two pipes,
 * each checking it is the one it expects; one loop is a round trip. */
static void context1_echo(int rfd, int wfd)
{
	unsigned long want = 0, got;

	for (;;) {
		ssize_t n = read(rfd, &got, sizeof(got));

		if (n == 0)
			_exit(0); /* the counting side is done */
		if (n != sizeof(got) || got != want)
			_exit(2);
		if (write(wfd, &got, sizeof(got)) != sizeof(got))
			_exit(2);
		want++;
	}
}

static void sample_context1(const void *arg, double *count, double *secs)
{
	unsigned long iter = 0, check;
	int to[2], from[2], st;
	pid_t pid;

	(void)arg;
	if (pipe(to) < 0 || pipe(from) < 0)
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		context1_echo(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	/* a small batch: the count is whole batches (64 of ~10^5 a second) */
	TIMED_LOOP(64, {
		if (write(to[1], &iter, sizeof(iter)) != sizeof(iter) ||
		    read(from[0], &check, sizeof(check)) != sizeof(check))
			die("context1: %s", strerror(errno));
		if (check != iter)
			die("context1: sync error: expected %lu, got %lu", iter, check);
		iter++;
	});
	close(to[1]);
	close(from[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("context1: the echoing process failed");
}

/* Whetstone's loop counts read at run time, as upstream's whetstones()
 * takes x100 as a parameter: with constant counts gcc counts the loops down
 * (one instruction an iteration less than upstream's compare). */
static volatile long whet_x100 = UB_WHET_X100;

/* Double-Precision Whetstone as UnixBench runs it: calibrate the number of
 * passes (x5 until a run takes over 0.5 s), run for about SECONDS, report
 * MWIPS from the section times (ub_whet_* in ub_calc.h); a section's array
 * is set before its clock starts, as upstream's. */
static double whet_run(long passes, double *used)
{
	struct ub_whet w;
	double total = 0, mwips;
	long x100 = whet_x100;

	ub_whet_init(&w);
	for (int sec = 1; sec <= UB_WHET_SECTIONS; sec++) {
		double t0, t;

		ub_whet_prepare(&w, sec);
		t0 = now();
		ub_whet_section(&w, sec, passes, x100);
		t = now() - t0;
		total += sec == 1 ? t / UB_WHET_N1_MULT : t; /* as upstream counts it */
	}
	mwips = ub_whet_mwips(passes, total);
	*used = total;
	return mwips;
}

static void sample_whetstone(const void *arg, double *count, double *secs)
{
	long passes = 1;
	double used = 0;

	(void)arg;
	for (int k = 0; k < 10; k++) {
		whet_run(passes, &used);
		if (used > 0.5)
			break;
		passes *= 5;
	}
	passes = ub_whet_passes(seconds, passes, used);
	*count = whet_run(passes, &used);
	*secs = used;
}

/* Dhrystone 2 as UnixBench's dhry2reg (ub_dhry.h): runs until the time is
 * up, the clock read every 4096 runs (about a millisecond natively). */
static void sample_dhry(const void *arg, double *count, double *secs)
{
	double t0, end, n = 0;

	(void)arg;
	if (ub_dhry_init() != 0)
		die("out of memory");
	t0 = now();
	end = t0 + seconds;
	do {
		ub_dhry_runs(4096, NULL);
		n += 4096;
	} while (now() < end);
	*secs = now() - t0;
	*count = n;
	ub_dhry_free();
}

/* ---- fork loops: in unixbench-loop, a small program of its own ---- */

/* Runs "unixbench-loop SECONDS ARGS..." (beside this program) as Run runs
 * upstream's spawn and looper: in_fd (or this program's) its standard
 * input, /dev/null its standard output, a file its standard error (where
 * it writes "LOOPS SECS", or why it failed), no other open file, in cwd if
 * not NULL.  Each fork copies and each exit closes what the looping program
 * holds, so it holds what upstream's does; and under -icount a fork's cost
 * follows the forking program's memory, so it is a small program of its
 * own as upstream's are (unixbench-loop.c). */
static void fork_loop(const char *what, char *const args[], const char *cwd, int in_fd,
		      double *count, double *secs)
{
	char self[4096], helper[4200], sbuf[32], msg[512], *argv[16];
	int out = open_tmp("loop", O_RDWR), st, i;
	ssize_t n, len;
	pid_t pid;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	if (strrchr(self, '/'))
		*strrchr(self, '/') = '\0';
	snprintf(helper, sizeof(helper), "%s/unixbench-loop", self);
	snprintf(sbuf, sizeof(sbuf), "%g", seconds);
	argv[0] = "unixbench-loop";
	argv[1] = sbuf;
	for (i = 0; args[i] && i < 13; i++)
		argv[i + 2] = args[i];
	argv[i + 2] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		if (cwd && chdir(cwd) < 0)
			_exit(126);
		if (in_fd >= 0)
			dup2(in_fd, STDIN_FILENO);
		if (nul >= 0)
			dup2(nul, STDOUT_FILENO);
		dup2(out, STDERR_FILENO);
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
		execv(helper, argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	len = pread(out, msg, sizeof(msg) - 1, 0);
	close(out);
	if (len < 0)
		len = 0;
	msg[len] = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || sscanf(msg, "%lf %lf", count, secs) != 2) {
		if (len && msg[len - 1] == '\n')
			msg[len - 1] = '\0';
		die("%s failed (%s: %s)", what, helper,
		    len					      ? msg
		    : WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not run"
							      : "no result");
	}
}

static void sample_spawn(const void *arg, double *count, double *secs)
{
	char *args[] = {"spawn", NULL};

	(void)arg;
	fork_loop("spawn", args, NULL, -1, count, secs);
}

#include "ub_shell.h"
#include "ub_arith.h"

/* Exec System Call Overhead as UnixBench's syscall "exec": fork, the child
 * execs /bin/true (the guest's busybox), wait; the loop in unixbench-loop,
 * as the fork loops above. */
static void sample_sysexec(const void *arg, double *count, double *secs)
{
	char *args[] = {"run", "/bin/true", NULL};

	(void)arg;
	fork_loop("sysexec", args, NULL, -1, count, secs);
}

/* ---- table and runner ---- */

static const struct fs_arg fs_args[] = {
    {FS_READ, 1024, 2000}, {FS_WRITE, 1024, 2000}, {FS_COPY, 1024, 2000},
    {FS_READ, 256, 500},   {FS_WRITE, 256, 500},   {FS_COPY, 256, 500},
    {FS_READ, 4096, 8000}, {FS_WRITE, 4096, 8000}, {FS_COPY, 4096, 8000},
};

static const struct ub_test tests[] = {
    {"dhry2reg", "Dhrystone 2 using register variables", "lps", sample_dhry, NULL, 0},
    {"execl", "Execl Throughput", "lps", sample_execl, NULL, 0},
    {"file-read-1024", "File Read 1024 bufsize 2000 maxblocks", "KBps", sample_fs, &fs_args[0], 0},
    {"file-write-1024", "File Write 1024 bufsize 2000 maxblocks", "KBps", sample_fs, &fs_args[1],
     0},
    {"file-copy-1024", "File Copy 1024 bufsize 2000 maxblocks", "KBps", sample_fs, &fs_args[2], 0},
    {"file-read-256", "File Read 256 bufsize 500 maxblocks", "KBps", sample_fs, &fs_args[3], 0},
    {"file-write-256", "File Write 256 bufsize 500 maxblocks", "KBps", sample_fs, &fs_args[4], 0},
    {"file-copy-256", "File Copy 256 bufsize 500 maxblocks", "KBps", sample_fs, &fs_args[5], 0},
    {"file-read-4096", "File Read 4096 bufsize 8000 maxblocks", "KBps", sample_fs, &fs_args[6], 0},
    {"file-write-4096", "File Write 4096 bufsize 8000 maxblocks", "KBps", sample_fs, &fs_args[7],
     0},
    {"file-copy-4096", "File Copy 4096 bufsize 8000 maxblocks", "KBps", sample_fs, &fs_args[8], 0},
    {"whetstone-double", "Double-Precision Whetstone", "MWIPS", sample_whetstone, NULL, 0},
    {"pipe", "Pipe Throughput", "lps", sample_pipe, NULL, 0},
    {"context1", "Pipe-based Context Switching", "lps", sample_context1, NULL, 0},
    {"syscall", "System Call Overhead", "lps", sample_syscall, NULL, 0},
    {"spawn", "Process Creation", "lps", sample_spawn, NULL, 0},
    {"dc", "Dc: sqrt(2) to 99 decimal places", "lpm", sample_dc, NULL, 0},
    {"shell1", "Shell Scripts (1 concurrent)", "lpm", sample_shell, "1", 0},
    {"shell8", "Shell Scripts (8 concurrent)", "lpm", sample_shell, "8", 0},
    {"shell16", "Shell Scripts (16 concurrent)", "lpm", sample_shell, "16", 0},
    {"arithoh", "Arithoh", "lps", sample_arithoh, NULL, 1},
    {"short", "Arithmetic Test (short)", "lps", sample_arith_short, NULL, 1},
    {"int", "Arithmetic Test (int)", "lps", sample_arith_int, NULL, 1},
    {"long", "Arithmetic Test (long)", "lps", sample_arith_long, NULL, 1},
    {"float", "Arithmetic Test (float)", "lps", sample_arith_float, NULL, 1},
    {"double", "Arithmetic Test (double)", "lps", sample_arith_double, NULL, 1},
    {"hanoi", "Recursion Test -- Tower of Hanoi", "lps", sample_hanoi, NULL, 1},
    {"sysexec", "Exec System Call Overhead", "lps", sample_sysexec, NULL, 1},
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))

/* Names of sets of tests: every test (but the last eight, UnixBench's
 * arithmetic, recursion and exec tests, which its Run leaves out unless
 * named too), the nine file tests (the names
 * suites/unixbench/meta's tests line reads: the key table's list). */
enum { SET_ALL, SET_FILES };
static const char *const sets[] = {"all", "files"};

/* UnixBench's own names of the file tests (its pgms/index.base, its Run
 * script and lkp-tests' jobs): the same tests under the names above. */
static const struct {
	const char *alias, *token;
} aliases[] = {
    {"fstime", "file-copy-1024"},    {"fstime-r", "file-read-1024"},
    {"fstime-w", "file-write-1024"}, {"fsbuffer", "file-copy-256"},
    {"fsbuffer-r", "file-read-256"}, {"fsbuffer-w", "file-write-256"},
    {"fsdisk", "file-copy-4096"},    {"fsdisk-r", "file-read-4096"},
    {"fsdisk-w", "file-write-4096"},
};

/* One sample of t: by this process, or by COPIES processes at once, each
 * sending its count and time through a pipe (16 bytes: one write each). */
static void sample_copies(const struct ub_test *t, double *count, double *secs)
{
	static double cnt[MAX_COPIES], sec[MAX_COPIES];
	unsigned got = 0, failed = 0;
	int fd[2];

	if (copies == 1) {
		t->fn(t->arg, count, secs);
		return;
	}
	if (pipe(fd) < 0)
		die("pipe: %s", strerror(errno));
	for (unsigned c = 0; c < copies; c++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			double r[2] = {0, 0};

			close(fd[0]);
			t->fn(t->arg, &r[0], &r[1]);
			_exit(write(fd[1], r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
		}
	}
	close(fd[1]);
	for (;;) {
		double r[2];
		ssize_t n = read(fd[0], r, sizeof(r));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(r) || got == copies)
			break;
		cnt[got] = r[0];
		sec[got++] = r[1];
	}
	close(fd[0]);
	for (;;) { /* the copies are this process's only children now */
		int st;
		pid_t w = wait(&st);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		failed |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
	}
	if (failed || got != copies)
		die("%s: %u of %u copies gave a result", t->token, got, copies);
	ub_copies(cnt, sec, copies, count, secs);
}

static void run_test(const struct ub_test *t)
{
	struct ub_sample s[MAX_SAMPLES];
	double tsum = 0;
	char line[256];
	int per_minute = strcmp(t->unit, "lpm") == 0;
	int score_is_count = strcmp(t->unit, "KBps") == 0; /* fstime reports its KBps */
	int reports_rate = strcmp(t->unit, "MWIPS") == 0;  /* and whetstone its MWIPS */

	for (unsigned i = 0; i < samples; i++) {
		double count = 0, secs = 0;

		sample_copies(t, &count, &secs);
		s[i].rate = reports_rate ? count : ub_rate(count, secs, per_minute);
		s[i].count = score_is_count || reports_rate ? s[i].rate : count;
		tsum += secs;
	}
	ub_format_line(line, sizeof(line), t->name, ub_combine(s, samples), t->unit, tsum / samples,
		       samples);
	fputs(line, stdout);
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [-t SECONDS] [-i SAMPLES] [-c COPIES] [-d DIR] TEST...\n"
		"  -t SECONDS   length of one sample (default 10)\n"
		"  -i SAMPLES   samples per test (default 3)\n"
		"  -c COPIES    copies of each test run at once, results summed (default 1)\n"
		"  -d DIR       directory for the file and shell tests (default $TMPDIR or /tmp)\n"
		"Tests: all files");
	for (size_t i = 0; i < NTESTS; i++)
		fprintf(f, " %s", tests[i].token);
	fprintf(f, "\nUnixBench's names of the file tests:");
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		fprintf(f, " %s", aliases[i].alias);
	fprintf(
	    f, "\nPrints UnixBench's lines: '<test> <value> <unit> (<secs> secs, <n> samples)'.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	unsigned char want[NTESTS] = {0};
	int c, any = 0;

	if (argc == 4 && strcmp(argv[1], "--execl-child") == 0)
		return execl_child(argv);
	while ((c = getopt_long(argc, argv, "t:i:c:d:h", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 't':
			seconds = strtod(optarg, &end);
			if (*end || !(seconds > 0 && seconds <= 3600))
				die("-t: '%s' is not a number of seconds in (0, 3600]", optarg);
			break;
		case 'i': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || *optarg < '0' || *optarg > '9' || v < 1 || v > MAX_SAMPLES)
				die("-i: '%s' is not a number in 1..%d", optarg, MAX_SAMPLES);
			samples = (unsigned)v;
			break;
		}
		case 'c': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || *optarg < '0' || *optarg > '9' || v < 1 || v > MAX_COPIES)
				die("-c: '%s' is not a number in 1..%d", optarg, MAX_COPIES);
			copies = (unsigned)v;
			break;
		}
		case 'd':
			dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!dir) {
		dir = getenv("TMPDIR");
		if (!dir || !*dir)
			dir = "/tmp";
	}
	for (int i = optind; i < argc; i++) {
		const char *name = argv[i];
		int found = 0;

		for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
			if (strcmp(name, aliases[a].alias) == 0)
				name = aliases[a].token;
		for (size_t k = 0; k < NTESTS; k++) {
			if ((strcmp(argv[i], sets[SET_ALL]) == 0 && !tests[k].not_in_all) ||
			    strcmp(name, tests[k].token) == 0 ||
			    (strcmp(argv[i], sets[SET_FILES]) == 0 && tests[k].fn == sample_fs)) {
				want[k] = 1;
				found = 1;
			}
		}
		if (!found)
			die("unknown test '%s' (see --help)", argv[i]);
		any = 1;
	}
	if (!any) {
		usage(stderr);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (copies > 1) /* UnixBench's words */
		printf("running %u parallel copies of tests\n", copies);
	for (size_t k = 0; k < NTESTS; k++)
		if (want[k])
			run_test(&tests[k]);
	return ferror(stdout) ? 1 : 0;
}
