/* Host parsers of the vmstat family:
 *
 *   proc-vmstat   proc-vmstat.<name>                counters delta, gauges mean
 *   numa-vmstat   numa-vmstat.node<N>.<name>        counters delta, gauges mean
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_PROC_VMSTAT_PARSE_H
#define KREPRO_MONITORS_PROC_VMSTAT_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_proc_vmstat(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_numa_vmstat(const char *buf, size_t len, struct krp_metrics *m);

/* 1 if a proc-vmstat field (without prefix) is a cumulative event counter. */
int krp_vmstat_is_counter(const char *name);

#endif
