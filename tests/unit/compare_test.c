/* Comparison: classification, significance, table layout and summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_table.h"
#include "unit.h"

static const struct krp_cmp_opts a05 = {0, 0.05, 0, {NULL}, 0}, a01 = {0, 0.01, 0, {NULL}, 0};
static const struct krp_cmp_opts exact = {0, 0.05, 1, {NULL}, 0};

/* Build a variant in memory: names[k] gets vals[r][k] in run r (NAN =
 * missing). */
static void mkvar(struct krp_variant *v, const char *name, size_t nruns, size_t nkeys,
		  const char *const *names, const double *vals)
{
	size_t r, k;

	memset(v, 0, sizeof(*v));
	v->dir = krp_xstrdup(name);
	v->name = krp_xstrdup(name);
	v->runs = krp_xcalloc(nruns, sizeof(*v->runs));
	v->nruns = nruns;
	for (r = 0; r < nruns; r++) {
		char num[16];

		snprintf(num, sizeof(num), "%zu", r + 1);
		v->runs[r].name = krp_xstrdup(num);
		v->runs[r].num = (long)r + 1;
		krp_metrics_init(&v->runs[r].m);
		for (k = 0; k < nkeys; k++) {
			double x = vals[r * nkeys + k];

			if (!isnan(x))
				krp_metric_add(&v->runs[r].m, names[k], x, KRP_SET);
		}
	}
}

static void test_classify(void)
{
	CHECK("bench per_process_ops", !krp_is_monitor("will-it-scale.per_process_ops"));
	CHECK("bench vm-scalability.throughput", !krp_is_monitor("vm-scalability.throughput"));
	CHECK("monitor meminfo", krp_is_monitor("meminfo.Active(file)"));
	CHECK("monitor proc-vmstat", krp_is_monitor("proc-vmstat.pgfault"));
	CHECK("monitor numa-", krp_is_monitor("numa-meminfo.node0.MemUsed"));
	CHECK("monitor perf-profile", krp_is_monitor("perf-profile.self.cycles-pp.x"));
	CHECK("monitor bench time", krp_is_monitor("will-it-scale.time.elapsed_time"));
	CHECK("monitor uptime", krp_is_monitor("uptime.idle"));
	CHECK("absolute %", krp_is_absolute("mpstat.cpu.all.idle%"));
	CHECK("absolute perf-profile", krp_is_absolute("perf-profile.children.cycles-pp.x"));
	CHECK("relative", !krp_is_absolute("vm-scalability.throughput"));
	CHECK("higher _ops", krp_direction("will-it-scale.per_thread_ops") == 1);
	CHECK("higher throughput", krp_direction("vm-scalability.throughput") == 1);
	CHECK("higher median", krp_direction("vm-scalability.median") == 1);
	CHECK("lower elapsed", krp_direction("will-it-scale.time.elapsed_time") == -1);
	CHECK("lower free_time", krp_direction("vm-scalability.free_time") == -1);
	CHECK("lower stddev", krp_direction("vm-scalability.stddev") == -1);
	CHECK("lower stddev%", krp_direction("vm-scalability.stddev%") == -1);
	CHECK("lower autonuma seconds", krp_direction("autonuma-benchmark.numa01.seconds") == -1);
	CHECK("higher specjbb bops", krp_direction("specjbb.bops") == 1);
	CHECK("higher specjbb bops per warehouse",
	      krp_direction("specjbb.bops_per_warehouse") == 1);
	CHECK("higher unixbench rate", krp_direction("unixbench.execl") == 1);
	CHECK("unixbench rusage has no direction", krp_direction("unixbench.time.user_time") == 0);
	CHECK("unknown direction", krp_direction("meminfo.MemFree") == 0);
}

/* --alpha of krepro-compare and krepro-report: (0, 1), the whole argument. */
static void test_parse_alpha(void)
{
	char err[128];
	double a = 0.05;

	CHECK("alpha 0.01", krp_cmp_parse_alpha("0.01", &a, err, sizeof(err)) == 0 && a == 0.01);
	CHECK("alpha 1 refused", krp_cmp_parse_alpha("1", &a, err, sizeof(err)) == -1 && a == 0.01);
	CHECK("alpha 0 refused", krp_cmp_parse_alpha("0", &a, err, sizeof(err)) == -1);
	CHECK("alpha nan refused", krp_cmp_parse_alpha("nan", &a, err, sizeof(err)) == -1);
	CHECK("alpha trailing text refused",
	      krp_cmp_parse_alpha("0.05x", &a, err, sizeof(err)) == -1 &&
		  strcmp(err, "--alpha: expected a number in (0, 1), got \"0.05x\"") == 0);
	CHECK("alpha empty refused", krp_cmp_parse_alpha("", &a, err, sizeof(err)) == -1);
}

