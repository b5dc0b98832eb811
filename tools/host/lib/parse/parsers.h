/* The raw files of a run directory and their parsers: one table (parsers.c)
 * from a file name to the parser of the suite (suites/<name>/parse.h) or
 * monitor (monitors/<name>/parse.h) that wrote it.  Parsers read a whole
 * untrusted buffer (may contain NULs), skip malformed lines and add samples
 * to a metric accumulator. */
#ifndef KREPRO_PARSERS_H
#define KREPRO_PARSERS_H
#include <stddef.h>

#include "metrics.h"

#include "autonuma-benchmark/parse.h"
#include "cpuidle/parse.h"
#include "hackbench/parse.h"
#include "interrupts/parse.h"
#include "meminfo/parse.h"
#include "perf/parse.h"
#include "proc-vmstat/parse.h"
#include "sched_debug/parse.h"
#include "slabinfo/parse.h"
#include "specjbb/parse.h"
#include "stat/parse.h"
#include "time/parse.h"
#include "unixbench/parse.h"
#include "uptime/parse.h"
#include "vm-scalability/parse.h"
#include "will-it-scale/parse.h"

/* Parses a run-directory file by its name: a benchmark's output, a
 * monitor's, kmsg or <bench>.time.  Returns 1 if parsed, 0 if the name is
 * not a known raw file. */
int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m);

/* 1 if krp_parse_raw would parse a file of this name. */
int krp_raw_known(const char *filename);

#endif
