/* Per-name statistics of one sample of a monitor (sum, sum of squares,
 * minimum, maximum, count), for parsers that reduce over CPUs or call
 * chains before adding a metric: cpuidle, sched_debug, perf-profile. */
#ifndef KREPRO_ACC_H
#define KREPRO_ACC_H
#include <stddef.h>

#include "util.h"

struct krp_accv {
	double sum, sumsq, min, max;
	size_t n;
};
struct krp_acc {
	struct krp_index ix;
	char **names;
	struct krp_accv *v;
	size_t n, cap;
};

/* Adds x to name's statistics; non-finite x is ignored. */
void krp_acc_add(struct krp_acc *a, const char *name, double x);

/* Frees everything and leaves a an empty table. */
void krp_acc_clear(struct krp_acc *a);

#endif
