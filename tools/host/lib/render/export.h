/* JSON and CSV exports of every compared metric, for other programs to read. */
#ifndef KREPRO_EXPORT_H
#define KREPRO_EXPORT_H
#include <stddef.h>

#include "compare.h"
#include "util.h"

/* Every compared metric (present on both sides; failure metrics present on
 * either side), per new variant.  JSON: an object {"base", "variants":
 * [{name, runs, failed_runs}], "metrics": [...], "disagreements": [{new,
 * metric, model_metric, plain_verdict, model_verdict, text}]} (the last:
 * the summary's line where the headline's plain and model verdicts differ,
 * verdicts as krp_cell_verdict: 1 improvement, -1 regression, 0 none);
 * CSV: one header line and one line per (metric, new variant). */
void krp_compare_json(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		      struct krp_buf *out);
void krp_compare_csv(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     struct krp_buf *out);

#endif
