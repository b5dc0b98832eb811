/* membench: operations per second in the measured window (see parse.h). */
#include "parse.h"

#include <math.h>
#include <string.h>

#include "textline.h"

/* Beyond this a count is not membench's (2^64 increments would not fit). */
#define MB_MAX_OPS 1.8e19

void krp_parse_membench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	static const char *const pcts[] = {"local_pages_pct", "local_pages_pct_before"};
	double ops = NAN, secs = NAN, pct[2] = {NAN, NAN}, v;
	struct krp_line l;
	size_t pos = 0;
	int test = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		if (krp_line_eat(&l, "test:")) {
			krp_trim(&l);
			test = l.n > 0;
		} else if (krp_line_key_value(&l, "ops", &v) == 0) {
			ops = v;
		} else if (krp_line_key_value(&l, "seconds", &v) == 0) {
			secs = v;
		} else {
			for (size_t i = 0; i < 2; i++)
				if (krp_line_key_value(&l, pcts[i], &v) == 0)
					pct[i] = v;
		}
	}
	if (!test || !(ops >= 1 && ops <= MB_MAX_OPS && ops == floor(ops)) ||
	    !(secs > 0 && isfinite(secs)))
		return;
	krp_metric_add2(m, prefix, "ops", 3, ops, KRP_SET);
	krp_metric_add2(m, prefix, "seconds", 7, secs, KRP_SET);
	krp_metric_add2(m, prefix, "ops_per_sec", 11, ops / secs, KRP_SET);
	krp_metric_add2(m, prefix, "ns_per_op", 9, secs * 1e9 / ops, KRP_SET);
	for (size_t i = 0; i < 2; i++)
		if (pct[i] >= 0 && pct[i] <= 100)
			krp_metric_add2(m, prefix, pcts[i], strlen(pcts[i]), pct[i], KRP_SET);
}
