/* Parsers of the krepro-monitor and krepro-perf raw files (LKP formats,
 * samples separated by "time:" lines).  Each parses a whole untrusted
 * buffer and adds samples to a metric accumulator; malformed lines are
 * skipped.  Reduction per metric (0-day's rules): event counters last -
 * first (KRP_DELTA), gauges mean over samples (KRP_MEAN).
 *
 *   numa-meminfo  numa-meminfo.node<N>.<Field>                       mean
 *   numa-vmstat   numa-vmstat.node<N>.<name>        counters delta, gauges mean
 *   vmstat        vmstat.{procs.r,procs.b,memory.swpd,memory.free,memory.buff,
 *                 memory.cache,swap.si,swap.so,io.bi,io.bo,system.in,
 *                 system.cs,cpu.us,cpu.sy,cpu.id,cpu.wa,cpu.st}      mean
 *   mpstat        mpstat.cpu.all.<state>%                            mean
 *   slabinfo      slabinfo.<cache>.{active_objs,num_objs,active_slabs,
 *                 num_slabs}                                          mean
 *   softirqs      softirqs.<TYPE> (all CPUs), softirqs.CPU<n>.<TYPE> delta
 *   interrupts    interrupts.<irq>:<desc> (all CPUs),
 *                 interrupts.CPU<n>.<irq>:<desc>                      delta
 *                 (<desc>: numbered IRQs "IO-APIC.2-edge.timer", named
 *                 ones "Local_timer_interrupts")
 *   cpuidle       cpuidle.<state>.{time,usage} summed over CPUs       delta
 *   uptime        uptime.boot, uptime.idle: the last sample (seconds)
 *   sched_debug   sched_debug.<section>.<field>.{avg,min,max,stddev} over
 *                 CPUs per sample, then mean over samples; sections cpu,
 *                 cfs_rq:<path> (root "/"), rt_rq:<path>, dl_rq; and
 *                 sched_debug.sysctl_sched.<field>                   mean
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
 *                 suffixes stripped. */
#ifndef KREPRO_PARSE_MONITORS_H
#define KREPRO_PARSE_MONITORS_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_numa_meminfo(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_numa_vmstat(const char *buf, size_t len, struct krp_metrics *m);
/* "key: value" samples -> <prefix>.<key>, mean (vmstat, mpstat). */
void krp_parse_kv_mean(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);
void krp_parse_slabinfo(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_softirqs(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_interrupts(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_cpuidle(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_uptime(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_sched_debug(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_perf_stat(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_perf_profile(const char *buf, size_t len, struct krp_metrics *m);

/* Symbol without compiler clone suffixes: "foo.isra.0" -> "foo" (in place). */
void krp_strip_sym_suffix(char *sym);

/* 1 if filename is one of the monitor raw files above. */
int krp_monitor_known(const char *filename);

/* Parses a monitor raw file by name; 1 if parsed, 0 if not a monitor. */
int krp_parse_monitor(const char *filename, const char *buf, size_t len, struct krp_metrics *m);

#endif
