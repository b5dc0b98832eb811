/* vmstat and mpstat: the guest's summaries of /proc/stat and /proc/vmstat,
 * "key: value" samples (see parse.h). */
#include "parse.h"

#include <stddef.h>

#include "contract.h"
#include "textline.h"

void krp_parse_kv_mean(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];
	double v;

	while (krp_next_line(buf, len, &pos, &l)) {
		if (krp_line_starts(&l, KRP_SAMPLE_MARK) || krp_line_tokens(&l, t, 3) != 2)
			continue;
		if (t[0].n < 2 || t[0].p[t[0].n - 1] != ':' || krp_line_num(&t[1], &v) != 0)
			continue;
		krp_metric_add2(m, prefix, t[0].p, t[0].n - 1, v, KRP_MEAN);
	}
}
