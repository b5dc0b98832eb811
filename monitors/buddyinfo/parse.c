/* buddyinfo: /proc/buddyinfo samples (see parse.h). */
#include "parse.h"

#include <stdio.h>

#include "contract.h"
#include "textline.h"

/* Orders a line may have: MAX_PAGE_ORDER is 10 on x86, larger elsewhere. */
#define MAX_ORDERS 16

void krp_parse_buddyinfo(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[4 + MAX_ORDERS + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n;
		double node;

		if (krp_line_starts(&l, KRP_SAMPLE_MARK))
			continue;
		n = krp_line_tokens(&l, t, sizeof(t) / sizeof(t[0]));
		/* "Node" "0," "zone" "DMA" counts... */
		if (n < 5 || n > 4 + MAX_ORDERS || !krp_line_is(&t[0], "Node") ||
		    !krp_line_is(&t[2], "zone") || t[1].n < 2 || t[1].p[t[1].n - 1] != ',' ||
		    t[3].n > 32)
			continue;
		t[1].n--;
		if (krp_line_num(&t[1], &node) != 0 || node < 0 || node > 65535)
			continue;
		for (size_t i = 4; i < n; i++) {
			char name[96];
			double v;

			if (krp_line_num(&t[i], &v) != 0)
				break;
			snprintf(name, sizeof(name), "buddyinfo.Node.%d.zone.%.*s.%zu", (int)node,
				 (int)t[3].n, t[3].p, i - 4);
			if (krp_metric_name_ok(name))
				krp_metric_add(m, name, v, KRP_MEAN);
		}
	}
}
