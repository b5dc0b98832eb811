/* proc-vmstat and numa-vmstat: /proc/vmstat and each node's vmstat, one
 * list of which fields are event counters (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "meaning.h"
#include "textline.h"

/* Which /proc/vmstat fields are event counters is data: the "counter"
 * rules of this folder's meta, for proc-vmstat.<field>; numa-vmstat's
 * fields are the same. */
int krp_vmstat_is_counter(const char *name)
{
	char full[KRP_METRIC_NAME_MAX + 1];

	if (snprintf(full, sizeof(full), "proc-vmstat.%s", name) >= (int)sizeof(full))
		return 0;
	return krp_meaning_counter(full);
}

void krp_parse_proc_vmstat(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t i = 0;
		char name[KRP_METRIC_NAME_MAX + 1];
		double v;

		krp_trim(&l);
		if (krp_line_starts(&l, KRP_SAMPLE_MARK))
			continue;
		while (i < l.n && !krp_is_space(l.p[i]))
			i++;
		if (i == 0 || i == l.n || i > KRP_METRIC_NAME_MAX)
			continue;
		struct krp_line val = {l.p + i, l.n - i};
		krp_trim(&val);
		if (krp_parse_number(val.p, val.n, &v) != 0)
			continue;
		if (memchr(l.p, '\0', i))
			continue;
		memcpy(name, l.p, i);
		name[i] = '\0';
		krp_metric_add2(m, "proc-vmstat", name, i, v,
				krp_vmstat_is_counter(name) ? KRP_DELTA : KRP_MEAN);
	}
}

/* ---- numa-vmstat ------------------------------------------------------ */

void krp_parse_numa_vmstat(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];
	char key[KRP_METRIC_NAME_MAX + 1];
	double node = -1, v;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = krp_line_tokens(&l, t, 3);

		if (krp_line_starts(&l, KRP_SAMPLE_MARK)) {
			node = -1;
			continue;
		}
		if (n == 2 && krp_line_is(&t[0], "node:")) {
			if (krp_line_num(&t[1], &node) != 0 || node < 0 || node != floor(node) ||
			    node > 65535)
				node = -1;
			continue;
		}
		if (n != 2 || node < 0 || krp_line_num(&t[1], &v) != 0 || t[0].n > 200 ||
		    memchr(t[0].p, '\0', t[0].n))
			continue;
		snprintf(key, sizeof(key), "node%.0f.%.*s", node, (int)t[0].n, t[0].p);
		krp_metric_add2(m, "numa-vmstat", key, strlen(key), v,
				krp_vmstat_is_counter(key + strcspn(key, ".") + 1) ? KRP_DELTA
										   : KRP_MEAN);
	}
}
