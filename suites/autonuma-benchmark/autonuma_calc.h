/* Pure arithmetic of autonuma-benchmark (suites/autonuma-benchmark/autonuma-benchmark.c):
 * the shape of each test (processes, threads, bytes each thread zeroes per
 * pass, passes), following Andrea Arcangeli's numa01.c and numa02.c with
 * the memory size a parameter.  Header-only for tests/unit. */
#ifndef KREPRO_AUTONUMA_CALC_H
#define KREPRO_AUTONUMA_CALC_H
#include <stdio.h>
#include <string.h>

enum an_test { AN_NUMA01, AN_NUMA01_THREAD_ALLOC, AN_NUMA02, AN_NUMA02_SMT, AN_NTESTS };

/* Upstream's builds of each test: no binding, _HARD_BIND (CPUs and memory
 * bound where the work is), _INVERSE_BIND (bound away from it). */
enum an_bind { AN_BIND_NONE, AN_BIND_HARD, AN_BIND_INVERSE, AN_NBINDS };

struct an_shape {
	unsigned long procs;		/* processes */
	unsigned long threads;		/* threads per process */
	unsigned long long size;	/* bytes allocated per process */
	unsigned long long thread_size; /* bytes one thread zeroes per pass */
	unsigned long loops;		/* passes per thread */
	int shared;			/* 1: every thread zeroes the whole area */
};

static const char *const an_test_names[AN_NTESTS] = {"numa01", "numa01_THREAD_ALLOC", "numa02",
						     "numa02_SMT"};
static const char *const an_bind_suffixes[AN_NBINDS] = {"", "_HARD_BIND", "_INVERSE_BIND"};

/* "numa01_THREAD_ALLOC_HARD_BIND" and the like: upstream's program names
 * (lkp-tests' metric names). */
static inline int an_test_parse(const char *s, enum an_test *t, enum an_bind *b)
{
	for (int i = 0; i < AN_NTESTS; i++) {
		size_t n = strlen(an_test_names[i]);

		if (strncmp(s, an_test_names[i], n) != 0)
			continue;
		for (int j = 0; j < AN_NBINDS; j++) {
			if (strcmp(s + n, an_bind_suffixes[j]) == 0) {
				*t = (enum an_test)i;
				*b = (enum an_bind)j;
				return 0;
			}
		}
	}
	return -1;
}

/* lkp-tests' test values (its programs/autonuma-benchmark/run), each a
 * switch of upstream's start_bench.sh, which always runs numa01 and numa02:
 * -b and -i follow each program with its _HARD_BIND or _INVERSE_BIND build,
 * -t adds numa01_THREAD_ALLOC after numa01, -s numa02_SMT after numa02, -m
 * runs them on a minimal number of CPUs a node (an_mof_cpus).  lkp-tests'
 * numa01_THREAD_ALLOC and numa02_SMT are such sets (-t, -s); the kit's
 * values of those names run the one program, and the sets are
 * lkp-numa01_THREAD_ALLOC and lkp-numa02_SMT (suites/autonuma-benchmark/meta
 * maps lkp-tests' names to them). */
enum { AN_SET_B = 1, AN_SET_I = 2, AN_SET_T = 4, AN_SET_S = 8, AN_SET_M = 16 };
static const char *const an_set_names[] = {
    "_HARD_BIND",
    "_INVERSE_BIND",
    "lkp-numa01_THREAD_ALLOC",
    "lkp-numa02_SMT",
    "numa02SMT_numa01THREAD_ALLOC",
    "minimal_thread_per_numa",
};
static const int an_set_switches[] = {
    AN_SET_B, AN_SET_I, AN_SET_T, AN_SET_S, AN_SET_S | AN_SET_T, AN_SET_M,
};
#define AN_SET_MAX_RUNS 12

/* The runs of set S in start_bench.sh's order (run_bench, run_test),
 * written to t and b (room for AN_SET_MAX_RUNS); *minimal set for -m.
 * Returns how many, 0 for a value that is not a set. */
static inline int an_set_parse(const char *s, enum an_test *t, enum an_bind *b, int *minimal)
{
	static const enum an_test order[] = {AN_NUMA01, AN_NUMA01_THREAD_ALLOC, AN_NUMA02,
					     AN_NUMA02_SMT};
	int sw = -1, n = 0;

	for (size_t i = 0; i < sizeof(an_set_names) / sizeof(an_set_names[0]); i++)
		if (strcmp(s, an_set_names[i]) == 0)
			sw = an_set_switches[i];
	if (sw < 0)
		return 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if ((order[i] == AN_NUMA01_THREAD_ALLOC && !(sw & AN_SET_T)) ||
		    (order[i] == AN_NUMA02_SMT && !(sw & AN_SET_S)))
			continue;
		t[n] = order[i];
		b[n++] = AN_BIND_NONE;
		if (sw & AN_SET_B) {
			t[n] = order[i];
			b[n++] = AN_BIND_HARD;
		}
		if (sw & AN_SET_I) {
			t[n] = order[i];
			b[n++] = AN_BIND_INVERSE;
		}
	}
	*minimal = (sw & AN_SET_M) != 0;
	return n;
}

