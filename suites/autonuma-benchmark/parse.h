/* autonuma-benchmark's host parser. */
#ifndef KREPRO_SUITES_AUTONUMA_BENCHMARK_PARSE_H
#define KREPRO_SUITES_AUTONUMA_BENCHMARK_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* autonuma-benchmark "test: T" and "elapsed: S" -> <prefix>.<T>.seconds. */
void krp_parse_autonuma(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
