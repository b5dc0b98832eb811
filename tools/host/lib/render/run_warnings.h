/* Warnings about runs that weaken a comparison: not deterministic, host contention. */
#ifndef KREPRO_RUN_WARNINGS_H
#define KREPRO_RUN_WARNINGS_H
#include <stddef.h>

#include "results.h"
#include "util.h"

/* Exact mode: "NOT DETERMINISTIC" lines for runs that did not repeat their
 * digits: a run marked when booted again with its seed (krp_run.nondet),
 * and benchmark metrics (not monitors) that differ between two runs of one
 * variant with the same seed (or without seeds, made before them).
 * Returns the number of lines. */
size_t krp_put_nondeterminism(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);

/* Real mode: "HOST CONTENTION" lines naming the runs taken while the host's
 * CPUs were contended (krp_run.contended) and their CPU pressure.  Returns
 * the number of runs named. */
size_t krp_put_contention(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);

#endif
