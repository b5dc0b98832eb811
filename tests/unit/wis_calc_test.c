/* Unit tests for suites/will-it-scale/wis_calc.h (will-it-scale arithmetic). */
#include <limits.h>

#include "unit.h"
#include "../../suites/will-it-scale/wis_calc.h"

static void test_parse(void)
{
	struct wis_cpu c;

	CHECK("parse: aggregate line",
	      wis_parse_proc_stat("cpu  1 2 3 4 5 6 7 8 9 10\ncpu0 1 1 1 1 1 1 1 1 1 1\n", &c) ==
		  0);
	CHECK("parse: 10 fields", c.nfields == 10);
	CHECK("parse: user", c.field[WIS_CPU_USER] == 1);
	CHECK("parse: iowait", c.field[WIS_CPU_IOWAIT] == 5);
	CHECK("parse: guest_nice", c.field[WIS_CPU_GUEST_NICE] == 10);

	CHECK("parse: cpu line not first",
	      wis_parse_proc_stat("cpu0 9 9 9 9\ncpu  5 6 7 8 9\nintr 1 2\n", &c) == 0);
	CHECK("parse: not first: fields", c.nfields == 5 && c.field[WIS_CPU_USER] == 5 &&
					      c.field[WIS_CPU_IOWAIT] == 9 &&
					      c.field[WIS_CPU_IRQ] == 0);

	CHECK("parse: stops at newline", wis_parse_proc_stat("cpu  1 2 3 4\n5 6 7\n", &c) == 0);
	CHECK("parse: stops at newline: 4 fields", c.nfields == 4 && c.field[WIS_CPU_IOWAIT] == 0);

	CHECK("parse: too few fields", wis_parse_proc_stat("cpu  1 2 3\n", &c) < 0);
	CHECK("parse: no cpu line", wis_parse_proc_stat("cpu0 1 2 3 4\nintr 5\n", &c) < 0);
	CHECK("parse: empty", wis_parse_proc_stat("", &c) < 0);
	CHECK("parse: overflow", wis_parse_proc_stat("cpu  99999999999999999999 1 1 1\n", &c) < 0);
	CHECK("parse: big value",
	      wis_parse_proc_stat("cpu  18446744073709551615 0 0 0\n", &c) == 0 &&
		  c.field[WIS_CPU_USER] == ULLONG_MAX);
}

static void test_idle(void)
{
	struct wis_cpu a, b;

	/* before: total 100+50+800+50 = 1000, idle+iowait 850
	 * after:  total 160+90+1100+70 = 1420, idle+iowait 1170
	 * idle = 100 * 320 / 420 = 76.190476... */
	wis_parse_proc_stat("cpu  100 0 50 800 50 0 0 0 0 0\n", &a);
	wis_parse_proc_stat("cpu  160 0 90 1100 70 0 0 0 0 0\n", &b);
	CHECK("idle: total before", wis_cpu_total(&a) == 1000);
	CHECK("idle: idle after", wis_cpu_idle(&b) == 1170);
	CHECK_NEAR("idle: 320/420", wis_idle_pct(&a, &b), 76.19047619, 1e-6);

	/* guest/guest_nice are inside user/nice: not added to the total.
	 * before: 200+10+100+600+40+5+5+40 = 1000, idle 640
	 * after:  400+10+200+700+40+5+5+140 = 1500, idle 740 -> 100/500 = 20% */
	wis_parse_proc_stat("cpu  200 10 100 600 40 5 5 40 30 0\n", &a);
	wis_parse_proc_stat("cpu  400 10 200 700 40 5 5 140 100 7\n", &b);
	CHECK_NEAR("idle: guest not double counted", wis_idle_pct(&a, &b), 20.0, 1e-9);

	/* fully busy, and fully idle */
	wis_parse_proc_stat("cpu  10 0 10 100 0 0 0 0\n", &a);
	wis_parse_proc_stat("cpu  110 0 110 100 0 0 0 0\n", &b);
	CHECK_NEAR("idle: busy", wis_idle_pct(&a, &b), 0.0, 1e-12);
	wis_parse_proc_stat("cpu  10 0 10 300 0 0 0 0\n", &b);
	CHECK_NEAR("idle: all idle", wis_idle_pct(&a, &b), 100.0, 1e-12);

	/* iowait going backwards (NO_HZ): signed deltas.
	 * before total 1000 idle 500+100; after: user 1100, idle 600, iowait 90
	 * -> total 1790, dt 790, di 90 -> 11.392405...% */
	wis_parse_proc_stat("cpu  400 0 0 500 100 0 0 0\n", &a);
	wis_parse_proc_stat("cpu  1100 0 0 600 90 0 0 0\n", &b);
	CHECK_NEAR("idle: iowait backwards", wis_idle_pct(&a, &b), 9000.0 / 790.0, 1e-9);

	/* no time passed: 0 (as runtest.py) */
	CHECK_NEAR("idle: no delta", wis_idle_pct(&a, &a), 0.0, 1e-12);
	/* counters going backwards as a whole (bogus snapshots): 0 */
	CHECK_NEAR("idle: negative total", wis_idle_pct(&b, &a), 0.0, 1e-12);
}