/* start_bench.sh -m's CPUs (its test_numa): 2, or 2 a node when a package
 * has 2 cores or more ("cpu cores" of /proc/cpuinfo); numa01 then runs
 * half of them a process and numa02 all of them, as its preproc.awk sets
 * the build's CPU count. */
static inline long an_mof_cpus(long cores_per_package, long nodes)
{
	return cores_per_package >= 2 ? 2 * nodes : 2;
}

static inline int an_test_format(char *out, size_t outsz, enum an_test t, enum an_bind b)
{
	if ((unsigned)t >= AN_NTESTS || (unsigned)b >= AN_NBINDS)
		return -1;
	return snprintf(out, outsz, "%s%s", an_test_names[t], an_bind_suffixes[b]);
}

/* numa01's bound builds: process p (0 or 1) runs on the CPUs of one half of
 * the nodes (the first half for process 0) and binds its memory to the same
 * half (_HARD_BIND).  _INVERSE_BIND swaps process 0's memory to the second
 * half and leaves process 1's there: upstream's swap tests NODEMASK1 twice,
 * so both processes' memory is on the second half, as 0-day measures it.
 * Node bit masks. */
static inline unsigned long an_half_mask(unsigned long nodes, int half)
{
	unsigned long lo = half ? nodes / 2 : 0, hi = half ? nodes : nodes / 2, m = 0;

	for (unsigned long n = lo; n < hi && n < 8 * sizeof(m); n++)
		m |= 1UL << n;
	return m;
}

static inline void an_numa01_masks(unsigned long nodes, int proc, enum an_bind b,
				   unsigned long *cpu_nodes, unsigned long *mem_nodes)
{
	*cpu_nodes = an_half_mask(nodes, proc);
	*mem_nodes = b == AN_BIND_INVERSE ? an_half_mask(nodes, 1) : *cpu_nodes;
}

/* numa02's bound builds: before the threads start, the main thread zeroes
 * the area node by node, bound to each (node n gets bytes n*size/nodes up
 * to (n+1)*size/nodes); thread i is then bound to node i/(threads/nodes)
 * (_HARD_BIND: its slice's node) or (threads-1-i)/(threads/nodes)
 * (_INVERSE_BIND).  Where upstream would divide by zero (fewer threads
 * than nodes: numa02_SMT on two CPUs) a node holds one thread, and the
 * node is capped at the last. */
static inline unsigned long an_numa02_node(unsigned long i, unsigned long threads,
					   unsigned long nodes, enum an_bind b)
{
	unsigned long per = nodes ? threads / nodes : 1, n;

	if (per == 0)
		per = 1;
	n = (b == AN_BIND_INVERSE ? threads - 1 - i : i) / per;
	return nodes && n >= nodes ? nodes - 1 : n;
}

/* Upstream defaults: numa01 2 processes x nr_cpus/2 threads sharing 3 GiB,
 * 50 passes over all of it; numa01_THREAD_ALLOC the same with each thread
 * zeroing its own size/threads slice 1000 times; numa02 1 process x nr_cpus
 * threads (numa02_SMT: nr_cpus/2), 1 GiB, own slice, 800 passes.  size (bytes per process) and
 * loops (0: upstream's) override; slices are rounded down to 4 KiB pages
 * and at least one page. */
static inline void an_shape(enum an_test t, unsigned long ncpus, unsigned long long size,
			    unsigned long loops, struct an_shape *s)
{
	memset(s, 0, sizeof(*s));
	if (ncpus < 1)
		ncpus = 1;
	switch (t) {
	case AN_NUMA01:
	case AN_NUMA01_THREAD_ALLOC:
		s->procs = 2;
		s->threads = ncpus / 2 ? ncpus / 2 : 1;
		s->size = size ? size : 3ULL << 30;
		s->shared = t == AN_NUMA01;
		s->loops = loops ? loops : (t == AN_NUMA01 ? 50 : 1000);
		break;
	case AN_NUMA02:
	case AN_NUMA02_SMT:
	default:
		s->procs = 1;
		s->threads = t == AN_NUMA02_SMT ? (ncpus / 2 ? ncpus / 2 : 1) : ncpus;
		s->size = size ? size : 1ULL << 30;
		s->shared = 0;
		s->loops = loops ? loops : 800;
		break;
	}
	if (s->shared) {
		s->thread_size = s->size;
	} else {
		s->thread_size = (s->size / s->threads) & ~4095ULL;
		if (s->thread_size < 4096)
			s->thread_size = 4096;
		s->size = s->thread_size * s->threads;
	}
}

/* Bytes zeroed in the measured passes over all processes and threads. */
static inline unsigned long long an_total_bytes(const struct an_shape *s)
{
	return (unsigned long long)s->procs * s->threads * s->loops * s->thread_size;
}

/* The result block. */
static inline int an_format_result(char *out, size_t outsz, enum an_test t, enum an_bind b,
				   const struct an_shape *s, unsigned long nodes, double secs)
{
	char name[64];

	if (an_test_format(name, sizeof(name), t, b) < 0)
		return -1;
	return snprintf(out, outsz,
			"test: %s\nprocesses: %lu\nthreads: %lu\nsize: %llu\nloops: %lu\n"
			"nodes: %lu\nelapsed: %.3f\n",
			name, s->procs, s->threads, s->size, s->loops, nodes, secs);
}

#endif
