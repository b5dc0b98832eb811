/* 0-day style comparison (see compare.h and the lkp notes in
 * docs/ARCHITECTURE.md). */
#include "compare.h"
#include "meaning.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a metric means is data: suites/<name>/meta and
 * monitors/<name>/meta (core/meaning.h). */
int krp_is_monitor(const char *name)
{
	return krp_meaning_monitor(name) || krp_meaning_rusage(name);
}

int krp_is_absolute(const char *name)
{
	return krp_meaning_absolute(name);
}

int krp_direction(const char *name)
{
	return krp_meaning_direction(name);
}

/* Group of a monitor metric: "<bench>.time" for rusage keys, else the part
 * before the first '.'. */
static void group_of(const char *name, char *out, size_t outsz)
{
	const char *t = strstr(name, ".time.");
	size_t n;

	if (t && !krp_meaning_monitor(name))
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

int krp_is_failure(const char *name)
{
	return krp_meaning_failure(name);
}

int krp_run_failed(const struct krp_run *r)
{
	double x;

	return krp_metrics_get(&r->m, "last_state.failed", &x) == 0 && x != 0;
}

size_t krp_variant_nfailed(const struct krp_variant *v)
{
	size_t r, n = 0;

	for (r = 0; r < v->nruns; r++)
		n += krp_run_failed(&v->runs[r]) ? 1 : 0;
	return n;
}

void krp_fail_count(const struct krp_variant *v, const char *key, size_t *fail, size_t *runs)
{
	size_t r;
	double x;

	*fail = 0;
	*runs = v->nruns;
	for (r = 0; r < v->nruns; r++) {
		if (krp_metrics_get(&v->runs[r].m, key, &x) == 0 && x != 0)
			(*fail)++;
	}
}

double krp_reproduction(size_t fail_b, size_t runs_b, size_t fail_n, size_t runs_n)
{
	double fb = runs_b ? (double)fail_b / (double)runs_b : 0;
	double fn = runs_n ? (double)fail_n / (double)runs_n : 0;

	return 100.0 * (fn - fb);
}

void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs)
{
	size_t r, i;

	memset(vs, 0, sizeof(*vs));
	for (r = 0; r < v->nruns; r++) {
		const struct krp_metrics *m = &v->runs[r].m;

		if (krp_run_failed(&v->runs[r]))
			continue;
		for (i = 0; i < m->n; i++) {
			size_t k = krp_index_find(&vs->ix, m->v[i].name);
			struct krp_series *s;

			if (krp_is_failure(m->v[i].name))
				continue;
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

/* 100 * d / mb, or NAN ("n/a") when the base mean is 0 or negative: no
 * percentage of it means anything. */
static double pct_of_base(double d, double mb)
{
	return mb > 0 ? 100.0 * d / mb : NAN;
}

/* The change is large enough to report: |pct| >= min_effect, or any
 * change when there is no percentage. */
static int effect_ok(const struct krp_cell *c, double min_effect)
{
	return isnan(c->pct) ? c->mn != c->mb : fabs(c->pct) >= min_effect;
}

void krp_cmp_cell(const char *name, const double *b, size_t nb, const double *n, size_t nn,
		  const struct krp_cmp_opts *o, struct krp_cell *c)
{
	memset(c, 0, sizeof(*c));
	c->present = 1;
	c->nb = nb;
	c->nn = nn;
	c->mb = krp_mean(b, nb);
	c->mn = krp_mean(n, nn);
	c->sdb = krp_pstddev(b, nb);
	c->sdn = krp_pstddev(n, nn);
	c->pct = pct_of_base(c->mn - c->mb, c->mb);
	c->shown = krp_is_absolute(name) ? c->mn - c->mb : c->pct;
	c->have_t = krp_welch(n, nn, b, nb, &c->w) == 0;
	c->exact = o->exact;
	c->alpha = o->exact ? fmin(o->alpha, KRP_EXACT_ALPHA) : o->alpha;
	c->floor = NAN;
	if (nb >= 3 && nn >= 3 && c->have_t) {
		int sig = c->w.zero_var ? c->mn != c->mb : c->w.p < c->alpha;
		double min_effect = krp_is_monitor(name) ? 5.0
				    : o->exact		 ? KRP_EXACT_MIN_EFFECT
							 : 1.0;

		c->significant = sig && effect_ok(c, min_effect);
		/* The change that would reach p = alpha with these spreads. */
		if (c->w.zero_var)
			c->floor = min_effect;
		else if (c->mb > 0)
			c->floor =
			    fmax(min_effect, 100.0 * krp_t_quantile(1 - c->alpha / 2, c->w.df) *
						 c->w.se / c->mb);
	}
}

const char *krp_cmp_clock(const struct krp_variant *vars, size_t nvars, char *err, size_t errsz)
{
	size_t j;

	for (j = 0; j < nvars; j++) {
		if (strcmp(vars[j].clock, "mixed") == 0) {
			snprintf(err, errsz,
				 "%s: runs of both clocks (exact and real); a comparison never "
				 "mixes modes",
				 vars[j].dir);
			return NULL;
		}
		if (strcmp(vars[j].clock, vars[0].clock) != 0) {
			snprintf(err, errsz,
				 "%s ran with clock %s, %s with clock %s; a comparison never mixes "
				 "modes",
				 vars[0].dir, vars[0].clock, vars[j].dir, vars[j].clock);
			return NULL;
		}
	}
	return nvars ? vars[0].clock : "real";
}

int krp_cmp_add_note(struct krp_cmp_opts *o, const char *text, char *err, size_t errsz)
{
	if (o->nnotes == sizeof(o->notes) / sizeof(o->notes[0])) {
		snprintf(err, errsz, "more than %zu --note options",
			 sizeof(o->notes) / sizeof(o->notes[0]));
		return -1;
	}
	o->notes[o->nnotes++] = text;
	return 0;
}

int krp_cmp_set_clock(const struct krp_variant *vars, size_t nvars, struct krp_cmp_opts *o,
		      char *err, size_t errsz)
{
	const char *clock = krp_cmp_clock(vars, nvars, err, errsz);

	if (!clock)
		return -1;
	o->exact = strcmp(clock, "exact") == 0;
	return 0;
}

/* Runs r and k of v are the same boot twice: one seed (or none, made
 * before seeds), neither failed. */
static int same_inputs(const struct krp_variant *v, size_t r, size_t k)
{
	return v->runs[r].seed == v->runs[k].seed && !krp_run_failed(&v->runs[r]) &&
	       !krp_run_failed(&v->runs[k]);
}

size_t krp_put_nondeterminism(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j, i, r, k, lines = 0;

	for (j = 0; j < nvars; j++) {
		const struct krp_variant *v = &vars[j];
		const struct krp_metrics *m0;

		for (r = 0; r < v->nruns; r++) {
			if (!v->runs[r].nondet)
				continue;
			krp_buf_printf(out,
				       "NOT DETERMINISTIC: %s run %s (seed %ld) gave other digits "
				       "when booted again with the same seed and images (%s/%s/"
				       "NOT-DETERMINISTIC)\n",
				       v->name, v->runs[r].name, v->runs[r].seed, v->dir,
				       v->runs[r].name);
			lines++;
		}
		/* Pairs of runs of one seed: every benchmark metric of the first
		 * such run against the other's. */
		for (r = 0; r < v->nruns; r++) {
			m0 = &v->runs[r].m;
			for (k = r + 1; k < v->nruns; k++) {
				if (!same_inputs(v, r, k))
					continue;
				for (i = 0; i < m0->n; i++) {
					const char *name = m0->v[i].name;
					double a = krp_metric_value(&m0->v[i]), b;
					char sa[64], sb[64];

					if (krp_is_monitor(name) || krp_is_failure(name) ||
					    krp_metrics_get(&v->runs[k].m, name, &b) != 0 || a == b)
						continue;
					snprintf(sa, sizeof(sa), "%.17g", a);
					snprintf(sb, sizeof(sb), "%.17g", b);
					krp_buf_printf(
					    out,
					    "NOT DETERMINISTIC: %s %s differs between exact "
					    "boots of identical inputs (runs %s and %s, %s "
					    "vs %s)\n",
					    v->name, name, v->runs[r].name, v->runs[k].name, sa,
					    sb);
					lines++;
				}
			}
		}
	}
	return lines;
}

size_t krp_put_contention(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j, r, named = 0;

	for (j = 0; j < nvars; j++) {
		const struct krp_variant *v = &vars[j];

		for (r = 0; r < v->nruns; r++) {
			if (!v->runs[r].contended)
				continue;
			krp_buf_printf(out,
				       "HOST CONTENTION: %s run %s was timed while the host's CPUs "
				       "were contended (CPU pressure %.1f%% of its boot)\n",
				       v->name, v->runs[r].name, v->runs[r].cpu_pressure);
			named++;
		}
	}
	return named;
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
		krp_buf_printf(out, "%10s%s %10s%s", chg, absolute || isnan(c->shown) ? " " : "%",
			       avg, err);
	}
	krp_buf_printf(out, "  %s\n", r->name);
}

static void put_header_cols(struct krp_buf *out, size_t nvars)
{
	size_t j;

	krp_buf_puts(out, "         %stddev");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "     %change         %stddev");
	krp_buf_puts(out, "\n             \\");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "          |                \\");
	krp_buf_puts(out, "\n");
}

