/* Raw-output parsers (LKP style): each parses a whole buffer (untrusted,
 * may contain NULs) and adds samples to a metric accumulator.  Malformed
 * lines are skipped. */
#ifndef KREPRO_PARSERS_H
#define KREPRO_PARSERS_H
#include <stddef.h>

#include "metrics.h"

/* will-it-scale runtest CSV -> <prefix>.per_process_ops, .per_thread_ops,
 * .workload, .<tasks>.processes[_idle], .<tasks>.threads[_idle],
 * .scalability. */
void krp_parse_will_it_scale(const char *buf, size_t len, const char *prefix,
			     struct krp_metrics *m);

/* /proc/meminfo samples separated by "time:" lines -> meminfo.<Key> (mean),
 * meminfo.Memused (mean of MemTotal - MemFree), meminfo.max_used_kB (mean of
 * the running maximum of Memused, as LKP). */
void krp_parse_meminfo(const char *buf, size_t len, struct krp_metrics *m);

/* /proc/vmstat samples -> proc-vmstat.<name>; event counters last - first,
 * gauges mean. */
void krp_parse_proc_vmstat(const char *buf, size_t len, struct krp_metrics *m);

/* 1 if a proc-vmstat field (without prefix) is a cumulative event counter. */
int krp_vmstat_is_counter(const char *name);

/* GNU "/usr/bin/time -v" output -> <prefix>.time.<field>. */
void krp_parse_time(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

/* Dispatch on a run-directory file name: will-it-scale, meminfo,
 * proc-vmstat, <bench>.time.  Returns 1 if parsed, 0 if the name is not a
 * known raw file. */
int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m);

/* 1 if krp_parse_raw would parse a file of this name. */
int krp_raw_known(const char *filename);

#endif
