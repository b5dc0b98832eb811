/* Host parser of the memory model's report (the kit's QEMU plugin,
 * docs/MEMORY-MODEL.md; its format: tools/common/model_format.h):
 *
 *   memory-model  model-stat.<metric> summed over vCPUs, and .user and
 *                 .kernel (cache-references, cache-misses, node-loads,
 *                 node-load-misses, node-stores, node-store-misses,
 *                 cpu-cycles, instructions, coherence-transfers, loads,
 *                 stores, l1d-misses, l2-misses, stall-cycles);
 *                 model-stat.{ipc,cpi} (and .user, .kernel),
 *                 model-stat.{cache-miss-rate%,node-load-miss-rate%,
 *                 node-store-miss-rate%}, model-stat.windows,
 *                 model-stat.seconds (the busiest vCPU's cycles at the
 *                 model's clock); model-profile.cycles.<function> (the
 *                 stall cycles of the function's instructions, % of all
 *                 model cycles), .cache-misses.<function> (% of all LLC
 *                 misses), .coherence-transfers.<function> (% of all),
 *                 as perf-profile's rows: clone suffixes stripped, rows
 *                 under 0.05% left out; <function> is the kernel
 *                 function (the plugin's ksyms=), 0x<pc> when the report
 *                 is unsymbolised, [unknown], [other] (PCs past the
 *                 plugin's table); [user] and [kernel], the split by
 *                 mode, from every access
 *
 * A report that does not start with its header line or is not closed by
 * its "end" line (cut short) gives no metrics; a line that does not read
 * as the format says is skipped. */
#ifndef KREPRO_MONITORS_MEMORY_MODEL_PARSE_H
#define KREPRO_MONITORS_MEMORY_MODEL_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_memory_model(const char *buf, size_t len, struct krp_metrics *m);

#endif
