/* Host parser of /proc/buddyinfo samples:
 *
 *   buddyinfo     buddyinfo.Node.<N>.zone.<zone>.<order>: free blocks of
 *                 2^order pages, the mean of the samples (a gauge)
 *
 * A sample is "Node N, zone ZONE c0 c1 ... c10" lines after its time line;
 * a line that does not read so is skipped.
 */
#ifndef KREPRO_MONITORS_BUDDYINFO_PARSE_H
#define KREPRO_MONITORS_BUDDYINFO_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_buddyinfo(const char *buf, size_t len, struct krp_metrics *m);

#endif
