/* Host parser of the CPUs' idle states:
 *
 *   cpuidle       cpuidle.<state>.{time,usage} summed over CPUs       delta
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_CPUIDLE_PARSE_H
#define KREPRO_MONITORS_CPUIDLE_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_cpuidle(const char *buf, size_t len, struct krp_metrics *m);

#endif
