/* Raw-output parsers of the benchmark suites (see parse_bench.h). */
#include "parse_bench.h"
#include "textline.h"
#include "unixbench_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Consumes literal s at the front of l. */
static int pb_eat(struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->n < n || memcmp(l->p, s, n) != 0)
		return 0;
	l->p += n;
	l->n -= n;
	return 1;
}

static void pb_skip_space(struct krp_line *l)
{
	while (l->n && krp_is_space(l->p[0])) {
		l->p++;
		l->n--;
	}
}

/* Consumes a decimal number (digits, optional fraction) at the front. */
static int pb_number(struct krp_line *l, double *v)
{
	size_t i = 0;

	while (i < l->n && ((l->p[i] >= '0' && l->p[i] <= '9') || l->p[i] == '.'))
		i++;
	if (krp_parse_number(l->p, i, v) != 0)
		return -1;
	l->p += i;
	l->n -= i;
	return 0;
}

/* "key: number" with key given; 0 and *v on a match. */
static int pb_key_value(const struct krp_line *line, const char *key, double *v)
{
	struct krp_line l = *line;

	if (!pb_eat(&l, key) || !pb_eat(&l, ":"))
		return -1;
	pb_skip_space(&l);
	return krp_parse_number(l.p, l.n, v);
}

/* ---- growable double arrays ------------------------------------------- */

#define PB_MAX_VALUES (1u << 22) /* bound on memory for hostile input */

struct pb_vec {
	double *v;
	size_t n, cap;
};

static int pb_push(struct pb_vec *a, double x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		double *v;

		if (cap > PB_MAX_VALUES)
			return -1;
		v = realloc(a->v, cap * sizeof(*v));
		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

static double pb_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* Population standard deviation. */
static double pb_stddev(const double *v, size_t n)
{
	double mu = pb_mean(v, n), s = 0;

	for (size_t i = 0; i < n; i++)
		s += (v[i] - mu) * (v[i] - mu);
	return n ? sqrt(s / (double)n) : 0;
}

static int pb_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median as lkp-tests takes it (sorts v): the middle value, the upper of
 * the two middle ones for an even count. */
static double pb_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), pb_cmp);
	return v[n / 2];
}

/* ---- vm-scalability ---------------------------------------------------- */

struct vms {
	struct pb_vec kbps;    /* per-task KB/s of the current sample */
	struct pb_vec sums;    /* per sample: sum of per-task KB/s */
	struct pb_vec medians; /* per sample: median per-task KB/s */
	double bytes, free_us, free_n;
	double single_stddev_pct; /* stddev% within the last sample */
	int have_single;
};

static void vms_end_sample(struct vms *s)
{
	double sum, mu;

	if (s->kbps.n == 0)
		return;
	sum = pb_mean(s->kbps.v, s->kbps.n) * (double)s->kbps.n;
	mu = pb_mean(s->kbps.v, s->kbps.n);
	/* LKP's one-sample stddev%: the spread of the tasks of the run,
	 * scaled by their count (stddev * n_tasks / mean per task). */
	s->have_single = mu > 0;
	if (s->have_single)
		s->single_stddev_pct =
		    100.0 * pb_stddev(s->kbps.v, s->kbps.n) * (double)s->kbps.n / mu;
	pb_push(&s->sums, sum);
	pb_push(&s->medians, pb_median(s->kbps.v, s->kbps.n));
	s->kbps.n = 0;
}

/* "N bytes / T usecs = K KB/s" (leading dots allowed) -> N, K. */
static int vms_result_line(struct krp_line l, double *bytes, double *kbps)
{
	double us;

	while (l.n && l.p[0] == '.') {
		l.p++;
		l.n--;
	}
	if (pb_number(&l, bytes) != 0 || !pb_eat(&l, " bytes / ") || pb_number(&l, &us) != 0 ||
	    !pb_eat(&l, " usecs = ") || pb_number(&l, kbps) != 0 || !pb_eat(&l, " KB/s"))
		return -1;
	return 0;
}

void krp_parse_vm_scalability(const char *buf, size_t len, const char *prefix,
			      struct krp_metrics *m)
{
	struct vms s;
	struct krp_line l;
	size_t pos = 0;
	double mean;

	memset(&s, 0, sizeof(s));
	while (krp_next_line(buf, len, &pos, &l)) {
		double a, b;

		krp_trim(&l);
		if (l.n >= 7 && memcmp(l.p, "./case-", 7) == 0) {
			vms_end_sample(&s);
			continue;
		}
		if (vms_result_line(l, &a, &b) == 0) {
			if (pb_push(&s.kbps, b) == 0)
				s.bytes += a;
			continue;
		}
		if (pb_number(&l, &a) == 0 && pb_eat(&l, " usecs to free memory") && l.n == 0) {
			s.free_us += a;
			s.free_n++;
		}
	}
	vms_end_sample(&s);
	if (s.sums.n) {
		mean = pb_mean(s.sums.v, s.sums.n);
		krp_metric_add2(m, prefix, "throughput", 10, mean, KRP_SET);
		double med = pb_mean(s.medians.v, s.medians.n);

		/* lkp-tests' arithmetic, over samples or over the tasks of a
		 * single sample.  The name stays "stddev", as in 0-day's
		 * reports of seed 000's time (lkp-tests calls it stddev% now). */
		if (s.sums.n >= 2 && mean > 0) {
			krp_metric_add2(m, prefix, "stddev", 6,
					100.0 * pb_stddev(s.sums.v, s.sums.n) / mean, KRP_SET);
			if (med > 0)
				krp_metric_add2(m, prefix, "median_stddev%", 14,
						100.0 * pb_stddev(s.medians.v, s.medians.n) / med,
						KRP_SET);
		} else if (s.sums.n == 1 && s.have_single) {
			krp_metric_add2(m, prefix, "stddev", 6, s.single_stddev_pct, KRP_SET);
			krp_metric_add2(m, prefix, "median_stddev%", 14, s.single_stddev_pct,
					KRP_SET);
		}
		krp_metric_add2(m, prefix, "median", 6, med, KRP_SET);
		krp_metric_add2(m, prefix, "workload", 8, s.bytes / 1024.0, KRP_SET);
	}
	if (s.free_n > 0)
		krp_metric_add2(m, prefix, "free_time", 9, s.free_us / s.free_n / 1e6, KRP_SET);
	free(s.kbps.v);
	free(s.sums.v);
	free(s.medians.v);
}

