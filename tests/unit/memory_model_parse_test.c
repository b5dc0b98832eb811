/* The memory model's host parser (monitors/memory-model/parse.c) on small
 * hand-written reports: the user/kernel split and the sums over vCPUs,
 * the ratios, the profile's names, and what it refuses (a report cut
 * short, another header, malformed lines). */
#include <stdlib.h>

#include "metrics.h"
#include "parsers.h"
#include "unit.h"

static double get(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0 ? v : NAN;
}

static size_t parse(const char *text, struct krp_metrics *m)
{
	krp_metrics_init(m);
	krp_parse_raw("memory-model", text, strlen(text), m);
	return m->n;
}

#define HEAD "# krepro-model 1\nconfig freq-mhz 2000\nwindows 2\nforced-merges 3\n"

int main(void)
{
	struct krp_metrics m;
	const char *good =
	    HEAD "cpu 0 user instructions 1000\n"
		 "cpu 0 user cycles 3000\n"
		 "cpu 0 kernel instructions 500\n"
		 "cpu 0 kernel cycles 2500\n"
		 "cpu 1 kernel instructions 500\n"
		 "cpu 1 kernel cycles 500\n"
		 "cpu 0 user llc-references 10\n"
		 "cpu 1 kernel llc-references 30\n"
		 "cpu 1 kernel llc-misses 10\n"
		 "cpu 0 kernel node-loads 8\n"
		 "cpu 0 kernel node-load-misses 2\n"
		 "cpu 1 kernel coherence-transfers 7\n"
		 "cpu 1 kernel no-such-event 7\n"
		 "cpu 1 guest cycles 7\n"
		 "cpu -1 user cycles 7\n"
		 "cpu 0.5 user cycles 7\n"
		 "cpu 0 user stall-cycles 300\n"
		 "cpu 1 kernel stall-cycles 1200\n"
		 "pc 0xffffffff81234567 do_fault.isra.0 cycles 900 misses 3 coherence 0\n"
		 "pc 0xffffffff81234600 do_fault cycles 300 misses 2 coherence 4\n"
		 "pc 0xffffffff81300000 - cycles 60 misses 0 coherence 0\n"
		 "pc 0xffffffff81400000 [unknown] cycles 1 misses 0 coherence 0\n"
		 "pc 0xffffffff81500000 cycles 30 misses 1 coherence 0\n"
		 "pc 0x401000 [user] cycles 80 misses 0 coherence 1\n"
		 "pc 0xffffffff81600000 a\"b cycles 600 misses 0 coherence 0\n"
		 "pc 0xFFFF f cycles 80 misses 0 coherence 1\n"
		 "pc 0x12345678901234567 f cycles 80 misses 0 coherence 1\n"
		 "pc ../x f cycles 80 misses 0 coherence 1\n"
		 "pc-other cycles 6 misses 1 coherence 0\n"
		 "end\n";

	parse(HEAD "cpu 0 kernel node-stores 1\ncpu 1 user node-store-misses 3\n"
		   "cpu 1 user node-load-misses 5\nend\n",
	      &m);
	CHECK_NEAR("node-store-miss-rate% as lkp-tests: 3 / (1 + 3)",
		   get(&m, "model-stat.node-store-miss-rate%"), 75, 1e-12);
	CHECK("no node-load-miss-rate% when node-loads is 0 (lkp-tests prints none)",
	      isnan(get(&m, "model-stat.node-load-miss-rate%")) &&
		  get(&m, "model-stat.node-load-misses") == 5);
	krp_metrics_free(&m);
	parse(good, &m);
	CHECK("sums over vCPUs and modes", get(&m, "model-stat.instructions") == 2000 &&
					       get(&m, "model-stat.cpu-cycles") == 6000);
	CHECK("user and kernel", get(&m, "model-stat.cpu-cycles.user") == 3000 &&
				     get(&m, "model-stat.cpu-cycles.kernel") == 3000 &&
				     get(&m, "model-stat.instructions.kernel") == 1000);
	CHECK("perf-stat's names: cache-references, cache-misses",
	      get(&m, "model-stat.cache-references") == 40 &&
		  get(&m, "model-stat.cache-misses") == 10 &&
		  get(&m, "model-stat.cache-misses.user") == 0);
	CHECK_NEAR("ipc", get(&m, "model-stat.ipc"), 2000.0 / 6000, 1e-12);
	CHECK_NEAR("cpi.kernel", get(&m, "model-stat.cpi.kernel"), 3.0, 1e-12);
	CHECK_NEAR("cache-miss-rate%", get(&m, "model-stat.cache-miss-rate%"), 25, 1e-12);
	/* lkp-tests' stats/perf-stat: misses over node-loads + misses (the
	 * two are disjoint, local and remote) */
	CHECK_NEAR("node-load-miss-rate% as lkp-tests: 2 / (8 + 2)",
		   get(&m, "model-stat.node-load-miss-rate%"), 20, 1e-12);
	CHECK("no store rate without stores", isnan(get(&m, "model-stat.node-store-miss-rate%")));
	CHECK("coherence", get(&m, "model-stat.coherence-transfers.kernel") == 7);
	CHECK("windows", get(&m, "model-stat.windows") == 2);
	CHECK("forced merges", get(&m, "model-stat.forced-merges") == 3);
	/* the busy vCPUs' mean (both have a quarter of an even share of the
	 * instructions or more): (5500 + 500) / 2 cycles at 2000 MHz */
	CHECK_NEAR("seconds of model time", get(&m, "model-stat.seconds"), 3000 / 2e9, 1e-15);
	/* totals: 6000 cycles, 10 LLC misses, 7 coherence transfers */
	CHECK_NEAR("profile: a function's PCs summed (suffix stripped), % of all cycles",
		   get(&m, "model-profile.cycles.do_fault"), 1200.0 / 6000 * 100, 1e-9);
	CHECK_NEAR("profile: ... of all LLC misses", get(&m, "model-profile.cache-misses.do_fault"),
		   50, 1e-9);
	CHECK_NEAR("profile: ... of all coherence transfers",
		   get(&m, "model-profile.coherence-transfers.do_fault"), 400.0 / 7, 1e-9);
	CHECK("profile: no row for a clone's own name",
	      isnan(get(&m, "model-profile.cycles.do_fault.isra.0")));
	CHECK_NEAR("profile: unsymbolised ('-' or no name): the raw address",
		   get(&m, "model-profile.cycles.0xffffffff81300000") +
		       get(&m, "model-profile.cache-misses.0xffffffff81500000"),
		   1 + 10, 1e-9);
	CHECK("profile: under 0.05% left out, as perf-profile",
	      isnan(get(&m, "model-profile.cycles.[unknown]")) &&
		  isnan(get(&m, "model-profile.coherence-transfers.0xffffffff81500000")));
	CHECK_NEAR("profile: PCs past the table: [other]", get(&m, "model-profile.cycles.[other]"),
		   0.1, 1e-9);
	CHECK("profile: user/kernel split from the counters, not the listed PCs",
	      get(&m, "model-profile.cycles.[user]") == 5 &&
		  get(&m, "model-profile.cycles.[kernel]") == 20 &&
		  get(&m, "model-profile.coherence-transfers.[kernel]") == 100 &&
		  get(&m, "model-profile.coherence-transfers.[user]") == 0 &&
		  get(&m, "model-profile.cache-misses.[kernel]") == 100);
	CHECK("profile: no per-PC row for a user PC, no unsafe name",
	      isnan(get(&m, "model-profile.cycles.0x401000")) &&
		  isnan(get(&m, "model-profile.cycles.a\"b")));
	CHECK("profile: malformed addresses skipped",
	      isnan(get(&m, "model-profile.cycles.f")) &&
		  isnan(get(&m, "model-profile.cycles.0x12345678901234567")) &&
		  isnan(get(&m, "model-profile.cycles.../x")));
	krp_metrics_free(&m);

	CHECK("a report cut short gives nothing",
	      parse(HEAD "cpu 0 user instructions 1000\ncpu 0 user cycles 3000\n", &m) == 0);
	krp_metrics_free(&m);
	CHECK("cut in its end line gives nothing",
	      parse(HEAD "cpu 0 user instructions 1000\nen", &m) == 0);
	krp_metrics_free(&m);
	CHECK("another version gives nothing",
	      parse("# krepro-model 2\ncpu 0 user instructions 1000\nend\n", &m) == 0);
	krp_metrics_free(&m);
	CHECK("an empty file gives nothing", parse("", &m) == 0);
	krp_metrics_free(&m);
	return unit_failed;
}
