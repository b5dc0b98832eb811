/* libFuzzer target: every monitor raw-file parser on the same input. */
#include <stdint.h>
#include <stdlib.h>

#include "metrics.h"
#include "parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
	    "numa-meminfo", "numa-vmstat", "vmstat", "mpstat",	    "slabinfo",	 "softirqs",
	    "interrupts",   "cpuidle",	   "uptime", "sched_debug", "perf-stat", "perf-profile"};
	struct krp_metrics m;
	size_t i;

	krp_metrics_init(&m);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (krp_parse_raw(files[i], (const char *)data, size, &m) != 1)
			abort();
	}
	for (i = 0; i < m.n; i++) {
		if (!krp_metric_name_ok(m.v[i].name))
			abort();
		(void)krp_metric_value(&m.v[i]);
	}
	krp_metrics_free(&m);
	return 0;
}
