/* libFuzzer target: the benchmark-suite parsers (suites/<name>/parse.c),
 * every one the raw-file table has (their meta files' "parser" lines). */
#include <stdint.h>
#include <stdlib.h>

#include "metrics.h"
#include "parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_metrics m;
	enum krp_raw_owner owner;
	size_t i;

	krp_metrics_init(&m);
	for (i = 0; i < krp_raw_count(); i++) {
		const char *file = krp_raw_name(i, &owner);

		if (owner == KRP_RAW_SUITE &&
		    krp_parse_raw(file, (const char *)data, size, &m) != 1)
			abort();
	}
	(void)krp_unixbench_key((const char *)data, size);
	/* A refusal names a line of the input and says why. */
	if (m.bad_line) {
		size_t lines = 1;

		for (i = 0; i < size; i++)
			lines += data[i] == '\n';
		if (m.bad_line > lines || !m.bad_why)
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
