/* Statistics arithmetic, 0-day number formats, metric reduction, and the
 * "krepro-stats run" / "unite" directory operations. */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kstats.h"
#include "metrics.h"
#include "results.h"
#include "unit.h"
#include "util.h"

static void test_basic(void)
{
	const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	const double y[] = {1, 2, 3, 4};
	const double one[] = {42};

	CHECK_NEAR("mean", krp_mean(x, 8), 5.0, 1e-12);
	CHECK_NEAR("pstddev {2,4,4,4,5,5,7,9}", krp_pstddev(x, 8), 2.0, 1e-12);
	CHECK_NEAR("sample var {2,4,4,4,5,5,7,9}", krp_sample_var(x, 8), 32.0 / 7.0, 1e-12);
	/* devs^2 = 2.25 + .25 + .25 + 2.25 = 5; 5/4 = 1.25 */
	CHECK_NEAR("pstddev {1,2,3,4}", krp_pstddev(y, 4), sqrt(1.25), 1e-12);
	CHECK_NEAR("pstddev one sample", krp_pstddev(one, 1), 0.0, 0);
	CHECK_NEAR("mean empty", krp_mean(x, 0), 0.0, 0);
}

static void test_distributions(void)
{
	/* I_x(2,3) = sum_{j=2..4} C(4,j) x^j (1-x)^(4-j) = .3456+.1536+.0256 */
	CHECK_NEAR("betai(2,3,0.4)", krp_betai(2, 3, 0.4), 0.5248, 1e-12);
	CHECK_NEAR("betai(1,1,x) = x", krp_betai(1, 1, 0.3), 0.3, 1e-12);
	CHECK_NEAR("betai(3,1,x) = x^3", krp_betai(3, 1, 0.7), 0.343, 1e-12);
	CHECK_NEAR("betai(1,4,x) = 1-(1-x)^4", krp_betai(1, 4, 0.2), 1 - pow(0.8, 4), 1e-12);
	CHECK_NEAR("betai edges", krp_betai(2, 2, 0) + krp_betai(2, 2, 1), 1.0, 0);
	/* df=1 is Cauchy: F(1) = 3/4.  df=2: F(t) = 1/2 + t/(2 sqrt(2+t^2)). */
	CHECK_NEAR("t cdf df=1 t=1", krp_t_cdf(1, 1), 0.75, 1e-12);
	CHECK_NEAR("t cdf df=2 t=2", krp_t_cdf(2, 2), 0.5 + 2 / (2 * sqrt(6)), 1e-12);
	CHECK_NEAR("t cdf df=2 t=-2", krp_t_cdf(-2, 2), 0.5 - 2 / (2 * sqrt(6)), 1e-12);
	CHECK_NEAR("t cdf t=0", krp_t_cdf(0, 5), 0.5, 1e-12);
	/* Two-sided p for t=2, df=8 (numerical integration of the pdf). */
	CHECK_NEAR("t p2 t=2 df=8", krp_t_p2(2, 8), 0.0805162, 1e-6);
	/* Table values of t_{0.975}. */
	CHECK_NEAR("t quantile .975 df=1", krp_t_quantile(0.975, 1), 12.7062, 1e-4);
	CHECK_NEAR("t quantile .975 df=2", krp_t_quantile(0.975, 2), 4.302653, 1e-5);
	CHECK_NEAR("t quantile .975 df=8", krp_t_quantile(0.975, 8), 2.306004, 1e-5);
	CHECK_NEAR("t quantile .025 df=8", krp_t_quantile(0.025, 8), -2.306004, 1e-5);
	CHECK_NEAR("t quantile .975 df=1000", krp_t_quantile(0.975, 1000), 1.962339, 1e-5);
	CHECK_NEAR("t quantile .5", krp_t_quantile(0.5, 3), 0.0, 0);
}