static void test_stddev_column(void)
{
	char s[32];

	krp_fmt_stddev(s, sizeof(s), 100, 3, 3);
	CHECK_STR("stddev 3%", s, " \xc2\xb1  3%");
	krp_fmt_stddev(s, sizeof(s), 100, 2, 3);
	CHECK_STR("stddev 2% hidden", s, "      ");
	krp_fmt_stddev(s, sizeof(s), 100, 2.9, 3);
	CHECK_STR("stddev truncated", s, " \xc2\xb1  2%");
	krp_fmt_stddev(s, sizeof(s), 10, 12.5, 3);
	CHECK_STR("stddev 125%", s,
		  " \xc2\xb1"
		  "125%");
	krp_fmt_stddev(s, sizeof(s), 100, 50, 1);
	CHECK_STR("stddev one run hidden", s, "      ");
	krp_fmt_stddev(s, sizeof(s), 0, 5, 3);
	CHECK_STR("stddev zero mean hidden", s, "      ");
}

static void test_cells(void)
{
	const double b[] = {100, 110, 120}, n[] = {80, 85, 90};
	const double b2[] = {100, 100}, n2[] = {50, 50};
	const double z[] = {1000, 1000, 1000}, z2[] = {1010, 1010, 1010};
	const double zero[] = {0, 0, 0}, one[] = {1, 1, 1};
	struct krp_cell c;

	krp_cmp_cell("will-it-scale.per_process_ops", b, 3, n, 3, &a05, &c);
	CHECK_NEAR("cell pct", c.pct, -2500.0 / 110.0, 1e-12);
	CHECK_NEAR("cell sd base", c.sdb, sqrt(200.0 / 3.0), 1e-12);
	CHECK_NEAR("cell welch t", c.w.t, -25 / sqrt(125.0 / 3.0), 1e-12);
	CHECK_NEAR("cell welch df", c.w.df, 15625.0 / (10625.0 / 2.0), 1e-12);
	CHECK_NEAR("cell welch p", c.w.p, 0.03156, 1e-4);
	CHECK("cell significant", c.significant);
	krp_cmp_cell("will-it-scale.per_process_ops", b, 3, n, 3, &a01, &c);
	CHECK("cell not significant at alpha 0.01", !c.significant);
	krp_cmp_cell("will-it-scale.per_process_ops", b2, 2, n2, 2, &a05, &c);
	CHECK("cell 2 runs never significant", !c.significant);
	/* Zero variance on both sides, means differ: significant if the
	 * effect is large enough: +1% is enough for a benchmark metric, not
	 * for a monitor. */
	krp_cmp_cell("will-it-scale.workload", z, 3, z2, 3, &a05, &c);
	CHECK("cell zero var bench +1%", c.significant);
	krp_cmp_cell("meminfo.MemFree", z, 3, z2, 3, &a05, &c);
	CHECK("cell zero var monitor +1%", !c.significant);
	krp_cmp_cell("will-it-scale.workload", z, 3, z, 3, &a05, &c);
	CHECK("cell identical", !c.significant && c.pct == 0);
	krp_cmp_cell("meminfo.Unevictable", zero, 3, one, 3, &a05, &c);
	CHECK("cell base zero: no percentage, still a change", isnan(c.pct) && c.significant);
	{
		const double neg[] = {-10, -10, -10}, neg2[] = {-5, -5, -5};
		char s[32];

		krp_cmp_cell("meminfo.Unevictable", neg, 3, neg2, 3, &a05, &c);
		CHECK("cell negative base: no percentage", isnan(c.pct));
		krp_fmt_change(s, sizeof(s), c.pct, 1);
		CHECK_STR("cell n/a change printed", s, "n/a");
	}
	krp_cmp_cell("mpstat.cpu.all.idle%", z, 3, z2, 3, &a05, &c);
	CHECK_NEAR("cell absolute shown", c.shown, 10, 0);
}

/* Exact mode: runs are seeds; one seed a side is a number and no verdict,
 * seeds get Welch at p < 0.01 and a floor. */
