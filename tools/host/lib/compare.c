/* 0-day style comparison (see compare.h and the lkp notes in
 * docs/ARCHITECTURE.md). */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Monitor prefixes: every metric starting with one of these (or containing
 * ".time.", the rusage of the benchmark) is a monitor, not a benchmark
 * result. */
static const char *const monitor_prefixes[] = {
    "meminfo.",	   "proc-vmstat.", "numa-",	     "vmstat.",	     "slabinfo.",   "softirqs.",
    "interrupts.", "cpuidle.",	   "mpstat.",	     "sched_debug.", "perf-stat.",  "perf-profile.",
    "uptime.",	   "turbostat.",   "iostat.",	     "diskstats.",   "perf-sched.", "lock_stat.",
    "proc-stat.",  "boot-time.",   "heartbeat.",     "kmsg.",	     "dmesg.",	    "last_state.",
    "stderr.",	   "time.",	   "cpufreq-stats.",
};

/* Headline candidates, in order of preference. */
static const char *const headline_keys[] = {
    "will-it-scale.per_process_ops",
    "will-it-scale.per_thread_ops",
    "vm-scalability.throughput",
};

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int has_monitor_prefix(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(monitor_prefixes) / sizeof(monitor_prefixes[0]); i++) {
		if (strncmp(name, monitor_prefixes[i], strlen(monitor_prefixes[i])) == 0)
			return 1;
	}
	return 0;
}

int krp_is_monitor(const char *name)
{
	return has_monitor_prefix(name) || strstr(name, ".time.") != NULL;
}

int krp_is_absolute(const char *name)
{
	return strncmp(name, "perf-profile", 12) == 0 || has_suffix(name, "%");
}

int krp_direction(const char *name)
{
	static const char *const higher[] = {"_ops", ".throughput", ".median", ".score", ".index"};
	static const char *const lower[] = {".time.elapsed_time", ".free_time", ".stddev"};
	size_t i;

	for (i = 0; i < sizeof(lower) / sizeof(lower[0]); i++) {
		if (has_suffix(name, lower[i]))
			return -1;
	}
	for (i = 0; i < sizeof(higher) / sizeof(higher[0]); i++) {
		if (has_suffix(name, higher[i]))
			return 1;
	}
	return 0;
}

/* Group of a monitor metric: "<bench>.time" for rusage keys, else the part
 * before the first '.'. */
static void group_of(const char *name, char *out, size_t outsz)
{
	const char *t = strstr(name, ".time.");
	size_t n;

	if (t && !has_monitor_prefix(name))
		n = (size_t)(t - name) + 5;
	else {
		const char *dot = strchr(name, '.');
		n = dot ? (size_t)(dot - name) : strlen(name);
	}
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, name, n);
	out[n] = '\0';
}

void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs)
{
	size_t r, i;

	memset(vs, 0, sizeof(*vs));
	for (r = 0; r < v->nruns; r++) {
		const struct krp_metrics *m = &v->runs[r].m;

		for (i = 0; i < m->n; i++) {
			size_t k = krp_index_find(&vs->ix, m->v[i].name);
			struct krp_series *s;

			if (k == KRP_NOT_FOUND) {
				if (vs->n == vs->cap) {
					vs->cap = vs->cap ? vs->cap * 2 : 64;
					vs->s = krp_xrealloc(vs->s, vs->cap * sizeof(*vs->s));
				}
				k = vs->n++;
				memset(&vs->s[k], 0, sizeof(vs->s[k]));
				vs->s[k].name = krp_xstrdup(m->v[i].name);
				krp_index_insert(&vs->ix, m->v[i].name, k);
			}
			s = &vs->s[k];
			if (s->n == s->cap) {
				s->cap = s->cap ? s->cap * 2 : 4;
				s->x = krp_xrealloc(s->x, s->cap * sizeof(*s->x));
			}
			s->x[s->n++] = krp_metric_value(&m->v[i]);
		}
	}
}

const struct krp_series *krp_vstats_find(const struct krp_vstats *vs, const char *name)
{
	size_t k = krp_index_find(&vs->ix, name);

	return k == KRP_NOT_FOUND ? NULL : &vs->s[k];
}

void krp_vstats_free(struct krp_vstats *vs)
{
	size_t i;

	for (i = 0; i < vs->n; i++) {
		free(vs->s[i].name);
		free(vs->s[i].x);
	}
	free(vs->s);
	krp_index_free(&vs->ix);
	memset(vs, 0, sizeof(*vs));
}

static double base_or_tiny(double mb)
{
	return mb == 0 ? 1e-100 : mb;
}

