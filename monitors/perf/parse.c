/* perf-stat and perf-profile: krepro-perf's counters and call chains
 * (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "acc.h"
#include "textline.h"
#include "util.h"

#define PS_MAX 64

struct ps_event {
	char name[64];
	double first, last, tfirst, tlast;
	size_t n;
};

static double ps_get(const struct ps_event *ev, size_t n, const char *name, int *ok)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(ev[i].name, name) == 0 && ev[i].n) {
			*ok = 1;
			return ev[i].n > 1 ? ev[i].last - ev[i].first : ev[i].last;
		}
	}
	*ok = 0;
	return 0;
}

static void ps_ratio(struct krp_metrics *m, const struct ps_event *ev, size_t n, const char *name,
		     const char *num, const char *den, double scale)
{
	int a, b;
	double x = ps_get(ev, n, num, &a), y = ps_get(ev, n, den, &b);

	if (a && b && y > 0)
		krp_metric_add2(m, "perf-stat", name, strlen(name), x / y * scale, KRP_SET);
}

void krp_parse_perf_stat(const char *buf, size_t len, struct krp_metrics *m)
{
	struct ps_event *ev = krp_xcalloc(PS_MAX, sizeof(*ev));
	size_t pos = 0, nev = 0, i;
	double now = 0;
	int have_time = 0;
	struct krp_line l, t[3];
	char key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = krp_line_tokens(&l, t, 3);
		double v;

		if (n == 2 && krp_line_is(&t[0], KRP_SAMPLE_MARK)) {
			have_time = krp_line_num(&t[1], &now) == 0;
			continue;
		}
		if (n != 2 || !have_time || t[0].n < 2 || t[0].n > 63 ||
		    t[0].p[t[0].n - 1] != ':' || t[0].p[0] == '#' || krp_line_num(&t[1], &v) != 0 ||
		    memchr(t[0].p, '\0', t[0].n))
			continue;
		for (i = 0; i < nev; i++)
			if (strlen(ev[i].name) == t[0].n - 1 &&
			    memcmp(ev[i].name, t[0].p, t[0].n - 1) == 0)
				break;
		if (i == nev) {
			if (nev == PS_MAX)
				continue;
			memcpy(ev[i].name, t[0].p, t[0].n - 1);
			ev[i].name[t[0].n - 1] = '\0';
			ev[i].first = v;
			ev[i].tfirst = now;
			nev++;
		}
		ev[i].last = v;
		ev[i].tlast = now;
		ev[i].n++;
	}
	for (i = 0; i < nev; i++) {
		double d = ev[i].n > 1 ? ev[i].last - ev[i].first : ev[i].last;

		krp_metric_add2(m, "perf-stat", ev[i].name, strlen(ev[i].name), d, KRP_SET);
		if (ev[i].n > 1 && ev[i].tlast > ev[i].tfirst) {
			snprintf(key, sizeof(key), "ps.%s", ev[i].name);
			krp_metric_add2(m, "perf-stat", key, strlen(key),
					d / (ev[i].tlast - ev[i].tfirst), KRP_SET);
		}
	}
	ps_ratio(m, ev, nev, "ipc", "instructions", "cpu-cycles", 1);
	ps_ratio(m, ev, nev, "cpi", "cpu-cycles", "instructions", 1);
	ps_ratio(m, ev, nev, "cache-miss-rate%", "cache-misses", "cache-references", 100);
	ps_ratio(m, ev, nev, "branch-miss-rate%", "branch-misses", "branch-instructions", 100);
	free(ev);
}

/* ---- perf-profile ----------------------------------------------------- */

#define PP_DEPTH 128
#define PP_SYM 128
#define PP_EVENT "cycles-pp"
#define PP_MIN_PERCENT 0.05

struct pp_chain {
	char f[PP_DEPTH][PP_SYM];
	char key[PP_DEPTH][5 * PP_SYM + 32];
};

static void pp_chain(struct krp_acc *a, struct pp_chain *c, size_t n, double cnt)
{
	char name[5 * PP_SYM + 64];
	size_t i, j;

	snprintf(name, sizeof(name), "self." PP_EVENT ".%s", c->f[0]);
	krp_acc_add(a, name, cnt);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(c->f[i], c->f[j]) == 0)
				break;
		if (j == i) {
			snprintf(name, sizeof(name), "children." PP_EVENT ".%s", c->f[i]);
			krp_acc_add(a, name, cnt);
		}
	}
	for (i = 0; i < n; i++) {
		size_t kl = 0;

		for (j = i; j < n && j < i + 5; j++) {
			size_t fl = strlen(c->f[j]);

			if (j > i)
				c->key[i][kl++] = '.';
			memcpy(c->key[i] + kl, c->f[j], fl);
			kl += fl;
		}
		c->key[i][kl] = '\0';
		for (j = 0; j < i; j++)
			if (strcmp(c->key[i], c->key[j]) == 0)
				break;
		if (j == i) {
			snprintf(name, sizeof(name), "calltrace." PP_EVENT ".%s", c->key[i]);
			krp_acc_add(a, name, cnt);
		}
	}
}

void krp_parse_perf_profile(const char *buf, size_t len, struct krp_metrics *m)
{
	struct pp_chain *c = krp_xmalloc(sizeof(*c));
	struct krp_acc a = {0};
	size_t pos = 0;
	double total = 0;
	struct krp_line l, t[3];

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = 0, i = 0;
		double cnt;

		if (krp_line_tokens(&l, t, 3) != 2 || krp_line_num(&t[0], &cnt) != 0 || cnt <= 0 ||
		    cnt != floor(cnt) || cnt > 1e15)
			continue;
		/* frames "<leaf>;<caller>;..." */
		while (i <= t[1].n && n < PP_DEPTH) {
			size_t s = i;

			while (i < t[1].n && t[1].p[i] != ';')
				i++;
			if (i == s || i - s >= PP_SYM || memchr(t[1].p + s, '\0', i - s))
				break;
			memcpy(c->f[n], t[1].p + s, i - s);
			c->f[n][i - s] = '\0';
			krp_strip_sym_suffix(c->f[n]);
			n++;
			i++;
		}
		if (i <= t[1].n && n < PP_DEPTH) /* an empty or overlong frame */
			continue;
		if (n == 0)
			continue;
		total += cnt;
		pp_chain(&a, c, n, cnt);
	}
	for (size_t k = 0; total > 0 && k < a.n; k++) {
		double pct = a.v[k].sum / total * 100.0;

		if (pct >= PP_MIN_PERCENT)
			krp_metric_add2(m, "perf-profile", a.names[k], strlen(a.names[k]), pct,
					KRP_SET);
	}
	krp_acc_clear(&a);
	free(c);
}
