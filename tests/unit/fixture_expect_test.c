/* A folder's own parser test: every suites/<name>/fixtures/FILE.expect and
 * monitors/<name>/fixtures/FILE.expect lists, one "metric value" a line,
 * exactly the metrics the raw-file parser of FILE makes from fixtures/FILE
 * and their values.  A new suite or monitor tests its parser by adding
 * such a pair to its folder, with no edit here.  Run from the checkout. */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "parsers.h"
#include "unit.h"
#include "util.h"

/* The fixture's metrics against its .expect file. */
static void check_expect(const char *expect)
{
	char fixture[512], err[KRP_ERR_MAX], *data = NULL, *want = NULL, *save = NULL, *line;
	const char *file;
	size_t len = 0, wlen = 0, listed = 0;
	struct krp_metrics m;

	snprintf(fixture, sizeof(fixture), "%.*s", (int)(strlen(expect) - 7), expect);
	file = strrchr(fixture, '/') + 1;
	krp_metrics_init(&m);
	CHECK(fixture, krp_read_file(fixture, 64u << 20, &data, &len, err, sizeof(err)) == 0 &&
			   krp_read_file(expect, 1u << 20, &want, &wlen, err, sizeof(err)) == 0 &&
			   krp_parse_raw(file, data, len, &m) == 1);
	for (line = want ? strtok_r(want, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[256], what[600];
		double v, got = NAN;

		if (line[0] == '#')
			continue;
		snprintf(what, sizeof(what), "%s: %s", expect, line);
		if (sscanf(line, "%255s %lf", name, &v) != 2) {
			CHECK(what, !"a line \"metric value\"");
			continue;
		}
		listed++;
		CHECK_NEAR(what, krp_metrics_get(&m, name, &got) == 0 ? got : NAN, v,
			   1e-9 * (fabs(v) + 1));
	}
	{
		char what[600];

		snprintf(what, sizeof(what), "%s: lists all %zu metrics the parser made", expect,
			 m.n);
		CHECK(what, listed == m.n);
	}
	krp_metrics_free(&m);
	free(data);
	free(want);
}

int main(void)
{
	glob_t g;
	size_t n = 0;

	if (glob("suites/*/fixtures/*.expect", 0, NULL, &g) == 0)
		n = g.gl_pathc;
	if (glob("monitors/*/fixtures/*.expect", n ? GLOB_APPEND : 0, NULL, &g) == 0)
		n = g.gl_pathc;
	CHECK("fixture .expect files found", n > 0);
	for (size_t i = 0; i < n; i++)
		check_expect(g.gl_pathv[i]);
	if (n)
		globfree(&g);
	UNIT_EXIT();
}
