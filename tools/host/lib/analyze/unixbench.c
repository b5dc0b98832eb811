/* UnixBench index (see unixbench.h). */
#include "unixbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double krp_ub_index(double result, double baseline)
{
	return result / baseline * 10.0;
}

double krp_ub_geomean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return 0;
		s += log(x[i]);
	}
	return exp(s / (double)n);
}

struct idx_row {
	const struct krp_ub_test *t;
	double value;
};

static int cmp_title(const void *a, const void *b)
{
	return strcmp(((const struct idx_row *)a)->t->title, ((const struct idx_row *)b)->t->title);
}

size_t krp_ub_table(const struct krp_ub_section *s, enum krp_ub_set set, struct krp_buf *out)
{
	struct idx_row rows[64];
	double idx[64];
	size_t n = 0, i, j, want = 0;
	int v4 = set == KRP_UB_V4 || (set == KRP_UB_AUTO && s->secs);

	for (i = 0; i < krp_ub_ntests; i++) {
		const struct krp_ub_test *t = &krp_ub_tests[i];

		if (t->baseline == 0 || (v4 && t->since5))
			continue;
		want++;
		for (j = 0; j < s->n; j++) {
			if (strcmp(s->r[j].title, t->title) == 0 && n < 64) {
				rows[n].t = t;
				rows[n].value = s->r[j].value;
				n++;
				break;
			}
		}
	}
	/* UnixBench 4 printed the index tests sorted by name. */
	if (v4 && n > 1)
		qsort(rows, n, sizeof(rows[0]), cmp_title);
	if (s->label)
		krp_buf_printf(out, "== %s ==\n", s->label);
	krp_buf_printf(out, "baselines: UnixBench %s (George, SPARCstation 20-61 = 10.0)\n",
		       v4 ? "4.1" : "5.0+");
	if (n == 0) {
		krp_buf_puts(out, "no index tests in these results\n");
		return 0;
	}
	krp_buf_printf(out, "%41s\n", "INDEX VALUES");
	krp_buf_printf(out, "%-40s%10s%12s%10s\n\n", "TEST", "BASELINE", "RESULT", "INDEX");
	for (i = 0; i < n; i++) {
		idx[i] = krp_ub_index(rows[i].value, rows[i].t->baseline);
		krp_buf_printf(out, "%-40s%10.1f%12.1f%10.1f\n", rows[i].t->title,
			       rows[i].t->baseline, rows[i].value, idx[i]);
	}
	krp_buf_printf(out, "%72s\n", "=========");
	krp_buf_printf(out, "%-40s%32.1f\n", "FINAL SCORE", krp_ub_geomean(idx, n));
	if (n < want)
		krp_buf_printf(out, "(partial: %zu of %zu index tests)\n", n, want);
	return n;
}
