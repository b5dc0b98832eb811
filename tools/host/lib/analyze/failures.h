/* Failure metrics ("last_state.*", "dmesg.*", "kmsg.*", 0/1 per run): fail:runs counts. */
#ifndef KREPRO_FAILURES_H
#define KREPRO_FAILURES_H
#include <stddef.h>

#include "results.h"

/* They get "fail:runs" / "%reproduction" rows instead of means. */
int krp_is_failure(const char *name);
/* A run whose stats.json has "last_state.failed" nonzero: excluded from the
 * performance statistics, counted in fail:runs. */
int krp_run_failed(const struct krp_run *r);
size_t krp_variant_nfailed(const struct krp_variant *v);
/* fail = sum over all runs of (value of key != 0), missing counts 0;
 * runs = all runs. */
void krp_fail_count(const struct krp_variant *v, const char *key, size_t *fail, size_t *runs);
/* Sorted union of the failure metric names of every run of every variant
 * (caller frees the names and the array). */
char **krp_failure_keys(const struct krp_variant *vars, size_t nvars, size_t *count);
/* %reproduction = 100 * (fail_n/runs_n - fail_b/runs_b). */
double krp_reproduction(size_t fail_b, size_t runs_b, size_t fail_n, size_t runs_n);
/* A failure row is shown when some new variant's failure rate differs from
 * the base's (lkp: the max differs), or always with all. */
int krp_failure_row_shown(const struct krp_variant *vars, size_t nvars, const char *key, int all);

#endif
