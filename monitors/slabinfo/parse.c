/* slabinfo: /proc/slabinfo samples (see parse.h). */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "textline.h"

void krp_parse_slabinfo(const char *buf, size_t len, struct krp_metrics *m)
{
	static const struct {
		int tok;
		const char *name;
	} cols[] = {{1, "active_objs"}, {2, "num_objs"}, {13, "active_slabs"}, {14, "num_slabs"}};
	size_t pos = 0;
	struct krp_line l, t[17];
	char key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		double v[4];
		size_t k;

		if (krp_line_tokens(&l, t, 17) != 16 || !krp_line_is(&t[6], ":") ||
		    !krp_line_is(&t[7], "tunables") || !krp_line_is(&t[11], ":") ||
		    !krp_line_is(&t[12], "slabdata") || t[0].p[0] == '#')
			continue;
		for (k = 0; k < 4; k++)
			if (krp_line_num(&t[cols[k].tok], &v[k]) != 0)
				break;
		if (k < 4 || t[0].n > 200)
			continue;
		for (k = 0; k < 4; k++) {
			if ((size_t)snprintf(key, sizeof(key), "%.*s.%s", (int)t[0].n, t[0].p,
					     cols[k].name) >= sizeof(key))
				break;
			if (krp_metric_add2(m, "slabinfo", key, strlen(key), v[k], KRP_MEAN) != 0)
				break;
		}
	}
}
