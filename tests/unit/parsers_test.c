/* Raw-output parsers: will-it-scale, meminfo, proc-vmstat, time -v. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "parsers.h"
#include "unit.h"

static double get(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0 ? v : -12345.678;
}

static int has(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0;
}

static void test_wis(void)
{
	struct krp_metrics m;
	/* The lkp fixture: one nr_task point; 1200363/104 = 11541.95 and lkp
	 * reports 11541 (integer arithmetic). */
	const char *fixture = "testcase:Separate file shared mapping page fault\n"
			      "warmup\n"
			      "min:11498 max:11632 total:1200121\n"
			      "measurement\n"
			      "min:11510 max:11640 total:1200363\n"
			      "average:1200363\n"
			      "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			      "0,0,100,0,100,0\n"
			      "104,1200363,0.16,0,0,0\n";

	krp_metrics_init(&m);
	krp_parse_will_it_scale(fixture, strlen(fixture), "will-it-scale", &m);
	CHECK_NEAR("wis per_process_ops fixture", get(&m, "will-it-scale.per_process_ops"), 11541,
		   0);
	CHECK_NEAR("wis workload", get(&m, "will-it-scale.workload"), 1200363, 0);
	CHECK_NEAR("wis 104.processes", get(&m, "will-it-scale.104.processes"), 1200363, 0);
	CHECK_NEAR("wis 104.processes_idle", get(&m, "will-it-scale.104.processes_idle"), 0.16,
		   1e-12);
	CHECK("wis no per_thread_ops", !has(&m, "will-it-scale.per_thread_ops"));
	CHECK("wis no threads key", !has(&m, "will-it-scale.104.threads"));
	CHECK("wis no scalability (linear 0)", !has(&m, "will-it-scale.scalability"));
	CHECK("wis metric count", m.n == 4);
	krp_metrics_free(&m);

	/* Two rows: per_process 100/1 = 100 and 210/2 = 105 -> mean 102.5 ->
	 * 102; per_thread 90 and 75 -> 82; workload 100+90+210+150 = 550;
	 * scalability from the nr_task != 1 row: 210/200. */
	const char *two = "rows before the header are ignored\r\n"
			  "1,999,0,999,0,999\r\n"
			  "tasks,processes,processes_idle,threads,threads_idle,linear\r\n"
			  "0,0,100,0,100,0\r\n"
			  "1,100,50,90,50,100\r\n"
			  "warmup\r\n"
			  "5,abc,0,0,0,0\r\n"
			  "6,1,2\r\n"
			  "-3,100,0,0,0,0\r\n"
			  "2.5,100,0,0,0,0\r\n"
			  "7,0,0,0,0,0\r\n"
			  "1,2,3,4,5,6,7\r\n"
			  "2,210,0,150,0,200\r\n";
	krp_metrics_init(&m);
	krp_parse_will_it_scale(two, strlen(two), "will-it-scale", &m);
	CHECK_NEAR("wis 2 rows per_process_ops", get(&m, "will-it-scale.per_process_ops"), 102, 0);
	CHECK_NEAR("wis 2 rows per_thread_ops", get(&m, "will-it-scale.per_thread_ops"), 82, 0);
	CHECK_NEAR("wis 2 rows workload", get(&m, "will-it-scale.workload"), 550, 0);
	CHECK_NEAR("wis 2 rows scalability", get(&m, "will-it-scale.scalability"), 1.05, 1e-12);
	CHECK_NEAR("wis 1.processes", get(&m, "will-it-scale.1.processes"), 100, 0);
	CHECK_NEAR("wis 2.threads", get(&m, "will-it-scale.2.threads"), 150, 0);
	CHECK("wis malformed rows skipped", !has(&m, "will-it-scale.5.processes") &&
						!has(&m, "will-it-scale.6.processes") &&
						!has(&m, "will-it-scale.7.processes"));
	CHECK("wis malformed rows: no refusal", m.bad_line == 0);
	krp_metrics_free(&m);

	/* A sweep (lkp-tests' runtest.py: a block a count, linear the 1-task
	 * average times the count): per_process_ops is the mean of the
	 * quotients truncated once, (100 + 101.5 + 101.5) / 3 = 101 (each
	 * truncated first: 100); each row's linear a metric; scalability the
	 * last row's 406 / 400. */
	const char *sweep = "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			    "0,0,100,0,100,0\n1,100,0.50,0,0.50,100\n"
			    "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			    "0,0,100,0,100,0\n2,203,0.00,0,0.00,200\n"
			    "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			    "0,0,100,0,100,0\n4,406,0.00,0,0.00,400\n";
	krp_metrics_init(&m);
	krp_parse_will_it_scale(sweep, strlen(sweep), "will-it-scale", &m);
	CHECK_NEAR("wis sweep: per_process_ops, lkp's mean then truncation",
		   get(&m, "will-it-scale.per_process_ops"), 101, 0);
	CHECK_NEAR("wis sweep: 4.linear", get(&m, "will-it-scale.4.linear"), 400, 0);
	CHECK_NEAR("wis sweep: 1.linear", get(&m, "will-it-scale.1.linear"), 100, 0);
	CHECK_NEAR("wis sweep: scalability, the last row's", get(&m, "will-it-scale.scalability"),
		   406.0 / 400.0, 1e-12);
	CHECK_NEAR("wis sweep: 2.processes", get(&m, "will-it-scale.2.processes"), 203, 0);
	krp_metrics_free(&m);
	const char *tsweep = "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			     "1,0,0,90,0,90\n2,0,0,170,0,180\n";
	krp_metrics_init(&m);
	krp_parse_will_it_scale(tsweep, strlen(tsweep), "will-it-scale", &m);
	CHECK("wis thread sweep: no scalability (lkp's is 0 and dropped)",
	      !has(&m, "will-it-scale.scalability"));
	CHECK_NEAR("wis thread sweep: 2.linear", get(&m, "will-it-scale.2.linear"), 180, 0);
	krp_metrics_free(&m);

	/* Thread mode only. */
	const char *thr = "tasks,processes,processes_idle,threads,threads_idle,linear\n"
			  "4,0,0,400,1.5,0\n";
	krp_metrics_init(&m);
	krp_parse_will_it_scale(thr, strlen(thr), "will-it-scale", &m);
	CHECK("wis threads only: no per_process_ops", !has(&m, "will-it-scale.per_process_ops"));
	CHECK_NEAR("wis threads only: per_thread_ops", get(&m, "will-it-scale.per_thread_ops"), 100,
		   0);
	krp_metrics_free(&m);

	/* A negative operation count comes from no real run: the file is
	 * refused at that row's line (issue 46, row 16), whichever column. */
	const char *neg[] = {"2,-337920,0,0,0,0", "2,0,0,-5,0,0", "2,337920,0,0,0,-1"};
	for (size_t i = 0; i < sizeof(neg) / sizeof(neg[0]); i++) {
		char in[256];
		int n = snprintf(in, sizeof(in),
				 "warmup\ntasks,processes,processes_idle,threads,threads_idle,"
				 "linear\n0,0,100,0,100,0\n%s\n",
				 neg[i]);

		krp_metrics_init(&m);
		krp_parse_raw("will-it-scale", in, (size_t)n, &m);
		CHECK("wis negative ops refused at line 4", m.bad_line == 4 && m.bad_why);
		krp_metrics_free(&m);
	}
	krp_metrics_init(&m);
	krp_parse_will_it_scale(fixture, strlen(fixture), "will-it-scale", &m);
	CHECK("wis fixture: no refusal", m.bad_line == 0);
	krp_metrics_free(&m);

	/* No header: nothing. */
	krp_metrics_init(&m);
	krp_parse_will_it_scale("104,1200363,0,0,0,0\n", 20, "will-it-scale", &m);
	CHECK("wis without header", m.n == 0);
	krp_metrics_free(&m);
}