void krp_cmp_cell(const char *name, const double *b, size_t nb, const double *n, size_t nn,
		  double alpha, struct krp_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->present = 1;
	c->nb = nb;
	c->nn = nn;
	c->mb = krp_mean(b, nb);
	c->mn = krp_mean(n, nn);
	c->sdb = krp_pstddev(b, nb);
	c->sdn = krp_pstddev(n, nn);
	c->pct = 100.0 * (c->mn - c->mb) / base_or_tiny(c->mb);
	c->shown = krp_is_absolute(name) ? c->mn - c->mb : c->pct;
	c->have_t = krp_welch(n, nn, b, nb, &c->w) == 0;
	if (nb >= 3 && nn >= 3 && c->have_t) {
		int sig = c->w.zero_var ? c->mn != c->mb : c->w.p < alpha;
		double min_effect = krp_is_monitor(name) ? 5.0 : 1.0;

		c->significant = sig && fabs(c->pct) >= min_effect;
	}
}

void krp_fmt_stddev(char *out, size_t outsz, double mean, double sd, size_t n)
{
	double pct = mean != 0 ? 100.0 * sd / mean : 0;

	if (n >= 2 && isfinite(pct) && pct > 2) {
		if (pct > 999999)
			pct = 999999;
		snprintf(out, outsz, " \xc2\xb1%3d%%", (int)pct);
	} else {
		snprintf(out, outsz, "      ");
	}
}

struct row {
	const char *name;
	int bench;
	char group[KRP_METRIC_NAME_MAX + 1];
	size_t group_rows;
	double maxabs;
	struct krp_cell *cells; /* one per new variant */
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->bench != y->bench)
		return x->bench ? -1 : 1;
	if (x->bench)
		return strcmp(x->name, y->name);
	if (x->group_rows != y->group_rows)
		return x->group_rows < y->group_rows ? -1 : 1;
	c = strcmp(x->group, y->group);
	if (c)
		return c;
	if (x->maxabs != y->maxabs)
		return x->maxabs > y->maxabs ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void put_row(struct krp_buf *out, const struct row *r, size_t nnew)
{
	char avg[64], err[32], chg[64];
	size_t j;

	krp_fmt_avg(avg, sizeof(avg), r->cells[0].mb);
	krp_fmt_stddev(err, sizeof(err), r->cells[0].mb, r->cells[0].sdb, r->cells[0].nb);
	krp_buf_printf(out, "%10s%s", avg, err);
	for (j = 0; j < nnew; j++) {
		const struct krp_cell *c = &r->cells[j];
		int absolute = krp_is_absolute(r->name);

		if (!c->present) {
			krp_buf_printf(out, "%28s", "");
			continue;
		}
		krp_fmt_change(chg, sizeof(chg), c->shown, 0);
		krp_fmt_avg(avg, sizeof(avg), c->mn);
		krp_fmt_stddev(err, sizeof(err), c->mn, c->sdn, c->nn);
		krp_buf_printf(out, "%10s%s %10s%s", chg, absolute ? " " : "%", avg, err);
	}
	krp_buf_printf(out, "  %s\n", r->name);
}

/* Names are cut to the column widths, as lkp does with commit ids. */
static void put_header(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j;

	krp_buf_printf(out, "%16.16s", vars[0].name);
	for (j = 1; j < nvars; j++)
		krp_buf_printf(out, " %27.27s", vars[j].name);
	krp_buf_puts(out, "\n----------------");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, " ---------------------------");
	krp_buf_puts(out, "\n         %stddev");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "     %change         %stddev");
	krp_buf_puts(out, "\n             \\");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "          |                \\");
	krp_buf_puts(out, "\n");
}

static const char *headline_for(const struct krp_vstats *b, const struct krp_vstats *n)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < sizeof(headline_keys) / sizeof(headline_keys[0]); i++) {
		if (krp_vstats_find(b, headline_keys[i]) && krp_vstats_find(n, headline_keys[i]))
			return headline_keys[i];
	}
	for (i = 0; i < b->n; i++) {
		const char *name = b->s[i].name;

		if (krp_is_monitor(name) || !krp_vstats_find(n, name))
			continue;
		if (!best || strcmp(name, best) < 0)
			best = name;
	}
	return best;
}

