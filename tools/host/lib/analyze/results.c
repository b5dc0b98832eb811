/* Result directories (see results.h). */
#include "results.h"

#include "model_rate.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobconf.h"
#include "kstats.h"
#include "parsers.h"

static json_t *json_num(double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static int save_json(const char *path, json_t *obj, char *err, size_t errsz)
{
	char *s = json_dumps(obj, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
	struct krp_buf b = {0};
	int rc;

	if (!s) {
		snprintf(err, errsz, "%s: cannot encode JSON", path);
		return -1;
	}
	krp_buf_puts(&b, s);
	krp_buf_puts(&b, "\n");
	free(s);
	rc = krp_write_atomic(path, b.data, b.len, err, errsz);
	krp_buf_free(&b);
	return rc;
}

int krp_stats_load(const char *path, struct krp_metrics *m, char *err, size_t errsz)
{
	char *data;
	size_t len;
	json_error_t je;
	json_t *root, *val;
	const char *key;

	if (krp_read_file(path, KRP_JSON_MAX, &data, &len, err, errsz) != 0)
		return -1;
	/* Integers beyond 64 bits are read as reals, not refused whole. */
	root = json_loadb(data, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
	free(data);
	if (!root) {
		snprintf(err, errsz, "%s:%d: unparsable JSON: %s", path, je.line, je.text);
		return -1;
	}
	if (!json_is_object(root)) {
		snprintf(err, errsz, "%s:1: not a JSON object", path);
		json_decref(root);
		return -1;
	}
	json_object_foreach(root, key, val)
	{
		double v;
		char safe[96];

		if (json_is_integer(val))
			v = (double)json_integer_value(val);
		else if (json_is_real(val))
			v = json_real_value(val);
		else
			v = NAN;
		/* One bad value costs its metric, not the whole comparison. */
		if (!krp_value_ok(v)) {
			krp_sanitize(safe, sizeof(safe), key, strlen(key));
			fprintf(stderr,
				"warning: %s: \"%s\" skipped: not a number within +-1e150\n", path,
				safe);
			continue;
		}
		if (krp_metric_add(m, key, v, KRP_SET) != 0) {
			krp_sanitize(safe, sizeof(safe), key, strlen(key));
			snprintf(err, errsz, "%s: bad metric name \"%s\"", path, safe);
			json_decref(root);
			return -1;
		}
	}
	json_decref(root);
	return 0;
}

int krp_stats_save(const char *path, const struct krp_metrics *m, char *err, size_t errsz)
{
	json_t *obj = json_object();
	size_t i;
	int rc;

	for (i = 0; i < m->n; i++) {
		double v = krp_metric_value(&m->v[i]);

		if (isfinite(v))
			json_object_set_new(obj, m->v[i].name, json_num(v));
	}
	rc = save_json(path, obj, err, errsz);
	json_decref(obj);
	return rc;
}

static int run_name_num(const char *s, long *num)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
	}
	*num = strtol(s, NULL, 10);
	return 0;
}

static int cmp_run(const void *a, const void *b)
{
	const struct krp_run *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name); /* "1" before "01" */
}

void krp_variant_free(struct krp_variant *v)
{
	size_t i;

	for (i = 0; i < v->nruns; i++) {
		free(v->runs[i].name);
		krp_metrics_free(&v->runs[i].m);
	}
	free(v->runs);
	free(v->dir);
	free(v->name);
	memset(v, 0, sizeof(*v));
}

/* A whole number of at most 9 digits, else -1. */
static long small_num(const char *s)
{
	long n;

	return s && run_name_num(s, &n) == 0 ? n : -1;
}

/* What a run's own files say beside its metrics: the clock (folded into
 * v->clock), seed and NUMA balancing of its job.conf, its NOT-DETERMINISTIC mark and the
 * host's contention of its host.conf (files that are missing or unreadable
 * say nothing). */
