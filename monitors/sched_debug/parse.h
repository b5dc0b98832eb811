/* Host parser of the scheduler's debug file:
 *
 *   sched_debug   sched_debug.<section>.<field>.{avg,min,max,stddev} over
 *                 CPUs per sample, then mean over samples; sections cpu,
 *                 cfs_rq:<path> (root "/"), rt_rq:<path>, dl_rq; and
 *                 sched_debug.sysctl_sched.<field>                   mean
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_SCHED_DEBUG_PARSE_H
#define KREPRO_MONITORS_SCHED_DEBUG_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_sched_debug(const char *buf, size_t len, struct krp_metrics *m);

#endif
