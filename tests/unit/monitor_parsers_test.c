/* Monitor parsers on raw files captured in a TCG guest (base kernel,
 * will-it-scale page_fault3, monitors/<family>/fixtures/) and on small
 * hand-written inputs.  Expected values were computed independently from
 * the fixture files. */
#include <stdlib.h>

#include "metrics.h"
#include "parsers.h"
#include "unit.h"
#include "util.h"

static double get(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0 ? v : NAN;
}

static int has(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0;
}

/* Parses monitors/FAMILY/fixtures/NAME through the dispatcher, as
 * krepro-stats does. */
static void parse_fixture(const char *family, const char *name, struct krp_metrics *m)
{
	char path[256], err[KRP_ERR_MAX];
	char *data = NULL;
	size_t len = 0;
	int rc;

	snprintf(path, sizeof(path), "monitors/%s/fixtures/%s", family, name);
	rc = krp_read_file(path, 64u << 20, &data, &len, err, sizeof(err));
	CHECK(path, rc == 0 && len > 0);
	CHECK(name, krp_raw_known(name) && krp_parse_raw(name, data ? data : "", len, m) == 1);
	free(data);
}

static void test_fixtures(void)
{
	struct krp_metrics m;

	krp_metrics_init(&m);
	parse_fixture("meminfo", "numa-meminfo", &m);
	parse_fixture("proc-vmstat", "numa-vmstat", &m);
	parse_fixture("stat", "vmstat", &m);
	parse_fixture("stat", "mpstat", &m);
	parse_fixture("slabinfo", "slabinfo", &m);
	parse_fixture("interrupts", "softirqs", &m);
	parse_fixture("interrupts", "interrupts", &m);
	parse_fixture("uptime", "uptime", &m);
	parse_fixture("sched_debug", "sched_debug", &m);
	parse_fixture("perf", "perf-stat", &m);
	parse_fixture("perf", "perf-profile", &m);

	CHECK_NEAR("numa-meminfo MemTotal", get(&m, "numa-meminfo.node0.MemTotal"), 1020532, 0);
	CHECK_NEAR("numa-meminfo MemFree mean", get(&m, "numa-meminfo.node0.MemFree"),
		   911885.333333, 0.001);
	CHECK("numa-meminfo node1", has(&m, "numa-meminfo.node1.MemUsed"));
	CHECK_NEAR("numa-vmstat numa_hit counter", get(&m, "numa-vmstat.node0.numa_hit"), 34676, 0);
	CHECK("numa-vmstat gauge", has(&m, "numa-vmstat.node1.nr_free_pages"));
	CHECK_NEAR("vmstat system.in mean", get(&m, "vmstat.system.in"), 831.5, 1e-9);
	CHECK("vmstat fields", has(&m, "vmstat.procs.r") && has(&m, "vmstat.memory.cache") &&
				   has(&m, "vmstat.cpu.us") && has(&m, "vmstat.cpu.id") &&
				   has(&m, "vmstat.system.cs"));
	CHECK_NEAR("mpstat shares add to 100",
		   get(&m, "mpstat.cpu.all.usr%") + get(&m, "mpstat.cpu.all.sys%") +
		       get(&m, "mpstat.cpu.all.idle%") + get(&m, "mpstat.cpu.all.soft%") +
		       get(&m, "mpstat.cpu.all.irq%") + get(&m, "mpstat.cpu.all.iowait%") +
		       get(&m, "mpstat.cpu.all.nice%") + get(&m, "mpstat.cpu.all.steal%"),
		   100, 0.05);
	CHECK_NEAR("slabinfo num_objs", get(&m, "slabinfo.kmalloc-64.num_objs"), 320, 0);
	CHECK("slabinfo slabs", has(&m, "slabinfo.kmalloc-64.active_slabs") &&
				    has(&m, "slabinfo.kmalloc-64.num_slabs") &&
				    has(&m, "slabinfo.kmalloc-64.active_objs"));
	CHECK_NEAR("softirqs RCU delta", get(&m, "softirqs.RCU"), 324, 0);
	CHECK("softirqs per cpu", has(&m, "softirqs.CPU1.TIMER"));
	CHECK_NEAR("interrupts LOC delta", get(&m, "interrupts.LOC:Local_timer_interrupts"), 5619,
		   0);
	CHECK_NEAR("interrupts CPU1 LOC", get(&m, "interrupts.CPU1.LOC:Local_timer_interrupts"),
		   2667, 0);
	CHECK("interrupts numbered", has(&m, "interrupts.0:IO-APIC.2-edge.timer"));
	CHECK("interrupts ERR", has(&m, "interrupts.ERR"));
	CHECK_NEAR("uptime idle last", get(&m, "uptime.idle"), 6.35, 1e-9);
	CHECK_NEAR("uptime boot last", get(&m, "uptime.boot"), 8.87, 1e-9);
	CHECK_NEAR("sched_debug nr_switches avg", get(&m, "sched_debug.cpu.nr_switches.avg"), 682.5,
		   1e-9);
	CHECK("sched_debug cfs_rq root", has(&m, "sched_debug.cfs_rq:/.load_avg.stddev") &&
					     has(&m, "sched_debug.cfs_rq:/.load_avg.min"));
	CHECK("sched_debug sysctl", has(&m, "sched_debug.sysctl_sched.sysctl_sched_base_slice"));
	CHECK_NEAR("perf-stat minor-faults", get(&m, "perf-stat.minor-faults"), 747656, 0);
	CHECK("perf-stat ps", get(&m, "perf-stat.ps.cpu-clock") > 0);
	CHECK("perf-stat hardware absent in TCG",
	      !has(&m, "perf-stat.cpu-cycles") && !has(&m, "perf-stat.ipc"));
	CHECK_NEAR("perf-profile self default_idle",
		   get(&m, "perf-profile.self.cycles-pp.default_idle"), 47.0796043, 1e-6);
	CHECK_NEAR("perf-profile children handle_mm_fault",
		   get(&m, "perf-profile.children.cycles-pp.handle_mm_fault"), 20.9373528, 1e-6);
	CHECK("perf-profile suffix stripped",
	      has(&m, "perf-profile.self.cycles-pp.shmem_get_folio_gfp") &&
		  !has(&m, "perf-profile.self.cycles-pp.shmem_get_folio_gfp.isra.0"));
	CHECK("perf-profile calltrace",
	      has(&m, "perf-profile.calltrace.cycles-pp.handle_mm_fault.exc_page_fault.asm_exc_"
		      "page_fault"));
	krp_metrics_free(&m);
}

