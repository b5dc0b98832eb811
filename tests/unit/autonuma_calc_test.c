/* Unit tests for suites/autonuma-benchmark/autonuma_calc.h (autonuma-benchmark shapes). */
#include "unit.h"
#include "../../suites/autonuma-benchmark/autonuma_calc.h"

int main(void)
{
	struct an_shape s;
	enum an_test t;
	enum an_bind b;
	char out[256];
	unsigned long cpu, mem;

	CHECK("parse numa01",
	      an_test_parse("numa01", &t, &b) == 0 && t == AN_NUMA01 && b == AN_BIND_NONE);
	CHECK("parse numa01_THREAD_ALLOC", an_test_parse("numa01_THREAD_ALLOC", &t, &b) == 0 &&
					       t == AN_NUMA01_THREAD_ALLOC && b == AN_BIND_NONE);
	CHECK("parse numa02", an_test_parse("numa02", &t, &b) == 0 && t == AN_NUMA02);
	CHECK("parse unknown", an_test_parse("numa03", &t, &b) < 0);
	/* the twelve programs of lkp-tests' autonuma-benchmark results */
	CHECK("parse numa01_THREAD_ALLOC_INVERSE_BIND",
	      an_test_parse("numa01_THREAD_ALLOC_INVERSE_BIND", &t, &b) == 0 &&
		  t == AN_NUMA01_THREAD_ALLOC && b == AN_BIND_INVERSE);
	CHECK("parse numa02_SMT_HARD_BIND", an_test_parse("numa02_SMT_HARD_BIND", &t, &b) == 0 &&
						t == AN_NUMA02_SMT && b == AN_BIND_HARD);
	CHECK("parse numa02_HARD_BIND", an_test_parse("numa02_HARD_BIND", &t, &b) == 0 &&
					    t == AN_NUMA02 && b == AN_BIND_HARD);
	CHECK("parse a half suffix", an_test_parse("numa01_HARD", &t, &b) < 0);
	CHECK("parse a suffix twice", an_test_parse("numa01_HARD_BIND_HARD_BIND", &t, &b) < 0);
	{ /* lkp-tests' _HARD_BIND (start_bench.sh -b): numa01 and numa02, each
	   * also with the suffix */
		enum an_test ts[AN_SET_MAX_RUNS];
		enum an_bind bs[AN_SET_MAX_RUNS];
		int m = -1;

		CHECK("lkp's _HARD_BIND: four runs",
		      an_set_parse("_HARD_BIND", ts, bs, &m) == 4 && ts[0] == AN_NUMA01 && m == 0 &&
			  bs[0] == AN_BIND_NONE && ts[1] == AN_NUMA01 && bs[1] == AN_BIND_HARD &&
			  ts[2] == AN_NUMA02 && bs[2] == AN_BIND_NONE && ts[3] == AN_NUMA02 &&
			  bs[3] == AN_BIND_HARD);
		CHECK("lkp's _INVERSE_BIND: the inverse builds",
		      an_set_parse("_INVERSE_BIND", ts, bs, &m) == 4 && bs[1] == AN_BIND_INVERSE &&
			  bs[3] == AN_BIND_INVERSE && ts[3] == AN_NUMA02);
		CHECK("a program is no set", an_set_parse("numa01_HARD_BIND", ts, bs, &m) == 0);
		CHECK("no set without its suffix", an_set_parse("", ts, bs, &m) == 0);
		CHECK("the kit's numa01_THREAD_ALLOC is one program, no set",
		      an_set_parse("numa01_THREAD_ALLOC", ts, bs, &m) == 0);
		/* start_bench.sh -t: numa01, numa01_THREAD_ALLOC, numa02 */
		CHECK("lkp's numa01_THREAD_ALLOC (-t): three programs",
		      an_set_parse("lkp-numa01_THREAD_ALLOC", ts, bs, &m) == 3 &&
			  ts[0] == AN_NUMA01 && ts[1] == AN_NUMA01_THREAD_ALLOC &&
			  ts[2] == AN_NUMA02 && bs[1] == AN_BIND_NONE);
		CHECK("lkp's numa02_SMT (-s): numa01, numa02, numa02_SMT",
		      an_set_parse("lkp-numa02_SMT", ts, bs, &m) == 3 && ts[0] == AN_NUMA01 &&
			  ts[1] == AN_NUMA02 && ts[2] == AN_NUMA02_SMT);
		CHECK("numa02SMT_numa01THREAD_ALLOC (-s -t): the four in run_bench's order",
		      an_set_parse("numa02SMT_numa01THREAD_ALLOC", ts, bs, &m) == 4 &&
			  ts[0] == AN_NUMA01 && ts[1] == AN_NUMA01_THREAD_ALLOC &&
			  ts[2] == AN_NUMA02 && ts[3] == AN_NUMA02_SMT && m == 0);
		CHECK("minimal_thread_per_numa (-m): numa01 and numa02, minimal",
		      an_set_parse("minimal_thread_per_numa", ts, bs, &m) == 2 &&
			  ts[0] == AN_NUMA01 && ts[1] == AN_NUMA02 && m == 1);
		CHECK("-m's CPUs: 2 with one core a package (qemu-2node)", an_mof_cpus(1, 2) == 2);
		CHECK("-m's CPUs: 2 a node with 2 cores a package (qemu-4node8)",
		      an_mof_cpus(2, 4) == 8);
	}
	an_test_format(out, sizeof(out), AN_NUMA02_SMT, AN_BIND_INVERSE);
	CHECK_STR("format a name", out, "numa02_SMT_INVERSE_BIND");

	/* numa01's halves on 2 nodes: process 0 on node 0, process 1 on node 1;
	 * INVERSE_BIND puts both processes' memory on node 1 (upstream's swap) */
	an_numa01_masks(2, 0, AN_BIND_HARD, &cpu, &mem);
	CHECK("numa01 hard, process 0", cpu == 1 && mem == 1);
	an_numa01_masks(2, 1, AN_BIND_HARD, &cpu, &mem);
	CHECK("numa01 hard, process 1", cpu == 2 && mem == 2);
	an_numa01_masks(2, 0, AN_BIND_INVERSE, &cpu, &mem);
	CHECK("numa01 inverse, process 0", cpu == 1 && mem == 2);
	an_numa01_masks(2, 1, AN_BIND_INVERSE, &cpu, &mem);
	CHECK("numa01 inverse, process 1", cpu == 2 && mem == 2);
	an_numa01_masks(4, 1, AN_BIND_HARD, &cpu, &mem);
	CHECK("numa01 hard on 4 nodes, process 1", cpu == 0xc && mem == 0xc);

	/* numa02: thread i on node i/(threads/nodes); inverse counts down */
	CHECK("numa02 hard: 4 threads, 2 nodes", an_numa02_node(0, 4, 2, AN_BIND_HARD) == 0 &&
						     an_numa02_node(1, 4, 2, AN_BIND_HARD) == 0 &&
						     an_numa02_node(2, 4, 2, AN_BIND_HARD) == 1 &&
						     an_numa02_node(3, 4, 2, AN_BIND_HARD) == 1);
	CHECK("numa02 inverse: 4 threads, 2 nodes",
	      an_numa02_node(0, 4, 2, AN_BIND_INVERSE) == 1 &&
		  an_numa02_node(3, 4, 2, AN_BIND_INVERSE) == 0);
	CHECK("numa02_SMT on 2 CPUs: one thread, no division by zero",
	      an_numa02_node(0, 1, 2, AN_BIND_HARD) == 0 &&
		  an_numa02_node(0, 1, 2, AN_BIND_INVERSE) == 0);
	CHECK("numa02: 5 threads on 2 nodes stay on the last node",
	      an_numa02_node(4, 5, 2, AN_BIND_HARD) == 1);

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
	an_shape(AN_NUMA02_SMT, 24, 0, 0, &s);
	CHECK("numa02_SMT: nr_cpus/2 threads, 1 GiB / 12 each",
	      s.threads == 12 && s.thread_size == (1ULL << 30) / 12 / 4096 * 4096 &&
		  s.loops == 800);
	an_shape(AN_NUMA02_SMT, 1, 0, 0, &s);
	CHECK("numa02_SMT: one CPU, one thread", s.threads == 1);

	/* a slice rounds down to pages: 10000 bytes / 3 threads -> 3333 -> one page */
	an_shape(AN_NUMA02, 3, 10000, 1, &s);
	CHECK("slice: at least a page", s.thread_size == 4096 && s.size == 3 * 4096);
	an_shape(AN_NUMA02, 3, 3 * 4096 * 5 + 100, 1, &s);
	CHECK("slice: rounded to pages", s.thread_size == 5 * 4096);
	an_shape(AN_NUMA01, 1, 4096, 1, &s);
	CHECK("one cpu: one thread", s.threads == 1);

	an_shape(AN_NUMA01, 2, 64ULL << 20, 20, &s);
	an_format_result(out, sizeof(out), AN_NUMA01, AN_BIND_NONE, &s, 2, 12.3456);
	CHECK_STR("format", out,
		  "test: numa01\nprocesses: 2\nthreads: 1\nsize: 67108864\nloops: 20\nnodes: 2\n"
		  "elapsed: 12.346\n");
	an_format_result(out, sizeof(out), AN_NUMA01_THREAD_ALLOC, AN_BIND_HARD, &s, 2, 1);
	CHECK("format: the build's name",
	      strncmp(out, "test: numa01_THREAD_ALLOC_HARD_BIND\n", 36) == 0);
	UNIT_EXIT();
}
