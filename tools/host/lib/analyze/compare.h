/* The verdict of a comparison: per-metric Welch test, effect floor, clock mode. */
#ifndef KREPRO_COMPARE_H
#define KREPRO_COMPARE_H
#include <stddef.h>

#include "kstats.h"
#include "results.h"
#include "vstats.h"

struct krp_cmp_opts {
	int all;      /* show every metric present on both sides */
	double alpha; /* Welch two-sided significance level */
	int exact;    /* results of clock: exact (deterministic guests) */
	/* lines printed under the header, as given (--note: how a variant's
	 * series was applied when not strictly, patches/S.apply); added with
	 * krp_cmp_add_note */
	const char *notes[32];
	size_t nnotes;
};

/* krp_cmp_add_note: one more --note line (TEXT is kept, not copied); -1
 * with a message in err when there are already as many as notes[] holds. */
int krp_cmp_add_note(struct krp_cmp_opts *o, const char *text, char *err, size_t errsz);
/* --alpha ARG: a number in (0, 1) into *alpha; -1 with a message in err
 * (the tool prefixes its name) otherwise. */
int krp_cmp_parse_alpha(const char *arg, double *alpha, char *err, size_t errsz);

/* Exact mode: each run is one layout seed (docs/EXACT.md); a comparison
 * is Welch over the seeds at alpha min(alpha, KRP_EXACT_ALPHA), the level
 * the kit's A/A floor is measured at, and a benchmark metric's change
 * counts from KRP_EXACT_MIN_EFFECT % on. */
#define KRP_EXACT_MIN_EFFECT 0.5
#define KRP_EXACT_ALPHA 0.01

/* The mode shared by every variant (krp_variant.clock), or NULL with err
 * when they differ: a comparison never mixes modes. */
const char *krp_cmp_clock(const struct krp_variant *vars, size_t nvars, char *err, size_t errsz);
/* o->exact from krp_cmp_clock; -1 with err when modes are mixed. */
int krp_cmp_set_clock(const struct krp_variant *vars, size_t nvars, struct krp_cmp_opts *o,
		      char *err, size_t errsz);

/* One metric, base vs one new variant. */
struct krp_cell {
	int present;
	size_t nb, nn;
	double mb, mn;	    /* means */
	double sdb, sdn;    /* population stddevs */
	double pct;	    /* 100*(mn-mb)/mb; NAN ("n/a") when mb <= 0 */
	double shown;	    /* pct, or mn-mb for absolute-change keys */
	int have_t;	    /* Welch test computed (both sides >= 2 runs) */
	struct krp_welch w; /* krp_welch(new, base) */
	int significant;
	int exact;    /* exact mode: runs are seeds */
	double alpha; /* the level the verdict was taken at */
	double floor; /* smallest |%change| this comparison can call, NAN if none */
	int too_few;  /* fewer than KRP_VERDICT_MIN_RUNS on a side: no verdict */
};
/* A verdict needs this many runs (seeds in exact mode) on each side. */
#define KRP_VERDICT_MIN_RUNS 3
/* Both sides need >= KRP_VERDICT_MIN_RUNS runs (seeds in exact mode).  Significant when Welch
 * p < alpha, or when neither side varies and the means differ, and |pct|
 * >= 1% (exact mode: KRP_EXACT_MIN_EFFECT; monitors 5%).  Exact mode tests
 * at min(alpha, KRP_EXACT_ALPHA); one seed a side is a number, never a
 * verdict. */
void krp_cmp_cell(const char *name, const double *b, size_t nb, const double *n, size_t nn,
		  const struct krp_cmp_opts *o, struct krp_cell *c);
/* 100 * d / mb, or NAN ("n/a") when the base mean is 0 or negative: no
 * percentage of it means anything. */
double krp_pct_of_base(double d, double mb);

/* Monitor metric (anything not the benchmark's own result, including
 * "<bench>.time.*"). */
int krp_is_monitor(const char *name);
/* Keys whose change is shown as an absolute difference. */
int krp_is_absolute(const char *name);
/* 1 higher is better, -1 lower is better, 0 unknown. */
int krp_direction(const char *name);

/* The headline metric present on both sides (NULL if none). */
const char *krp_headline(const struct krp_vstats *b, const struct krp_vstats *n);

/* A cell's verdict: 1 improvement, -1 regression, 2 a change of unknown
 * direction, 0 none (not significant, or too few runs or seeds). */
int krp_cell_verdict(const char *name, const struct krp_cell *c);
/* Its word: "improvement", "regression", "significant change", "no
 * significant change" or "no verdict" (too few runs). */
const char *krp_verdict_word(const struct krp_cell *c, int verdict);

/* The headline key's plain and model verdicts (key and model.<key>, both
 * on both sides) when they differ: one called and the other not, or both
 * called and not alike.  Never when neither is called (an A/A).  Returns
 * 1 and sets *plain and *model (krp_cell_verdict) and line: one line, no
 * newline, saying so and what each row measures, pointing to the rule in
 * docs/MEMORY-MODEL.md; else 0. */
int krp_model_disagreement(const char *key, const struct krp_vstats *b, const struct krp_vstats *n,
			   const struct krp_cmp_opts *o, int *plain, int *model, char *line,
			   size_t linesz);

#endif
