/* Host parser of /proc/slabinfo:
 *
 *   slabinfo      slabinfo.<cache>.{active_objs,num_objs,active_slabs,
 *                 num_slabs}                                          mean
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_SLABINFO_PARSE_H
#define KREPRO_MONITORS_SLABINFO_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_slabinfo(const char *buf, size_t len, struct krp_metrics *m);

#endif