static void test_welch(void)
{
	const double a[] = {1, 2, 3, 4, 5}, b[] = {3, 4, 5, 6, 7};
	const double c[] = {10, 12, 14}, d[] = {20, 21, 22, 23, 24};
	const double z1[] = {5, 5, 5}, z2[] = {6, 6, 6};
	struct krp_welch w;

	/* means 3 and 5, variances 2.5: se = sqrt(.5+.5) = 1, t = -2,
	 * df = 1 / (.25/4 + .25/4) = 8. */
	CHECK("welch equal var rc", krp_welch(a, 5, b, 5, &w) == 0);
	CHECK_NEAR("welch t", w.t, -2.0, 1e-12);
	CHECK_NEAR("welch df", w.df, 8.0, 1e-12);
	CHECK_NEAR("welch p", w.p, 0.0805, 1e-4);
	CHECK_NEAR("welch diff", w.diff, -2.0, 1e-12);
	/* var 4 (n=3) vs 2.5 (n=5): qa = 4/3, qb = 1/2, se^2 = 11/6,
	 * t = -10/sqrt(11/6), df = (11/6)^2 / ((16/9)/2 + (1/4)/4). */
	CHECK("welch unequal rc", krp_welch(c, 3, d, 5, &w) == 0);
	CHECK_NEAR("welch unequal t", w.t, -10 / sqrt(11.0 / 6.0), 1e-12);
	CHECK_NEAR("welch unequal df", w.df, (121.0 / 36.0) / (8.0 / 9.0 + 1.0 / 16.0), 1e-12);
	CHECK("welch too few", krp_welch(c, 1, d, 5, &w) == -1);
	CHECK("welch zero variance",
	      krp_welch(z1, 3, z2, 3, &w) == 0 && w.zero_var && w.p == 0 && isinf(w.t) && w.t < 0);
	CHECK("welch zero variance equal", krp_welch(z1, 3, z1, 3, &w) == 0 && w.p == 1);
}

static void test_format(void)
{
	char s[64];

	krp_fmt_avg(s, sizeof(s), 152345);
	CHECK_STR("avg int", s, "152345");
	krp_fmt_avg(s, sizeof(s), 152345.5);
	CHECK_STR("avg rounded", s, "152346");
	krp_fmt_avg(s, sizeof(s), 6.6);
	CHECK_STR("avg small", s, "6.60");
	krp_fmt_avg(s, sizeof(s), 999.994);
	CHECK_STR("avg < 1000", s, "999.99");
	krp_fmt_avg(s, sizeof(s), 1000);
	CHECK_STR("avg 1000", s, "1000");
	krp_fmt_avg(s, sizeof(s), 0.03);
	CHECK_STR("avg tiny", s, "0.03");
	krp_fmt_avg(s, sizeof(s), -12.5);
	CHECK_STR("avg negative", s, "-12.50");
	krp_fmt_avg(s, sizeof(s), 100000000);
	CHECK_STR("avg 1e8 is %d", s, "100000000");
	krp_fmt_avg(s, sizeof(s), 1.017e8 + 12345);
	CHECK_STR("avg > 1e8", s, "1.017e+08");
	krp_fmt_change(s, sizeof(s), -12.345, 1);
	CHECK_STR("change pct", s, "-12.3%");
	krp_fmt_change(s, sizeof(s), 129.9, 1);
	CHECK_STR("change plus", s, "+129.9%");
	krp_fmt_change(s, sizeof(s), 0, 1);
	CHECK_STR("change zero", s, "+0.0%");
	krp_fmt_change(s, sizeof(s), 1.02, 0);
	CHECK_STR("change absolute", s, "+1.0");
	krp_fmt_change(s, sizeof(s), 620000, 1);
	CHECK_STR("change huge", s, "+6.2e+05%");
	krp_fmt_change(s, sizeof(s), 99999.9, 1);
	CHECK_STR("change below huge", s, "+99999.9%");
}

static void test_metrics(void)
{
	struct krp_metrics m;
	double v;

	krp_metrics_init(&m);
	krp_metric_add(&m, "g", 1, KRP_MEAN);
	krp_metric_add(&m, "g", 2, KRP_MEAN);
	krp_metric_add(&m, "g", 6, KRP_MEAN);
	krp_metric_add(&m, "c", 100, KRP_DELTA);
	krp_metric_add(&m, "c", 150, KRP_DELTA);
	krp_metric_add(&m, "c", 170, KRP_DELTA);
	krp_metric_add(&m, "c1", 100, KRP_DELTA);
	krp_metric_add(&m, "s", 1, KRP_SET);
	krp_metric_add(&m, "s", 7, KRP_SET);
	krp_metric_add(&m, "x", 3, KRP_MAX);
	krp_metric_add(&m, "x", 9, KRP_MAX);
	krp_metric_add(&m, "x", 4, KRP_MAX);
	CHECK("metric mean", krp_metrics_get(&m, "g", &v) == 0 && v == 3);
	CHECK("metric delta", krp_metrics_get(&m, "c", &v) == 0 && v == 70);
	CHECK("metric delta single sample", krp_metrics_get(&m, "c1", &v) == 0 && v == 100);
	CHECK("metric set", krp_metrics_get(&m, "s", &v) == 0 && v == 7);
	CHECK("metric max", krp_metrics_get(&m, "x", &v) == 0 && v == 9);
	CHECK("metric absent", krp_metrics_get(&m, "nope", &v) == -1);
	CHECK("metric bad name space", krp_metric_add(&m, "a b", 1, KRP_SET) == -1);
	CHECK("metric bad name empty", krp_metric_add(&m, "", 1, KRP_SET) == -1);
	CHECK("metric bad name quote", krp_metric_add(&m, "a\"b", 1, KRP_SET) == -1);
	CHECK("metric nan", krp_metric_add(&m, "n", NAN, KRP_SET) == -1);
	CHECK("metric inf", krp_metric_add(&m, "n", INFINITY, KRP_SET) == -1);
	CHECK("metric count", m.n == 5);
	{
		size_t *o = krp_metrics_sorted(&m);

		CHECK_STR("sorted first", m.v[o[0]].name, "c");
		CHECK_STR("sorted last", m.v[o[4]].name, "x");
		free(o);
	}
	krp_metrics_free(&m);
}

