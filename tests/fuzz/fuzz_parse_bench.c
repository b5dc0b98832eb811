/* libFuzzer target: the benchmark-suite parsers (suites/<name>/parse.c),
 * directly and through the raw-file dispatch, on the same input. */
#include <stdint.h>
#include <stdlib.h>

#include "metrics.h"
#include "parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *file;
		void (*parse)(const char *, size_t, const char *, struct krp_metrics *);
	} files[] = {{"vm-scalability", krp_parse_vm_scalability},
		     {"unixbench", krp_parse_unixbench},
		     {"autonuma-benchmark", krp_parse_autonuma},
		     {"specjbb", krp_parse_specjbb},
		     {"hackbench", krp_parse_hackbench}};
	struct krp_metrics m;
	size_t i;

	krp_metrics_init(&m);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		files[i].parse((const char *)data, size, files[i].file, &m);
		if (krp_parse_raw(files[i].file, (const char *)data, size, &m) != 1)
			abort();
	}
	(void)krp_unixbench_key((const char *)data, size);
	for (i = 0; i < m.n; i++) {
		if (!krp_metric_name_ok(m.v[i].name))
			abort();
		(void)krp_metric_value(&m.v[i]);
	}
	krp_metrics_free(&m);
	return 0;
}
