/* autonuma-benchmark: numa01, numa01_THREAD_ALLOC, numa02 and numa02_SMT,
 * each also as _HARD_BIND and _INVERSE_BIND, after Andrea Arcangeli's
 * autonuma-benchmark, without libnuma.
 *
 * autonuma-benchmark -t TEST [-s SIZE] [-l LOOPS]
 *
 * TEST is one program, or one of lkp-tests' sets (start_bench.sh's
 * switches: _HARD_BIND, _INVERSE_BIND, lkp-numa01_THREAD_ALLOC,
 * lkp-numa02_SMT, numa02SMT_numa01THREAD_ALLOC, minimal_thread_per_numa;
 * autonuma_calc.h's an_set_parse), its programs one after the other, each
 * printing its own result.
 *
 * numa01*: two processes; every thread first binds its memory policy to
 * one node (the same node for everybody, picked by the clock as upstream's
 * NO_BIND_FORCE_SAME_NODE) and zeroes the process's whole area, then
 * returns to the default policy and zeroes its area (numa01: the whole;
 * THREAD_ALLOC: its slice) LOOPS times, so automatic NUMA balancing has to
 * move memory or tasks.  numa02: one process zeroes its area once, then
 * each thread zeroes its own slice LOOPS times.  The bound builds set CPU
 * affinity and memory policy before the threads start (they inherit both;
 * the arithmetic is autonuma_calc.h's) and need two nodes or more.
 * Prints the shape and "elapsed: SECONDS" (wall time of the whole run, the
 * benchmark's metric; lower is better). */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "autonuma_calc.h"
#include "diag.h"
#include "numa_nodes.h"
#include "usemem_calc.h"

#define PROG "autonuma-benchmark"
#define KRP_MPOL_DEFAULT 0
#define KRP_MPOL_BIND 2

static struct an_shape shape;
static unsigned long nnodes;
static int bind_node = -1; /* -1: no binding (one node) */
static enum an_test an_test = AN_NTESTS;
static enum an_bind an_bind = AN_BIND_NONE;
static char *area;

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void set_policy_mask(int mode, unsigned long mask)
{
	if (syscall(SYS_set_mempolicy, mode, mode == KRP_MPOL_DEFAULT ? NULL : &mask,
		    mode == KRP_MPOL_DEFAULT ? 0UL : (unsigned long)(sizeof(mask) * 8)) < 0)
		fprintf(stderr, PROG ": warning: set_mempolicy: %s\n", strerror(errno));
}

static void set_policy(int mode, int node)
{
	set_policy_mask(mode, node >= 0 ? 1UL << node : 0);
}

/* Run on the CPUs of the nodes in mask and allocate from them (a bound
 * build: what upstream's sched_setaffinity + MPOL_BIND do). */
static void bind_nodes(unsigned long cpu_nodes, unsigned long mem_nodes)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	for (unsigned long n = 0; n < nnodes && n < 8 * sizeof(cpu_nodes); n++) {
		char path[64];

		if ((cpu_nodes & (1UL << n)) && krp_node_cpus(n, &cpus, path, sizeof(path)) != 0)
			die("cannot read %s", path);
	}
	if (CPU_COUNT(&cpus) == 0)
		die("no CPU on the nodes of mask %#lx", cpu_nodes);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) < 0)
		die("sched_setaffinity: %s", strerror(errno));
	set_policy_mask(KRP_MPOL_BIND, mem_nodes);
}

static void *thread_main(void *arg)
{
	unsigned long idx = (unsigned long)(uintptr_t)arg;
	char *p = shape.shared ? area : area + idx * shape.thread_size;

	/* numa01*: every thread first zeroes the process's whole area (bound
	 * to one node where there are two), as upstream's thread() does, also
	 * in THREAD_ALLOC where its passes then cover only its slice */
	if (an_test == AN_NUMA01 || an_test == AN_NUMA01_THREAD_ALLOC) {
		if (bind_node >= 0)
			set_policy(KRP_MPOL_BIND, bind_node);
		memset(area, 0, shape.size);
		__asm__ __volatile__("" : : "r"(area) : "memory");
		if (bind_node >= 0)
			set_policy(KRP_MPOL_DEFAULT, -1);
	}
	for (unsigned long i = 0; i < shape.loops; i++) {
		memset(p, 0, shape.thread_size);
		__asm__ __volatile__("" : : "r"(p) : "memory");
	}
	return NULL;
}

static int numa02(void)
{
	return an_test == AN_NUMA02 || an_test == AN_NUMA02_SMT;
}

