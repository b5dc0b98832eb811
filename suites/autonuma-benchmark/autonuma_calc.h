/* Pure arithmetic of autonuma-benchmark (suites/autonuma-benchmark/autonuma-benchmark.c):
 * the shape of each test (processes, threads, bytes each thread zeroes per
 * pass, passes), following Andrea Arcangeli's numa01.c and numa02.c with
 * the memory size a parameter.  Header-only for tests/unit. */
#ifndef KREPRO_AUTONUMA_CALC_H
#define KREPRO_AUTONUMA_CALC_H
#include <stdio.h>
#include <string.h>

enum an_test { AN_NUMA01, AN_NUMA01_THREAD_ALLOC, AN_NUMA02, AN_NTESTS };

struct an_shape {
	unsigned long procs;		/* processes */
	unsigned long threads;		/* threads per process */
	unsigned long long size;	/* bytes allocated per process */
	unsigned long long thread_size; /* bytes one thread zeroes per pass */
	unsigned long loops;		/* passes per thread */
	int shared;			/* 1: every thread zeroes the whole area */
};

static inline const char *an_test_name(enum an_test t)
{
	static const char *const names[AN_NTESTS] = {"numa01", "numa01_THREAD_ALLOC", "numa02"};

	return (unsigned)t < AN_NTESTS ? names[t] : NULL;
}

static inline int an_test_parse(const char *s, enum an_test *out)
{
	for (int i = 0; i < AN_NTESTS; i++) {
		if (strcmp(s, an_test_name((enum an_test)i)) == 0) {
			*out = (enum an_test)i;
			return 0;
		}
	}
	return -1;
}

/* Upstream defaults: numa01 2 processes x nr_cpus/2 threads sharing 3 GiB,
 * 50 passes over all of it; numa01_THREAD_ALLOC the same with each thread
 * zeroing its own size/threads slice 1000 times; numa02 1 process x nr_cpus
 * threads, 1 GiB, own slice, 800 passes.  size (bytes per process) and
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
	default:
		s->procs = 1;
		s->threads = ncpus;
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
static inline int an_format_result(char *out, size_t outsz, enum an_test t,
				   const struct an_shape *s, unsigned long nodes, double secs)
{
	return snprintf(out, outsz,
			"test: %s\nprocesses: %lu\nthreads: %lu\nsize: %llu\nloops: %lu\n"
			"nodes: %lu\nelapsed: %.3f\n",
			an_test_name(t), s->procs, s->threads, s->size, s->loops, nodes, secs);
}

#endif
