/* Failure metrics and fail:runs counts (see failures.h). */
#include "failures.h"
#include "meaning.h"

#include <stdlib.h>
#include <string.h>

/* Which metrics are failures is data: the meta files' failure rules. */
int krp_is_failure(const char *name)
{
	return krp_meaning_failure(name);
}

int krp_run_failed(const struct krp_run *r)
{
	double x;

	return krp_metrics_get(&r->m, "last_state.failed", &x) == 0 && x != 0;
}

size_t krp_variant_nfailed(const struct krp_variant *v)
{
	size_t r, n = 0;

	for (r = 0; r < v->nruns; r++)
		n += krp_run_failed(&v->runs[r]) ? 1 : 0;
	return n;
}

void krp_fail_count(const struct krp_variant *v, const char *key, size_t *fail, size_t *runs)
{
	size_t r;
	double x;

	*fail = 0;
	*runs = v->nruns;
	for (r = 0; r < v->nruns; r++) {
		if (krp_metrics_get(&v->runs[r].m, key, &x) == 0 && x != 0)
			(*fail)++;
	}
}

double krp_reproduction(size_t fail_b, size_t runs_b, size_t fail_n, size_t runs_n)
{
	double fb = runs_b ? (double)fail_b / (double)runs_b : 0;
	double fn = runs_n ? (double)fail_n / (double)runs_n : 0;

	return 100.0 * (fn - fb);
}

char **krp_failure_keys(const struct krp_variant *vars, size_t nvars, size_t *count)
{
	struct krp_metrics set;
	size_t j, r, i, *order;
	char **keys;

	krp_metrics_init(&set);
	for (j = 0; j < nvars; j++) {
		for (r = 0; r < vars[j].nruns; r++) {
			const struct krp_metrics *m = &vars[j].runs[r].m;

			for (i = 0; i < m->n; i++) {
				if (krp_is_failure(m->v[i].name))
					krp_metric_add(&set, m->v[i].name, 0, KRP_SET);
			}
		}
	}
	order = krp_metrics_sorted(&set);
	keys = krp_xcalloc(set.n ? set.n : 1, sizeof(*keys));
	for (i = 0; i < set.n; i++)
		keys[i] = krp_xstrdup(set.v[order[i]].name);
	*count = set.n;
	free(order);
	krp_metrics_free(&set);
	return keys;
}

int krp_failure_row_shown(const struct krp_variant *vars, size_t nvars, const char *key, int all)
{
	size_t fb, rb, fn, rn, j;

	if (all)
		return 1;
	krp_fail_count(&vars[0], key, &fb, &rb);
	for (j = 1; j < nvars; j++) {
		krp_fail_count(&vars[j], key, &fn, &rn);
		if (krp_reproduction(fb, rb, fn, rn) != 0)
			return 1;
	}
	return 0;
}
