/* Compare report additions: failure rows (fail:runs, %reproduction),
 * failed runs left out of the statistics, ASCII plots, JSON/CSV exports. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_table.h"
#include "export.h"
#include "failures.h"
#include "meaning.h"
#include "plot.h"
#include "unit.h"

/* names[k] gets vals[r][k] in run r (NAN = missing). */
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

static const char *const keys[] = {"will-it-scale.per_process_ops", "dmesg.WARNING",
				   "last_state.failed"};

static void test_failure_formulas(void)
{
	CHECK("failure last_state", krp_is_failure("last_state.failed"));
	CHECK("failure dmesg", krp_is_failure("dmesg.BUG:kernel_NULL_pointer"));
	CHECK("failure kmsg", krp_is_failure("kmsg.oom"));
	CHECK("not failure", !krp_is_failure("meminfo.MemFree"));
	/* 3/4 - 0/4 = 75%; 1/3 - 2/3 = -33.3%. */
	CHECK_NEAR("reproduction 75", krp_reproduction(0, 4, 3, 4), 75.0, 1e-12);
	CHECK_NEAR("reproduction -33", krp_reproduction(2, 3, 1, 3), -100.0 / 3.0, 1e-12);
	CHECK_NEAR("reproduction no runs", krp_reproduction(0, 0, 0, 0), 0, 0);
}

static void test_failure_table(void)
{
	/* ops, WARNING, failed */
	const double base[] = {100, NAN, NAN, 110, NAN, NAN, 120, NAN, NAN};
	const double nw[] = {80, 1, NAN, 85, 1, NAN, 90, 0, NAN, NAN, NAN, 1};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};
	struct krp_vstats vs;
	size_t f, r;

	mkvar(&v[0], "base", 3, 3, keys, base);
	mkvar(&v[1], "new", 4, 3, keys, nw);
	CHECK("nfailed new", krp_variant_nfailed(&v[1]) == 1);
	CHECK("nfailed base", krp_variant_nfailed(&v[0]) == 0);
	krp_fail_count(&v[1], "dmesg.WARNING", &f, &r);
	CHECK("fail count 2:4", f == 2 && r == 4);
	krp_vstats_build(&v[1], &vs);
	CHECK("vstats skips failed run", krp_vstats_find(&vs, keys[0])->n == 3);
	CHECK("vstats skips failure keys", krp_vstats_find(&vs, "dmesg.WARNING") == NULL &&
					       krp_vstats_find(&vs, "last_state.failed") == NULL);
	krp_vstats_free(&vs);
	krp_compare_report(v, 2, &o, &out);
	/* WARNING 0:3 -> 2:4 = +50%; failed 0:3 -> 1:4 = +25%. */
	CHECK_STR("failure table", out.data,
		  "runs: base 3, new 4 (1 failed); clock real\n"
		  "\n"
		  "            base                         new\n"
		  "---------------- ---------------------------\n"
		  "       fail:runs  %reproduction    fail:runs\n"
		  "          0:3           50%           2:4     dmesg.WARNING\n"
		  "          0:3           25%           1:4     last_state.failed\n"
		  "         %stddev     %change         %stddev\n"
		  "             \\          |                \\\n"
		  "    110.00 \xc2\xb1  7%     -22.7%      85.00 \xc2\xb1  4%  "
		  "will-it-scale.per_process_ops\n"
		  "\n"
		  "summary (new vs base):\n"
		  "will-it-scale.per_process_ops: -22.7% (95% CI -41.6% .. -3.8%, Welch t=-3.87, "
		  "df=2.9, p=0.0316, runs 3 vs 3): regression\n");
	krp_buf_free(&out);

	{
		/* --note lines go under the header, before the table */
		struct krp_cmp_opts on = {0, 0.05, 0, {NULL}, 0};
		char err[KRP_ERR_MAX];
		size_t n;

		CHECK("note 1", krp_cmp_add_note(&on,
						 "variant new: series s applied with 2 lines of "
						 "context (git apply -C2, patches/s.apply)",
						 err, sizeof(err)) == 0);
		CHECK("note 2", krp_cmp_add_note(&on, "variant new: series t merged 3-way", err,
						 sizeof(err)) == 0);
		krp_compare_report(v, 2, &on, &out);
		{
			const char *want =
			    "runs: base 3, new 4 (1 failed); clock real\n\nvariant new: "
			    "series s applied with 2 lines of context (git apply -C2, "
			    "patches/s.apply)\nvariant new: series t merged 3-way\n\n "
			    "           base";

			CHECK("notes under the header", strncmp(out.data, want, strlen(want)) == 0);
		}
		krp_buf_free(&out);
		for (n = 2; n < sizeof(on.notes) / sizeof(on.notes[0]); n++)
			krp_cmp_add_note(&on, "x", err, sizeof(err));
		CHECK("notes: one more than notes[] holds is refused",
		      krp_cmp_add_note(&on, "x", err, sizeof(err)) == -1 &&
			  strcmp(err, "more than 32 --note options") == 0 && on.nnotes == 32);
	}

	/* ops as in compare_test.c (p checked there against a hand value). */
	krp_compare_csv(v, 2, &o, &out);
	CHECK_STR("csv", out.data,
		  "kind,metric,new,base_runs,base_mean,base_stddev,new_runs,new_mean,new_stddev,"
		  "change_pct,change_abs,p,significant,base_fail,new_fail,reproduction\n"
		  "perf,will-it-scale.per_process_ops,new,3,110,8.164965809,3,85,4.082482905,"
		  "-22.72727273,-25,0.03156223163,1,,,\n"
		  "failure,dmesg.WARNING,new,3,,,4,,,,,,1,0,2,50\n"
		  "failure,last_state.failed,new,3,,,4,,,,,,1,0,1,25\n");
	krp_buf_free(&out);

	krp_compare_json(v, 2, &o, &out);
	{
		json_error_t je;
		json_t *root = json_loads(out.data, 0, &je), *m0, *v1;

		CHECK("json parses", root != NULL);
		m0 = json_array_get(json_object_get(root, "metrics"), 0);
		v1 = json_array_get(json_object_get(root, "variants"), 1);
		CHECK_NEAR("json base_mean", json_real_value(json_object_get(m0, "base_mean")), 110,
			   1e-9);
		CHECK_NEAR("json change_pct", json_real_value(json_object_get(m0, "change_pct")),
			   -250.0 / 11.0, 1e-9);
		CHECK("json significant", json_is_true(json_object_get(m0, "significant")));
		CHECK("json failed_runs",
		      json_integer_value(json_object_get(v1, "failed_runs")) == 1);
		CHECK("json 3 metrics", json_array_size(json_object_get(root, "metrics")) == 3);
		json_decref(root);
	}
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