static void run_process(int proc)
{
	pthread_t *th = calloc(shape.threads, sizeof(*th));

	area = mmap(NULL, shape.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!th || area == MAP_FAILED)
		die("cannot allocate %llu bytes", shape.size);
	if (!numa02() && an_bind != AN_BIND_NONE) {
		unsigned long cpu_nodes, mem_nodes;

		an_numa01_masks(nnodes, proc, an_bind, &cpu_nodes, &mem_nodes);
		bind_nodes(cpu_nodes, mem_nodes);
	}
	/* numa02: upstream zeroes the area once, in the main thread, before
	 * the threads start (node by node, bound to each, in a bound build) */
	if (numa02() && an_bind == AN_BIND_NONE) {
		memset(area, 0, shape.size);
		__asm__ __volatile__("" : : "r"(area) : "memory");
	} else if (numa02()) {
		for (unsigned long n = 0; n < nnodes; n++) {
			unsigned long long from = n * shape.size / nnodes;

			bind_nodes(1UL << n, 1UL << n);
			memset(area + from, 0, (n + 1) * shape.size / nnodes - from);
			__asm__ __volatile__("" : : "r"(area) : "memory");
		}
	}
	for (unsigned long i = 0; i < shape.threads; i++) {
		int err;

		if (numa02() && an_bind != AN_BIND_NONE) {
			unsigned long n = an_numa02_node(i, shape.threads, nnodes, an_bind);

			bind_nodes(1UL << n, 1UL << n);
		}
		err = pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)i);

		if (err)
			die("pthread_create: %s", strerror(err));
	}
	for (unsigned long i = 0; i < shape.threads; i++)
		pthread_join(th[i], NULL);
}

/* One program's run: its processes, then its result on standard output. */
static void run_one(enum an_test test, enum an_bind bind, long ncpu, unsigned long long size,
		    unsigned long loops)
{
	struct timespec t0, t1;
	pid_t pids[2] = {0, 0};
	char out[512];
	int failed = 0;

	an_test = test;
	an_bind = bind;
	bind_node = -1;
	an_shape(test, ncpu > 0 ? (unsigned long)ncpu : 1, size, loops, &shape);
	nnodes = krp_count_nodes();
	if (bind != AN_BIND_NONE && nnodes < 2)
		die("the _HARD_BIND and _INVERSE_BIND tests need two NUMA nodes or more (%lu here)",
		    nnodes);
	if (nnodes >= 2 && !numa02() && bind == AN_BIND_NONE)
		bind_node = (int)(time(NULL) & 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = 0; i < shape.procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork: %s", strerror(errno));
		if (pids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			run_process((int)i);
			_exit(0);
		}
	}
	for (unsigned long i = 0; i < shape.procs; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (failed)
		die("a benchmark process failed");
	an_format_result(out, sizeof(out), test, bind, &shape, nnodes,
			 (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	fputs(out, stdout);
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " -t TEST [-s SIZE] [-l LOOPS]\n"
		"  TEST       numa01, numa01_THREAD_ALLOC, numa02 or numa02_SMT, each also\n"
		"             with _HARD_BIND or _INVERSE_BIND (two NUMA nodes or more);\n"
		"             or one of lkp-tests' sets, as its start_bench.sh runs them:\n"
		"             _HARD_BIND, _INVERSE_BIND (numa01 and numa02, each also with the\n"
		"             suffix), lkp-numa01_THREAD_ALLOC (numa01, numa01_THREAD_ALLOC,\n"
		"             numa02), lkp-numa02_SMT (numa01, numa02, numa02_SMT),\n"
		"             numa02SMT_numa01THREAD_ALLOC (all four), minimal_thread_per_numa\n"
		"             (numa01 and numa02 on 2 CPUs, or 2 a node with 2 cores a package)\n"
		"  -s SIZE    bytes per process (K/M/G/T suffix; default 3G numa01*, 1G numa02*)\n"
		"  -l LOOPS   passes per thread (default 50, 1000, 800)\n"
		"Prints the run's shape and 'elapsed: SECONDS'.\n");
}

/* The first "cpu cores" of /proc/cpuinfo (cores a package), 1 if none. */
static long cpuinfo_cores(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	long cores = 1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu cores : %ld", &cores) == 1)
			break;
	if (f)
		fclose(f);
	return cores;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	enum an_test tests[AN_SET_MAX_RUNS];
	enum an_bind binds[AN_SET_MAX_RUNS];
	unsigned long long size = 0;
	unsigned long loops = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	const char *tname = NULL;
	int c, nruns = 0, minimal = 0;

	while ((c = getopt_long(argc, argv, "t:s:l:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			tname = optarg;
			nruns = an_set_parse(optarg, tests, binds, &minimal);
			if (nruns == 0 && an_test_parse(optarg, &tests[0], &binds[0]) == 0)
				nruns = 1;
			if (nruns == 0)
				die("unknown test '%s' (see --help)", optarg);
			break;
		case 's':
			if (usemem_parse_size(optarg, &size) != 0 || size < 4096)
				die("-s: bad size '%s'", optarg);
			break;
		case 'l': {
			char *end;

			errno = 0;
			loops = strtoul(optarg, &end, 10);
			if (errno || *end || *optarg < '0' || *optarg > '9' || loops < 1)
				die("-l: '%s' is not a positive number", optarg);
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (nruns == 0 || optind != argc) {
		usage(stderr);
		return 2;
	}
	for (int i = 0; i < nruns; i++) /* a set stops before its first run */
		if (binds[i] != AN_BIND_NONE && krp_count_nodes() < 2)
			die("%s: the _HARD_BIND and _INVERSE_BIND tests need two NUMA nodes or "
			    "more",
			    tname);
	if (minimal) {
		ncpu = an_mof_cpus(cpuinfo_cores(), (long)krp_count_nodes());
		printf("Migrate on fault test, use %ld CPUs.\n", ncpu);
	}
	for (int i = 0; i < nruns; i++)
		run_one(tests[i], binds[i], ncpu, size, loops);
	return ferror(stdout) ? 1 : 0;
}
