/* vm-scalability: usemem's output per case (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "textline.h"

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

/* One series of samples: the main one (usemem, dd, truncate lines) or the
 * fault one (truncate-seq's "faulted" lines: lkp's *_fault metrics). */
struct vms_series {
	struct pb_vec kbps;	  /* per-task KB/s of the current sample */
	struct pb_vec sums;	  /* per sample: sum of per-task KB/s */
	struct pb_vec medians;	  /* per sample: median per-task KB/s */
	double single_stddev_pct; /* stddev% within the last sample */
	int have_single;
};

struct vms {
	struct vms_series main, fault;
	double bytes, free_us, free_n;
	double migrate_mbps, migrate_n; /* the migrate case's lines */
};

static void vms_end_sample(struct vms_series *s)
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
	if (krp_line_eat_number(&l, bytes) != 0 || !krp_line_eat(&l, " bytes / ") ||
	    krp_line_eat_number(&l, &us) != 0 || !krp_line_eat(&l, " usecs = ") ||
	    krp_line_eat_number(&l, kbps) != 0 || !krp_line_eat(&l, " KB/s"))
		return -1;
	return 0;
}

/* Where s first occurs in l, or NULL. */
static const char *vms_find(struct krp_line l, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i + n <= l.n; i++)
		if (memcmp(l.p + i, s, n) == 0)
			return l.p + i;
	return NULL;
}

/* The digits that end just before p (at or after start) as a number. */
static int vms_number_before(const char *start, const char *p, double *v)
{
	const char *q = p;

	while (q > start && q[-1] >= '0' && q[-1] <= '9')
		q--;
	return q == p ? -1 : krp_parse_number(q, (size_t)(p - q), v);
}

/* GNU dd's summary, "N bytes (X MB, Y MiB) copied, S s, R MB/s", anywhere
 * in the line -> N, KB/s as lkp-tests computes it: (N >> 10) / S. */
static int vms_dd_line(struct krp_line l, double *bytes, double *kbps)
{
	const char *b = vms_find(l, " bytes ("), *c = vms_find(l, ") copied, ");
	struct krp_line t;
	double secs, rate;

	if (!b || !c || c < b || vms_number_before(l.p, b, bytes) != 0)
		return -1;
	t.p = c + 10;
	t.n = l.n - (size_t)(t.p - l.p);
	if (krp_line_eat_number(&t, &secs) != 0 || !krp_line_eat(&t, " s, ") ||
	    krp_line_eat_number(&t, &rate) != 0 || t.n < 5 || t.p[0] != ' ' || t.p[2] != 'B' ||
	    t.p[4] != 's' || secs <= 0)
		return -1;
	*kbps = floor(*bytes / 1024) / secs;
	return 0;
}

/* truncate cases: "N bytes WHAT in T1-T0 seconds" (the case prints the two
 * clock readings, lkp-tests subtracts) -> N, KB/s = (N >> 10) / (T1 - T0). */
static int vms_timed_line(struct krp_line l, const char *what, double *bytes, double *kbps)
{
	const char *w = vms_find(l, what);
	struct krp_line t;
	double t1, t0;

	if (!w || vms_number_before(l.p, w, bytes) != 0)
		return -1;
	t.p = w + strlen(what);
	t.n = l.n - (size_t)(t.p - l.p);
	if (krp_line_eat_number(&t, &t1) != 0 || !krp_line_eat(&t, "-") ||
	    krp_line_eat_number(&t, &t0) != 0 || !krp_line_eat(&t, " seconds") || t1 <= t0)
		return -1;
	*kbps = floor(*bytes / 1024) / (t1 - t0);
	return 0;
}

/* The migrate case: "C * U bytes migrated, T usecs, R MB/s" -> R, which
 * lkp-tests reports as migrate_mbps (and adds to its byte count). */
static int vms_migrated_line(struct krp_line l, double *mbps)
{
	const char *w = vms_find(l, " bytes migrated, "), *x = vms_find(l, " * ");
	struct krp_line t;
	double us, unit, count;

	if (!w || !x || x > w || vms_number_before(l.p, x, &count) != 0)
		return -1;
	t.p = x + 3;
	t.n = (size_t)(w - t.p);
	if (krp_line_eat_number(&t, &unit) != 0 || t.n != 0)
		return -1;
	t.p = w + 17;
	t.n = l.n - (size_t)(t.p - l.p);
	if (krp_line_eat_number(&t, &us) != 0 || !krp_line_eat(&t, " usecs, ") ||
	    krp_line_eat_number(&t, mbps) != 0 || t.n < 5 || t.p[0] != ' ' || t.p[2] != 'B' ||
	    t.p[4] != 's')
		return -1;
	return 0;
}

