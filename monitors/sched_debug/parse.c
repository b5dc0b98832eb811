/* sched_debug: the scheduler's debugfs file (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "acc.h"
#include "textline.h"

/* "<a>.<b>" etc. into out; -1 if it does not fit or holds a NUL. */
static int join2(char *out, size_t outsz, const char *a, const struct krp_line *b)
{
	size_t al = strlen(a);

	if (al + 1 + b->n + 1 > outsz || memchr(b->p, '\0', b->n))
		return -1;
	memcpy(out, a, al);
	out[al] = '.';
	memcpy(out + al + 1, b->p, b->n);
	out[al + 1 + b->n] = '\0';
	return 0;
}

static void sched_flush(struct krp_acc *a, struct krp_metrics *m)
{
	char name[KRP_METRIC_NAME_MAX + 32];

	for (size_t i = 0; i < a->n; i++) {
		const struct krp_accv *v = &a->v[i];
		double mean = v->sum / (double)v->n;
		double var = v->sumsq / (double)v->n - mean * mean;

		if (strncmp(a->names[i], "sysctl_sched.", 13) == 0) {
			krp_metric_add2(m, "sched_debug", a->names[i], strlen(a->names[i]), mean,
					KRP_MEAN);
			continue;
		}
		snprintf(name, sizeof(name), "%s.avg", a->names[i]);
		krp_metric_add2(m, "sched_debug", name, strlen(name), mean, KRP_MEAN);
		snprintf(name, sizeof(name), "%s.min", a->names[i]);
		krp_metric_add2(m, "sched_debug", name, strlen(name), v->min, KRP_MEAN);
		snprintf(name, sizeof(name), "%s.max", a->names[i]);
		krp_metric_add2(m, "sched_debug", name, strlen(name), v->max, KRP_MEAN);
		snprintf(name, sizeof(name), "%s.stddev", a->names[i]);
		krp_metric_add2(m, "sched_debug", name, strlen(name), var > 0 ? sqrt(var) : 0,
				KRP_MEAN);
	}
	krp_acc_clear(a);
}

/* Section of a header line "cpu#0, ...", "cfs_rq[0]:/path", ...; "" if none. */
static void sched_section(const struct krp_line *l, char *sec, size_t secsz)
{
	static const char *const rqs[] = {"cfs_rq[", "rt_rq[", "dl_rq["};
	const char *close;

	sec[0] = '\0';
	if (krp_line_starts(l, "cpu#")) {
		snprintf(sec, secsz, "cpu");
		return;
	}
	if (krp_line_is(l, "sysctl_sched")) {
		snprintf(sec, secsz, "sysctl_sched");
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		size_t rl = strlen(rqs[i]);
		struct krp_line path;

		if (!krp_line_starts(l, rqs[i]))
			continue;
		close = memchr(l->p + rl, ']', l->n - rl);
		if (!close || (size_t)(close - l->p) + 1 >= l->n || close[1] != ':')
			return;
		path.p = close + 2;
		path.n = l->n - (size_t)(path.p - l->p);
		if (i == 2) {
			snprintf(sec, secsz, "dl_rq");
		} else if (path.n == 0) {
			snprintf(sec, secsz, "%.*s:/", (int)(rl - 1), rqs[i]);
		} else if (path.n < 128 && !memchr(path.p, '\0', path.n) &&
			   !memchr(path.p, ' ', path.n)) {
			snprintf(sec, secsz, "%.*s:%.*s", (int)(rl - 1), rqs[i], (int)path.n,
				 path.p);
		}
		return;
	}
}

void krp_parse_sched_debug(const char *buf, size_t len, struct krp_metrics *m)
{
	struct krp_acc a = {0};
	size_t pos = 0;
	struct krp_line l;
	char sec[160] = "", key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		const char *colon;
		struct krp_line name, val, t[2];
		double v;

		if (krp_line_starts(&l, KRP_SAMPLE_MARK)) {
			sched_flush(&a, m);
			sec[0] = '\0';
			continue;
		}
		if (l.n && !krp_is_space(l.p[0])) {
			krp_trim(&l);
			sched_section(&l, sec, sizeof(sec));
			continue;
		}
		krp_trim(&l);
		if (!sec[0] || l.n < 2 || l.p[0] != '.')
			continue;
		colon = memchr(l.p, ':', l.n);
		if (!colon)
			continue;
		name.p = l.p + 1;
		name.n = (size_t)(colon - name.p);
		krp_trim(&name);
		val.p = colon + 1;
		val.n = l.n - (size_t)(val.p - l.p);
		if (name.n == 0 || krp_line_tokens(&val, t, 1) != 1 || krp_line_num(&t[0], &v) != 0)
			continue;
		if (join2(key, sizeof(key) - 8, sec, &name) != 0)
			continue;
		krp_acc_add(&a, key, v);
	}
	sched_flush(&a, m);
}