/* ---- directories ---- */

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = krp_path_join(dir, name);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = krp_path_join(dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

static char *mkrun(const char *variant, const char *run)
{
	char *p = krp_path_join(variant, run);

	mkdir(p, 0755);
	return p;
}

static void test_stats_run(const char *root)
{
	char err[KRP_ERR_MAX];
	char *run = mkrun(root, "run");
	char *sp = krp_path_join(run, "stats.json");
	struct krp_metrics m;
	double v;
	long n;

	write_file(run, "will-it-scale",
		   "tasks,processes,processes_idle,threads,threads_idle,linear\n"
		   "0,0,100,0,100,0\n"
		   "104,1200363,0.12,0,0,0\n");
	write_file(run, "meminfo",
		   "time: 1700000000.5\nMemTotal: 1000 kB\nMemFree: 400 kB\n"
		   "time: 1700000001.5\nMemTotal: 1000 kB\nMemFree: 200 kB\n");
	write_file(run, "proc-vmstat",
		   "time: 1\npgfault 10\nnr_free_pages 5\n"
		   "time: 2\npgfault 25\nnr_free_pages 7\n");
	write_file(run, "will-it-scale.time",
		   "\tUser time (seconds): 1.5\n"
		   "\tElapsed (wall clock) time (h:mm:ss or m:ss): "
		   "1:02:03\n");
	write_file(run, "console.log", "MemTotal: 99 kB\n");
	n = krp_stats_run(run, err, sizeof(err));
	CHECK("stats run metrics", n == 13);
	krp_metrics_init(&m);
	CHECK("stats.json loads", krp_stats_load(sp, &m, err, sizeof(err)) == 0);
	CHECK("run per_process_ops",
	      krp_metrics_get(&m, "will-it-scale.per_process_ops", &v) == 0 && v == 11541);
	CHECK("run Memused", krp_metrics_get(&m, "meminfo.Memused", &v) == 0 && v == 700);
	CHECK("run pgfault delta", krp_metrics_get(&m, "proc-vmstat.pgfault", &v) == 0 && v == 15);
	CHECK("run nr_free_pages mean",
	      krp_metrics_get(&m, "proc-vmstat.nr_free_pages", &v) == 0 && v == 6);
	CHECK("run elapsed",
	      krp_metrics_get(&m, "will-it-scale.time.elapsed_time", &v) == 0 && v == 3723);
	CHECK("run ignores unknown files", m.n == 13);
	krp_metrics_free(&m);

	{
		char *empty = mkrun(root, "empty");

		write_file(empty, "console.log", "x\n");
		CHECK("run without raw files fails", krp_stats_run(empty, err, sizeof(err)) == -1 &&
							 strstr(err, "no raw result files"));
		free(empty);
	}
	free(sp);
	free(run);
}

static json_t *load_json(const char *dir, const char *name)
{
	char *p = krp_path_join(dir, name);
	json_t *j = json_load_file(p, 0, NULL);

	free(p);
	return j;
}

static void test_unite(const char *root)
{
	char err[KRP_ERR_MAX];
	char *var = krp_path_join(root, "base");
	char *r;
	json_t *mx, *avg, *sd;

	mkdir(var, 0755);
	r = mkrun(var, "10");
	write_file(r, "stats.json", "{\"a.x\": 6, \"b\": 1.5}");
	free(r);
	r = mkrun(var, "2");
	write_file(r, "stats.json", "{\"a.x\": 4}");
	free(r);
	r = mkrun(var, "1");
	write_file(r, "stats.json", "{\"a.x\": 2, \"b\": 0.5}");
	free(r);
	r = mkrun(var, "3.tmp");
	write_file(r, "stats.json", "{\"a.x\": 1000}");
	free(r);
	r = mkrun(var, "notes");
	free(r);
	CHECK("unite runs", krp_stats_unite(var, err, sizeof(err)) == 3);
	mx = load_json(var, "matrix.json");
	avg = load_json(var, "avg.json");
	sd = load_json(var, "stddev.json");
	CHECK("unite files", mx && avg && sd);
	if (mx && avg && sd) {
		json_t *src = json_object_get(mx, "stats_source");
		json_t *ax = json_object_get(mx, "a.x"), *b = json_object_get(mx, "b");

		CHECK("stats_source numeric order",
		      json_array_size(src) == 3 &&
			  !strcmp(json_string_value(json_array_get(src, 0)), "1") &&
			  !strcmp(json_string_value(json_array_get(src, 1)), "2") &&
			  !strcmp(json_string_value(json_array_get(src, 2)), "10"));
		CHECK("matrix values", json_array_size(ax) == 3 &&
					   json_integer_value(json_array_get(ax, 0)) == 2 &&
					   json_integer_value(json_array_get(ax, 2)) == 6);
		CHECK("matrix null for missing", json_is_null(json_array_get(b, 1)));
		CHECK_NEAR("avg a.x", json_number_value(json_object_get(avg, "a.x")), 4.0, 1e-12);
		CHECK_NEAR("avg b (present only)", json_number_value(json_object_get(avg, "b")),
			   1.0, 1e-12);
		/* {2,4,6}: sqrt(8/3) */
		CHECK_NEAR("stddev a.x", json_number_value(json_object_get(sd, "a.x")),
			   sqrt(8.0 / 3.0), 1e-12);
		CHECK_NEAR("stddev b", json_number_value(json_object_get(sd, "b")), 0.5, 1e-12);
	}
	json_decref(mx);
	json_decref(avg);
	json_decref(sd);

	/* A broken stats.json is named with its line. */
	r = mkrun(var, "4");
	write_file(r, "stats.json", "{\n\"a.x\": 1,\n\"b\" 2\n}\n");
	CHECK("unite bad json", krp_stats_unite(var, err, sizeof(err)) == -1 &&
				    strstr(err, "4/stats.json:3:") != NULL);
	write_file(r, "stats.json", "{\"a.x\": \"fast\"}");
	CHECK("unite non-number: the metric is skipped, not the run",
	      krp_stats_unite(var, err, sizeof(err)) > 0);
	write_file(r, "stats.json", "[1, 2]");
	CHECK("unite non-object", krp_stats_unite(var, err, sizeof(err)) == -1 &&
				      strstr(err, "not a JSON object") != NULL);
	write_file(r, "stats.json", "{\"a.x\": 1, \"a.x\": 2}");
	CHECK("unite duplicate key", krp_stats_unite(var, err, sizeof(err)) == -1);
	free(r);
	{
		char *none = krp_path_join(root, "none");

		mkdir(none, 0755);
		CHECK("unite without runs", krp_stats_unite(none, err, sizeof(err)) == -1);
		CHECK("unite missing dir",
		      krp_stats_unite("/nonexistent/krepro", err, sizeof(err)) == -1);
		free(none);
	}
	free(var);
}

/* One bad value in a stats.json costs its metric, not the file: a huge
 * integer is read as a real, a string is skipped (issue 12). */
static void test_stats_bad_values(const char *root)
{
	char err[KRP_ERR_MAX];
	char *run = mkrun(root, "bad");
	char *sp = krp_path_join(run, "stats.json");
	struct krp_metrics m;
	double v;

	write_file(run, "stats.json",
		   "{\"a.big\": 99999999999999999999, \"b.text\": \"x\", \"c.ok\": 5}\n");
	krp_metrics_init(&m);
	CHECK("stats.json with bad values loads", krp_stats_load(sp, &m, err, sizeof(err)) == 0);
	CHECK("huge integer read as a real", krp_metrics_get(&m, "a.big", &v) == 0 && v > 9e19);
	CHECK("a string value is skipped", krp_metrics_get(&m, "b.text", &v) != 0);
	CHECK("the other metrics stay", krp_metrics_get(&m, "c.ok", &v) == 0 && v == 5);
	krp_metrics_free(&m);
	free(sp);
	free(run);
}

int main(void)
{
	char tmpl[] = "/tmp/krepro-test-stats.XXXXXX";
	char *root;

	test_basic();
	test_distributions();
	test_welch();
	test_format();
	test_metrics();
	root = mkdtemp(tmpl);
	CHECK("mkdtemp", root != NULL);
	if (root) {
		test_stats_run(root);
		test_unite(root);
		test_stats_bad_values(root);
		rm_tree(root);
	}
	UNIT_EXIT();
}
