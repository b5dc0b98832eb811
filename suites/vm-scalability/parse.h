/* vm-scalability's host parser. */
#ifndef KREPRO_SUITES_VM_SCALABILITY_PARSE_H
#define KREPRO_SUITES_VM_SCALABILITY_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* vm-scalability (usemem output, "./case-<name>" lines start a sample) ->
 * <prefix>.throughput (mean over samples of the summed per-task KB/s),
 * .stddev (percent), .median (mean of per-sample median KB/s), .free_time
 * (mean seconds to free), .workload (total bytes / 1024). */
void krp_parse_vm_scalability(const char *buf, size_t len, const char *prefix,
			      struct krp_metrics *m);

#endif