static void test_exact_cells(void)
{
	const double b1[] = {104591}, n1[] = {86946};
	const double b3[] = {104591, 104591, 104591}, n3[] = {103545, 103545, 103545};
	/* six layouts of one kernel at 2 tasks (issue 26's boot-word A/A) */
	const double aa1[] = {53922, 54198, 53405}, aa2[] = {53933, 54841, 53984};
	const double lo[] = {52401, 52100, 52650, 52300, 52550};
	const double hi[] = {54291, 54000, 54500, 54150, 54420};
	const double p03a[] = {100, 101, 99, 100.5, 99.5},
		     p03b[] = {101.4, 102.4, 100.4, 101.9, 100.9};
	struct krp_cell c;

	krp_cmp_cell("will-it-scale.per_process_ops", b1, 1, n1, 1, &exact, &c);
	CHECK("exact 1 vs 1: a number, no verdict", c.exact && !c.have_t && !c.significant);
	CHECK_NEAR("exact 1 vs 1 pct", c.pct, 100.0 * (86946.0 - 104591.0) / 104591.0, 1e-12);
	CHECK("exact 1 vs 1 has no floor", isnan(c.floor));
	krp_cmp_cell("will-it-scale.per_process_ops", b3, 3, n3, 3, &exact, &c);
	CHECK_NEAR("exact -1.0% pct", c.pct, -1.0, 1e-3);
	CHECK("exact -1.0% over seeds without spread", c.exact && c.w.zero_var && c.significant);
	CHECK_NEAR("exact zero spread: the floor is the minimum effect", c.floor,
		   KRP_EXACT_MIN_EFFECT, 0);
	krp_cmp_cell("will-it-scale.per_process_ops", b3, 3, b3, 3, &exact, &c);
	CHECK("exact identical sides", c.exact && !c.significant && c.pct == 0);
	krp_cmp_cell("will-it-scale.per_process_ops", aa1, 3, aa2, 3, &exact, &c);
	CHECK("exact A/A of layouts: +0.7% not called", c.exact && c.have_t && !c.significant);
	CHECK("exact A/A floor above its change", c.floor > fabs(c.pct));
	krp_cmp_cell("will-it-scale.per_process_ops", hi, 5, lo, 5, &exact, &c);
	CHECK("exact -3.5% over 5 seeds called", c.significant && c.w.p < 0.01);
	CHECK("exact floor below the change", c.floor > 0.5 && c.floor < 3.5);
	/* p between 0.01 and 0.05: real mode calls it, exact mode does not */
	krp_cmp_cell("will-it-scale.per_process_ops", p03a, 5, p03b, 5, &exact, &c);
	CHECK("exact tests at p < 0.01",
	      c.w.p > 0.01 && c.w.p < 0.05 && !c.significant && c.alpha == KRP_EXACT_ALPHA);
	krp_cmp_cell("will-it-scale.per_process_ops", p03a, 5, p03b, 5, &a05, &c);
	CHECK("real mode tests at its alpha", c.significant && !c.exact);
	krp_cmp_cell("will-it-scale.per_process_ops", b1, 1, n1, 1, &a05, &c);
	CHECK("real 1 vs 1 never significant", !c.significant && !c.exact);
	{
		const double tenth[] = {0.1, 0.1, 0.1};

		CHECK("equal samples: a spread of exactly 0",
		      krp_pstddev(tenth, 3) == 0 && krp_sample_var(tenth, 3) == 0);
	}
}

