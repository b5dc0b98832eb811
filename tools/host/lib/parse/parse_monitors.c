/* Monitor raw-file parsers (see parse_monitors.h). */
#include "parse_monitors.h"
#include "textline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers.h"
#include "util.h"

#define MAX_TOK 4200 /* header of a 4096-CPU machine plus a description */
#define MAX_CPUS 4096

static int ml_starts(const struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n >= n && memcmp(l->p, s, n) == 0;
}

static int ml_is(const struct krp_line *l, const char *s)
{
	return l->n == strlen(s) && memcmp(l->p, s, l->n) == 0;
}

/* Whitespace-separated tokens of l (at most max); returns the count. */
static size_t ml_tokens(const struct krp_line *l, struct krp_line *tok, size_t max)
{
	size_t i = 0, n = 0;

	while (i < l->n && n < max) {
		while (i < l->n && krp_is_space(l->p[i]))
			i++;
		if (i == l->n)
			break;
		tok[n].p = l->p + i;
		while (i < l->n && !krp_is_space(l->p[i]))
			i++;
		tok[n].n = (size_t)(l->p + i - tok[n].p);
		n++;
	}
	return n;
}

static int ml_num(const struct krp_line *t, double *v)
{
	return krp_parse_number(t->p, t->n, v);
}

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

static int is_time(const struct krp_line *l)
{
	return ml_starts(l, "time:");
}

/* ---- a name -> statistics table ---------------------------------------- */

struct accv {
	double sum, sumsq, min, max;
	size_t n;
};
struct acc {
	struct krp_index ix;
	char **names;
	struct accv *v;
	size_t n, cap;
};

static void acc_add(struct acc *a, const char *name, double x)
{
	size_t i = krp_index_find(&a->ix, name);

	if (!isfinite(x))
		return;
	if (i == KRP_NOT_FOUND) {
		if (a->n == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 64;
			a->names = krp_xrealloc(a->names, a->cap * sizeof(*a->names));
			a->v = krp_xrealloc(a->v, a->cap * sizeof(*a->v));
		}
		i = a->n++;
		a->names[i] = krp_xstrdup(name);
		memset(&a->v[i], 0, sizeof(a->v[i]));
		a->v[i].min = a->v[i].max = x;
		krp_index_insert(&a->ix, name, i);
	}
	a->v[i].sum += x;
	a->v[i].sumsq += x * x;
	a->v[i].n++;
	if (x < a->v[i].min)
		a->v[i].min = x;
	if (x > a->v[i].max)
		a->v[i].max = x;
}

static void acc_clear(struct acc *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->names[i]);
	free(a->names);
	free(a->v);
	krp_index_free(&a->ix);
	memset(a, 0, sizeof(*a));
}

/* ---- numa-meminfo, numa-vmstat ----------------------------------------- */

void krp_parse_numa_meminfo(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[5];
	char key[KRP_METRIC_NAME_MAX + 1];
	double node, v;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = ml_tokens(&l, t, 5);

		/* "Node 0 MemFree:  1011276 kB" */
		if (n < 4 || !ml_is(&t[0], "Node") || ml_num(&t[1], &node) != 0 || node < 0 ||
		    node != floor(node) || node > 65535 || t[2].n < 2 ||
		    t[2].p[t[2].n - 1] != ':' || ml_num(&t[3], &v) != 0)
			continue;
		if (n == 5 && !ml_is(&t[4], "kB"))
			continue;
		if ((size_t)snprintf(key, sizeof(key), "node%.0f.%.*s", node, (int)(t[2].n - 1),
				     t[2].p) >= sizeof(key))
			continue;
		krp_metric_add2(m, "numa-meminfo", key, strlen(key), v, KRP_MEAN);
	}
}

void krp_parse_numa_vmstat(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];
	char key[KRP_METRIC_NAME_MAX + 1];
	double node = -1, v;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = ml_tokens(&l, t, 3);

		if (is_time(&l)) {
			node = -1;
			continue;
		}
		if (n == 2 && ml_is(&t[0], "node:")) {
			if (ml_num(&t[1], &node) != 0 || node < 0 || node != floor(node) ||
			    node > 65535)
				node = -1;
			continue;
		}
		if (n != 2 || node < 0 || ml_num(&t[1], &v) != 0 || t[0].n > 200 ||
		    memchr(t[0].p, '\0', t[0].n))
			continue;
		snprintf(key, sizeof(key), "node%.0f.%.*s", node, (int)t[0].n, t[0].p);
		krp_metric_add2(m, "numa-vmstat", key, strlen(key), v,
				krp_vmstat_is_counter(key + strcspn(key, ".") + 1) ? KRP_DELTA
										   : KRP_MEAN);
	}
}

/* ---- vmstat, mpstat: "key: value" ----------------------------------- */

