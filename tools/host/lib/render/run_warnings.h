/* Warnings about runs that weaken a comparison: not deterministic, host
 * contention, NUMA balancing that never scanned. */
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

/* "BALANCER IDLE" lines, one a variant, naming its runs with NUMA
 * balancing on whose window saw no balancer scan (proc-vmstat's
 * numa_pte_updates counted 0): the benchmark ended before the first scan
 * (the kernel's numa_balancing_scan_delay_ms), so the run cannot show
 * what balancing does.  Returns the number of runs named. */
size_t krp_put_balancer_idle(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);
/* 1 when run r had NUMA balancing on and its window saw no scan. */
int krp_run_balancer_idle(const struct krp_run *r);

#endif