static void run_meta(struct krp_variant *v, struct krp_run *r, const char *run_dir, int first)
{
	char err[KRP_ERR_MAX], *jp = krp_path_join(run_dir, "job.conf");
	char *hp = krp_path_join(run_dir, "host.conf");
	char *np = krp_path_join(run_dir, "NOT-DETERMINISTIC");
	struct krp_jobconf jc;
	const char *c = "real";
	struct stat st;

	r->seed = -1;
	r->numa_balancing = -1;
	r->cpu_pressure = NAN;
	r->contended = 0;
	if (krp_jobconf_load(jp, &jc, err, sizeof(err)) == 0) {
		const char *jcc = krp_jobconf_get(&jc, "clock");

		if (jcc && strcmp(jcc, "exact") == 0)
			c = "exact";
		r->seed = small_num(krp_jobconf_get(&jc, "seed"));
		r->numa_balancing = small_num(krp_jobconf_get(&jc, "numa_balancing"));
	}
	krp_jobconf_free(&jc);
	if (first)
		snprintf(v->clock, sizeof(v->clock), "%s", c);
	else if (strcmp(v->clock, c) != 0)
		snprintf(v->clock, sizeof(v->clock), "mixed");
	if (krp_jobconf_load(hp, &jc, err, sizeof(err)) == 0) {
		/* per mille of the boot's wall time: a whole number */
		long pm = small_num(krp_jobconf_get(&jc, "cpu_pressure_permille"));
		const char *ct = krp_jobconf_get(&jc, "contended");

		if (pm >= 0)
			r->cpu_pressure = (double)pm / 10.0;
		r->contended = ct && strcmp(ct, "1") == 0;
	}
	krp_jobconf_free(&jc);
	r->nondet = stat(np, &st) == 0;
	free(np);
	free(hp);
	free(jp);
}