void krp_parse_kv_mean(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];
	double v;

	while (krp_next_line(buf, len, &pos, &l)) {
		if (is_time(&l) || ml_tokens(&l, t, 3) != 2)
			continue;
		if (t[0].n < 2 || t[0].p[t[0].n - 1] != ':' || ml_num(&t[1], &v) != 0)
			continue;
		krp_metric_add2(m, prefix, t[0].p, t[0].n - 1, v, KRP_MEAN);
	}
}

/* ---- slabinfo --------------------------------------------------------- */

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

		if (ml_tokens(&l, t, 17) != 16 || !ml_is(&t[6], ":") || !ml_is(&t[7], "tunables") ||
		    !ml_is(&t[11], ":") || !ml_is(&t[12], "slabdata") || t[0].p[0] == '#')
			continue;
		for (k = 0; k < 4; k++)
			if (ml_num(&t[cols[k].tok], &v[k]) != 0)
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

/* ---- softirqs, interrupts: a CPU header, then per-CPU rows ------------- */

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

		if (is_time(&l)) {
			ncpu = 0;
			continue;
		}
		n = ml_tokens(&l, t, MAX_TOK);
		if (n == 0)
			continue;
		if (t[0].n >= 4 && memcmp(t[0].p, "CPU", 3) == 0) {
			ncpu = cpu_header(t, n, ct->cpus);
			continue;
		}
		if (!ncpu || t[0].n < 2 || t[0].p[t[0].n - 1] != ':' || t[0].n > 64)
			continue;
		for (nv = 0; nv < ncpu && 1 + nv < n; nv++)
			if (ml_num(&t[1 + nv], &v) != 0)
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
			ml_num(&t[1 + i], &v);
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

/* ---- cpuidle ---------------------------------------------------------- */

static void flush_sum(struct acc *a, const char *prefix, enum krp_reduce how, struct krp_metrics *m)
{
	for (size_t i = 0; i < a->n; i++)
		krp_metric_add2(m, prefix, a->names[i], strlen(a->names[i]), a->v[i].sum, how);
	acc_clear(a);
}

void krp_parse_cpuidle(const char *buf, size_t len, struct krp_metrics *m)
{
	struct acc a = {0};
	size_t pos = 0;
	struct krp_line l, t[6];
	char key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		double tm, us;

		if (is_time(&l)) {
			flush_sum(&a, "cpuidle", KRP_DELTA, m);
			continue;
		}
		/* cpu<N> state<M> <name> <time-us> <usage> */
		if (ml_tokens(&l, t, 6) != 5 || !ml_starts(&t[0], "cpu") ||
		    !ml_starts(&t[1], "state") || ml_num(&t[3], &tm) != 0 ||
		    ml_num(&t[4], &us) != 0)
			continue;
		if (t[2].n > 100 || memchr(t[2].p, '\0', t[2].n))
			continue;
		snprintf(key, sizeof(key), "%.*s.time", (int)t[2].n, t[2].p);
		acc_add(&a, key, tm);
		snprintf(key, sizeof(key), "%.*s.usage", (int)t[2].n, t[2].p);
		acc_add(&a, key, us);
	}
	flush_sum(&a, "cpuidle", KRP_DELTA, m);
}

/* ---- uptime ----------------------------------------------------------- */

void krp_parse_uptime(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l, t[3];

	while (krp_next_line(buf, len, &pos, &l)) {
		double up, idle;

		if (is_time(&l) || ml_tokens(&l, t, 3) != 2 || ml_num(&t[0], &up) != 0 ||
		    ml_num(&t[1], &idle) != 0)
			continue;
		krp_metric_add(m, "uptime.boot", up, KRP_SET);
		krp_metric_add(m, "uptime.idle", idle, KRP_SET);
	}
}

/* ---- sched_debug ------------------------------------------------------ */

