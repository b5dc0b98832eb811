/* hackbench's host parser. */
#ifndef KREPRO_SUITES_HACKBENCH_PARSE_H
#define KREPRO_SUITES_HACKBENCH_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* hackbench's rounds ("(== T tasks)", "Each sender will pass L messages of
 * S bytes", "Time: X") -> <prefix>.throughput (KB/s over the best round, as
 * lkp-tests: ((T * L * S) >> 10) / best time), .throughput_best,
 * .throughput_avg (over the mean time, to 2 decimals), .throughput_worst. */
void krp_parse_hackbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
