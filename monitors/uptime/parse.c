/* uptime: /proc/uptime samples (see parse.h). */
#include "parse.h"

#include <stddef.h>

#include "contract.h"
#include "textline.h"

void krp_parse_uptime(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];

	while (krp_next_line(buf, len, &pos, &l)) {
		double up, idle;

		if (krp_line_starts(&l, KRP_SAMPLE_MARK) || krp_line_tokens(&l, t, 3) != 2 ||
		    krp_line_num(&t[0], &up) != 0 || krp_line_num(&t[1], &idle) != 0)
			continue;
		krp_metric_add(m, "uptime.boot", up, KRP_SET);
		krp_metric_add(m, "uptime.idle", idle, KRP_SET);
	}
}
