/* The raw files of a run directory and their parsers: one table from a file
 * name to the parser of the suite (suites/<name>/parse.h) or monitor
 * (monitors/<name>/parse.h) that wrote it, generated from the "parser"
 * lines of their meta files (raw_files.def).  Parsers read a whole
 * untrusted buffer (may contain NULs), skip malformed lines and add samples
 * to a metric accumulator; a well-formed line no real run writes (a
 * negative rate) refuses the file (krp_metrics_refuse). */
#ifndef KREPRO_PARSERS_H
#define KREPRO_PARSERS_H
#include <stddef.h>

#include "metrics.h"

/* Every suite's and monitor's parse.h (generated from the folders). */
#include "parse_headers.h"

/* Parses a run-directory file by its name: a benchmark's output, a
 * monitor's, kmsg or <bench>.time.  Returns 1 if parsed, 0 if the name is
 * not a known raw file. */
int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m);

/* 1 if krp_parse_raw would parse a file of this name. */
int krp_raw_known(const char *filename);

/* The table's files, for whoever must visit them all (fuzz targets):
 * krp_raw_count of them; the i-th's name, and whether a suite wrote it. */
enum krp_raw_owner { KRP_RAW_SUITE, KRP_RAW_MONITOR };
size_t krp_raw_count(void);
const char *krp_raw_name(size_t i, enum krp_raw_owner *owner);

#endif