static void put_dashes(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);

/* Names are cut to the column widths, as lkp does with commit ids. */
static void put_header(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	put_dashes(out, vars, nvars);
	put_header_cols(out, nvars);
}

const char *krp_headline(const struct krp_vstats *b, const struct krp_vstats *n)
{
	const char *best = NULL, *h;
	size_t i;

	for (i = 0; (h = krp_meaning_headline(i)); i++) {
		if (krp_vstats_find(b, h) && krp_vstats_find(n, h))
			return h;
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

/* The seeds of a variant's runs: "1-10" when they are one run of each
 * seed from first to last, else "first..last" with the count; "none"
 * for runs without seeds. */
static void seeds_desc(const struct krp_variant *v, char *out, size_t outsz)
{
	long lo = -1, hi = -1;
	size_t r, n = 0;

	for (r = 0; r < v->nruns; r++) {
		long s = v->runs[r].seed;

		if (s < 0)
			continue;
		lo = n == 0 || s < lo ? s : lo;
		hi = n == 0 || s > hi ? s : hi;
		n++;
	}
	if (n == 0)
		snprintf(out, outsz, "none");
	else if ((size_t)(hi - lo) + 1 == n)
		snprintf(out, outsz, "%ld-%ld", lo, hi);
	else
		snprintf(out, outsz, "%ld..%ld (%zu runs)", lo, hi, n);
}

static int variant_contended(const struct krp_variant *v)
{
	size_t r;

	for (r = 0; r < v->nruns; r++) {
		if (v->runs[r].contended)
			return 1;
	}
	return 0;
}

static void put_summary(struct krp_buf *out, const char *bname, const char *nname,
			const struct krp_vstats *b, const struct krp_vstats *n,
			const struct krp_cmp_opts *o, int contended)
{
	const char *key = krp_headline(b, n);
	const struct krp_series *sb, *sn;
	struct krp_cell c;
	char pct[64], lo[64], hi[64], pv[32], runs[64], fl[64];
	const char *verdict;

	krp_buf_printf(out, "summary (%s vs %s):\n", nname, bname);
	if (!key) {
		krp_buf_puts(out, "no benchmark metric present on both sides\n");
		return;
	}
	sb = krp_vstats_find(b, key);
	sn = krp_vstats_find(n, key);
	krp_cmp_cell(key, sb->x, sb->n, sn->x, sn->n, o, &c);
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
	if (c.exact && (c.nb < 2 || c.nn < 2)) {
		krp_buf_printf(out,
			       "%s: %s (exact, seeds %zu vs %zu: one seed is one layout, a "
			       "number and no verdict; run 3 or more seeds a side, "
			       "docs/EXACT.md)\n",
			       key, pct, c.nb, c.nn);
		return;
	}
	if (!c.have_t) {
		krp_buf_printf(out, "%s: %s (runs %zu vs %zu: too few for a t-test): %s\n", key,
			       pct, c.nb, c.nn, verdict);
		return;
	}
	double half = 0;
	if (!c.w.zero_var)
		half = krp_t_quantile(0.975, c.w.df) * c.w.se;
	krp_fmt_change(lo, sizeof(lo), pct_of_base(c.w.diff - half, c.mb), 1);
	krp_fmt_change(hi, sizeof(hi), pct_of_base(c.w.diff + half, c.mb), 1);
	if (c.exact)
		snprintf(runs, sizeof(runs), "exact, %zu vs %zu seeds", c.nb, c.nn);
	else
		snprintf(runs, sizeof(runs), "runs %zu vs %zu", c.nb, c.nn);
	if (!c.exact || isnan(c.floor))
		fl[0] = '\0';
	else
		snprintf(fl, sizeof(fl), ", floor %.2f%% at p<%g", c.floor, c.alpha);
	if (c.w.zero_var) {
		krp_buf_printf(out, "%s: %s (95%% CI %s .. %s, zero variance, %s%s): %s\n", key,
			       pct, lo, hi, runs, fl, verdict);
		return;
	}
	if (c.w.p < 0.0001)
		snprintf(pv, sizeof(pv), "p<0.0001");
	else
		snprintf(pv, sizeof(pv), "p=%.4f", c.w.p);
	krp_buf_printf(out, "%s: %s (95%% CI %s .. %s, Welch t=%.2f, df=%.1f, %s, %s%s): %s\n", key,
		       pct, lo, hi, c.w.t, c.w.df, pv, runs, fl, verdict);
	if (contended)
		krp_buf_printf(out,
			       "%s: this %s rests on runs timed under host contention (HOST "
			       "CONTENTION above): measure again on a quiet host\n",
			       key, c.significant ? "verdict" : "absence of a verdict");
}

char **krp_failure_keys(const struct krp_variant *vars, size_t nvars, size_t *count)
{
	struct krp_metrics set;
	size_t j, r, i, *order;
	char **keys;

	krp_metrics_init(&set);
	for (j = 0; j < nvars; j++) {
		for (r = 0; r < vars[j].nruns; r++) {
			const struct krp_metrics *m = &vars[j].runs[r].m;

			for (i = 0; i < m->n; i++) {
				if (krp_is_failure(m->v[i].name))
					krp_metric_add(&set, m->v[i].name, 0, KRP_SET);
			}
		}
	}
	order = krp_metrics_sorted(&set);
	keys = krp_xcalloc(set.n ? set.n : 1, sizeof(*keys));
	for (i = 0; i < set.n; i++)
		keys[i] = krp_xstrdup(set.v[order[i]].name);
	*count = set.n;
	free(order);
	krp_metrics_free(&set);
	return keys;
}

/* A failure row is shown when some new variant's failure rate differs from
 * the base's (lkp: the max differs), or always with --all. */
static int failure_row_shown(const struct krp_variant *vars, size_t nvars, const char *key, int all)
{
	size_t fb, rb, fn, rn, j;

	if (all)
		return 1;
	krp_fail_count(&vars[0], key, &fb, &rb);
	for (j = 1; j < nvars; j++) {
		krp_fail_count(&vars[j], key, &fn, &rn);
		if (krp_reproduction(fb, rb, fn, rn) != 0)
			return 1;
	}
	return 0;
}

/* "fail:runs  %reproduction    fail:runs" rows, lkp's column layout. */
static size_t put_failures(struct krp_buf *out, const struct krp_variant *vars, size_t nvars,
			   int all)
{
	size_t nkeys, i, j, shown = 0;
	char **keys = krp_failure_keys(vars, nvars, &nkeys);

	for (i = 0; i < nkeys; i++) {
		size_t fb, rb, fn, rn;
		char fr[48];

		if (!failure_row_shown(vars, nvars, keys[i], all))
			continue;
		if (shown++ == 0) {
			krp_buf_puts(out, "       fail:runs");
			for (j = 1; j < nvars; j++)
				krp_buf_puts(out, "  %reproduction    fail:runs");
			krp_buf_puts(out, "\n");
		}
		krp_fail_count(&vars[0], keys[i], &fb, &rb);
		snprintf(fr, sizeof(fr), "%zu:%zu", fb, rb);
		krp_buf_printf(out, "%13s   ", fr);
		for (j = 1; j < nvars; j++) {
			krp_fail_count(&vars[j], keys[i], &fn, &rn);
			snprintf(fr, sizeof(fr), "%zu:%zu", fn, rn);
			krp_buf_printf(out, "%10.0f%%%14s   ", krp_reproduction(fb, rb, fn, rn),
				       fr);
		}
		krp_buf_printf(out, "  %s\n", keys[i]);
	}
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	return shown;
}

static void put_dashes(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j;

	krp_buf_printf(out, "%16.16s", vars[0].name);
	for (j = 1; j < nvars; j++)
		krp_buf_printf(out, " %27.27s", vars[j].name);
	krp_buf_puts(out, "\n----------------");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, " ---------------------------");
	krp_buf_puts(out, "\n");
}

/* Plot row (0 = top) of value v in [lo, hi] over h rows. */
static size_t plot_row(double v, double lo, double hi, size_t h)
{
	double f = (hi - v) / (hi - lo) * (double)(h - 1);
	long r = lround(f);

	if (r < 0)
		r = 0;
	if (r > (long)h - 1)
		r = (long)h - 1;
	return (size_t)r;
}

/* Plot column of sample i (0-based) of n over w columns. */
static size_t plot_col(size_t i, size_t n, size_t w)
{
	if (n <= 1)
		return w / 2;
	return (size_t)lround((double)i * (double)(w - 1) / (double)(n - 1));
}

void krp_plot_label(char *out, size_t outsz, double v, int width)
{
	/* As 0-day's plots read: %g, fewer digits until it fits, never cut
	 * (353080, 4.9e+06, 1.017e+08). */
	for (int prec = 6; prec >= 1; prec--) {
		int n = snprintf(out, outsz, "%.*g", prec, v);

		if (n >= 0 && n <= width)
			return;
	}
	snprintf(out, outsz, "%.0e", v);
}

void krp_ascii_plot(struct krp_buf *out, const char *title, const double *b, size_t nb,
		    const char *bname, const double *n, size_t nn, const char *nname)
{
	enum { LBL = 10, W = KRP_PLOT_W - LBL - 2, H = KRP_PLOT_H - 2 };
	char grid[H][W];
	double lo = INFINITY, hi = -INFINITY;
	size_t i, r, npts = nb > nn ? nb : nn;
	int pad;

	for (i = 0; i < nb; i++) {
		lo = fmin(lo, b[i]);
		hi = fmax(hi, b[i]);
	}
	for (i = 0; i < nn; i++) {
		lo = fmin(lo, n[i]);
		hi = fmax(hi, n[i]);
	}
	if (npts == 0 || !isfinite(lo) || !isfinite(hi)) {
		krp_buf_printf(out, "%s: no samples to plot\n", title);
		return;
	}
	if (hi == lo) {
		double d = lo != 0 ? fabs(lo) * 0.05 : 1;

		lo -= d;
		hi += d;
	}
	memset(grid, ' ', sizeof(grid));
	for (i = 0; i < nb; i++)
		grid[plot_row(b[i], lo, hi, H)][plot_col(i, npts, W)] = '*';
	for (i = 0; i < nn; i++)
		grid[plot_row(n[i], lo, hi, H)][plot_col(i, npts, W)] = 'O';
	pad = (int)(KRP_PLOT_W - strlen(title)) / 2;
	krp_buf_printf(out, "%*s%s\n\n", pad > 0 ? pad : 0, "", title);
	krp_buf_printf(out, "%*s+", LBL, "");
	for (i = 0; i < W; i++)
		krp_buf_puts(out, "-");
	krp_buf_puts(out, "+\n");
	for (r = 0; r < H; r++) {
		/* Labels on 5 rows: top, bottom and three in between. */
		int tick = r == 0 || r == H - 1 || r == (H - 1) / 4 || r == (H - 1) / 2 ||
			   r == 3 * (H - 1) / 4;

		if (tick) {
			char lbl[32];
			double v = hi - (double)r * (hi - lo) / (double)(H - 1);

			krp_plot_label(lbl, sizeof(lbl), fabs(v) < 1e-9 * (hi - lo) ? 0.0 : v,
				       LBL - 1);
			krp_buf_printf(out, "%*s +", LBL - 1, lbl);
		} else {
			krp_buf_printf(out, "%*s|", LBL, "");
		}
		krp_buf_add(out, grid[r], W);
		krp_buf_puts(out, tick ? "+\n" : "|\n");
	}
	krp_buf_printf(out, "%*s+", LBL, "");
	for (i = 0; i < W; i++)
		krp_buf_puts(out, "-");
	krp_buf_puts(out, "+\n\n");
	krp_buf_printf(out, "[*] %s sample\n[O] %s sample\n", bname, nname);
}

void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out)
{
	struct krp_vstats *vs = krp_xcalloc(nvars, sizeof(*vs));
	struct row *rows;
	size_t nrows = 0, nnew = nvars - 1, i, j, k;

	for (j = 0; j < nvars; j++)
		krp_vstats_build(&vars[j], &vs[j]);
	for (j = 0; j < nvars; j++) {
		size_t nf = krp_variant_nfailed(&vars[j]);

		krp_buf_printf(out, "%s%s %zu", j ? ", " : "runs: ", vars[j].name, vars[j].nruns);
		if (nf)
			krp_buf_printf(out, " (%zu failed)", nf);
	}
	krp_buf_printf(out, "; clock %s", o->exact ? "exact" : "real");
	for (j = 0; o->exact && j < nvars; j++) {
		char sd[96];

		seeds_desc(&vars[j], sd, sizeof(sd));
		krp_buf_printf(out, "%s%s %s", j ? ", " : "; seeds: ", vars[j].name, sd);
	}
	krp_buf_puts(out, "\n\n");
	if (o->exact && krp_put_nondeterminism(out, vars, nvars))
		krp_buf_puts(out, "\n");
	if (krp_put_contention(out, vars, nvars))
		krp_buf_puts(out, "\n");
	for (i = 0; i < o->nnotes; i++)
		krp_buf_printf(out, "%s\n%s", o->notes[i], i + 1 == o->nnotes ? "\n" : "");

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
			krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o, &r->cells[j]);
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
	{
		struct krp_buf fails = {0};
		size_t nfail = put_failures(&fails, vars, nvars, o->all);

		if (nrows == 0 && nfail == 0) {
			krp_buf_puts(out,
				     "no significant changes (use --all to show every metric)\n");
		} else if (nfail == 0) {
			put_header(out, vars, nvars);
		} else {
			put_dashes(out, vars, nvars);
			krp_buf_add(out, fails.data, fails.len);
			if (nrows)
				put_header_cols(out, nvars);
		}
		krp_buf_free(&fails);
	}
	for (i = 0; i < nrows; i++)
		put_row(out, &rows[i], nnew);
	for (j = 1; j < nvars; j++) {
		krp_buf_puts(out, "\n");
		put_summary(out, vars[0].name, vars[j].name, &vs[0], &vs[j], o,
			    variant_contended(&vars[0]) || variant_contended(&vars[j]));
	}
	for (i = 0; i < nrows; i++)
		free(rows[i].cells);
	free(rows);
	for (j = 0; j < nvars; j++)
		krp_vstats_free(&vs[j]);
	free(vs);
}

