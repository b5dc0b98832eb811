/* UnixBench's host parser, keyed by krp_ub_tests (unixbench_text.h). */
#ifndef KREPRO_SUITES_UNIXBENCH_PARSE_H
#define KREPRO_SUITES_UNIXBENCH_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* UnixBench text lines "<test> <value> <unit> (<secs> secs, <n> samples)"
 * -> <prefix>.<key> with UnixBench's program names: execl, fstime,
 * fstime-r, fstime-w (1024 bufsize 2000 maxblocks), fsbuffer[-r|-w]
 * (256/500), fsdisk[-r|-w] (4096/8000), pipe, syscall, spawn, dc, shell1,
 * shell8, shell16; and <prefix>.index, UnixBench's FINAL SCORE over the
 * index tests present (the geometric mean of result / baseline * 10). */
void krp_parse_unixbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

/* UnixBench test name (e.g. "Execl Throughput") -> metric key
 * ("execl"), or NULL. */
const char *krp_unixbench_key(const char *name, size_t len);

#endif
