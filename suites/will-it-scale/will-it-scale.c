/* will-it-scale: a will-it-scale style runner with built-in testcases.
 *
 * Starts NR_TASK processes or threads running one testcase; each task
 * increments its own counter (one 256-byte slot per task in a shared
 * anonymous mapping).  After each 1 s sleep the runner prints the min,
 * max and total of the per-task deltas; after the warmup samples it
 * averages SECONDS measured samples and prints the LKP runtest CSV.
 *
 * Two builds of the runner and its testcases, as upstream's X_processes
 * and X_threads: will-it-scale runs processes, will-it-scale-threads
 * (WIS_THREAD_BUILD) threads.  A static musl program that links pthread_cancel, which the
 * thread build needs to stop its tasks, sends every cancellable system
 * call (read, write, poll, close, open, ...) through the cancellation
 * path: about 30 instructions more a call, 2-8% of pipe1, dup1, poll1 and
 * eventfd1 in exact mode.  Upstream's process binary does not link it.
 *
 * Adding a testcase: a file tests/NAME.c (testcase.h says what it holds);
 * the Makefile lists tests/ into wis_tests[] (its generated wis_tests.h),
 * in the order of the names. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "model_mark.h"
#include "numa_nodes.h"
#include "testcase.h"
#include "wis_calc.h"

#define SLOT_SIZE 256 /* bytes per task counter: no false sharing */
#define MAX_TASKS 4096
#define MAX_SECONDS 1000000UL

/* The testcases, one a file of tests/: WIS_TEST(NAME) a file, generated. */
#define WIS_TEST(name) extern const struct wis_test wis_test_##name;
#include "wis_tests.h"
#undef WIS_TEST
static const struct wis_test *const wis_tests[] = {
#define WIS_TEST(name) &wis_test_##name,
#include "wis_tests.h"
#undef WIS_TEST
};

struct opts {
	const struct wis_test *test;
	unsigned long nr;
	unsigned long seconds;
	unsigned long warmup;
	int affinity;
	int sweep_linear;		  /* -L given: the CSV's linear column */
	unsigned long long linear_of_one; /* -L: the 1-task average */
};

static struct opts opt = {.warmup = 6, .affinity = 1};

static int start_pipe[2] = {-1, -1}; /* runner writes one byte: go */
static int ready_pipe[2] = {-1, -1}; /* each task writes 'R' (ready) or 'F' */
static unsigned char *counters;	     /* nr * SLOT_SIZE bytes, MAP_SHARED */
static pid_t *pids;
static size_t pagesize;

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " -t TEST -m process|thread -n NR_TASK -s SECONDS\n"
		   "       [-w WARMUP_SECONDS] [-L AVERAGE] [--no-affinity]\n"
		   "       " PROG " --sweep-counts RUNTIME\n"
		   "  -t TEST          testcase:");
	for (size_t i = 0; i < sizeof(wis_tests) / sizeof(wis_tests[0]); i++)
		fprintf(f, " %s", wis_tests[i]->name);
	fprintf(f,
		"\n"
		"  -m MODE          process (will-it-scale) or thread (will-it-scale-threads):\n"
		"                   each build runs one mode, as upstream's two binaries\n"
		"  -n NR_TASK       number of parallel tasks (1..%d)\n"
		"  -s SECONDS       measured seconds (after the warmup)\n"
		"  -w SAMPLES       warmup samples discarded (default 6, as upstream's\n"
		"                   main.c, whose WARMUP_ITERATIONS 5 discards samples 0-5)\n"
		"  -L AVERAGE       a sweep's run: the CSV's linear column is AVERAGE (the\n"
		"                   1-task run's) times NR_TASK, this run's average at 1 task\n"
		"  --no-affinity    do not pin task i to CPU i %% nr_cpus\n"
		"  --sweep-counts RUNTIME  print lkp-tests' task counts for a sweep on this\n"
		"                   machine (CPUs, nodes, threads a core, L2 and L3 instances\n"
		"                   from sysfs, as its lscpu reads them), then each count's\n"
		"                   measured seconds for a sweep of RUNTIME seconds; what\n"
		"                   they came from on stderr\n"
		"Prints 'warmup', one 'min:N max:N total:N' line a sample (the runner\n"
		"sleeps 1 s after each read, as upstream's), 'measurement'\n"
		"after the warmup, 'average:N' (ops/s over all tasks) and the LKP CSV.\n",
		MAX_TASKS);
}