static void test_meminfo(void)
{
	struct krp_metrics m;
	const char *mi = "time: 1700000000\n"
			 "MemTotal:       16000 kB\n"
			 "MemFree:         6000 kB\n"
			 "Active(file):     100 kB\n"
			 "HugePages_Total:       0\n"
			 "garbage line\n"
			 "Bad: abc kB\n"
			 "Two words: 5\n"
			 ": 5\n"
			 "time: 1700000001.25\n"
			 "MemTotal:       16000 kB\n"
			 "MemFree:         4000 kB\n"
			 "Active(file):     200 kB\n"
			 "HugePages_Total:       0\n"
			 "time: 1700000002\n"
			 "MemTotal:       16000 kB\n"
			 "MemFree:         5000 kB\n"
			 "Active(file):     600 kB\n";

	krp_metrics_init(&m);
	krp_parse_meminfo(mi, strlen(mi), &m);
	CHECK_NEAR("meminfo MemFree mean", get(&m, "meminfo.MemFree"), 5000, 1e-9);
	CHECK_NEAR("meminfo Active(file) mean", get(&m, "meminfo.Active(file)"), 300, 1e-9);
	CHECK_NEAR("meminfo HugePages_Total", get(&m, "meminfo.HugePages_Total"), 0, 0);
	/* used: 10000, 12000, 11000 */
	CHECK_NEAR("meminfo Memused", get(&m, "meminfo.Memused"), 11000, 1e-9);
	/* LKP: running maximum 10000, 12000, 12000, then the mean */
	CHECK_NEAR("meminfo max_used_kB", get(&m, "meminfo.max_used_kB"), 34000.0 / 3, 1e-9);
	CHECK("meminfo malformed skipped",
	      !has(&m, "meminfo.Bad") && !has(&m, "meminfo.Two") && !has(&m, "meminfo.garbage"));
	CHECK("meminfo count", m.n == 6);
	krp_metrics_free(&m);

	/* One snapshot without time: lines. */
	krp_metrics_init(&m);
	krp_parse_meminfo("MemTotal: 10 kB\nMemFree: 4 kB", 29, &m);
	CHECK_NEAR("meminfo snapshot Memused", get(&m, "meminfo.Memused"), 6, 0);
	krp_metrics_free(&m);
}