int krp_variant_load(const char *dir, struct krp_variant *v, char *err, size_t errsz)
{
	DIR *d;
	struct dirent *de;
	size_t cap = 0, i;

	memset(v, 0, sizeof(*v));
	d = opendir(dir);
	if (!d) {
		snprintf(err, errsz, "%s: cannot open directory: %s", dir, strerror(errno));
		return -1;
	}
	v->dir = krp_xstrdup(dir);
	v->name = krp_basename_dup(dir);
	while ((de = readdir(d)) != NULL) {
		long num;
		struct stat st;
		char *p;

		if (run_name_num(de->d_name, &num) != 0)
			continue;
		p = krp_path_join(dir, de->d_name);
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
			free(p);
			continue;
		}
		free(p);
		if (v->nruns == cap) {
			cap = cap ? cap * 2 : 8;
			v->runs = krp_xrealloc(v->runs, cap * sizeof(*v->runs));
		}
		v->runs[v->nruns].name = krp_xstrdup(de->d_name);
		v->runs[v->nruns].num = num;
		krp_metrics_init(&v->runs[v->nruns].m);
		v->nruns++;
	}
	closedir(d);
	if (v->nruns > 1)
		qsort(v->runs, v->nruns, sizeof(*v->runs), cmp_run);
	for (i = 0; i < v->nruns; i++) {
		char *rd = krp_path_join(dir, v->runs[i].name);
		char *sp = krp_path_join(rd, "stats.json");
		int rc = krp_stats_load(sp, &v->runs[i].m, err, errsz);

		free(sp);
		if (rc != 0) {
			free(rd);
			krp_variant_free(v);
			return -1;
		}
		run_meta(v, &v->runs[i], rd, i == 0);
		free(rd);
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long krp_stats_run(const char *run_dir, char *err, size_t errsz)
{
	struct krp_metrics m;
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t nn = 0, cap = 0, i, known = 0;
	long rc = -1;

	d = opendir(run_dir);
	if (!d) {
		snprintf(err, errsz, "%s: cannot open directory: %s", run_dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 16;
			names = krp_xrealloc(names, cap * sizeof(*names));
		}
		names[nn++] = krp_xstrdup(de->d_name);
	}
	closedir(d);
	if (nn > 1)
		qsort(names, nn, sizeof(*names), cmp_str);
	krp_metrics_init(&m);
	for (i = 0; i < nn; i++) {
		char *p = krp_path_join(run_dir, names[i]);
		struct stat st;
		char *data;
		size_t len;

		/* Only regular files, never through a symlink. */
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (!krp_raw_known(names[i])) {
			free(p);
			continue;
		}
		if (krp_read_file(p, KRP_RAW_MAX, &data, &len, err, errsz) != 0) {
			free(p);
			goto out;
		}
		krp_parse_raw(names[i], data, len, &m);
		known++;
		free(data);
		if (m.bad_line) {
			snprintf(err, errsz, "%s:%zu: %s", p, m.bad_line, m.bad_why);
			free(p);
			goto out;
		}
		free(p);
	}
	if (known == 0) {
		snprintf(err, errsz,
			 "%s: no raw result files (will-it-scale, meminfo, proc-vmstat, *.time)",
			 run_dir);
		goto out;
	}
	if (m.n == 0) {
		snprintf(err, errsz, "%s: no metrics found in the raw result files", run_dir);
		goto out;
	}
	krp_model_rates(&m);
	{
		char *sp = krp_path_join(run_dir, "stats.json");
		int wrc = krp_stats_save(sp, &m, err, errsz);

		free(sp);
		if (wrc != 0)
			goto out;
	}
	rc = (long)m.n;
out:
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	krp_metrics_free(&m);
	return rc;
}

long krp_stats_unite(const char *variant_dir, char *err, size_t errsz)
{
	struct krp_variant v;
	struct krp_metrics all; /* union of names */
	json_t *matrix, *avg, *sd, *src;
	size_t i, r, *order;
	double *vals;
	long rc = -1;

	if (krp_variant_load(variant_dir, &v, err, errsz) != 0)
		return -1;
	if (v.nruns == 0) {
		snprintf(err, errsz, "%s: no run directories with stats.json", variant_dir);
		krp_variant_free(&v);
		return -1;
	}
	krp_metrics_init(&all);
	for (r = 0; r < v.nruns; r++) {
		for (i = 0; i < v.runs[r].m.n; i++)
			krp_metric_add(&all, v.runs[r].m.v[i].name, 0, KRP_SET);
	}
	order = krp_metrics_sorted(&all);
	vals = krp_xmalloc(v.nruns * sizeof(*vals));
	matrix = json_object();
	avg = json_object();
	sd = json_object();
	for (i = 0; i < all.n; i++) {
		const char *name = all.v[order[i]].name;
		json_t *arr = json_array();
		size_t n = 0;

		for (r = 0; r < v.nruns; r++) {
			double x;

			if (krp_metrics_get(&v.runs[r].m, name, &x) == 0) {
				vals[n++] = x;
				json_array_append_new(arr, json_num(x));
			} else {
				json_array_append_new(arr, json_null());
			}
		}
		json_object_set_new(matrix, name, arr);
		json_object_set_new(avg, name, json_num(krp_mean(vals, n)));
		json_object_set_new(sd, name, json_num(krp_pstddev(vals, n)));
	}
	src = json_array();
	for (r = 0; r < v.nruns; r++)
		json_array_append_new(src, json_string(v.runs[r].name));
	json_object_set_new(matrix, "stats_source", src);
	{
		const char *files[3] = {"matrix.json", "avg.json", "stddev.json"};
		json_t *objs[3] = {matrix, avg, sd};
		int k;

		for (k = 0; k < 3; k++) {
			char *p = krp_path_join(variant_dir, files[k]);
			int wrc = save_json(p, objs[k], err, errsz);

			free(p);
			if (wrc != 0) {
				/* No newer matrix.json beside an older avg.json:
				 * a failed write takes all three away. */
				for (k = 0; k < 3; k++) {
					p = krp_path_join(variant_dir, files[k]);
					unlink(p);
					free(p);
				}
				goto out;
			}
		}
	}
	rc = (long)v.nruns;
out:
	json_decref(matrix);
	json_decref(avg);
	json_decref(sd);
	free(vals);
	free(order);
	krp_metrics_free(&all);
	krp_variant_free(&v);
	return rc;
}