#define die_usage(...) krp_die_usage(PROG, __VA_ARGS__)

/* OPTION's value S, a number in MIN..MAX (OPTION as the user wrote it: -n) */
static unsigned long parse_ulong(const char *s, const char *o, unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		die_usage("%s: not a number: '%s'", o, s);
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		die_usage("%s: '%s' out of range %lu..%lu", o, s, min, max);
	return v;
}

/* ---- lkp-tests' sweep: its task counts from this machine's topology ---- */

/* The first line of a small sysfs file, without its newline ("" if none). */
static void read_line(const char *path, char *buf, size_t sz)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)sz, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* Cache instances of a level: the distinct shared_cpu_list of every CPU's
 * caches of that level (what lscpu counts as "(N instances)"). */
static unsigned long cache_instances(const char *level)
{
	static char seen[4096][64];
	unsigned long n = 0;
	glob_t g;

	if (glob("/sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*", 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char path[512], lv[16], list[64];
		unsigned long k;

		snprintf(path, sizeof(path), "%s/level", g.gl_pathv[i]);
		read_line(path, lv, sizeof(lv));
		if (strcmp(lv, level) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/shared_cpu_list", g.gl_pathv[i]);
		read_line(path, list, sizeof(list));
		for (k = 0; k < n && strcmp(seen[k], list) != 0; k++)
			;
		if (k == n && n < sizeof(seen) / sizeof(seen[0]))
			snprintf(seen[n++], sizeof(seen[0]), "%s", list);
	}
	globfree(&g);
	return n;
}

/* --sweep-counts RUNTIME: "1 2 ..." and the measured seconds of each count
 * on stdout, their sources on stderr; exit 1 with lkp-tests' reason when
 * the topology gives no counts. */
static int print_sweep_counts(unsigned long runtime)
{
	unsigned long counts[64], cpus, nodes = krp_count_nodes(), tpc = 0, l2, l3;
	unsigned long siblings[64];
	long on = sysconf(_SC_NPROCESSORS_ONLN);
	char list[256];
	int n;

	cpus = on > 0 ? (unsigned long)on : 1;
	read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", list, sizeof(list));
	if (krp_cpulist_parse(list, siblings, 64) == 0)
		for (int w = 0; w < 64; w++)
			tpc += (unsigned long)__builtin_popcountl(siblings[w]);
	l2 = cache_instances("2");
	l3 = cache_instances("3");
	fprintf(stderr,
		"cpus=%lu nodes=%lu threads_per_core=%lu l2_instances=%lu l3_instances=%lu\n", cpus,
		nodes, tpc, l2, l3);
	n = wis_sweep_counts(cpus, nodes, tpc, l2, l3, counts, 64);
	if (n <= 0) {
		fprintf(stderr,
			PROG ": no task counts for a sweep: lkp-tests' setup_threads_to_iterate "
			     "needs an L3 cache and a core a node (cpus=%lu nodes=%lu "
			     "threads_per_core=%lu l3_instances=%lu)\n",
			cpus, nodes, tpc, l3);
		return 1;
	}
	for (int i = 0; i < n; i++)
		printf("%s%lu", i ? " " : "", counts[i]);
	printf("\n%lu\n", wis_sweep_seconds(runtime, nodes));
	return fflush(stdout) == 0 ? 0 : 1;
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"no-affinity", no_argument, NULL, 'A'},
	    {"sweep-counts", required_argument, NULL, 'S'},
	    {NULL, 0, NULL, 0},
	};
	int c, have_m = 0, have_n = 0, have_s = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:m:n:s:w:L:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			opt.test = NULL;
			for (size_t i = 0; i < sizeof(wis_tests) / sizeof(wis_tests[0]); i++)
				if (strcmp(optarg, wis_tests[i]->name) == 0)
					opt.test = wis_tests[i];
			if (!opt.test)
				die_usage("unknown testcase '%s'", optarg);
			break;
		case 'm':
			if (strcmp(optarg, "process") != 0 && strcmp(optarg, "thread") != 0)
				die_usage("-m: expected process or thread, got '%s'", optarg);
			if ((strcmp(optarg, "thread") == 0) != WIS_THREADS)
				die_usage("-m %s: this build runs %s; run %s", optarg,
					  WIS_THREADS ? "threads" : "processes",
					  WIS_THREADS ? "will-it-scale" : "will-it-scale-threads");
			have_m = 1;
			break;
		case 'n':
			opt.nr = parse_ulong(optarg, "-n", 1, MAX_TASKS);
			have_n = 1;
			break;
		case 's':
			opt.seconds = parse_ulong(optarg, "-s", 1, MAX_SECONDS);
			have_s = 1;
			break;
		case 'w':
			opt.warmup = parse_ulong(optarg, "-w", 0, MAX_SECONDS);
			break;
		case 'A':
			opt.affinity = 0;
			break;
		case 'L':
			opt.linear_of_one = parse_ulong(optarg, "-L", 0, (unsigned long)-1);
			opt.sweep_linear = 1;
			break;
		case 'S':
			exit(print_sweep_counts(
			    parse_ulong(optarg, "--sweep-counts", 1, MAX_SECONDS)));
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			if (optopt)
				die_usage("option '-%c' needs an argument", optopt);
			die_usage("option '%s' needs an argument", argv[optind - 1]);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!opt.test)
		die_usage("missing -t TEST");
	if (!have_m)
		die_usage("missing -m process|thread");
	if (!have_n)
		die_usage("missing -n NR_TASK");
	if (!have_s)
		die_usage("missing -s SECONDS");
}

