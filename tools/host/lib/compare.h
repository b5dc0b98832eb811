/* 0-day style comparison of variant result directories (lkp compare). */
#ifndef KREPRO_COMPARE_H
#define KREPRO_COMPARE_H
#include <stddef.h>

#include "kstats.h"
#include "results.h"
#include "util.h"

struct krp_cmp_opts {
	int all;      /* show every metric present on both sides */
	double alpha; /* Welch two-sided significance level */
};

/* Per-metric values of a variant over its runs (missing values skipped). */
struct krp_series {
	char *name;
	double *x;
	size_t n, cap;
};
struct krp_vstats {
	struct krp_series *s;
	size_t n, cap;
	struct krp_index ix;
};
void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs);
const struct krp_series *krp_vstats_find(const struct krp_vstats *vs, const char *name);
void krp_vstats_free(struct krp_vstats *vs);

/* One metric, base vs one new variant. */
struct krp_cell {
	int present;
	size_t nb, nn;
	double mb, mn;	    /* means */
	double sdb, sdn;    /* population stddevs */
	double pct;	    /* 100*(mn-mb)/mb, mb==0 -> 1e-100 */
	double shown;	    /* pct, or mn-mb for absolute-change keys */
	int have_t;	    /* Welch test computed (both sides >= 2 runs) */
	struct krp_welch w; /* krp_welch(new, base) */
	int significant;
};
void krp_cmp_cell(const char *name, const double *b, size_t nb, const double *n, size_t nn,
		  double alpha, struct krp_cell *c);

/* Monitor metric (anything not the benchmark's own result, including
 * "<bench>.time.*"). */
int krp_is_monitor(const char *name);
/* Keys whose change is shown as an absolute difference. */
int krp_is_absolute(const char *name);
/* 1 higher is better, -1 lower is better, 0 unknown. */
int krp_direction(const char *name);

/* "%stddev" column: " ±%3d%%" when 100*sd/mean > 2, else 6 spaces. */
void krp_fmt_stddev(char *out, size_t outsz, double mean, double sd, size_t n);

/* The whole report (runs line, table, summary).  vars[0] is the base. */
void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out);

#endif
