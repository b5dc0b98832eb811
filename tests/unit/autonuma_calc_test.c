/* Unit tests for suites/autonuma-benchmark/autonuma_calc.h (autonuma-benchmark shapes). */
#include "unit.h"
#include "../../suites/autonuma-benchmark/autonuma_calc.h"

int main(void)
{
	struct an_shape s;
	enum an_test t;
	char out[256];

	CHECK("parse numa01", an_test_parse("numa01", &t) == 0 && t == AN_NUMA01);
	CHECK("parse numa01_THREAD_ALLOC",
	      an_test_parse("numa01_THREAD_ALLOC", &t) == 0 && t == AN_NUMA01_THREAD_ALLOC);
	CHECK("parse numa02", an_test_parse("numa02", &t) == 0 && t == AN_NUMA02);
	CHECK("parse unknown", an_test_parse("numa03", &t) < 0);

	/* upstream defaults on 24 CPUs: numa01 2 x 12 threads, 3 GiB shared, 50 passes */
	an_shape(AN_NUMA01, 24, 0, 0, &s);
	CHECK("numa01: 2 processes", s.procs == 2);
	CHECK("numa01: nr_cpus/2 threads", s.threads == 12);
	CHECK("numa01: 3 GiB", s.size == 3ULL << 30);
	CHECK("numa01: shared area", s.shared && s.thread_size == 3ULL << 30);
	CHECK("numa01: 50 passes", s.loops == 50);
	CHECK("numa01: bytes", an_total_bytes(&s) == 2ULL * 12 * 50 * (3ULL << 30));

	/* THREAD_ALLOC: 3 GiB / 12 = 256 MiB each, 1000 passes */
	an_shape(AN_NUMA01_THREAD_ALLOC, 24, 0, 0, &s);
	CHECK("thread_alloc: slice", !s.shared && s.thread_size == 256ULL << 20);
	CHECK("thread_alloc: 1000 passes", s.loops == 1000);

	/* numa02 on 2 CPUs with 64 MiB and 20 passes: 2 threads x 32 MiB */
	an_shape(AN_NUMA02, 2, 64ULL << 20, 20, &s);
	CHECK("numa02: 1 process", s.procs == 1);
	CHECK("numa02: nr_cpus threads", s.threads == 2);
	CHECK("numa02: slice", s.thread_size == 32ULL << 20);
	CHECK("numa02: size", s.size == 64ULL << 20);
	CHECK("numa02: loops override", s.loops == 20);
	an_shape(AN_NUMA02, 2, 0, 0, &s);
	CHECK("numa02: default 800 passes of 1 GiB", s.loops == 800 && s.size == 1ULL << 30);

	/* a slice rounds down to pages: 10000 bytes / 3 threads -> 3333 -> one page */
	an_shape(AN_NUMA02, 3, 10000, 1, &s);
	CHECK("slice: at least a page", s.thread_size == 4096 && s.size == 3 * 4096);
	an_shape(AN_NUMA02, 3, 3 * 4096 * 5 + 100, 1, &s);
	CHECK("slice: rounded to pages", s.thread_size == 5 * 4096);
	an_shape(AN_NUMA01, 1, 4096, 1, &s);
	CHECK("one cpu: one thread", s.threads == 1);

	an_shape(AN_NUMA01, 2, 64ULL << 20, 20, &s);
	an_format_result(out, sizeof(out), AN_NUMA01, &s, 2, 12.3456);
	CHECK_STR("format", out,
		  "test: numa01\nprocesses: 2\nthreads: 1\nsize: 67108864\nloops: 20\nnodes: 2\n"
		  "elapsed: 12.346\n");
	UNIT_EXIT();
}