static void test_vmstat(void)
{
	struct krp_metrics m;
	const char *vm = "time: 1\n"
			 "nr_free_pages 100\n"
			 "pgfault 1000\n"
			 "numa_hit 50\n"
			 "nr_tlb_remote_flush 7\n"
			 "bad line here\n"
			 "nr_dirty x\n"
			 "time: 2\n"
			 "nr_free_pages 300\n"
			 "pgfault 1600\n"
			 "numa_hit 80\n"
			 "nr_tlb_remote_flush 9\n"
			 "time: 3\n"
			 "nr_free_pages 200\n"
			 "pgfault 2500\n"
			 "numa_hit 90\n"
			 "nr_tlb_remote_flush 17\n";

	krp_metrics_init(&m);
	krp_parse_proc_vmstat(vm, strlen(vm), &m);
	CHECK_NEAR("vmstat gauge mean", get(&m, "proc-vmstat.nr_free_pages"), 200, 1e-9);
	CHECK_NEAR("vmstat pgfault last-first", get(&m, "proc-vmstat.pgfault"), 1500, 0);
	CHECK_NEAR("vmstat numa_hit last-first", get(&m, "proc-vmstat.numa_hit"), 40, 0);
	CHECK_NEAR("vmstat nr_tlb_ counter", get(&m, "proc-vmstat.nr_tlb_remote_flush"), 10, 0);
	CHECK("vmstat malformed skipped",
	      !has(&m, "proc-vmstat.bad") && !has(&m, "proc-vmstat.nr_dirty") && m.n == 4);
	krp_metrics_free(&m);

	CHECK("counter pgfault", krp_vmstat_is_counter("pgfault"));
	CHECK("counter pgsteal_kswapd", krp_vmstat_is_counter("pgsteal_kswapd"));
	CHECK("counter thp_fault_alloc", krp_vmstat_is_counter("thp_fault_alloc"));
	CHECK("counter compact_stall", krp_vmstat_is_counter("compact_stall"));
	CHECK("counter allocstall_normal", krp_vmstat_is_counter("allocstall_normal"));
	CHECK("counter slabs_scanned", krp_vmstat_is_counter("slabs_scanned"));
	CHECK("counter kswapd_low_wmark_hit_quickly",
	      krp_vmstat_is_counter("kswapd_low_wmark_hit_quickly"));
	CHECK("counter unevictable_pgs_culled", krp_vmstat_is_counter("unevictable_pgs_culled"));
	CHECK("counter workingset_refault_anon", krp_vmstat_is_counter("workingset_refault_anon"));
	CHECK("counter oom_kill", krp_vmstat_is_counter("oom_kill"));
	CHECK("counter drop_pagecache", krp_vmstat_is_counter("drop_pagecache"));
	CHECK("counter zone_reclaim_failed", krp_vmstat_is_counter("zone_reclaim_failed"));
	CHECK("counter htlb_buddy_alloc_success",
	      krp_vmstat_is_counter("htlb_buddy_alloc_success"));
	CHECK("counter swap_ra_hit", krp_vmstat_is_counter("swap_ra_hit"));
	CHECK("counter balloon_inflate", krp_vmstat_is_counter("balloon_inflate"));
	CHECK("counter _fault suffix", krp_vmstat_is_counter("direct_map_level2_fault"));
	CHECK("counter _faults suffix", krp_vmstat_is_counter("nr_unaccepted_faults"));
	CHECK("gauge nr_free_pages", !krp_vmstat_is_counter("nr_free_pages"));
	CHECK("gauge nr_dirty", !krp_vmstat_is_counter("nr_dirty"));
	CHECK("gauge nr_anon_transparent_hugepages",
	      !krp_vmstat_is_counter("nr_anon_transparent_hugepages"));
}