/* A series' metrics, lkp-tests' arithmetic: over samples, or over the tasks
 * of a single sample (whose median spread lkp-tests gives as 0). */
static void vms_series_metrics(struct vms_series *s, struct krp_metrics *m, const char *prefix,
			       const char *tput, const char *sd, const char *med,
			       const char *med_sd)
{
	double mean, median;

	vms_end_sample(s);
	if (s->sums.n == 0)
		return;
	mean = pb_mean(s->sums.v, s->sums.n);
	median = pb_mean(s->medians.v, s->medians.n);
	krp_metric_add2(m, prefix, tput, strlen(tput), mean, KRP_SET);
	if (s->sums.n >= 2 && mean > 0) {
		krp_metric_add2(m, prefix, sd, strlen(sd),
				100.0 * pb_stddev(s->sums.v, s->sums.n) / mean, KRP_SET);
		if (median > 0)
			krp_metric_add2(m, prefix, med_sd, strlen(med_sd),
					100.0 * pb_stddev(s->medians.v, s->medians.n) / median,
					KRP_SET);
	} else if (s->sums.n == 1 && s->have_single) {
		krp_metric_add2(m, prefix, sd, strlen(sd), s->single_stddev_pct, KRP_SET);
		krp_metric_add2(m, prefix, med_sd, strlen(med_sd), 0, KRP_SET);
	}
	krp_metric_add2(m, prefix, med, strlen(med), median, KRP_SET);
}

static void vms_series_free(struct vms_series *s)
{
	free(s->kbps.v);
	free(s->sums.v);
	free(s->medians.v);
}

void krp_parse_vm_scalability(const char *buf, size_t len, const char *prefix,
			      struct krp_metrics *m)
{
	struct vms s;
	struct krp_line l;
	size_t pos = 0;

	memset(&s, 0, sizeof(s));
	while (krp_next_line(buf, len, &pos, &l)) {
		double a, b;

		krp_trim(&l);
		if (l.n >= 7 && memcmp(l.p, "./case-", 7) == 0) {
			vms_end_sample(&s.main);
			vms_end_sample(&s.fault);
			continue;
		}
		if (vms_result_line(l, &a, &b) == 0 || vms_dd_line(l, &a, &b) == 0 ||
		    vms_timed_line(l, " bytes truncated in ", &a, &b) == 0) {
			if (pb_push(&s.main.kbps, b) == 0)
				s.bytes += a;
			continue;
		}
		if (vms_timed_line(l, " bytes faulted in ", &a, &b) == 0) {
			pb_push(&s.fault.kbps, b);
			continue;
		}
		if (vms_migrated_line(l, &a) == 0) {
			s.bytes += a; /* lkp-tests adds the rate to its bytes */
			s.migrate_mbps += a;
			s.migrate_n++;
			continue;
		}
		if (krp_line_eat_number(&l, &a) == 0 && krp_line_eat(&l, " usecs to free memory") &&
		    l.n == 0) {
			s.free_us += a;
			s.free_n++;
		}
	}
	/* The name stays "stddev", as in 0-day's reports of seed 000's time
	 * (lkp-tests calls it stddev% now); the fault series came later and
	 * has lkp-tests' names. */
	vms_series_metrics(&s.main, m, prefix, "throughput", "stddev", "median", "median_stddev%");
	if (s.main.sums.n)
		krp_metric_add2(m, prefix, "workload", 8, s.bytes / 1024.0, KRP_SET);
	vms_series_metrics(&s.fault, m, prefix, "throughput_fault", "stddev_fault%", "median_fault",
			   "median_fault_stddev%");
	if (s.free_n > 0)
		krp_metric_add2(m, prefix, "free_time", 9, s.free_us / s.free_n / 1e6, KRP_SET);
	if (s.migrate_n > 0) /* one line a run; runs: their mean */
		krp_metric_add2(m, prefix, "migrate_mbps", 12, s.migrate_mbps / s.migrate_n,
				KRP_SET);
	vms_series_free(&s.main);
	vms_series_free(&s.fault);
}
