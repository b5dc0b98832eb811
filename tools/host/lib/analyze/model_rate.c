/* A benchmark's headline in the memory model's time (see model_rate.h). */
#include "model_rate.h"

#include <stdio.h>
#include <stdlib.h>

#include "contract.h"
#include "meaning.h"

double krp_exact_guest_seconds(double instructions)
{
	return instructions * (double)(1u << atoi(KRP_EXACT_ICOUNT_SHIFT)) * 1e-9;
}

size_t krp_model_rates(struct krp_metrics *m)
{
	double insns, model_s, guest_s, ratio, v;
	char name[KRP_METRIC_NAME_MAX + 1];
	const char *h;
	size_t i, added = 0;

	if (krp_metrics_get(m, "model-stat.instructions", &insns) != 0 ||
	    krp_metrics_get(m, "model-stat.seconds", &model_s) != 0 || !(insns > 0) ||
	    !(model_s > 0))
		return 0;
	guest_s = krp_exact_guest_seconds(insns);
	ratio = guest_s / model_s;
	for (i = 0; (h = krp_meaning_headline(i)); i++) {
		int dir = krp_meaning_direction(h);

		if (dir == 0 || krp_metrics_get(m, h, &v) != 0)
			continue;
		if (snprintf(name, sizeof(name), "%s%s", KRP_MODEL_RATE_PREFIX, h) >=
		    (int)sizeof(name))
			continue;
		if (krp_metric_add(m, name, dir > 0 ? v * ratio : v / ratio, KRP_SET) == 0)
			added++;
	}
	return added;
}