static void test_sample(void)
{
	unsigned long long prev[3] = {10, 20, 30}, cur[3] = {110, 70, 330};
	unsigned long long wp[1] = {ULLONG_MAX - 1}, wc[1] = {3};
	struct wis_sample s;
	char line[128];

	wis_sample_compute(prev, cur, 3, &s);
	CHECK("sample: min", s.min == 50);
	CHECK("sample: max", s.max == 300);
	CHECK("sample: total", s.total == 450);
	CHECK("sample: format length", wis_format_sample(line, sizeof(line), &s) == 25);
	CHECK_STR("sample: format", line, "min:50 max:300 total:450\n");

	wis_sample_compute(wp, wc, 1, &s);
	CHECK("sample: counter wrap", s.min == 5 && s.max == 5 && s.total == 5);

	wis_sample_compute(prev, prev, 3, &s);
	CHECK("sample: idle tasks", s.min == 0 && s.max == 0 && s.total == 0);
	wis_format_sample(line, sizeof(line), &s);
	CHECK_STR("sample: zero format", line, "min:0 max:0 total:0\n");
}

static void test_average(void)
{
	/* measured totals 3577168 + 4158238 + 4272638 = 12008044; / 3 = 4002681.33 */
	CHECK("average: integer division", wis_average(12008044ULL, 3) == 4002681ULL);
	CHECK("average: exact", wis_average(300, 3) == 100);
	CHECK("average: truncates", wis_average(11, 3) == 3);
	CHECK("average: zero seconds", wis_average(5, 0) == 0);
}

static void test_csv(void)
{
	char out[512];
	volatile size_t small = 10; /* volatile: no compile-time truncation warning */

	wis_format_csv(out, sizeof(out), 2, 0, 4002681ULL, 76.19047619, 0);
	CHECK_STR("csv: process", out,
		  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		  "0,0,100,0,100,0\n"
		  "2,4002681,76.19,0,76.19,0\n");
	wis_format_csv(out, sizeof(out), 8, 1, 123ULL, 0.0, 0);
	CHECK_STR("csv: thread", out,
		  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		  "0,0,100,0,100,0\n"
		  "8,0,0.00,123,0.00,0\n");
	wis_format_csv(out, sizeof(out), 1, 0, 0ULL, 99.999, 0);
	CHECK_STR("csv: rounding to 2 decimals", out,
		  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		  "0,0,100,0,100,0\n"
		  "1,0,100.00,0,100.00,0\n");
	CHECK("csv: short buffer reports length",
	      wis_format_csv(out, small, 2, 0, 1ULL, 50.0, 0) ==
		      (int)strlen("tasks,processes,processes_idle,threads,threads_idle,linear\n"
				  "0,0,100,0,100,0\n"
				  "2,1,50.00,0,50.00,0\n") &&
		  strlen(out) == 9);
	wis_format_csv(out, sizeof(out), 4, 0, 350ULL, 0.0, 400ULL);
	CHECK_STR("csv: a sweep's row carries linear (1-task average x tasks)", out,
		  "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		  "0,0,100,0,100,0\n"
		  "4,350,0.00,0,0.00,400\n");
}

/* lkp-tests' sweep (lib/sysinfo.sh, programs/will-it-scale/run): the
 * counts and seconds of the worked boards in docs/BENCHMARKS.md */
static void test_sweep(void)
{
	unsigned long c[64];
	int n;

	n = wis_sweep_counts(2, 2, 1, 2, 2, c, 64);
	CHECK("sweep qemu-2node: 1 2", n == 2 && c[0] == 1 && c[1] == 2);
	n = wis_sweep_counts(2, 1, 1, 2, 1, c, 64);
	CHECK("sweep qemu-1node (one L3 for both): 1 2", n == 2 && c[0] == 1 && c[1] == 2);
	n = wis_sweep_counts(8, 4, 1, 8, 4, c, 64);
	CHECK("sweep qemu-4node8: 1 2 4 6 8",
	      n == 5 && c[0] == 1 && c[1] == 2 && c[2] == 4 && c[3] == 6 && c[4] == 8);
	n = wis_sweep_counts(120, 4, 2, 60, 4, c, 64);
	CHECK("sweep 4 sockets x 15 cores x 2 threads: 1 15 30 45 60 90 120",
	      n == 7 && c[0] == 1 && c[1] == 15 && c[2] == 30 && c[3] == 45 && c[4] == 60 &&
		  c[5] == 90 && c[6] == 120);
	CHECK("sweep: no L3, no counts (lkp's script divides by it)",
	      wis_sweep_counts(2, 1, 1, 2, 0, c, 64) == -1);
	CHECK("sweep: no core a node", wis_sweep_counts(2, 4, 1, 2, 1, c, 64) == -1);
	CHECK("sweep: the output bound holds", wis_sweep_counts(120, 4, 2, 60, 4, c, 3) == -1);
	CHECK("sweep seconds: 300 s on 2 nodes: 25", wis_sweep_seconds(300, 2) == 25);
	CHECK("sweep seconds: 300 s on 4 nodes: 16", wis_sweep_seconds(300, 4) == 16);
	CHECK("sweep seconds: at least 5", wis_sweep_seconds(10, 2) == 5);
}

int main(void)
{
	test_parse();
	test_idle();
	test_sample();
	test_average();
	test_csv();
	test_sweep();
	UNIT_EXIT();
}