/* Line i (0-based) of s, copied into out. */
static void line_of(const char *s, int i, char *out, size_t outsz)
{
	const char *e;

	while (i-- > 0 && s) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	if (!s) {
		out[0] = '\0';
		return;
	}
	e = strchr(s, '\n');
	snprintf(out, outsz, "%.*s", (int)(e ? e - s : (long)strlen(s)), s);
}

static void test_plot(void)
{
	/* Base 10, 20, 30; new 0, 30.  Range 0..30 over 18 rows, x over 68
	 * columns (label 10 + '|'): sample i of 3 at column 11 + i*33.5
	 * rounded: 11, 45 (33.5 rounds to 34), 78.  y: row 1 + (30-v)/30*17
	 * rounded (top border is line 2): 30 -> line 3, 20 -> 5.67 -> 9,
	 * 10 -> 11.33 -> 14, 0 -> 20. */
	const double b[] = {10, 20, 30}, n[] = {0, 30};
	struct krp_buf out = {0};
	char l[128];
	int i, lines = 0;

	krp_ascii_plot(&out, "x.ops", b, 3, "good", n, 2, "bad");
	for (i = 0; out.data[i]; i++)
		lines += out.data[i] == '\n';
	CHECK("plot 25 lines", lines == 25);
	line_of(out.data, 0, l, sizeof(l));
	CHECK_STR("plot title centred", l, "                                     x.ops");
	line_of(out.data, 2, l, sizeof(l));
	CHECK("plot top border 80 wide", strlen(l) == 80 && l[10] == '+' && l[79] == '+');
	line_of(out.data, 3, l, sizeof(l));
	CHECK("plot top label 30", strncmp(l, "       30 +", 11) == 0);
	CHECK("plot base 30 at column 78", l[78] == '*');
	CHECK("plot new sample 2 (30) at column 45", l[45] == 'O');
	line_of(out.data, 9, l, sizeof(l));
	CHECK("plot base 20 at column 45", l[45] == '*');
	line_of(out.data, 14, l, sizeof(l));
	CHECK("plot base 10 at column 11", l[11] == '*');
	line_of(out.data, 20, l, sizeof(l));
	CHECK("plot new 0 at column 11", l[11] == 'O');
	CHECK("plot bottom label 0", strncmp(l, "        0 +", 11) == 0);
	CHECK("plot 80 columns", strlen(l) == 80);
	CHECK("plot legend", strstr(out.data, "\n[*] good sample\n[O] bad sample\n") != NULL);
	krp_buf_free(&out);

	/* Labels of 100000 and more were cut to 9 characters ("3.5308e+0"). */
	{
		const double big_b[] = {353080, 360000}, big_n[] = {340000};

		memset(&out, 0, sizeof(out));
		krp_ascii_plot(&out, "y.ops", big_b, 2, "good", big_n, 1, "bad");
		line_of(out.data, 3, l, sizeof(l));
		CHECK("plot label 360000 whole", strncmp(l, "   360000 +", 11) == 0);
		CHECK("no label cut", strstr(out.data, "e+0 +") == NULL);
		krp_buf_free(&out);
	}
	krp_plot_label(l, sizeof(l), 353080, 9);
	CHECK_STR("label 353080", l, "353080");
	krp_plot_label(l, sizeof(l), 1.017e8, 9);
	CHECK_STR("label 1.017e+08", l, "1.017e+08");
	krp_plot_label(l, sizeof(l), 123456789, 9);
	CHECK_STR("label 123456789 fits", l, "1.235e+08");
	krp_plot_label(l, sizeof(l), 4.9e6, 9);
	CHECK_STR("label 4.9e+06 as 0-day's", l, "4.9e+06");
	krp_plot_label(l, sizeof(l), 2.4, 9);
	CHECK_STR("label 2.4", l, "2.4");
}

