/* The report reader's rule for UnixBench (tools/host/lib/input/report_params.h,
 * named by this folder's meta): an email of UnixBench result lines is its
 * test, all of it, the tests it shows named. */
#include <stdio.h>
#include <string.h>

#include "report_params.h"
#include "unixbench_text.h"

krp_report_find krp_report_unixbench_lines;

int krp_report_unixbench_lines(const struct tok *tok, size_t nt, const char *buf, size_t len,
			       struct rtest *out)
{
	size_t pos = 0, found = 0;
	char title[KRP_UB_TITLE_MAX], unit[16], shown[TEXT_MAX] = "";
	double v;
	int secs;

	(void)tok, (void)nt;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - buf - pos) : len - pos;

		if (krp_ub_parse_line(buf + pos, n, title, &v, unit, sizeof(unit), &secs) == 0 &&
		    krp_ub_by_title(title)) {
			const char *key = krp_ub_by_title(title)->key;

			found++;
			if (!strstr(shown, key) &&
			    strlen(shown) + strlen(key) + 3 < sizeof(shown)) {
				strcat(shown, shown[0] ? ", " : "");
				strcat(shown, key);
			}
		}
		pos += n + 1;
	}
	if (found < 3)
		return 0;
	strcpy(out->testcase, "unixbench");
	rr_add_param(out, "test", 4, "all", 3);
	snprintf(out->comment, sizeof(out->comment), "UnixBench tests in the report: %s", shown);
	return 1;
}
