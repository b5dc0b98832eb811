/* Host parsers of krepro-perf's files:
 *
 *   perf-stat     perf-stat.<event> (count over the run: last - first of
 *                 the cumulative totals), perf-stat.ps.<event> (per second),
 *                 perf-stat.ipc, .cpi, .cache-miss-rate%,
 *                 .branch-miss-rate% when the hardware events exist;
 *                 "<not supported>" events give no metric
 *   perf-profile  perf-profile.self.cycles-pp.<sym>,
 *                 perf-profile.children.cycles-pp.<sym>,
 *                 perf-profile.calltrace.cycles-pp.<f1>.<f2>... (at most 5
 *                 frames, leaf first): percent of all samples, entries
 *                 below 0.05% left out; .isra.N/.constprop.N/.part.N/.cold
 *                 suffixes stripped */
#ifndef KREPRO_MONITORS_PERF_PARSE_H
#define KREPRO_MONITORS_PERF_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_perf_stat(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_perf_profile(const char *buf, size_t len, struct krp_metrics *m);

#endif