static void kill_tasks(void);

static void fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	krp_vmessage(PROG, fmt, ap);
	va_end(ap);
	kill_tasks(); /* children would die with us (PDEATHSIG), but be explicit */
	exit(1);
}

/* CPUs of our affinity mask in ascending order; task i goes to
 * cpus[i % ncpus] (= CPU i % nr_online_cpus with the usual full mask). */
static int *cpus;
static int ncpus;

static void get_cpus(void)
{
	cpu_set_t set;

	cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	if (!cpus)
		fatal("out of memory");
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpus[ncpus++] = i;
	}
	if (ncpus == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1)
			n = 1;
		if (n > CPU_SETSIZE)
			n = CPU_SETSIZE;
		for (ncpus = 0; ncpus < n; ncpus++)
			cpus[ncpus] = ncpus;
	}
}

static void write_ready(char c)
{
	while (write(ready_pipe[1], &c, 1) < 0 && errno == EINTR)
		;
}

/* Body of every task: pin, set up, report ready, wait for the start byte,
 * run.  Returns only on setup failure. */
static void task_body(struct wis_task *t)
{
	struct pollfd pfd = {.fd = start_pipe[0], .events = POLLIN};

	if (t->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		/* pid 0 = the calling thread */
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			task_msg(t, "sched_setaffinity cpu %d: %s", t->cpu, strerror(errno));
			write_ready('F');
			return;
		}
	}
	if (opt.test->setup && opt.test->setup(t) < 0) {
		write_ready('F');
		return;
	}
	write_ready('R');
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	opt.test->run(t);
}

#if WIS_THREADS
static pthread_t *tids; /* the tasks */

static void *thread_main(void *arg)
{
	/* as upstream: a task in a loop without a cancellation point (brk1,
	 * getppid1) still ends when the runner cancels it */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	task_body(arg);
	return NULL; /* setup failed; already reported */
}
#endif

static void init_task(struct wis_task *t, unsigned long i)
{
	t->idx = i;
	t->cpu = opt.affinity ? cpus[i % (unsigned long)ncpus] : -1;
	t->counter = (unsigned long long *)(void *)(counters + i * SLOT_SIZE);
	t->pagesize = pagesize;
	t->fd = -1;
	t->fd2 = -1;
	t->off = 0;
	t->fds = NULL;
}

