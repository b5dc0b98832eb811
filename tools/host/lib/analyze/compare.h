/* 0-day style comparison of variant result directories (lkp compare). */
#ifndef KREPRO_COMPARE_H
#define KREPRO_COMPARE_H
#include <stddef.h>

#include "kstats.h"
#include "results.h"
#include "util.h"

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

/* Failure metrics: "last_state.*", "dmesg.*", "kmsg.*", 0/1 per run.  They
 * get "fail:runs" / "%reproduction" rows instead of means. */
int krp_is_failure(const char *name);
/* A run whose stats.json has "last_state.failed" nonzero: excluded from the
 * performance statistics, counted in fail:runs. */
int krp_run_failed(const struct krp_run *r);
size_t krp_variant_nfailed(const struct krp_variant *v);
/* fail = sum over all runs of (value of key != 0), missing counts 0;
 * runs = all runs. */
void krp_fail_count(const struct krp_variant *v, const char *key, size_t *fail, size_t *runs);
/* Sorted union of the failure metric names of every run of every variant
 * (caller frees the names and the array). */
char **krp_failure_keys(const struct krp_variant *vars, size_t nvars, size_t *count);
/* %reproduction = 100 * (fail_n/runs_n - fail_b/runs_b). */
double krp_reproduction(size_t fail_b, size_t runs_b, size_t fail_n, size_t runs_n);

/* Per-metric values of a variant over its runs (missing values skipped). */
struct krp_series {
	char *name;
	double *x;
	size_t n, cap;
};
struct krp_vstats {
	struct krp_series *s;
	size_t n, cap;
	struct krp_index ix;
};
/* Performance metrics only: failed runs and failure metrics are skipped. */
void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs);
const struct krp_series *krp_vstats_find(const struct krp_vstats *vs, const char *name);
void krp_vstats_free(struct krp_vstats *vs);

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
};
/* Both sides need >= 3 runs (seeds in exact mode).  Significant when Welch
 * p < alpha, or when neither side varies and the means differ, and |pct|
 * >= 1% (exact mode: KRP_EXACT_MIN_EFFECT; monitors 5%).  Exact mode tests
 * at min(alpha, KRP_EXACT_ALPHA); one seed a side is a number, never a
 * verdict. */
void krp_cmp_cell(const char *name, const double *b, size_t nb, const double *n, size_t nn,
		  const struct krp_cmp_opts *o, struct krp_cell *c);

/* Exact mode: "NOT DETERMINISTIC" lines for runs that did not repeat their
 * digits: a run marked when booted again with its seed (krp_run.nondet),
 * and benchmark metrics (not monitors) that differ between two runs of one
 * variant with the same seed (or without seeds, made before them).
 * Returns the number of lines. */
size_t krp_put_nondeterminism(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);

/* Real mode: "HOST CONTENTION" lines naming the runs taken while the host's
 * CPUs were contended (krp_run.contended) and their CPU pressure.  Returns
 * the number of runs named. */
size_t krp_put_contention(struct krp_buf *out, const struct krp_variant *vars, size_t nvars);

/* Monitor metric (anything not the benchmark's own result, including
 * "<bench>.time.*"). */
int krp_is_monitor(const char *name);
/* Keys whose change is shown as an absolute difference. */
int krp_is_absolute(const char *name);
/* 1 higher is better, -1 lower is better, 0 unknown. */
int krp_direction(const char *name);

/* "%stddev" column: " ±%3d%%" when 100*sd/mean > 2, else 6 spaces. */
void krp_fmt_stddev(char *out, size_t outsz, double mean, double sd, size_t n);

/* The headline metric present on both sides (NULL if none). */
const char *krp_headline(const struct krp_vstats *b, const struct krp_vstats *n);

/* gnuplot "dumb"-like 80x20 character plot of per-run samples: x = sample
 * index 1..max(nb, nn), base samples '*', new samples 'O' (drawn last), y
 * labels on the left, title above, legend "[*] <bname> sample" and
 * "[O] <nname> sample" below. */
#define KRP_PLOT_W 80
#define KRP_PLOT_H 20
/* A plot's y-axis label: v in %g at the most digits that fit width. */
void krp_plot_label(char *out, size_t outsz, double v, int width);

void krp_ascii_plot(struct krp_buf *out, const char *title, const double *b, size_t nb,
		    const char *bname, const double *n, size_t nn, const char *nname);

/* krp_ascii_plot of the headline metric, base against each new variant. */
void krp_compare_plots(const struct krp_variant *vars, size_t nvars, struct krp_buf *out);

/* Exports of every compared metric (present on both sides; failure
 * metrics present on either side), per new variant.  JSON: an object
 * {"base", "variants": [{name, runs, failed_runs}], "metrics": [...]}; CSV:
 * one header line and one line per (metric, new variant). */
void krp_compare_json(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		      struct krp_buf *out);
void krp_compare_csv(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     struct krp_buf *out);

/* The whole report (runs line, table, summary).  vars[0] is the base. */
void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out);

#endif
