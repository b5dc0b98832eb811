/* specjbb's host parser. */
#ifndef KREPRO_SUITES_SPECJBB_PARSE_H
#define KREPRO_SUITES_SPECJBB_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* specjbb "warehouses: W" and "bops: B" -> <prefix>.bops,
 * .bops_per_warehouse; a negative B refuses the file at its line. */
void krp_parse_specjbb(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