void krp_compare_plots(const struct krp_variant *vars, size_t nvars, struct krp_buf *out)
{
	struct krp_vstats b;
	size_t j;

	krp_vstats_build(&vars[0], &b);
	for (j = 1; j < nvars; j++) {
		struct krp_vstats n;
		const char *key;

		krp_vstats_build(&vars[j], &n);
		key = krp_headline(&b, &n);
		if (key) {
			const struct krp_series *sb = krp_vstats_find(&b, key);
			const struct krp_series *sn = krp_vstats_find(&n, key);

			krp_buf_puts(out, "\n");
			krp_ascii_plot(out, key, sb->x, sb->n, vars[0].name, sn->x, sn->n,
				       vars[j].name);
		}
		krp_vstats_free(&n);
	}
	krp_vstats_free(&b);
}

/* One exported comparison: perf (c set) or failure (counts set). */
struct export_row {
	const char *metric, *newname;
	int failure;
	struct krp_cell c;
	size_t fb, rb, fn, rn;
	double repro;
};

typedef void (*export_fn)(const struct export_row *r, void *ctx);

static void export_rows(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			export_fn fn, void *ctx)
{
	struct krp_vstats b;
	size_t j, i, nkeys;
	char **keys = krp_failure_keys(vars, nvars, &nkeys);

	krp_vstats_build(&vars[0], &b);
	for (j = 1; j < nvars; j++) {
		struct krp_vstats n;
		size_t *order;
		struct krp_metrics names;

		krp_vstats_build(&vars[j], &n);
		/* Sorted by name: build a sorted view of the base names. */
		krp_metrics_init(&names);
		for (i = 0; i < b.n; i++)
			krp_metric_add(&names, b.s[i].name, 0, KRP_SET);
		order = krp_metrics_sorted(&names);
		for (i = 0; i < names.n; i++) {
			const struct krp_series *sb = krp_vstats_find(&b, names.v[order[i]].name);
			const struct krp_series *sn = krp_vstats_find(&n, sb->name);
			struct export_row r;

			if (!sn)
				continue;
			memset(&r, 0, sizeof(r));
			r.metric = sb->name;
			r.newname = vars[j].name;
			krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o, &r.c);
			fn(&r, ctx);
		}
		for (i = 0; i < nkeys; i++) {
			struct export_row r;

			memset(&r, 0, sizeof(r));
			r.metric = keys[i];
			r.newname = vars[j].name;
			r.failure = 1;
			krp_fail_count(&vars[0], keys[i], &r.fb, &r.rb);
			krp_fail_count(&vars[j], keys[i], &r.fn, &r.rn);
			r.repro = krp_reproduction(r.fb, r.rb, r.fn, r.rn);
			fn(&r, ctx);
		}
		free(order);
		krp_metrics_free(&names);
		krp_vstats_free(&n);
	}
	krp_vstats_free(&b);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void export_json_row(const struct export_row *r, void *ctx)
{
	json_t *arr = ctx, *o = json_object();

	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "new", json_string(r->newname));
	json_object_set_new(o, "kind", json_string(r->failure ? "failure" : "perf"));
	if (r->failure) {
		json_object_set_new(o, "base_fail", json_integer((json_int_t)r->fb));
		json_object_set_new(o, "base_runs", json_integer((json_int_t)r->rb));
		json_object_set_new(o, "new_fail", json_integer((json_int_t)r->fn));
		json_object_set_new(o, "new_runs", json_integer((json_int_t)r->rn));
		json_object_set_new(o, "reproduction", jnum(r->repro));
		json_object_set_new(o, "significant", json_boolean(r->repro != 0));
	} else {
		json_object_set_new(o, "base_runs", json_integer((json_int_t)r->c.nb));
		json_object_set_new(o, "base_mean", jnum(r->c.mb));
		json_object_set_new(o, "base_stddev", jnum(r->c.sdb));
		json_object_set_new(o, "new_runs", json_integer((json_int_t)r->c.nn));
		json_object_set_new(o, "new_mean", jnum(r->c.mn));
		json_object_set_new(o, "new_stddev", jnum(r->c.sdn));
		json_object_set_new(o, "change_pct", jnum(r->c.pct));
		json_object_set_new(o, "change_abs", jnum(r->c.mn - r->c.mb));
		json_object_set_new(o, "absolute", json_boolean(krp_is_absolute(r->metric)));
		json_object_set_new(o, "p", r->c.have_t ? jnum(r->c.w.p) : json_null());
		json_object_set_new(o, "significant", json_boolean(r->c.significant));
		json_object_set_new(o, "direction", json_integer(krp_direction(r->metric)));
	}
	json_array_append_new(arr, o);
}

