/* Host parsers of the meminfo family:
 *
 *   meminfo       meminfo.<Key> (mean), meminfo.Memused (mean of MemTotal -
 *                 MemFree), meminfo.max_used_kB (mean of the running maximum
 *                 of Memused, as LKP)
 *   numa-meminfo  numa-meminfo.node<N>.<Field>                       mean
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_MEMINFO_PARSE_H
#define KREPRO_MONITORS_MEMINFO_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_meminfo(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_numa_meminfo(const char *buf, size_t len, struct krp_metrics *m);

#endif
