/* Per-metric series of a variant's runs (see vstats.h). */
#include "vstats.h"

#include <stdlib.h>
#include <string.h>

#include "failures.h"

void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs)
{
	size_t r, i;

	memset(vs, 0, sizeof(*vs));
	for (r = 0; r < v->nruns; r++) {
		const struct krp_metrics *m = &v->runs[r].m;

		if (krp_run_failed(&v->runs[r]))
			continue;
		for (i = 0; i < m->n; i++) {
			size_t k = krp_index_find(&vs->ix, m->v[i].name);
			struct krp_series *s;

			if (krp_is_failure(m->v[i].name))
				continue;
			if (k == KRP_NOT_FOUND) {
				if (vs->n == vs->cap) {
					vs->cap = vs->cap ? vs->cap * 2 : 64;
					vs->s = krp_xrealloc(vs->s, vs->cap * sizeof(*vs->s));
				}
				k = vs->n++;
				memset(&vs->s[k], 0, sizeof(vs->s[k]));
				vs->s[k].name = krp_xstrdup(m->v[i].name);
				krp_index_insert(&vs->ix, m->v[i].name, k);
			}
			s = &vs->s[k];
			if (s->n == s->cap) {
				s->cap = s->cap ? s->cap * 2 : 4;
				s->x = krp_xrealloc(s->x, s->cap * sizeof(*s->x));
			}
			s->x[s->n++] = krp_metric_value(&m->v[i]);
		}
	}
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