void krp_compare_json(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		      struct krp_buf *out)
{
	json_t *root = json_object(), *vl = json_array(), *ml = json_array();
	size_t j;
	char *s;

	json_object_set_new(root, "base", json_string(vars[0].name));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "clock", json_string(o->exact ? "exact" : "real"));
	for (j = 0; j < nvars; j++) {
		json_t *v = json_object();

		json_object_set_new(v, "name", json_string(vars[j].name));
		json_object_set_new(v, "dir", json_string(vars[j].dir));
		json_object_set_new(v, "runs", json_integer((json_int_t)vars[j].nruns));
		json_object_set_new(v, "failed_runs",
				    json_integer((json_int_t)krp_variant_nfailed(&vars[j])));
		json_array_append_new(vl, v);
	}
	json_object_set_new(root, "variants", vl);
	export_rows(vars, nvars, o, export_json_row, ml);
	json_object_set_new(root, "metrics", ml);
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (s) {
		krp_buf_puts(out, s);
		krp_buf_puts(out, "\n");
		free(s);
	}
	json_decref(root);
}

/* CSV field: quoted (quotes doubled) when it holds a comma, quote or
 * line break. */
static void csv_field(struct krp_buf *out, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n")) {
		krp_buf_puts(out, s);
		return;
	}
	krp_buf_puts(out, "\"");
	for (p = s; *p; p++)
		krp_buf_puts(out, *p == '"' ? "\"\"" : (char[]){*p, 0});
	krp_buf_puts(out, "\"");
}

