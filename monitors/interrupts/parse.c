/* softirqs and interrupts: /proc/softirqs and /proc/interrupts, a CPU
 * header, then per-CPU rows (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "textline.h"

#define MAX_TOK 4200 /* header of a 4096-CPU machine plus a description */
#define MAX_CPUS 4096

/* Sets cpus[] from a "CPU0 CPU1 ..." header; returns the count or 0. */
static size_t cpu_header(const struct krp_line *t, size_t n, unsigned *cpus)
{
	size_t i;

	for (i = 0; i < n && i < MAX_CPUS; i++) {
		double v;

		if (t[i].n < 4 || memcmp(t[i].p, "CPU", 3) != 0 ||
		    krp_parse_number(t[i].p + 3, t[i].n - 3, &v) != 0 || v < 0 || v > 1e6 ||
		    v != floor(v))
			return 0;
		cpus[i] = (unsigned)v;
	}
	return i == n ? n : 0;
}

struct cpu_table {
	struct krp_line t[MAX_TOK];
	unsigned cpus[MAX_CPUS];
};

/* Per-CPU counters of rows "<label>: n n ... [description]"; desc_sep 0
 * means softirqs (no description). */
static void parse_cpu_rows(const char *buf, size_t len, const char *prefix, int interrupts,
			   struct krp_metrics *m)
{
	struct cpu_table *ct = krp_xmalloc(sizeof(*ct));
	size_t pos = 0, ncpu = 0;
	struct krp_line l;
	char key[KRP_METRIC_NAME_MAX + 1], pk[KRP_METRIC_NAME_MAX + 32];

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n, i, nv, kl;
		double total = 0, v;
		struct krp_line *t = ct->t;

		if (krp_line_starts(&l, KRP_SAMPLE_MARK)) {
			ncpu = 0;
			continue;
		}
		n = krp_line_tokens(&l, t, MAX_TOK);
		if (n == 0)
			continue;
		if (t[0].n >= 4 && memcmp(t[0].p, "CPU", 3) == 0) {
			ncpu = cpu_header(t, n, ct->cpus);
			continue;
		}
		if (!ncpu || t[0].n < 2 || t[0].p[t[0].n - 1] != ':' || t[0].n > 64)
			continue;
		for (nv = 0; nv < ncpu && 1 + nv < n; nv++)
			if (krp_line_num(&t[1 + nv], &v) != 0)
				break;
		if (nv == 0)
			continue;
		/* key: label without ':' (softirqs) or "<label>:<description>" */
		kl = t[0].n - (interrupts ? 0 : 1);
		memcpy(key, t[0].p, kl);
		if (interrupts && 1 + nv < n) {
			int numbered = t[0].p[0] >= '0' && t[0].p[0] <= '9';

			for (i = 1 + nv; i < n; i++) {
				if (kl + 1 + t[i].n >= sizeof(key) - 64)
					break;
				if (i > 1 + nv)
					key[kl++] = numbered ? '.' : '_';
				memcpy(key + kl, t[i].p, t[i].n);
				kl += t[i].n;
			}
		} else if (interrupts) {
			kl--; /* "ERR:" alone -> "ERR" */
		}
		key[kl] = '\0';
		if (memchr(key, '\0', kl))
			continue;
		for (i = 0; i < nv; i++) {
			krp_line_num(&t[1 + i], &v);
			total += v;
			snprintf(pk, sizeof(pk), "CPU%u.%s", ct->cpus[i], key);
			krp_metric_add2(m, prefix, pk, strlen(pk), v, KRP_DELTA);
		}
		krp_metric_add2(m, prefix, key, kl, total, KRP_DELTA);
	}
	free(ct);
}

void krp_parse_softirqs(const char *buf, size_t len, struct krp_metrics *m)
{
	parse_cpu_rows(buf, len, "softirqs", 0, m);
}

void krp_parse_interrupts(const char *buf, size_t len, struct krp_metrics *m)
{
	parse_cpu_rows(buf, len, "interrupts", 1, m);
}