static void start_tasks(void)
{
#if WIS_THREADS
	{
		struct wis_task *ts = calloc(opt.nr, sizeof(*ts));

		tids = calloc(opt.nr, sizeof(*tids));
		if (!ts || !tids)
			fatal("out of memory");
		for (unsigned long i = 0; i < opt.nr; i++) {
			int err;

			init_task(&ts[i], i);
			err = pthread_create(&tids[i], NULL, thread_main, &ts[i]);
			if (err)
				fatal("pthread_create: %s", strerror(err));
		}
	}
#else
	pid_t parent = getpid();

	pids = calloc(opt.nr, sizeof(*pids));
	if (!pids)
		fatal("out of memory");
	fflush(stdout);
	fflush(stderr);
	for (unsigned long i = 0; i < opt.nr; i++) {
		pid_t pid = fork();

		if (pid < 0)
			fatal("fork: %s", strerror(errno));
		if (pid == 0) {
			struct wis_task t;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1); /* the runner is already gone */
			init_task(&t, i);
			task_body(&t);
			_exit(1);
		}
		pids[i] = pid;
	}
#endif
}

/* Ends the tasks, as upstream: threads cancelled and joined, processes
 * killed and reaped. */
#if WIS_THREADS
static void kill_tasks(void)
{
	/* threads end with the process */
}

static void stop_tasks(void)
{
	struct timespec until;

	for (unsigned long i = 0; i < opt.nr; i++)
		pthread_cancel(tids[i]);
	/* Bounded: a task cancelled while it holds pthread_mutex1's shared
	 * mutex can leave a sibling waiting for it for ever (10 runs in 40
	 * with two tasks); exit() ends such a thread. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	for (unsigned long i = 0; i < opt.nr; i++)
		pthread_timedjoin_np(tids[i], NULL, &until);
}
#else
static void kill_tasks(void)
{
	for (unsigned long i = 0; pids && i < opt.nr; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
}

static void stop_tasks(void)
{
	kill_tasks();
	for (unsigned long i = 0; i < opt.nr; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}
#endif

/* In process mode: fatal if any task has exited. */
static void check_children(void)
{
	int st;
	pid_t pid;

	if (WIS_THREADS)
		return;
	pid = waitpid(-1, &st, WNOHANG);
	if (pid <= 0)
		return;
	for (unsigned long i = 0; i < opt.nr; i++)
		if (pids[i] == pid)
			pids[i] = 0;
	if (WIFSIGNALED(st))
		fatal("task pid %d killed by signal %d", (int)pid, WTERMSIG(st));
	fatal("task pid %d exited with status %d", (int)pid, WEXITSTATUS(st));
}

/* Waits until every task reported ready; fatal on a failure. */
static void wait_ready(void)
{
	unsigned long ready = 0;

	while (ready < opt.nr) {
		struct pollfd pfd = {.fd = ready_pipe[0], .events = POLLIN};
		char buf[256];
		ssize_t n;
		int r = poll(&pfd, 1, 1000);

		if (r < 0 && errno != EINTR)
			fatal("poll: %s", strerror(errno));
		if (r <= 0) {
			check_children();
			continue;
		}
		n = read(ready_pipe[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fatal("ready pipe: %s", n < 0 ? strerror(errno) : "unexpected EOF");
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != 'R')
				fatal("task setup failed");
		ready += (unsigned long)n;
	}
}

static void snapshot(unsigned long long *out)
{
	for (unsigned long i = 0; i < opt.nr; i++)
		out[i] = __atomic_load_n((unsigned long long *)(void *)(counters + i * SLOT_SIZE),
					 __ATOMIC_RELAXED);
}

/* Sleeps 1 s from now, as upstream's runner does between reads: each
 * window is 1 s plus the read and the wake-up, so a sample counts a
 * little more than 1 s of work, as upstream's do (docs/BENCHMARKS.md:
 * fixed deadlines read 0.2-1.8% under upstream's rounds). */
static void sleep_one_second(void)
{
	struct timespec left = {.tv_sec = 1, .tv_nsec = 0};
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left)) == EINTR)
		;
	if (err)
		fatal("clock_nanosleep: %s", strerror(err));
}