static void put_summary(struct krp_buf *out, const char *bname, const char *nname,
			const struct krp_vstats *b, const struct krp_vstats *n, double alpha)
{
	const char *key = headline_for(b, n);
	const struct krp_series *sb, *sn;
	struct krp_cell c;
	char pct[64], lo[64], hi[64], pv[32];
	const char *verdict;

	krp_buf_printf(out, "summary (%s vs %s):\n", nname, bname);
	if (!key) {
		krp_buf_puts(out, "no benchmark metric present on both sides\n");
		return;
	}
	sb = krp_vstats_find(b, key);
	sn = krp_vstats_find(n, key);
	krp_cmp_cell(key, sb->x, sb->n, sn->x, sn->n, alpha, &c);
	krp_fmt_change(pct, sizeof(pct), c.pct, 1);
	if (!c.significant) {
		verdict = "no significant change";
	} else {
		int dir = krp_direction(key);

		if (dir == 0)
			verdict = "significant change (direction unknown)";
		else
			verdict = (c.mn > c.mb) == (dir > 0) ? "improvement" : "regression";
	}
	if (!c.have_t) {
		krp_buf_printf(out, "%s: %s (runs %zu vs %zu: too few for a t-test): %s\n", key,
			       pct, c.nb, c.nn, verdict);
		return;
	}
	double half = 0;
	if (!c.w.zero_var)
		half = krp_t_quantile(0.975, c.w.df) * c.w.se;
	krp_fmt_change(lo, sizeof(lo), 100.0 * (c.w.diff - half) / base_or_tiny(c.mb), 1);
	krp_fmt_change(hi, sizeof(hi), 100.0 * (c.w.diff + half) / base_or_tiny(c.mb), 1);
	if (c.w.zero_var) {
		krp_buf_printf(out,
			       "%s: %s (95%% CI %s .. %s, zero variance, runs %zu vs %zu): %s\n",
			       key, pct, lo, hi, c.nb, c.nn, verdict);
		return;
	}
	if (c.w.p < 0.0001)
		snprintf(pv, sizeof(pv), "p<0.0001");
	else
		snprintf(pv, sizeof(pv), "p=%.4f", c.w.p);
	krp_buf_printf(
	    out, "%s: %s (95%% CI %s .. %s, Welch t=%.2f, df=%.1f, %s, runs %zu vs %zu): %s\n", key,
	    pct, lo, hi, c.w.t, c.w.df, pv, c.nb, c.nn, verdict);
}

void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out)
{
	struct krp_vstats *vs = krp_xcalloc(nvars, sizeof(*vs));
	struct row *rows;
	size_t nrows = 0, nnew = nvars - 1, i, j, k;

	for (j = 0; j < nvars; j++)
		krp_vstats_build(&vars[j], &vs[j]);
	krp_buf_printf(out, "runs: %s %zu", vars[0].name, vars[0].nruns);
	for (j = 1; j < nvars; j++)
		krp_buf_printf(out, ", %s %zu", vars[j].name, vars[j].nruns);
	krp_buf_puts(out, "\n\n");

	rows = krp_xcalloc(vs[0].n ? vs[0].n : 1, sizeof(*rows));
	for (i = 0; i < vs[0].n; i++) {
		const struct krp_series *sb = &vs[0].s[i];
		struct row *r = &rows[nrows];
		int any_present = 0, any_sig = 0;

		r->cells = krp_xcalloc(nnew ? nnew : 1, sizeof(*r->cells));
		r->name = sb->name;
		r->bench = !krp_is_monitor(sb->name);
		for (j = 0; j < nnew; j++) {
			const struct krp_series *sn = krp_vstats_find(&vs[j + 1], sb->name);

			if (!sn)
				continue;
			krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o->alpha, &r->cells[j]);
			any_present = 1;
			any_sig |= r->cells[j].significant;
			if (fabs(r->cells[j].pct) > r->maxabs)
				r->maxabs = fabs(r->cells[j].pct);
		}
		if (any_present && (o->all || any_sig)) {
			if (!r->bench)
				group_of(r->name, r->group, sizeof(r->group));
			nrows++;
		} else {
			free(r->cells);
		}
	}
	/* Monitor groups with fewer shown rows come first (as in lkp). */
	for (i = 0; i < nrows; i++) {
		if (rows[i].bench)
			continue;
		for (k = 0; k < nrows; k++) {
			if (!rows[k].bench && strcmp(rows[k].group, rows[i].group) == 0)
				rows[i].group_rows++;
		}
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (nrows == 0) {
		krp_buf_puts(out, "no significant changes (use --all to show every metric)\n");
	} else {
		put_header(out, vars, nvars);
		for (i = 0; i < nrows; i++)
			put_row(out, &rows[i], nnew);
	}
	for (j = 1; j < nvars; j++) {
		krp_buf_puts(out, "\n");
		put_summary(out, vars[0].name, vars[j].name, &vs[0], &vs[j], o->alpha);
	}
	for (i = 0; i < nrows; i++)
		free(rows[i].cells);
	free(rows);
	for (j = 0; j < nvars; j++)
		krp_vstats_free(&vs[j]);
	free(vs);
}