static void test_time(void)
{
	struct krp_metrics m;
	const char *tv = "\tCommand being timed: \"./runtest.py page_fault3 295 process 0 0 2\"\n"
			 "\tUser time (seconds): 1.23\n"
			 "\tSystem time (seconds): 4.56\n"
			 "\tPercent of CPU this job got: 95%\n"
			 "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:10.03\n"
			 "\tAverage shared text size (kbytes): 0\n"
			 "\tMaximum resident set size (kbytes): 1234\n"
			 "\tMajor (requiring I/O) page faults: 0\n"
			 "\tMinor (reclaiming a frame) page faults: 123\n"
			 "\tVoluntary context switches: 5\n"
			 "\tInvoluntary context switches: 7\n"
			 "\tFile system inputs: 0\n"
			 "\tFile system outputs: 8\n"
			 "\tPage size (bytes): 4096\n"
			 "\tExit status: 0\n";

	krp_metrics_init(&m);
	krp_parse_time(tv, strlen(tv), "will-it-scale", &m);
	CHECK_NEAR("time user", get(&m, "will-it-scale.time.user_time"), 1.23, 1e-12);
	CHECK_NEAR("time system", get(&m, "will-it-scale.time.system_time"), 4.56, 1e-12);
	CHECK_NEAR("time percent", get(&m, "will-it-scale.time.percent_of_cpu_this_job_got"), 95,
		   0);
	CHECK_NEAR("time elapsed m:ss", get(&m, "will-it-scale.time.elapsed_time"), 10.03, 1e-9);
	CHECK_NEAR("time maxrss has LKP's name",
		   get(&m, "will-it-scale.time.maximum_resident_set_size"), 1234, 0);
	CHECK_NEAR("time elapsed_time.max as LKP", get(&m, "will-it-scale.time.elapsed_time.max"),
		   10.03, 1e-9);
	CHECK_NEAR("time major", get(&m, "will-it-scale.time.major_page_faults"), 0, 0);
	CHECK_NEAR("time minor", get(&m, "will-it-scale.time.minor_page_faults"), 123, 0);
	CHECK_NEAR("time voluntary", get(&m, "will-it-scale.time.voluntary_context_switches"), 5,
		   0);
	CHECK_NEAR("time involuntary", get(&m, "will-it-scale.time.involuntary_context_switches"),
		   7, 0);
	CHECK_NEAR("time fs inputs", get(&m, "will-it-scale.time.file_system_inputs"), 0, 0);
	CHECK_NEAR("time fs outputs", get(&m, "will-it-scale.time.file_system_outputs"), 8, 0);
	CHECK_NEAR("time exit status", get(&m, "will-it-scale.time.exit_status"), 0, 0);
	CHECK("time count (elapsed_time.max too)", m.n == 13);
	krp_metrics_free(&m);

	const char *tv2 = "Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03\n"
			  "Percent of CPU this job got: ?%\n"
			  "User time (seconds): x\n";
	krp_metrics_init(&m);
	krp_parse_time(tv2, strlen(tv2), "vm-scalability", &m);
	CHECK_NEAR("time elapsed h:mm:ss", get(&m, "vm-scalability.time.elapsed_time"), 3723, 0);
	CHECK("time ?% skipped", !has(&m, "vm-scalability.time.percent_of_cpu_this_job_got"));
	CHECK("time bad number skipped", m.n == 2);
	krp_metrics_free(&m);
}

