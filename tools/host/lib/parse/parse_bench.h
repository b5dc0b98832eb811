/* Raw-output parsers of the benchmark suites (vm-scalability, unixbench,
 * autonuma-benchmark, specjbb).  Each parses a whole buffer (untrusted,
 * may contain NULs) into metrics "<prefix>.<key>"; malformed lines are
 * skipped.  Registered in krp_parse_raw() (parsers.c). */
#ifndef KREPRO_PARSE_BENCH_H
#define KREPRO_PARSE_BENCH_H
#include <stddef.h>

#include "metrics.h"

/* vm-scalability (usemem output, "./case-<name>" lines start a sample) ->
 * .throughput (mean over samples of the summed per-task KB/s), .stddev
 * (percent), .median (mean of per-sample median KB/s), .free_time (mean
 * seconds to free), .workload (total bytes / 1024). */
void krp_parse_vm_scalability(const char *buf, size_t len, const char *prefix,
			      struct krp_metrics *m);

/* UnixBench text lines "<test> <value> <unit> (<secs> secs, <n> samples)"
 * -> .<key> with UnixBench's program names: execl, fstime, fstime-r,
 * fstime-w (1024 bufsize 2000 maxblocks), fsbuffer[-r|-w] (256/500),
 * fsdisk[-r|-w] (4096/8000), pipe, syscall, spawn, dc, shell1, shell8,
 * shell16. */
void krp_parse_unixbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

/* autonuma-benchmark "test: T" and "elapsed: S" -> .<T>.seconds. */
void krp_parse_autonuma(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

/* specjbb "warehouses: W" and "bops: B" -> .bops, .bops_per_warehouse. */
void krp_parse_specjbb(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

/* UnixBench test name (e.g. "Execl Throughput") -> metric key
 * ("execl"), or NULL. */
const char *krp_unixbench_key(const char *name, size_t len);

/* Dispatch on a run-directory file name (vm-scalability, unixbench,
 * autonuma-benchmark, specjbb).  Returns 1 if parsed, 0 if not ours. */
int krp_parse_bench(const char *filename, const char *buf, size_t len, struct krp_metrics *m);

/* 1 if krp_parse_bench would parse a file of this name. */
int krp_bench_known(const char *filename);

#endif