static void csv_num(struct krp_buf *out, double v)
{
	if (isfinite(v))
		krp_buf_printf(out, ",%.10g", v);
	else
		krp_buf_puts(out, ",");
}

static void export_csv_row(const struct export_row *r, void *ctx)
{
	struct krp_buf *out = ctx;

	krp_buf_puts(out, r->failure ? "failure," : "perf,");
	csv_field(out, r->metric);
	krp_buf_puts(out, ",");
	csv_field(out, r->newname);
	if (r->failure) {
		krp_buf_printf(out, ",%zu,,,%zu,,,,,,%d,%zu,%zu,%.10g\n", r->rb, r->rn,
			       r->repro != 0, r->fb, r->fn, r->repro);
		return;
	}
	krp_buf_printf(out, ",%zu", r->c.nb);
	csv_num(out, r->c.mb);
	csv_num(out, r->c.sdb);
	krp_buf_printf(out, ",%zu", r->c.nn);
	csv_num(out, r->c.mn);
	csv_num(out, r->c.sdn);
	csv_num(out, r->c.pct);
	csv_num(out, r->c.mn - r->c.mb);
	csv_num(out, r->c.have_t ? r->c.w.p : NAN);
	krp_buf_printf(out, ",%d,,,\n", r->c.significant);
}

void krp_compare_csv(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     struct krp_buf *out)
{
	krp_buf_puts(out, "kind,metric,new,base_runs,base_mean,base_stddev,new_runs,new_mean,"
			  "new_stddev,change_pct,change_abs,p,significant,base_fail,new_fail,"
			  "reproduction\n");
	export_rows(vars, nvars, o, export_csv_row, out);
}