/* A profile's share that one variant lacks is 0 there (meaning "share"):
 * the row shows on both sides, in points, one value a run; a plain metric
 * missing from a run stays missing. */
static void test_profile_shares(void)
{
	static const char *const pk[] = {"will-it-scale.per_process_ops",
					 "model-profile.coherence-transfers.flush_fn",
					 "model-profile.cycles.old_fn", "meminfo.MemFree"};
	const double base[] = {100, NAN, 5, 1, 101, NAN, 5, NAN, 102, NAN, 5, 1};
	const double nw[] = {90, 40, NAN, 1, 91, 42, NAN, 1, 92, NAN, NAN, 1};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_buf out = {0};
	struct krp_vstats vb, vn;
	const struct krp_series *s;

	mkvar(&v[0], "base", 3, 4, pk, base);
	mkvar(&v[1], "new", 3, 4, pk, nw);
	CHECK("share rule", krp_meaning_share(pk[1]) &&
				krp_meaning_share("perf-profile.self.cycles-pp.x") &&
				!krp_meaning_share(pk[3]));
	krp_vstats_build_in(v, 2, 0, &vb);
	krp_vstats_build_in(v, 2, 1, &vn);
	s = krp_vstats_find(&vb, pk[1]);
	CHECK("a share only the new variant has is 0 in each base run",
	      s && s->n == 3 && s->x[0] == 0 && s->x[1] == 0 && s->x[2] == 0);
	s = krp_vstats_find(&vn, pk[1]);
	CHECK("... and 0 in the new run without it, in run order",
	      s && s->n == 3 && s->x[0] == 40 && s->x[1] == 42 && s->x[2] == 0);
	s = krp_vstats_find(&vn, pk[2]);
	CHECK("a share only the base has is 0 in the new variant", s && s->n == 3 && s->x[0] == 0);
	s = krp_vstats_find(&vb, pk[3]);
	CHECK("a plain metric missing from a run stays missing", s && s->n == 2);
	krp_vstats_free(&vb);
	krp_vstats_free(&vn);
	o.all = 1;
	krp_compare_report(v, 2, &o, &out);
	CHECK("the new function is a row, its change in points",
	      strstr(out.data, "+27.3       27.33 ") &&
		  strstr(out.data, "model-profile.coherence-transfers.flush_fn"));
	if (!strstr(out.data, "+27.3       27.33 "))
		fprintf(stderr, "%s", out.data);
	krp_buf_free(&out);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
}

int main(void)
{
	test_failure_formulas();
	test_failure_table();
	test_plot();
	test_profile_shares();
	UNIT_EXIT();
}