static void test_exact_report(void)
{
	static const char *const names[] = {"will-it-scale.per_process_ops", "meminfo.MemFree"};
	const double bv[] = {104591, 5000, 104591, 5100}, nv[] = {86946, 5000, 86950, 5000};
	struct krp_variant v[2];
	struct krp_buf out = {0};
	char err[256];

	mkvar(&v[0], "base", 2, 2, names, bv);
	mkvar(&v[1], "memcg", 2, 2, names, nv);
	snprintf(v[0].clock, sizeof(v[0].clock), "exact");
	snprintf(v[1].clock, sizeof(v[1].clock), "exact");
	CHECK_STR("clock of exact variants", krp_cmp_clock(v, 2, err, sizeof(err)), "exact");
	/* runs without seeds (made before them) are one input twice */
	krp_compare_report(v, 2, &exact, &out);
	krp_buf_add(&out, "", 1);
	CHECK("report names the clock and seeds",
	      strstr(out.data, "runs: base 2, memcg 2; clock exact; seeds: base 0..0 (2 runs)"));
	CHECK("report names the nondeterministic metric",
	      strstr(out.data, "NOT DETERMINISTIC: memcg will-it-scale.per_process_ops differs "
			       "between exact boots of identical inputs (runs 1 and 2, 86946 vs "
			       "86950)"));
	CHECK("a varying monitor is not flagged", !strstr(out.data, "MemFree differs"));
	krp_buf_free(&out);
	/* two seeds: other layouts, not nondeterminism */
	v[1].runs[0].seed = 1;
	v[1].runs[1].seed = 2;
	krp_compare_report(v, 2, &exact, &out);
	krp_buf_add(&out, "", 1);
	CHECK("runs of two seeds may differ", !strstr(out.data, "NOT DETERMINISTIC"));
	krp_buf_free(&out);
	v[1].runs[1].nondet = 1;
	krp_compare_report(v, 2, &exact, &out);
	krp_buf_add(&out, "", 1);
	CHECK("a run that did not repeat its digits is named",
	      strstr(out.data, "NOT DETERMINISTIC: memcg run 2 (seed 2) gave other digits"));
	krp_buf_free(&out);
	snprintf(v[1].clock, sizeof(v[1].clock), "real");
	CHECK("exact and real are never compared", !krp_cmp_clock(v, 2, err, sizeof(err)));
	CHECK("the refusal names both modes",
	      strstr(err, "clock exact") && strstr(err, "clock real"));
	snprintf(v[1].clock, sizeof(v[1].clock), "mixed");
	CHECK("a variant of both modes is refused", !krp_cmp_clock(v, 2, err, sizeof(err)));
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

/* Exact summaries: one seed a side gives no verdict; seeds give Welch with
 * its floor.  Real mode: runs under host contention are named. */
static void test_exact_summary(void)
{
	static const char *const names[] = {"will-it-scale.per_process_ops"};
	const double b1[] = {54291}, n1[] = {52401};
	const double b5[] = {54291, 54000, 54500, 54150, 54420};
	const double n5[] = {52401, 52100, 52650, 52300, 52550};
	struct krp_variant v[2];
	struct krp_buf out = {0};

	mkvar(&v[0], "base", 1, 1, names, b1);
	mkvar(&v[1], "calibration", 1, 1, names, n1);
	krp_compare_report(v, 2, &exact, &out);
	krp_buf_add(&out, "", 1);
	CHECK("one seed a side: no verdict",
	      strstr(out.data, "will-it-scale.per_process_ops: -3.5% (exact, seeds 1 vs 1: one "
			       "seed is one layout, a number and no verdict") &&
		  !strstr(out.data, "regression"));
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
	mkvar(&v[0], "base", 5, 1, names, b5);
	mkvar(&v[1], "calibration", 5, 1, names, n5);
	krp_compare_report(v, 2, &exact, &out);
	krp_buf_add(&out, "", 1);
	CHECK("seeds: Welch, labelled and floored",
	      strstr(out.data, "exact, 5 vs 5 seeds, floor ") && strstr(out.data, "): regression"));
	krp_buf_free(&out);
	v[0].runs[2].contended = 1;
	v[0].runs[2].cpu_pressure = 41.5;
	krp_compare_report(v, 2, &a05, &out);
	krp_buf_add(&out, "", 1);
	CHECK("a contended run is named",
	      strstr(out.data, "HOST CONTENTION: base run 3 was timed while the host's CPUs were "
			       "contended (CPU pressure 41.5% of its boot)"));
	CHECK("the verdict says it rests on contended runs",
	      strstr(out.data, "this verdict rests on runs timed under host contention"));
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

static const char *const keys[] = {
    "will-it-scale.per_process_ops",
    "will-it-scale.workload",
    "meminfo.MemFree",
    "meminfo.Active",
    "proc-vmstat.pgfault",
    "will-it-scale.time.elapsed_time",
    "only.in.base",
};

static void test_report(void)
{
	/* per run: ops, workload, MemFree, Active, pgfault, elapsed, only */
	const double base[] = {
	    100, 1000, 1000, 500, 2000, 10, 1, /* run 1 */
	    110, 1010, 1000, 510, 2000, 10, 1, /* run 2 */
	    120, 990,  1000, 490, 2000, 10, 1, /* run 3 */
	};
	const double nw[] = {
	    80, 1001, 1100, 600, 2400, 10, NAN, /* */
	    85, 1011, 1100, 620, 2500, 11, NAN, /* */
	    90, 991,  1100, 610, 2450, 12, NAN, /* */
	};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};

	mkvar(&v[0], "base", 3, 7, keys, base);
	mkvar(&v[1], "new", 3, 7, keys, nw);
	krp_compare_report(v, 2, &o, &out);
	/* ops: 110 +-7.4% -> 85 +-4.8%, -22.7%, Welch t=-3.87 df=2.94
	 * p=0.0316, CI (-25 -+ 3.2187*6.455)/110.
	 * proc-vmstat (1 row) sorts before meminfo (2 rows); within meminfo
	 * the larger |%change| (Active +22.0%) first.  %stddev of pgfault
	 * (40.8/2450 = 1.7%) and Active (8.2/500 = 1.6%) is not shown.  workload (+0.1%),
	 * elapsed (p > 0.05) and only.in.base are hidden. */
	CHECK_STR("report default", out.data,
		  "runs: base 3, new 3; clock real\n"
		  "\n"
		  "            base                         new\n"
		  "---------------- ---------------------------\n"
		  "         %stddev     %change         %stddev\n"
		  "             \\          |                \\\n"
		  "    110.00 \xc2\xb1  7%     -22.7%      85.00 \xc2\xb1  4%  "
		  "will-it-scale.per_process_ops\n"
		  "      2000           +22.5%       2450        proc-vmstat.pgfault\n"
		  "    500.00           +22.0%     610.00        meminfo.Active\n"
		  "      1000           +10.0%       1100        meminfo.MemFree\n"
		  "\n"
		  "summary (new vs base):\n"
		  "will-it-scale.per_process_ops: -22.7% (95% CI -41.6% .. -3.8%, Welch t=-3.87, "
		  "df=2.9, p=0.0316, runs 3 vs 3): regression\n");
	krp_buf_free(&out);

	o.all = 1;
	krp_compare_report(v, 2, &o, &out);
	CHECK("report --all shows workload", strstr(out.data, "will-it-scale.workload\n") != NULL);
	CHECK("report --all shows elapsed",
	      strstr(out.data, "will-it-scale.time.elapsed_time\n") != NULL);
	CHECK("report --all hides base-only", strstr(out.data, "only.in.base") == NULL);
	krp_buf_free(&out);

	/* No significant change: base against itself. */
	o.all = 0;
	{
		struct krp_variant same[2] = {v[0], v[0]};

		krp_compare_report(same, 2, &o, &out);
		CHECK("report no changes message",
		      strstr(out.data,
			     "no significant changes (use --all to show every metric)\n") != NULL);
		CHECK("report no changes summary",
		      strstr(out.data, "will-it-scale.per_process_ops: +0.0% (") != NULL &&
			  strstr(out.data, "): no significant change\n") != NULL);
		krp_buf_free(&out);
	}
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);

	/* One run each: no t-test. */
	{
		const double b1[] = {100}, n1[] = {90};
		const char *const k1[] = {"will-it-scale.per_thread_ops"};

		mkvar(&v[0], "a", 1, 1, k1, b1);
		mkvar(&v[1], "b", 1, 1, k1, n1);
		o.all = 1;
		krp_compare_report(v, 2, &o, &out);
		CHECK("report single run row",
		      strstr(out.data, "    100.00           -10.0%      90.00        "
				       "will-it-scale.per_thread_ops\n") != NULL);
		CHECK("report single run summary",
		      strstr(out.data,
			     "will-it-scale.per_thread_ops: -10.0% (runs 1 vs 1: too few "
			     "for a t-test): no verdict: 1 vs 1 runs, a verdict needs 3 a "
			     "side\n") != NULL);
		krp_buf_free(&out);
		krp_variant_free(&v[0]);
		krp_variant_free(&v[1]);
	}

	/* Two runs each (issue 35, row 13): a t-test but no verdict, and the
	 * line says why instead of "no significant change". */
	{
		const double b2[] = {100, 100.1}, n2[] = {50, 50.1};
		const char *const k1[] = {"will-it-scale.per_thread_ops"};

		mkvar(&v[0], "a", 2, 1, k1, b2);
		mkvar(&v[1], "b", 2, 1, k1, n2);
		o.all = 1;
		krp_compare_report(v, 2, &o, &out);
		CHECK("report 2 vs 2: a halving is not called",
		      strstr(out.data, "runs 2 vs 2): no verdict: 2 vs 2 runs, a verdict needs 3 a "
				       "side\n") != NULL);
		CHECK("report 2 vs 2: not 'no significant change'",
		      strstr(out.data, "no significant change\n") == NULL);
		krp_buf_free(&out);
		krp_variant_free(&v[0]);
		krp_variant_free(&v[1]);
	}
}

