/* The summary lines under the 0-day table (see compare_summary.h). */
#include "compare_summary.h"

#include <math.h>
#include <stdio.h>

#include "meaning.h"
#include "metrics.h"

/* One metric's summary line: its change, interval, test and verdict. */
static void summary_line(struct krp_buf *out, const char *key, const struct krp_vstats *b,
			 const struct krp_vstats *n, const struct krp_cmp_opts *o, int contended)
{
	const struct krp_series *sb, *sn;
	struct krp_cell c;
	char pct[64], lo[64], hi[64], pv[32], runs[64], fl[64], why[128];
	const char *verdict;

	sb = krp_vstats_find(b, key);
	sn = krp_vstats_find(n, key);
	krp_cmp_cell(key, sb->x, sb->n, sn->x, sn->n, o, &c);
	krp_fmt_change(pct, sizeof(pct), c.pct, 1);
	if (c.too_few) {
		/* not "no significant change": too few runs to call one */
		snprintf(why, sizeof(why), "no verdict: %zu vs %zu %s, a verdict needs %d a side",
			 c.nb, c.nn, c.exact ? "seeds" : "runs", KRP_VERDICT_MIN_RUNS);
		verdict = why;
	} else if (!c.significant) {
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
	krp_fmt_change(lo, sizeof(lo), krp_pct_of_base(c.w.diff - half, c.mb), 1);
	krp_fmt_change(hi, sizeof(hi), krp_pct_of_base(c.w.diff + half, c.mb), 1);
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

void krp_compare_summary(struct krp_buf *out, const char *bname, const char *nname,
			 const struct krp_vstats *b, const struct krp_vstats *n,
			 const struct krp_cmp_opts *o, int contended)
{
	const char *key = krp_headline(b, n);
	char model[KRP_METRIC_NAME_MAX + 1];

	krp_buf_printf(out, "summary (%s vs %s):\n", nname, bname);
	if (!key) {
		krp_buf_puts(out, "no benchmark metric present on both sides\n");
		return;
	}
	summary_line(out, key, b, n, o, contended);
	/* the memory model's time beside the guest's (analyze/model_rate.h):
	 * the two may disagree, and the reader sees both */
	if (snprintf(model, sizeof(model), "%s%s", KRP_MODEL_RATE_PREFIX, key) <
		(int)sizeof(model) &&
	    krp_vstats_find(b, model) && krp_vstats_find(n, model)) {
		char line[1024];
		int pv, mv;

		summary_line(out, model, b, n, o, contended);
		if (krp_model_disagreement(key, b, n, o, &pv, &mv, line, sizeof(line)))
			krp_buf_printf(out, "%s\n", line);
	}
}
