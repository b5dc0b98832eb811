/* Host parser of the guest's summaries of /proc/stat and /proc/vmstat:
 *
 *   vmstat        vmstat.{procs.r,procs.b,memory.swpd,memory.free,memory.buff,
 *                 memory.cache,swap.si,swap.so,io.bi,io.bo,system.in,
 *                 system.cs,cpu.us,cpu.sy,cpu.id,cpu.wa,cpu.st}      mean
 *   mpstat        mpstat.cpu.all.<state>%                            mean
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_STAT_PARSE_H
#define KREPRO_MONITORS_STAT_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* "key: value" samples -> <prefix>.<key>, mean (vmstat, mpstat). */
void krp_parse_kv_mean(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
