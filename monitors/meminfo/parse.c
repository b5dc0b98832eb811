/* meminfo and numa-meminfo: /proc/meminfo and each node's meminfo (see
 * parsers.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "textline.h"

struct mem_sample {
	int have_total, have_free, have_max;
	double total, free, max_used; /* max_used: over every sample so far */
};

/* LKP's arithmetic: each sample reports the largest Memused seen so far, and
 * like every gauge max_used_kB is the mean over samples (of that running
 * maximum), not the maximum itself. */
static void mem_flush(struct mem_sample *s, struct krp_metrics *m)
{
	if (s->have_total && s->have_free) {
		double used = s->total - s->free;

		if (!s->have_max || used > s->max_used)
			s->max_used = used;
		s->have_max = 1;
		krp_metric_add(m, "meminfo.Memused", used, KRP_MEAN);
		krp_metric_add(m, "meminfo.max_used_kB", s->max_used, KRP_MEAN);
	}
	s->have_total = s->have_free = 0;
}

/* "Key:   123 kB" or "Key: 123" -> key, value. */
static int split_meminfo(const struct krp_line *l, struct krp_line *key, double *v)
{
	const char *colon = memchr(l->p, ':', l->n);
	struct krp_line val;

	if (!colon)
		return -1;
	key->p = l->p;
	key->n = (size_t)(colon - l->p);
	if (key->n == 0)
		return -1;
	for (size_t i = 0; i < key->n; i++) {
		if (krp_is_space(key->p[i]))
			return -1;
	}
	val.p = colon + 1;
	val.n = l->n - key->n - 1;
	krp_trim(&val);
	if (val.n > 2 && memcmp(val.p + val.n - 2, "kB", 2) == 0 &&
	    krp_is_space(val.p[val.n - 3])) {
		val.n -= 2;
		krp_trim(&val);
	}
	return krp_parse_number(val.p, val.n, v);
}

void krp_parse_meminfo(const char *buf, size_t len, struct krp_metrics *m)
{
	struct mem_sample s = {0};
	size_t pos = 0;
	struct krp_line l, key;
	double v;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		if (krp_line_starts(&l, KRP_SAMPLE_MARK)) {
			mem_flush(&s, m);
			continue;
		}
		if (split_meminfo(&l, &key, &v) != 0)
			continue;
		if (krp_metric_add2(m, "meminfo", key.p, key.n, v, KRP_MEAN) != 0)
			continue;
		if (key.n == 8 && memcmp(key.p, "MemTotal", 8) == 0) {
			s.have_total = 1;
			s.total = v;
		} else if (key.n == 7 && memcmp(key.p, "MemFree", 7) == 0) {
			s.have_free = 1;
			s.free = v;
		}
	}
	mem_flush(&s, m);
}

/* ---- numa-meminfo ----------------------------------------------------- */

void krp_parse_numa_meminfo(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[5];
	char key[KRP_METRIC_NAME_MAX + 1];
	double node, v;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = krp_line_tokens(&l, t, 5);

		/* "Node 0 MemFree:  1011276 kB" */
		if (n < 4 || !krp_line_is(&t[0], "Node") || krp_line_num(&t[1], &node) != 0 ||
		    node < 0 || node != floor(node) || node > 65535 || t[2].n < 2 ||
		    t[2].p[t[2].n - 1] != ':' || krp_line_num(&t[3], &v) != 0)
			continue;
		if (n == 5 && !krp_line_is(&t[4], "kB"))
			continue;
		if ((size_t)snprintf(key, sizeof(key), "node%.0f.%.*s", node, (int)(t[2].n - 1),
				     t[2].p) >= sizeof(key))
			continue;
		krp_metric_add2(m, "numa-meminfo", key, strlen(key), v, KRP_MEAN);
	}
}
