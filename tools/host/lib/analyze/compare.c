/* 0-day style comparison (see compare.h and the lkp notes in
 * docs/ARCHITECTURE.md). */
#include "compare.h"
#include "meaning.h"

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

double krp_pct_of_base(double d, double mb)
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
	c->pct = krp_pct_of_base(c->mn - c->mb, c->mb);
	c->shown = krp_is_absolute(name) ? c->mn - c->mb : c->pct;
	c->have_t = krp_welch(n, nn, b, nb, &c->w) == 0;
	c->exact = o->exact;
	c->alpha = o->exact ? fmin(o->alpha, KRP_EXACT_ALPHA) : o->alpha;
	c->floor = NAN;
	c->too_few = nb < KRP_VERDICT_MIN_RUNS || nn < KRP_VERDICT_MIN_RUNS;
	if (!c->too_few && c->have_t) {
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

const char *krp_headline(const struct krp_vstats *b, const struct krp_vstats *n)
{
	const char *best = NULL;
	long rank = -1;
	size_t i;

	/* the first headline rule's metric on both sides; of a pattern's
	 * (autonuma-benchmark.*.seconds), the first by name */
	for (i = 0; i < b->n; i++) {
		const char *name = b->s[i].name;
		long r = krp_meaning_headline_rank(name);

		if (r < 0 || !krp_vstats_find(n, name))
			continue;
		if (!best || r < rank || (r == rank && strcmp(name, best) < 0)) {
			best = name;
			rank = r;
		}
	}
	if (best)
		return best;
	for (i = 0; i < b->n; i++) {
		const char *name = b->s[i].name;

		if (krp_is_monitor(name) || !krp_vstats_find(n, name))
			continue;
		if (!best || strcmp(name, best) < 0)
			best = name;
	}
	return best;
}

int krp_cell_verdict(const char *name, const struct krp_cell *c)
{
	int dir;

	if (!c->significant)
		return 0;
	dir = krp_direction(name);
	if (dir == 0)
		return 2;
	return (c->mn > c->mb) == (dir > 0) ? 1 : -1;
}

const char *krp_verdict_word(const struct krp_cell *c, int verdict)
{
	switch (verdict) {
	case 1:
		return "improvement";
	case -1:
		return "regression";
	case 2:
		return "significant change";
	default:
		return c->too_few || !c->have_t ? "no verdict" : "no significant change";
	}
}

int krp_model_disagreement(const char *key, const struct krp_vstats *b, const struct krp_vstats *n,
			   const struct krp_cmp_opts *o, int *plain, int *model, char *line,
			   size_t linesz)
{
	char mkey[KRP_METRIC_NAME_MAX + 1];
	const struct krp_series *pb, *pn, *mb, *mn;
	struct krp_cell pc, mc;

	if (snprintf(mkey, sizeof(mkey), "%s%s", KRP_MODEL_RATE_PREFIX, key) >= (int)sizeof(mkey))
		return 0;
	pb = krp_vstats_find(b, key);
	pn = krp_vstats_find(n, key);
	mb = krp_vstats_find(b, mkey);
	mn = krp_vstats_find(n, mkey);
	if (!pb || !pn || !mb || !mn)
		return 0;
	krp_cmp_cell(key, pb->x, pb->n, pn->x, pn->n, o, &pc);
	krp_cmp_cell(mkey, mb->x, mb->n, mn->x, mn->n, o, &mc);
	*plain = krp_cell_verdict(key, &pc);
	*model = krp_cell_verdict(mkey, &mc);
	/* two rows without a verdict agree: an A/A says nothing here */
	if (*plain == *model)
		return 0;
	snprintf(line, linesz,
		 /* not "KEY: ...": a reader of the summary takes that for the verdict */
		 "plain and model disagree on %s: the plain row says %s (the benchmark's own "
		 "figure%s), the model row %s (the same work in memory-system time); which to "
		 "trust for which change: docs/MEMORY-MODEL.md, \"Plain and model verdicts\"",
		 key, krp_verdict_word(&pc, *plain),
		 o->exact ? ", in exact mode a function of the path length" : "",
		 krp_verdict_word(&mc, *model));
	return 1;
}

int krp_cmp_parse_alpha(const char *arg, double *alpha, char *err, size_t errsz)
{
	char *end;
	double a = strtod(arg, &end);

	if (end == arg || *end || !(a > 0 && a < 1)) {
		snprintf(err, errsz, "--alpha: expected a number in (0, 1), got \"%s\"", arg);
		return -1;
	}
	*alpha = a;
	return 0;
}