/* ---- unixbench ---------------------------------------------------------
 * Keys are UnixBench's own program names (pgms/index.base), the names
 * krepro-index looks up: one table, krp_ub_tests (unixbench.c). */

const char *krp_unixbench_key(const char *name, size_t len)
{
	for (size_t i = 0; i < krp_ub_ntests; i++)
		if (strlen(krp_ub_tests[i].title) == len &&
		    memcmp(krp_ub_tests[i].title, name, len) == 0)
			return krp_ub_tests[i].key;
	return NULL;
}

static int ub_unit_ok(const struct krp_line *u)
{
	static const char *const units[] = {"lps", "lpm", "KBps", "MWIPS"};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (u->n == strlen(units[i]) && memcmp(u->p, units[i], u->n) == 0)
			return 1;
	return 0;
}

void krp_parse_unixbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	struct krp_line l;
	size_t pos = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		for (size_t i = 0; i < krp_ub_ntests; i++) {
			struct krp_line r = l, unit;
			double v;

			if (!pb_eat(&r, krp_ub_tests[i].title) || r.n == 0 || !krp_is_space(r.p[0]))
				continue;
			pb_skip_space(&r);
			if (pb_number(&r, &v) != 0 || r.n == 0 || !krp_is_space(r.p[0]))
				continue;
			pb_skip_space(&r);
			unit.p = r.p;
			unit.n = 0;
			while (unit.n < r.n && !krp_is_space(r.p[unit.n]))
				unit.n++;
			r.p += unit.n;
			r.n -= unit.n;
			pb_skip_space(&r);
			if (!ub_unit_ok(&unit) || r.n == 0 || r.p[0] != '(')
				continue;
			krp_metric_add2(m, prefix, krp_ub_tests[i].key, strlen(krp_ub_tests[i].key),
					v, KRP_SET);
			break;
		}
	}
}

/* ---- autonuma-benchmark ------------------------------------------------ */

void krp_parse_autonuma(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	char key[80];
	struct krp_line l, test = {NULL, 0};
	size_t pos = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		double v;

		krp_trim(&l);
		if (pb_eat(&l, "test:")) {
			krp_trim(&l);
			test = l;
			continue;
		}
		if (test.n == 0 || test.n > 64 || pb_key_value(&l, "elapsed", &v) != 0)
			continue;
		memcpy(key, test.p, test.n);
		memcpy(key + test.n, ".seconds", 9);
		krp_metric_add2(m, prefix, key, strlen(key), v, KRP_SET);
	}
}

/* ---- specjbb ------------------------------------------------------------ */

void krp_parse_specjbb(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	struct krp_line l;
	size_t pos = 0;
	double w = 0, bops = 0, v;
	int have_bops = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		if (pb_key_value(&l, "warehouses", &v) == 0)
			w = v;
		else if (pb_key_value(&l, "bops", &v) == 0) {
			bops = v;
			have_bops = 1;
		}
	}
	if (!have_bops)
		return;
	krp_metric_add2(m, prefix, "bops", 4, bops, KRP_SET);
	if (w >= 1)
		krp_metric_add2(m, prefix, "bops_per_warehouse", 18, trunc(bops / w), KRP_SET);
}

/* ---- dispatch ----------------------------------------------------------- */

static const struct {
	const char *file;
	void (*parse)(const char *, size_t, const char *, struct krp_metrics *);
} pb_files[] = {
    {"vm-scalability", krp_parse_vm_scalability},
    {"unixbench", krp_parse_unixbench},
    {"autonuma-benchmark", krp_parse_autonuma},
    {"specjbb", krp_parse_specjbb},
};

int krp_bench_known(const char *filename)
{
	for (size_t i = 0; i < sizeof(pb_files) / sizeof(pb_files[0]); i++)
		if (strcmp(filename, pb_files[i].file) == 0)
			return 1;
	return 0;
}

int krp_parse_bench(const char *filename, const char *buf, size_t len, struct krp_metrics *m)
{
	for (size_t i = 0; i < sizeof(pb_files) / sizeof(pb_files[0]); i++) {
		if (strcmp(filename, pb_files[i].file) == 0) {
			pb_files[i].parse(buf, len, filename, m);
			return 1;
		}
	}
	return 0;
}
