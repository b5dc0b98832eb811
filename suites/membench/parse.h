/* membench's host parser. */
#ifndef KREPRO_SUITES_MEMBENCH_PARSE_H
#define KREPRO_SUITES_MEMBENCH_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* membench's "key: value" lines (after a "test: NAME" line; "ops" a count
 * of at least 1, "seconds" above 0) -> <prefix>.ops, .seconds,
 * .ops_per_sec (ops / seconds, the headline), .ns_per_op, and, where
 * printed and between 0 and 100, .local_pages_pct and
 * .local_pages_pct_before.  Nothing without a test, ops and seconds. */
void krp_parse_membench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