static void sched_flush(struct acc *a, struct krp_metrics *m)
{
	char name[KRP_METRIC_NAME_MAX + 32];

	for (size_t i = 0; i < a->n; i++) {
		const struct accv *v = &a->v[i];
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
	acc_clear(a);
}

/* Section of a header line "cpu#0, ...", "cfs_rq[0]:/path", ...; "" if none. */
static void sched_section(const struct krp_line *l, char *sec, size_t secsz)
{
	static const char *const rqs[] = {"cfs_rq[", "rt_rq[", "dl_rq["};
	const char *close;

	sec[0] = '\0';
	if (ml_starts(l, "cpu#")) {
		snprintf(sec, secsz, "cpu");
		return;
	}
	if (ml_is(l, "sysctl_sched")) {
		snprintf(sec, secsz, "sysctl_sched");
		return;
	}
	for (size_t i = 0; i < 3; i++) {
		size_t rl = strlen(rqs[i]);
		struct krp_line path;

		if (!ml_starts(l, rqs[i]))
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
	struct acc a = {0};
	size_t pos = 0;
	struct krp_line l;
	char sec[160] = "", key[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		const char *colon;
		struct krp_line name, val, t[2];
		double v;

		if (is_time(&l)) {
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
		if (name.n == 0 || ml_tokens(&val, t, 1) != 1 || ml_num(&t[0], &v) != 0)
			continue;
		if (join2(key, sizeof(key) - 8, sec, &name) != 0)
			continue;
		acc_add(&a, key, v);
	}
	sched_flush(&a, m);
}

/* ---- perf-stat -------------------------------------------------------- */

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
		size_t n = ml_tokens(&l, t, 3);
		double v;

		if (n == 2 && ml_is(&t[0], "time:")) {
			have_time = ml_num(&t[1], &now) == 0;
			continue;
		}
		if (n != 2 || !have_time || t[0].n < 2 || t[0].n > 63 ||
		    t[0].p[t[0].n - 1] != ':' || t[0].p[0] == '#' || ml_num(&t[1], &v) != 0 ||
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

void krp_strip_sym_suffix(char *sym)
{
	static const char *const sfx[] = {"isra", "constprop", "part", "cold", "llvm"};

	for (char *d = strchr(sym, '.'); d; d = strchr(d + 1, '.')) {
		for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
			size_t n = strlen(sfx[i]);

			if (d != sym && strncmp(d + 1, sfx[i], n) == 0 &&
			    (d[1 + n] == '\0' || d[1 + n] == '.')) {
				*d = '\0';
				return;
			}
		}
	}
}

struct pp_chain {
	char f[PP_DEPTH][PP_SYM];
	char key[PP_DEPTH][5 * PP_SYM + 32];
};

static void pp_chain(struct acc *a, struct pp_chain *c, size_t n, double cnt)
{
	char name[5 * PP_SYM + 64];
	size_t i, j;

	snprintf(name, sizeof(name), "self." PP_EVENT ".%s", c->f[0]);
	acc_add(a, name, cnt);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(c->f[i], c->f[j]) == 0)
				break;
		if (j == i) {
			snprintf(name, sizeof(name), "children." PP_EVENT ".%s", c->f[i]);
			acc_add(a, name, cnt);
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
			acc_add(a, name, cnt);
		}
	}
}

void krp_parse_perf_profile(const char *buf, size_t len, struct krp_metrics *m)
{
	struct pp_chain *c = krp_xmalloc(sizeof(*c));
	struct acc a = {0};
	size_t pos = 0;
	double total = 0;
	struct krp_line l, t[3];

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = 0, i = 0;
		double cnt;

		if (ml_tokens(&l, t, 3) != 2 || ml_num(&t[0], &cnt) != 0 || cnt <= 0 ||
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
	acc_clear(&a);
	free(c);
}

/* ---- dispatch --------------------------------------------------------- */

static const char *const monitor_names[] = {
    "numa-meminfo", "numa-vmstat", "vmstat", "mpstat",	    "slabinfo",	 "softirqs",
    "interrupts",   "cpuidle",	   "uptime", "sched_debug", "perf-stat", "perf-profile",
};

int krp_monitor_known(const char *filename)
{
	for (size_t i = 0; i < sizeof(monitor_names) / sizeof(monitor_names[0]); i++)
		if (strcmp(filename, monitor_names[i]) == 0)
			return 1;
	return 0;
}

int krp_parse_monitor(const char *filename, const char *buf, size_t len, struct krp_metrics *m)
{
	if (strcmp(filename, "numa-meminfo") == 0)
		krp_parse_numa_meminfo(buf, len, m);
	else if (strcmp(filename, "numa-vmstat") == 0)
		krp_parse_numa_vmstat(buf, len, m);
	else if (strcmp(filename, "vmstat") == 0 || strcmp(filename, "mpstat") == 0)
		krp_parse_kv_mean(buf, len, filename, m);
	else if (strcmp(filename, "slabinfo") == 0)
		krp_parse_slabinfo(buf, len, m);
	else if (strcmp(filename, "softirqs") == 0)
		krp_parse_softirqs(buf, len, m);
	else if (strcmp(filename, "interrupts") == 0)
		krp_parse_interrupts(buf, len, m);
	else if (strcmp(filename, "cpuidle") == 0)
		krp_parse_cpuidle(buf, len, m);
	else if (strcmp(filename, "uptime") == 0)
		krp_parse_uptime(buf, len, m);
	else if (strcmp(filename, "sched_debug") == 0)
		krp_parse_sched_debug(buf, len, m);
	else if (strcmp(filename, "perf-stat") == 0)
		krp_parse_perf_stat(buf, len, m);
	else if (strcmp(filename, "perf-profile") == 0)
		krp_parse_perf_profile(buf, len, m);
	else
		return 0;
	return 1;
}
