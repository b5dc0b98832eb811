/* The 0-day comparison as text: runs line, warnings, notes, table, summaries. */
#ifndef KREPRO_COMPARE_TABLE_H
#define KREPRO_COMPARE_TABLE_H
#include <stddef.h>

#include "compare.h"
#include "util.h"

/* "%stddev" column: " ±%3d%%" when 100*sd/mean > 2, else 6 spaces. */
void krp_fmt_stddev(char *out, size_t outsz, double mean, double sd, size_t n);

/* The whole report (runs line, table, summary).  vars[0] is the base. */
void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out);

#endif
