/* Per-metric series of a variant's runs (see vstats.h). */
#include "vstats.h"

#include <stdlib.h>
#include <string.h>

#include "failures.h"
#include "meaning.h"

/* The series NAME of vs, added empty when it is not there. */
static struct krp_series *series_of(struct krp_vstats *vs, const char *name)
{
	size_t k = krp_index_find(&vs->ix, name);

	if (k == KRP_NOT_FOUND) {
		if (vs->n == vs->cap) {
			vs->cap = vs->cap ? vs->cap * 2 : 64;
			vs->s = krp_xrealloc(vs->s, vs->cap * sizeof(*vs->s));
		}
		k = vs->n++;
		memset(&vs->s[k], 0, sizeof(vs->s[k]));
		vs->s[k].name = krp_xstrdup(name);
		krp_index_insert(&vs->ix, name, k);
	}
	return &vs->s[k];
}

static void series_push(struct krp_series *s, double x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4;
		s->x = krp_xrealloc(s->x, s->cap * sizeof(*s->x));
	}
	s->x[s->n++] = x;
}

/* A profile's share (meaning "share") that any run of any variant has is
 * 0 in each run of v without it: its series gets one value a run, in run
 * order, so that a function new in one variant is a row, as in 0-day's
 * perf-profile table. */
static void fill_shares(const struct krp_variant *vars, size_t nvars, const struct krp_variant *v,
			struct krp_vstats *vs)
{
	struct krp_index checked = {0};
	size_t j, r, i;

	for (j = 0; j < nvars; j++) {
		for (r = 0; r < vars[j].nruns; r++) {
			const struct krp_metrics *m = &vars[j].runs[r].m;

			if (krp_run_failed(&vars[j].runs[r]))
				continue;
			for (i = 0; i < m->n; i++) {
				const char *name = m->v[i].name;
				struct krp_series *s;
				size_t q;

				if (krp_index_insert(&checked, name, 0) != KRP_NOT_FOUND ||
				    !krp_meaning_share(name))
					continue;
				s = series_of(vs, name);
				s->n = 0;
				for (q = 0; q < v->nruns; q++) {
					double x = 0;

					if (krp_run_failed(&v->runs[q]))
						continue;
					krp_metrics_get(&v->runs[q].m, name, &x);
					series_push(s, x);
				}
			}
		}
	}
	krp_index_free(&checked);
}

void krp_vstats_build_in(const struct krp_variant *vars, size_t nvars, size_t j,
			 struct krp_vstats *vs)
{
	const struct krp_variant *v = &vars[j];
	size_t r, i;

	memset(vs, 0, sizeof(*vs));
	for (r = 0; r < v->nruns; r++) {
		const struct krp_metrics *m = &v->runs[r].m;

		if (krp_run_failed(&v->runs[r]))
			continue;
		for (i = 0; i < m->n; i++) {
			if (krp_is_failure(m->v[i].name))
				continue;
			series_push(series_of(vs, m->v[i].name), krp_metric_value(&m->v[i]));
		}
	}
	fill_shares(vars, nvars, v, vs);
}

void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs)
{
	krp_vstats_build_in(v, 1, 0, vs);
}

const struct krp_series *krp_vstats_find(const struct krp_vstats *vs, const char *name)
{
	size_t k = krp_index_find(&vs->ix, name);

	return k == KRP_NOT_FOUND ? NULL : &vs->s[k];
}

void krp_vstats_free(struct krp_vstats *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++) {
		free(vs->s[i].name);
		free(vs->s[i].x);
	}
	free(vs->s);
	krp_index_free(&vs->ix);
	memset(vs, 0, sizeof(*vs));
}
