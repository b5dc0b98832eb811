/* report.html: one self-contained file (inline CSS and SVG, no scripts, no
 * network): the comparison as text and as a table, per-metric SVG charts of
 * the samples by variant, and optionally a pivot as text and heat map. */
#ifndef KREPRO_HTML_H
#define KREPRO_HTML_H
#include <stddef.h>

#include "compare.h"
#include "pivot.h"
#include "util.h"

/* HTML-escape s (& < > " ') into out. */
void krp_html_escape(struct krp_buf *out, const char *s);

/* Heat-map colour of v in [lo, hi]: "#rrggbb" from light to dark blue. */
void krp_html_heat(char *out, size_t outsz, double v, double lo, double hi);

/* Optional pivot: the table and its base value (NULL: first value). */
struct krp_html_pivot {
	const struct krp_pivot *p;
	const char *metric;
	const char *base;
};

/* At most this many metric charts (the headline first). */
#define KRP_HTML_MAX_CHARTS 40

/* vars[0] is the base.  The shown metrics are those of the text table:
 * significant in some new variant, or all with o->all; the headline
 * always. */
void krp_html_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     const struct krp_html_pivot *pv, struct krp_buf *out);

#endif
