/* autonuma-benchmark: seconds per test (see parse.h). */
#include "parse.h"

#include <string.h>

#include "textline.h"

void krp_parse_autonuma(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	char key[80];
	struct krp_line l, test = {NULL, 0};
	size_t pos = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		double v;

		krp_trim(&l);
		if (krp_line_eat(&l, "test:")) {
			krp_trim(&l);
			test = l;
			continue;
		}
		if (test.n == 0 || test.n > 64 || krp_line_key_value(&l, "elapsed", &v) != 0)
			continue;
		memcpy(key, test.p, test.n);
		memcpy(key + test.n, ".seconds", 9);
		krp_metric_add2(m, prefix, key, strlen(key), v, KRP_SET);
	}
}