static void test_report_three(void)
{
	const char *const k[] = {"vm-scalability.throughput"};
	const double a[] = {1000, 1000, 1000}, b[] = {1100, 1100, 1100}, c[] = {900, 900, 900};
	struct krp_variant v[3];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};

	mkvar(&v[0], "base", 3, 1, k, a);
	mkvar(&v[1], "up", 3, 1, k, b);
	mkvar(&v[2], "down", 3, 1, k, c);
	krp_compare_report(v, 3, &o, &out);
	CHECK_STR("report three variants", out.data,
		  "runs: base 3, up 3, down 3; clock real\n"
		  "\n"
		  "            base                          up                        down\n"
		  "---------------- --------------------------- ---------------------------\n"
		  "         %stddev     %change         %stddev     %change         %stddev\n"
		  "             \\          |                \\          |                \\\n"
		  "      1000           +10.0%       1100           -10.0%     900.00        "
		  "vm-scalability.throughput\n"
		  "\n"
		  "summary (up vs base):\n"
		  "vm-scalability.throughput: +10.0% (95% CI +10.0% .. +10.0%, zero variance, runs "
		  "3 vs 3): improvement\n"
		  "\n"
		  "summary (down vs base):\n"
		  "vm-scalability.throughput: -10.0% (95% CI -10.0% .. -10.0%, zero variance, runs "
		  "3 vs 3): regression\n");
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
	krp_variant_free(&v[2]);
}

