/* Unit tests for core/meaning.[ch]: the metric rules of
 * suites/<name>/meta and monitors/<name>/meta, as built into the tools. */
#include "meaning.h"
#include "unit.h"

static void test_rules_read(void)
{
	/* Reading them all: a rule the tools cannot read exits here. */
	CHECK("every metrics file's rules read", krp_meaning_rules() > 20);
}

static void test_direction(void)
{
	static const struct {
		const char *name;
		int dir;
	} cases[] = {
	    {"will-it-scale.per_process_ops", 1},
	    {"will-it-scale.workload", 0},
	    {"will-it-scale.time.elapsed_time", -1},
	    {"will-it-scale.time.voluntary_context_switches", 0},
	    {"vm-scalability.throughput", 1},
	    {"vm-scalability.stddev%", -1},
	    {"vm-scalability.free_time", -1},
	    {"unixbench.score", 1},
	    {"unixbench.Pipe Throughput", 1},
	    {"unixbench.time.user_time", 0},
	    {"unixbench.time.elapsed_time", -1},
	    {"autonuma-benchmark.numa01.seconds", -1},
	    {"specjbb.bops_per_warehouse", 1},
	    {"hackbench.throughput", 1},
	    {"hackbench.throughput_worst", 1},
	    {"meminfo.MemFree", 0},
	    {"nothing.known", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(cases[i].name, krp_meaning_direction(cases[i].name) == cases[i].dir);
}

static void test_monitor(void)
{
	CHECK("monitor: meminfo", krp_meaning_monitor("meminfo.Active(file)"));
	CHECK("monitor: numa-vmstat", krp_meaning_monitor("numa-vmstat.node0.nr_free_pages"));
	CHECK("monitor: lkp's turbostat", krp_meaning_monitor("turbostat.Avg_MHz"));
	CHECK("monitor: not a benchmark", !krp_meaning_monitor("will-it-scale.per_process_ops"));
	CHECK("monitor: rusage is not a monitor prefix",
	      !krp_meaning_monitor("will-it-scale.time.minor_page_faults"));
	CHECK("rusage: <bench>.time.*", krp_meaning_rusage("will-it-scale.time.minor_page_faults"));
	CHECK("rusage: not the benchmark", !krp_meaning_rusage("will-it-scale.workload"));
}

static void test_headline(void)
{
	size_t i, pp = 99, pt = 99;
	int all_dir = 1;
	const char *h;

	for (i = 0; (h = krp_meaning_headline(i)); i++) {
		if (!strcmp(h, "will-it-scale.per_process_ops"))
			pp = i;
		if (!strcmp(h, "will-it-scale.per_thread_ops"))
			pt = i;
		all_dir &= krp_meaning_direction(h) != 0 && h[0] != '*';
	}
	CHECK("headline: will-it-scale's per_process_ops before per_thread_ops", pp < pt && pt < i);
	CHECK("headline: every headline has a direction and a suite's name", all_dir && i >= 4);
	/* a pattern's metrics (autonuma-benchmark's per test), in rule order;
	 * rusage and model rows are none */
	CHECK("headline: autonuma-benchmark's per-test seconds",
	      krp_meaning_headline_rank("autonuma-benchmark.numa01.seconds") >= 0 &&
		  krp_meaning_direction("autonuma-benchmark.numa01.seconds") == -1);
	CHECK("headline: specjbb's bops", krp_meaning_headline_rank("specjbb.bops") >= 0);
	CHECK("headline: UnixBench's index before its tests' rates",
	      krp_meaning_headline_rank("unixbench.index") >= 0 &&
		  krp_meaning_headline_rank("unixbench.index") <
		      krp_meaning_headline_rank("unixbench.execl"));
	CHECK("headline: not UnixBench's rusage",
	      krp_meaning_headline_rank("unixbench.time.user_time") < 0);
	CHECK("headline: not a model row",
	      krp_meaning_headline_rank("model.will-it-scale.per_process_ops") < 0);
	CHECK("headline: not specjbb's bops a warehouse",
	      krp_meaning_headline_rank("specjbb.bops_per_warehouse") < 0);
	CHECK("headline: past the last is NULL", krp_meaning_headline(i) == NULL);
}

int main(void)
{
	test_rules_read();
	test_direction();
	test_monitor();
	test_headline();
	return unit_failed;
}
