/* NOT DETERMINISTIC, HOST CONTENTION and BALANCER IDLE lines (see
 * run_warnings.h). */
#include "run_warnings.h"

#include <stdio.h>

#include "compare.h"
#include "failures.h"
#include "metrics.h"

/* Runs r and k of v are the same boot twice: one seed (or none, made
 * before seeds), neither failed. */
static int same_inputs(const struct krp_variant *v, size_t r, size_t k)
{
	return v->runs[r].seed == v->runs[k].seed && !krp_run_failed(&v->runs[r]) &&
	       !krp_run_failed(&v->runs[k]);
}

size_t krp_put_nondeterminism(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j, i, r, k, lines = 0;

	for (j = 0; j < nvars; j++) {
		const struct krp_variant *v = &vars[j];
		const struct krp_metrics *m0;

		for (r = 0; r < v->nruns; r++) {
			if (!v->runs[r].nondet)
				continue;
			krp_buf_printf(out,
				       "NOT DETERMINISTIC: %s run %s (seed %ld) gave other digits "
				       "when booted again with the same seed and images (%s/%s/"
				       "NOT-DETERMINISTIC)\n",
				       v->name, v->runs[r].name, v->runs[r].seed, v->dir,
				       v->runs[r].name);
			lines++;
		}
		/* Pairs of runs of one seed: every benchmark metric of the first
		 * such run against the other's. */
		for (r = 0; r < v->nruns; r++) {
			m0 = &v->runs[r].m;
			for (k = r + 1; k < v->nruns; k++) {
				if (!same_inputs(v, r, k))
					continue;
				for (i = 0; i < m0->n; i++) {
					const char *name = m0->v[i].name;
					double a = krp_metric_value(&m0->v[i]), b;
					char sa[64], sb[64];

					if (krp_is_monitor(name) || krp_is_failure(name) ||
					    krp_metrics_get(&v->runs[k].m, name, &b) != 0 || a == b)
						continue;
					snprintf(sa, sizeof(sa), "%.17g", a);
					snprintf(sb, sizeof(sb), "%.17g", b);
					krp_buf_printf(
					    out,
					    "NOT DETERMINISTIC: %s %s differs between exact "
					    "boots of identical inputs (runs %s and %s, %s "
					    "vs %s)\n",
					    v->name, name, v->runs[r].name, v->runs[k].name, sa,
					    sb);
					lines++;
				}
			}
		}
	}
	return lines;
}

size_t krp_put_contention(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j, r, named = 0;

	for (j = 0; j < nvars; j++) {
		const struct krp_variant *v = &vars[j];

		for (r = 0; r < v->nruns; r++) {
			if (!v->runs[r].contended)
				continue;
			krp_buf_printf(out,
				       "HOST CONTENTION: %s run %s was timed while the host's CPUs "
				       "were contended (CPU pressure %.1f%% of its boot)\n",
				       v->name, v->runs[r].name, v->runs[r].cpu_pressure);
			named++;
		}
	}
	return named;
}

int krp_run_balancer_idle(const struct krp_run *r)
{
	double pte;

	return r->numa_balancing == 1 &&
	       krp_metrics_get(&r->m, "proc-vmstat.numa_pte_updates", &pte) == 0 && pte == 0;
}

size_t krp_put_balancer_idle(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j, r, named = 0;

	for (j = 0; j < nvars; j++) {
		const struct krp_variant *v = &vars[j];
		size_t n = 0;

		for (r = 0; r < v->nruns; r++)
			if (krp_run_balancer_idle(&v->runs[r]))
				krp_buf_printf(out, "%s%s", n++ ? ", " : "BALANCER IDLE: runs ",
					       v->runs[r].name);
		if (n == 0)
			continue;
		krp_buf_printf(
		    out,
		    " of %s had NUMA balancing on, but no page was scanned in the window "
		    "(proc-vmstat.numa_pte_updates 0): the benchmark ended before the "
		    "balancer's first scan (numa_balancing_scan_delay_ms, 1000 ms by "
		    "default) and cannot show what balancing does; run it longer\n",
		    v->name);
		named += n;
	}
	return named;
}