static void test_dispatch(void)
{
	struct krp_metrics m;
	const char *t = "\tUser time (seconds): 2\n";

	krp_metrics_init(&m);
	CHECK("dispatch .time", krp_parse_raw("vm-scalability.time", t, strlen(t), &m) == 1);
	CHECK_NEAR("dispatch .time prefix", get(&m, "vm-scalability.time.user_time"), 2, 0);
	CHECK("dispatch unknown", krp_parse_raw("console.log", t, strlen(t), &m) == 0);
	CHECK("dispatch bare .time", krp_parse_raw(".time", t, strlen(t), &m) == 0);
	CHECK("known meminfo", krp_raw_known("meminfo"));
	CHECK("known proc-vmstat", krp_raw_known("proc-vmstat"));
	CHECK("known will-it-scale", krp_raw_known("will-it-scale"));
	CHECK("unknown stats.json", !krp_raw_known("stats.json"));
	krp_metrics_free(&m);
}

static void test_garbage(void)
{
	struct krp_metrics m;
	char buf[4096];
	unsigned x = 12345;
	size_t i;

	for (i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 16);
		if (i % 17 == 0)
			buf[i] = '\n';
		if (i % 29 == 0)
			buf[i] = ':';
	}
	krp_metrics_init(&m);
	krp_parse_raw("will-it-scale", buf, sizeof(buf), &m);
	krp_parse_raw("meminfo", buf, sizeof(buf), &m);
	krp_parse_raw("proc-vmstat", buf, sizeof(buf), &m);
	krp_parse_raw("x.time", buf, sizeof(buf), &m);
	for (i = 0; i < m.n; i++) {
		if (!krp_metric_name_ok(m.v[i].name))
			break;
	}
	CHECK("garbage: only clean metric names", i == m.n);
	krp_metrics_free(&m);
}

int main(void)
{
	test_wis();
	test_meminfo();
	test_vmstat();
	test_time();
	test_dispatch();
	test_garbage();
	UNIT_EXIT();
}