/* Reads /proc/stat's aggregate cpu line; returns 0 or -1 (warned). */
static int read_cpu(struct wis_cpu *c)
{
	char buf[4096];
	size_t len = 0;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		goto fail;
	while (len < sizeof(buf) - 1) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (memchr(buf, '\n', len))
			break; /* the cpu line is the first line */
	}
	close(fd);
	buf[len] = 0;
	if (wis_parse_proc_stat(buf, c) == 0)
		return 0;
	errno = EINVAL;
fail:
	fprintf(stderr, PROG ": warning: /proc/stat: %s; idle reported as 0\n", strerror(errno));
	return -1;
}

static void put_line(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long long *prev, *cur, measured = 0, average;
	struct wis_cpu cpu_before, cpu_after;
	int cpu_ok = 0;
	char line[256];
	char csv[512];
	long ps;

	parse_args(argc, argv);
	ps = sysconf(_SC_PAGESIZE);
	pagesize = ps > 0 ? (size_t)ps : 4096;

	/* The counters first, then the first malloc (its metadata mapping
	 * lands below them), as in upstream's runner: the tasks' lowest
	 * mapping is then private anonymous memory, so mmap1's 128 MiB merge
	 * with it as upstream's do (with the counters lowest, every mmap made
	 * a new VMA: 9% fewer ops in exact mode). */
	counters = mmap(NULL, opt.nr * SLOT_SIZE, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED)
		fatal("mmap counters: %s", strerror(errno));
	get_cpus();
	prev = calloc(opt.nr, sizeof(*prev));
	cur = calloc(opt.nr, sizeof(*cur));
	if (!prev || !cur)
		fatal("out of memory");
	if (pipe2(start_pipe, O_CLOEXEC) < 0 || pipe2(ready_pipe, O_CLOEXEC) < 0)
		fatal("pipe: %s", strerror(errno));

	if (opt.test->prepare && opt.test->prepare(opt.nr, pagesize) < 0) {
		named_files_remove(opt.nr);
		fatal("testcase %s: prepare failed", opt.test->name);
	}
	start_tasks();
	wait_ready();

	put_line("warmup\n");
	if (opt.warmup == 0) {
		put_line("measurement\n");
		cpu_ok = read_cpu(&cpu_before) == 0;
		krp_model_mark(1);
	}
	snapshot(prev);
	if (write(start_pipe[1], "g", 1) != 1)
		fatal("start pipe: %s", strerror(errno));

	for (unsigned long k = 1; k <= opt.warmup + opt.seconds; k++) {
		struct wis_sample s;
		unsigned long long *tmp;

		sleep_one_second();
		snapshot(cur);
		check_children();
		wis_sample_compute(prev, cur, opt.nr, &s);
		tmp = prev;
		prev = cur;
		cur = tmp;
		wis_format_sample(line, sizeof(line), &s);
		put_line(line);
		if (k > opt.warmup)
			measured += s.total;
		if (k == opt.warmup) {
			put_line("measurement\n");
			cpu_ok = read_cpu(&cpu_before) == 0;
			/* the memory model counts the measured seconds only */
			krp_model_mark(1);
		}
	}
	krp_model_mark(0);
	if (cpu_ok)
		cpu_ok = read_cpu(&cpu_after) == 0;

	average = wis_average(measured, opt.seconds);
	snprintf(line, sizeof(line), "average:%llu\n", average);
	put_line(line);
	wis_format_csv(csv, sizeof(csv), opt.nr, WIS_THREADS, average,
		       cpu_ok ? wis_idle_pct(&cpu_before, &cpu_after) : 0.0,
		       !opt.sweep_linear ? 0ULL
		       : opt.nr == 1	 ? average
					 : opt.linear_of_one * opt.nr);
	put_line(csv);
	if (ferror(stdout))
		fatal("write stdout failed");

	stop_tasks();
	named_files_remove(opt.nr);
	return 0;
}
