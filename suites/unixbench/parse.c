/* unixbench: UnixBench's result lines.  Keys are UnixBench's own program
 * names (pgms/index.base), the names krepro-index looks up: one table,
 * krp_ub_tests (unixbench_text.h) (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "textline.h"
#include "unixbench_text.h"

const char *krp_unixbench_key(const char *name, size_t len)
{
	for (size_t i = 0; i < krp_ub_ntests; i++)
		if (strlen(krp_ub_tests[i].title) == len &&
		    memcmp(krp_ub_tests[i].title, name, len) == 0)
			return krp_ub_tests[i].key;
	return NULL;
}

/* krp_ub_tests' rows (30 now) */
#define KRP_UB_MAX_TESTS 64

/* "(1.0 secs, 1 samples)": UnixBench 4's form (krp_ub_parse_line) */
static int ub_says_secs(const struct krp_line *tail)
{
	for (size_t i = 0; i + 6 <= tail->n; i++)
		if (memcmp(tail->p + i, " secs,", 6) == 0)
			return 1;
	return 0;
}

static int ub_unit_ok(const struct krp_line *u)
{
	static const char *const units[] = {"lps", "lpm", "KBps", "MWIPS"};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (u->n == strlen(units[i]) && memcmp(u->p, units[i], u->n) == 0)
			return 1;
	return 0;
}

void krp_parse_unixbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	struct krp_line l;
	size_t pos = 0, nused = 0;
	double idx_log[KRP_UB_MAX_TESTS];
	char have[KRP_UB_MAX_TESTS] = {0};
	int secs = 0;
	double sum = 0;
	char name[KRP_METRIC_NAME_MAX + 1];

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		for (size_t i = 0; i < krp_ub_ntests && i < KRP_UB_MAX_TESTS; i++) {
			struct krp_line r = l, unit;
			double v;

			if (!krp_line_eat(&r, krp_ub_tests[i].title) || r.n == 0 ||
			    !krp_is_space(r.p[0]))
				continue;
			krp_line_skip_space(&r);
			if (krp_line_eat_number(&r, &v) != 0 || r.n == 0 || !krp_is_space(r.p[0]))
				continue;
			krp_line_skip_space(&r);
			unit.p = r.p;
			unit.n = 0;
			while (unit.n < r.n && !krp_is_space(r.p[unit.n]))
				unit.n++;
			r.p += unit.n;
			r.n -= unit.n;
			krp_line_skip_space(&r);
			if (!ub_unit_ok(&unit) || r.n == 0 || r.p[0] != '(')
				continue;
			krp_metric_add2(m, prefix, krp_ub_tests[i].key, strlen(krp_ub_tests[i].key),
					v, KRP_SET);
			secs |= ub_says_secs(&r);
			if (krp_ub_tests[i].baseline > 0 && v > 0) {
				idx_log[i] = log(v / krp_ub_tests[i].baseline * 10);
				have[i] = 1;
			}
			break;
		}
	}
	/* UnixBench's FINAL SCORE of the index tests run: the geometric mean
	 * of result / baseline * 10 (analyze/unixbench.h), the suite's
	 * headline */
	for (size_t i = 0; i < krp_ub_ntests && i < KRP_UB_MAX_TESTS; i++) {
		/* UnixBench 4's set ("secs"; the kit's guest prints it) has no
		 * shell1, as krepro-index reads the same text */
		if (!have[i] || (secs && krp_ub_tests[i].since5))
			continue;
		sum += idx_log[i];
		nused++;
	}
	if (nused && snprintf(name, sizeof(name), "%s.index", prefix) < (int)sizeof(name))
		krp_metric_add(m, name, exp(sum / (double)nused), KRP_SET);
}
