/* membench: the kit's memory microbenchmarks, whose results validate the
 * memory model (docs/MEMORY-MODEL.md) and show what it sees.
 *
 * membench -t TEST [-s SIZE] [-l LOOPS] [-r SECONDS]
 *
 * chase            a pointer chase over SIZE bytes: one dependent load a
 *                  step through a random cyclic permutation of its cache
 *                  lines (a fixed seed), LOOPS steps
 * numa-local       pinned to a CPU of node 0, SIZE bytes bound (mbind) to
 * numa-remote      node 0 or to the last node; LOOPS cache lines read and
 *                  written in turn (the remote test needs two nodes)
 * counters-shared  two threads pinned to CPUs 0 and 1 each increment their
 * counters-padded  own counter LOOPS times: both counters in one cache
 *                  line, or a line apart
 * numa-migrate     SIZE bytes first touched on a CPU of the last node, then
 *                  scanned from a CPU of node 0 for SECONDS under the
 *                  default policy, so NUMA balancing may move the pages
 *                  (needs two nodes); LOOPS is not used
 *
 * The work is built and warmed before the window; the memory-model plugin's
 * window (tools/common/model_mark.h) covers the measured loop only, and the
 * same span is timed.  Prints "key: value" lines: the test, its shape, ops
 * (steps, lines, increments of both threads, or scan passes) and seconds;
 * the NUMA tests add local_pages_pct (of the buffer's pages on the CPU's
 * node when the window closes).  The host parser makes the rates. */
#include <errno.h>
#include <getopt.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "membench_calc.h"
#include "model_mark.h"
#include "numa_nodes.h"
#include "usemem_calc.h"

#define PROG "membench"
#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static enum mb_test test = MB_NTESTS;
static unsigned long long size = 16384, loops = 1000000;
static double runtime = 10;
static struct timespec t0, t1;

/* Written where the compiler cannot drop the loads that feed it. */
static volatile uint64_t sink;

static void window_start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &t0);
	krp_model_mark(1);
}

static void window_stop(void)
{
	krp_model_mark(0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void report(unsigned long long ops)
{
	printf("test: %s\nsize: %llu\nloops: %llu\nops: %llu\nseconds: %.9f\n", mb_test_names[test],
	       size, loops, ops, elapsed(&t0, &t1));
}

static char *map(unsigned long long bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("cannot map %llu bytes: %s", bytes, strerror(errno));
	return p;
}

/* Pin the calling thread to cpu. */
static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("cannot pin to CPU %d: %s", cpu, strerror(errno));
}

/* The first CPU of node. */
static int node_first_cpu(unsigned long node)
{
	char path[64];
	cpu_set_t set;

	CPU_ZERO(&set);
	if (krp_node_cpus(node, &set, path, sizeof(path)) != 0)
		die("cannot read %s", path);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	die("node %lu has no CPU (%s is empty)", node, path);
}

static unsigned long need_nodes(void)
{
	unsigned long n = krp_count_nodes();

	if (n < 2)
		die("%s needs two NUMA nodes, this machine has %lu (/sys/devices/system/node): "
		    "use a board with two nodes or more (boards/qemu-2node)",
		    mb_test_names[test], n);
	return n;
}

/* The percentage of the buffer's pages on node, or -1 if the kernel cannot
 * say (move_pages with no target nodes only reports where each page is). */
static double pages_on_node(char *buf, unsigned long long bytes, unsigned long node)
{
	enum { CHUNK = 512 };
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long npages = bytes / (unsigned long long)page, on = 0;

	if (page <= 0 || npages == 0)
		return -1;
	for (unsigned long long i = 0; i < npages; i += CHUNK) {
		void *pages[CHUNK];
		int status[CHUNK];
		unsigned long n = npages - i < CHUNK ? (unsigned long)(npages - i) : CHUNK;

		for (unsigned long k = 0; k < n; k++)
			pages[k] = buf + (i + k) * (unsigned long long)page;
		if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) != 0)
			return -1;
		for (unsigned long k = 0; k < n; k++)
			on += status[k] >= 0 && (unsigned long)status[k] == node;
	}
	return 100.0 * (double)on / (double)npages;
}

static void report_pages(char *buf, unsigned long long bytes, unsigned long node)
{
	double pct = pages_on_node(buf, bytes, node);

	if (pct >= 0)
		printf("local_pages_pct: %.2f\n", pct);
}

static void run_chase(void)
{
	uint32_t n = (uint32_t)(size / MB_LINE), *next;
	char *buf;
	void **p;

	next = malloc(n * sizeof(*next));
	buf = map((unsigned long long)n * MB_LINE);
	if (!next)
		die("cannot allocate the permutation of %u lines", n);
	mb_cycle(next, n, MB_SEED);
	for (uint32_t i = 0; i < n; i++)
		*(void **)(buf + (size_t)i * MB_LINE) = buf + (size_t)next[i] * MB_LINE;
	free(next);
	/* warm: once round the cycle */
	p = (void **)buf;
	for (uint32_t i = 0; i < n; i++)
		p = (void **)*p;
	window_start();
	for (unsigned long long i = 0; i < loops; i++)
		p = (void **)*p;
	window_stop();
	sink = (uint64_t)(uintptr_t)p;
	report(loops);
}

