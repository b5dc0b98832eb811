/* specjbb: business operations per second (see parse.h). */
#include "parse.h"

#include <math.h>

#include "textline.h"

void krp_parse_specjbb(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	struct krp_line l;
	size_t pos = 0, no = 0;
	double w = 0, bops = 0, v;
	int have_bops = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		no++;
		krp_trim(&l);
		if (krp_line_key_value(&l, "warehouses", &v) == 0)
			w = v;
		else if (krp_line_key_value(&l, "bops", &v) == 0) {
			/* Business operations a second: never below 0. */
			if (v < 0) {
				krp_metrics_refuse(
				    m, no, "a negative bops: no real run of specjbb writes one");
				return;
			}
			bops = v;
			have_bops = 1;
		}
	}
	if (!have_bops)
		return;
	krp_metric_add2(m, prefix, "bops", 4, bops, KRP_SET);
	if (w >= 1)
		krp_metric_add2(m, prefix, "bops_per_warehouse", 18, trunc(bops / w), KRP_SET);
}
