/* A benchmark's headline in the memory model's time (see model_rate.h). */
#include "model_rate.h"

#include <stdio.h>
#include <stdlib.h>

#include "contract.h"
#include "meaning.h"

/* headline metrics a run: UnixBench's index and its 25 tests' rates */
#define KRP_MODEL_RATES_MAX 64

double krp_exact_guest_seconds(double instructions)
{
	return instructions * (double)(1u << atoi(KRP_EXACT_ICOUNT_SHIFT)) * 1e-9;
}

size_t krp_model_rates(struct krp_metrics *m)
{
	double insns, model_s, guest_s, ratio, v;
	char name[KRP_METRIC_NAME_MAX + 1];
	size_t i, added = 0, nh = 0, heads[KRP_MODEL_RATES_MAX];

	if (krp_metrics_get(m, "model-stat.instructions", &insns) != 0 ||
	    krp_metrics_get(m, "model-stat.seconds", &model_s) != 0 || !(insns > 0) ||
	    !(model_s > 0))
		return 0;
	guest_s = krp_exact_guest_seconds(insns);
	ratio = guest_s / model_s;
	/* the headlines first, then their model rows: adding may move m->v */
	for (i = 0; i < m->n; i++)
		if (krp_meaning_headline_rank(m->v[i].name) >= 0 && nh < KRP_MODEL_RATES_MAX)
			heads[nh++] = i;
	for (i = 0; i < nh; i++) {
		const char *h = m->v[heads[i]].name;
		int dir = krp_meaning_direction(h);

		v = krp_metric_value(&m->v[heads[i]]);
		if (snprintf(name, sizeof(name), "%s%s", KRP_MODEL_RATE_PREFIX, h) >=
		    (int)sizeof(name))
			continue;
		if (krp_metric_add(m, name, dir > 0 ? v * ratio : v / ratio, KRP_SET) == 0)
			added++;
	}
	return added;
}