static void test_small(void)
{
	struct krp_metrics m;
	char sym[64];
	const char *cpuidle = "time: 1.0\ncpu0 state0 POLL 10 1\ncpu1 state0 POLL 20 2\n"
			      "time: 2.0\ncpu0 state0 POLL 15 3\ncpu1 state0 POLL 40 5\n"
			      "cpu1 junk\n";
	const char *prof = "time: 1\nevent: cpu-clock\nsamples: 4\n"
			   "2 clear_page;shmem_fault.constprop.0;do_fault\n"
			   "1 f;f;f\n1 do_fault\n3 ;bad\n";
	const char *stat = "time: 10.0\ncpu-cycles: 100\ninstructions: 50\ncache-misses: <not "
			   "supported>\ntime: 12.0\ncpu-cycles: 300\ninstructions: 250\n";

	krp_metrics_init(&m);
	krp_parse_cpuidle(cpuidle, strlen(cpuidle), &m);
	CHECK_NEAR("cpuidle time summed, delta", get(&m, "cpuidle.POLL.time"), 25, 0);
	CHECK_NEAR("cpuidle usage", get(&m, "cpuidle.POLL.usage"), 5, 0);
	krp_parse_perf_profile(prof, strlen(prof), &m);
	CHECK_NEAR("profile self", get(&m, "perf-profile.self.cycles-pp.clear_page"), 50, 1e-9);
	CHECK_NEAR("profile children once per chain", get(&m, "perf-profile.children.cycles-pp.f"),
		   25, 1e-9);
	CHECK_NEAR("profile children", get(&m, "perf-profile.children.cycles-pp.do_fault"), 75,
		   1e-9);
	CHECK_NEAR("profile calltrace",
		   get(&m, "perf-profile.calltrace.cycles-pp.shmem_fault.do_fault"), 50, 1e-9);
	CHECK("profile bad line skipped", !has(&m, "perf-profile.self.cycles-pp.bad"));
	krp_parse_perf_stat(stat, strlen(stat), &m);
	CHECK_NEAR("perf-stat delta", get(&m, "perf-stat.instructions"), 200, 0);
	CHECK_NEAR("perf-stat ps", get(&m, "perf-stat.ps.cpu-cycles"), 100, 1e-9);
	CHECK_NEAR("perf-stat ipc", get(&m, "perf-stat.ipc"), 1, 1e-9);
	CHECK("perf-stat not supported", !has(&m, "perf-stat.cache-misses"));
	snprintf(sym, sizeof(sym), "foo.constprop.0.isra.0");
	krp_strip_sym_suffix(sym);
	CHECK_STR("strip constprop+isra", sym, "foo");
	snprintf(sym, sizeof(sym), "bar.part.3");
	krp_strip_sym_suffix(sym);
	CHECK_STR("strip part", sym, "bar");
	snprintf(sym, sizeof(sym), ".isra");
	krp_strip_sym_suffix(sym);
	CHECK_STR("no strip at start", sym, ".isra");
	CHECK("known", krp_raw_known("sched_debug") && !krp_raw_known("sched"));
	krp_metrics_free(&m);
}

int main(void)
{
	test_fixtures();
	test_small();
	UNIT_EXIT();
}
