/* will-it-scale's host parser. */
#ifndef KREPRO_SUITES_WILL_IT_SCALE_PARSE_H
#define KREPRO_SUITES_WILL_IT_SCALE_PARSE_H
#include <stddef.h>

#include "metrics.h"

/* will-it-scale runtest CSV -> <prefix>.per_process_ops, .per_thread_ops,
 * .workload, .<tasks>.processes[_idle], .<tasks>.threads[_idle],
 * .scalability; a row with a negative operation count refuses the file at
 * its line. */
void krp_parse_will_it_scale(const char *buf, size_t len, const char *prefix,
			     struct krp_metrics *m);

#endif
