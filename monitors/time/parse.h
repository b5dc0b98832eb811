/* Host parser of krepro-time's rusage file, <bench>.time. */
#ifndef KREPRO_MONITORS_TIME_PARSE_H
#define KREPRO_MONITORS_TIME_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* GNU "/usr/bin/time -v" output -> <prefix>.time.<field>. */
void krp_parse_time(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);

#endif