static void test_long_names(void)
{
	const char *const k[] = {"will-it-scale.per_process_ops"};
	const double a[] = {10, 11, 12}, b[] = {20, 21, 22};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};

	mkvar(&v[0], "0123456789abcdefXYZ", 3, 1, k, a);
	mkvar(&v[1], "0123456789abcdef0123456789aXYZ", 3, 1, k, b);
	krp_compare_report(v, 2, &o, &out);
	/* Cut to 16 and 27 columns like lkp's commit ids. */
	CHECK("report long names cut",
	      strstr(out.data, "\n0123456789abcdef 0123456789abcdef0123456789a\n") != NULL);
	CHECK(
	    "report long names in runs line",
	    strstr(out.data,
		   "runs: 0123456789abcdefXYZ 3, 0123456789abcdef0123456789aXYZ 3; clock real\n") !=
		NULL);
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

/* lkp-tests' Compare.sort_stats: a monitor's rows by name (seed 002's
 * perf-stat block), a profile's by kind, then by change, lowest first. */
static void test_row_order(void)
{
	const char *const k[] = {"perf-stat.node-stores",	"perf-stat.cache-misses",
				 "perf-stat.node-store-misses", "perf-profile.self.b",
				 "perf-profile.children.x",	"perf-profile.self.a"};
	const double a[] = {100, 100, 100, 10, 10, 10, /* */
			    101, 101, 101, 10, 10, 10, /* */
			    99,	 99,  99,  10, 10, 10};
	const double b[] = {90, 150, 500, 12, 11, 5, /* */
			    91, 151, 501, 12, 11, 5, /* */
			    89, 149, 499, 12, 11, 5};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};
	const char *c, *ns, *nsm, *ch, *sa, *sb;

	mkvar(&v[0], "base", 3, 6, k, a);
	mkvar(&v[1], "new", 3, 6, k, b);
	krp_compare_report(v, 2, &o, &out);
	c = strstr(out.data, "perf-stat.cache-misses\n");
	nsm = strstr(out.data, "perf-stat.node-store-misses\n");
	ns = strstr(out.data, "perf-stat.node-stores\n");
	ch = strstr(out.data, "perf-profile.children.x\n");
	sa = strstr(out.data, "perf-profile.self.a\n");
	sb = strstr(out.data, "perf-profile.self.b\n");
	CHECK("row order: perf-stat by name, not by the size of the change",
	      c && nsm && ns && c < nsm && nsm < ns);
	CHECK("row order: a profile's kinds apart, each by change (self.a -5 before self.b +2)",
	      ch && sa && sb && ch < sa && sa < sb);
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

int main(void)
{
	test_classify();
	test_parse_alpha();
	test_stddev_column();
	test_cells();
	test_exact_cells();
	test_exact_report();
	test_exact_summary();
	test_report();
	test_report_three();
	test_long_names();
	test_row_order();
	UNIT_EXIT();
}