static void run_numa_bound(void)
{
	unsigned long nodes = test == MB_NUMA_REMOTE ? need_nodes() : krp_count_nodes();
	unsigned long mem = test == MB_NUMA_REMOTE ? nodes - 1 : 0, mask = 1UL << mem;
	unsigned long long lines = size / MB_LINE, l = 0;
	int cpu = node_first_cpu(0);
	volatile uint64_t *w;
	char *buf;

	pin_cpu(cpu);
	buf = map(lines * MB_LINE);
	if (syscall(SYS_mbind, buf, lines * MB_LINE, MPOL_BIND, &mask, 8 * sizeof(mask), 0) != 0)
		die("mbind of %llu bytes to node %lu: %s", lines * MB_LINE, mem, strerror(errno));
	memset(buf, 1, lines * MB_LINE);
	w = (volatile uint64_t *)buf;
	window_start();
	for (unsigned long long i = 0; i < loops; i++) {
		w[l * (MB_LINE / sizeof(uint64_t))] += 1;
		if (++l == lines)
			l = 0;
	}
	window_stop();
	report(loops);
	printf("nodes: %lu\ncpu: %d\nmemory_node: %lu\n", nodes, cpu, mem);
	report_pages(buf, lines * MB_LINE, 0);
}

static _Alignas(MB_LINE) volatile uint64_t counters[2 * MB_LINE / sizeof(uint64_t)];
static pthread_barrier_t ready, go;

static void *counter_thread(void *arg)
{
	int t = (int)(intptr_t)arg;
	volatile uint64_t *c = &counters[mb_counter_slot(test, t)];

	pin_cpu(t);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&go);
	for (unsigned long long i = 0; i < loops; i++)
		*c += 1;
	return NULL;
}

static void run_counters(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[2];

	if (cpus < 2)
		die("%s needs two CPUs, this machine has %ld", mb_test_names[test], cpus);
	if (pthread_barrier_init(&ready, NULL, 3) != 0 || pthread_barrier_init(&go, NULL, 3) != 0)
		die("pthread_barrier_init failed");
	for (int t = 0; t < 2; t++) {
		int err = pthread_create(&th[t], NULL, counter_thread, (void *)(intptr_t)t);

		if (err)
			die("pthread_create: %s", strerror(err));
	}
	pthread_barrier_wait(&ready);
	window_start();
	pthread_barrier_wait(&go);
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	window_stop();
	for (int t = 0; t < 2; t++)
		if (counters[mb_counter_slot(test, t)] != loops)
			die("counter %d is %llu, not %llu", t,
			    (unsigned long long)counters[mb_counter_slot(test, t)], loops);
	report(2 * loops);
	printf("threads: 2\n");
}

static void run_numa_migrate(void)
{
	unsigned long nodes = need_nodes();
	unsigned long long lines = size / MB_LINE, passes = 0;
	int cpu = node_first_cpu(0), first = node_first_cpu(nodes - 1);
	volatile uint64_t *r;
	uint64_t sum = 0;
	double before;
	char *buf;

	pin_cpu(first);
	buf = map(lines * MB_LINE);
	memset(buf, 1, lines * MB_LINE);
	before = pages_on_node(buf, lines * MB_LINE, 0);
	pin_cpu(cpu);
	r = (volatile uint64_t *)buf;
	window_start();
	do {
		for (unsigned long long l = 0; l < lines; l++)
			sum += r[l * (MB_LINE / sizeof(uint64_t))];
		passes++;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while (elapsed(&t0, &t1) < runtime);
	window_stop();
	sink = sum;
	report(passes);
	printf("nodes: %lu\ncpu: %d\nfirst_touch_cpu: %d\n", nodes, cpu, first);
	if (before >= 0)
		printf("local_pages_pct_before: %.2f\n", before);
	report_pages(buf, lines * MB_LINE, 0);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " -t TEST [-s SIZE] [-l LOOPS] [-r SECONDS]\n"
		   "  TEST        chase, numa-local, numa-remote, counters-shared,\n"
		   "              counters-padded or numa-migrate\n"
		   "  -s SIZE     bytes of the buffer (K/M/G suffix; default 16K)\n"
		   "  -l LOOPS    chase steps, lines read and written, or increments a\n"
		   "              thread (default 1000000)\n"
		   "  -r SECONDS  numa-migrate's scan time (default 10)\n"
		   "Prints 'key: value' lines: the test, ops and seconds.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	int c;

	while ((c = getopt_long(argc, argv, "t:s:l:r:h", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 't':
			if (mb_test_parse(optarg, &test) != 0)
				krp_die_usage(PROG, "-t: unknown test '%s'", optarg);
			break;
		case 's':
			if (usemem_parse_size(optarg, &size) != 0 || size < 2 * MB_LINE ||
			    size > (unsigned long long)UINT32_MAX * MB_LINE)
				krp_die_usage(PROG, "-s: '%s' is not a size of 128 bytes to 256G",
					      optarg);
			break;
		case 'l':
			errno = 0;
			loops = strtoull(optarg, &end, 10);
			if (errno || *end || *optarg < '0' || *optarg > '9' || loops < 1)
				krp_die_usage(PROG, "-l: '%s' is not a positive number", optarg);
			break;
		case 'r':
			errno = 0;
			runtime = strtod(optarg, &end);
			if (errno || *end || end == optarg || !(runtime > 0 && runtime <= 86400))
				krp_die_usage(PROG, "-r: '%s' is not a number of seconds", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (test == MB_NTESTS || optind != argc) {
		usage(stderr);
		return 2;
	}
	switch (test) {
	case MB_CHASE:
		run_chase();
		break;
	case MB_NUMA_LOCAL:
	case MB_NUMA_REMOTE:
		run_numa_bound();
		break;
	case MB_COUNTERS_SHARED:
	case MB_COUNTERS_PADDED:
		run_counters();
		break;
	case MB_NUMA_MIGRATE:
	default:
		run_numa_migrate();
		break;
	}
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}
