/* cpuidle: per-CPU idle states from sysfs (see parse.h). */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "acc.h"
#include "textline.h"

static void flush_sum(struct krp_acc *a, const char *prefix, enum krp_reduce how,
		      struct krp_metrics *m)
{
	for (size_t i = 0; i < a->n; i++)
		krp_metric_add2(m, prefix, a->names[i], strlen(a->names[i]), a->v[i].sum, how);
	krp_acc_clear(a);
}

void krp_parse_cpuidle(const char *buf, size_t len, struct krp_metrics *m)
{
	struct krp_acc a = {0};
	size_t pos = 0;
	struct krp_line l, t[6];
	char key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		double tm, us;

		if (krp_line_starts(&l, KRP_SAMPLE_MARK)) {
			flush_sum(&a, "cpuidle", KRP_DELTA, m);
			continue;
		}
		/* cpu<N> state<M> <name> <time-us> <usage> */
		if (krp_line_tokens(&l, t, 6) != 5 || !krp_line_starts(&t[0], "cpu") ||
		    !krp_line_starts(&t[1], "state") || krp_line_num(&t[3], &tm) != 0 ||
		    krp_line_num(&t[4], &us) != 0)
			continue;
		if (t[2].n > 100 || memchr(t[2].p, '\0', t[2].n))
			continue;
		snprintf(key, sizeof(key), "%.*s.time", (int)t[2].n, t[2].p);
		krp_acc_add(&a, key, tm);
		snprintf(key, sizeof(key), "%.*s.usage", (int)t[2].n, t[2].p);
		krp_acc_add(&a, key, us);
	}
	flush_sum(&a, "cpuidle", KRP_DELTA, m);
}
