/* Metric accumulator: name -> samples, reduced 0-day style. */
#ifndef KREPRO_METRICS_H
#define KREPRO_METRICS_H
#include <stddef.h>

#include "util.h"

#define KRP_METRIC_NAME_MAX 256

enum krp_reduce {
	KRP_SET,   /* single value: the last one added */
	KRP_MEAN,  /* gauge: mean over samples */
	KRP_DELTA, /* event counter: last - first (one sample: the value) */
	KRP_MAX,   /* maximum over samples */
};

struct krp_metric {
	char *name;
	enum krp_reduce how;
	size_t n;
	double sum, first, last, max;
};

struct krp_metrics {
	struct krp_metric *v;
	size_t n, cap;
	struct krp_index ix;
	/* A parser's refusal of its file (krp_metrics_refuse): the first bad
	 * line (from 1; 0: none) and why. */
	size_t bad_line;
	const char *bad_why;
};

void krp_metrics_init(struct krp_metrics *m);
void krp_metrics_free(struct krp_metrics *m);

/* 1 if name is usable: 1..KRP_METRIC_NAME_MAX printable ASCII bytes, no
 * whitespace, no quote or backslash. */
int krp_metric_name_ok(const char *name);

/* Add one sample.  The reduction is fixed by the first add of a name.
 * Returns -1 (and adds nothing) for a bad name or a non-finite value. */
int krp_metric_add(struct krp_metrics *m, const char *name, double value, enum krp_reduce how);

/* Same with the name "<prefix>.<key>" (key given by pointer and length). */
int krp_metric_add2(struct krp_metrics *m, const char *prefix, const char *key, size_t keylen,
		    double value, enum krp_reduce how);

/* A parser refuses its file at line (from 1): a value no real run writes,
 * such as a negative rate, never reaches a comparison.  The first refusal
 * is kept; why is a constant string naming no content of the file. */
void krp_metrics_refuse(struct krp_metrics *m, size_t line, const char *why);

double krp_metric_value(const struct krp_metric *mt);

/* Reduced value of name; 0 if found, -1 if absent. */
int krp_metrics_get(const struct krp_metrics *m, const char *name, double *out);

/* Indexes of the metrics sorted by name (caller frees). */
size_t *krp_metrics_sorted(const struct krp_metrics *m);

#endif
