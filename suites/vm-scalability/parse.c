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
	if (krp_line_eat_number(&l, bytes) != 0 || !krp_line_eat(&l, " bytes / ") ||
	    krp_line_eat_number(&l, &us) != 0 || !krp_line_eat(&l, " usecs = ") ||
	    krp_line_eat_number(&l, kbps) != 0 || !krp_line_eat(&l, " KB/s"))
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
		if (krp_line_eat_number(&l, &a) == 0 && krp_line_eat(&l, " usecs to free memory") &&
		    l.n == 0) {
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
