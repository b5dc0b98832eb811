/* Per-name statistics of a monitor sample (see acc.h). */
#include "acc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void krp_acc_add(struct krp_acc *a, const char *name, double x)
{
	size_t i = krp_index_find(&a->ix, name);

	if (!krp_value_ok(x))
		return;
	if (i == KRP_NOT_FOUND) {
		if (a->n == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 64;
			a->names = krp_xrealloc(a->names, a->cap * sizeof(*a->names));
			a->v = krp_xrealloc(a->v, a->cap * sizeof(*a->v));
		}
		i = a->n++;
		a->names[i] = krp_xstrdup(name);
		memset(&a->v[i], 0, sizeof(a->v[i]));
		a->v[i].min = a->v[i].max = x;
		krp_index_insert(&a->ix, name, i);
	}
	a->v[i].sum += x;
	a->v[i].sumsq += x * x;
	a->v[i].n++;
	if (x < a->v[i].min)
		a->v[i].min = x;
	if (x > a->v[i].max)
		a->v[i].max = x;
}

void krp_acc_clear(struct krp_acc *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->names[i]);
	free(a->names);
	free(a->v);
	krp_index_free(&a->ix);
	memset(a, 0, sizeof(*a));
}
