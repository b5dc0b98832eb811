/* report.html pieces: escaping, heat-map colours, the page's structure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "unit.h"

static void mkvar(struct krp_variant *v, const char *name, const double *ops, size_t n)
{
	size_t r;

	memset(v, 0, sizeof(*v));
	v->dir = krp_xstrdup(name);
	v->name = krp_xstrdup(name);
	v->runs = krp_xcalloc(n, sizeof(*v->runs));
	v->nruns = n;
	for (r = 0; r < n; r++) {
		v->runs[r].name = krp_xstrdup("1");
		v->runs[r].num = (long)r + 1;
		krp_metrics_init(&v->runs[r].m);
		krp_metric_add(&v->runs[r].m, "will-it-scale.per_process_ops", ops[r], KRP_SET);
		krp_metric_add(&v->runs[r].m, "x.<odd>&name", 1, KRP_SET);
	}
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

int main(void)
{
	struct krp_buf b = {0};
	char c[16];
	const double base[] = {100, 110, 120}, nw[] = {80, 85, 90};
	struct krp_variant v[2];
	struct krp_cmp_opts o = {1, 0.05, 0, {NULL}, 0};
	static const char *const rk[] = {"kernel"}, *const ck[] = {"thp"};
	const char *a1[] = {"base", "on"}, *a2[] = {"new", "on"}, *a3[] = {"base", "off"};
	struct krp_pivot p;
	struct krp_html_pivot hp;

	krp_html_escape(&b, "a<b>&\"c'");
	CHECK_STR("escape", b.data, "a&lt;b&gt;&amp;&quot;c&#39;");
	krp_buf_free(&b);
	krp_html_heat(c, sizeof(c), 0, 0, 10);
	CHECK_STR("heat low", c, "#eff3ff");
	krp_html_heat(c, sizeof(c), 10, 0, 10);
	CHECK_STR("heat high", c, "#08519c");
	/* 0xef + 0.5 * (0x08 - 0xef) = 123.5 -> 124 = 0x7c, 0xf3 -> 162 = 0xa2,
	 * 0xff -> 205.5 -> 206 = 0xce */
	krp_html_heat(c, sizeof(c), 5, 0, 10);
	CHECK_STR("heat middle", c, "#7ca2ce");
	krp_html_heat(c, sizeof(c), 7, 7, 7);
	CHECK_STR("heat flat range", c, "#7ca2ce");

	mkvar(&v[0], "base", base, 3);
	mkvar(&v[1], "new", nw, 3);
	krp_pivot_init(&p, rk, 1, ck, 1);
	krp_pivot_add(&p, a1, 100);
	krp_pivot_add(&p, a2, 110);
	krp_pivot_add(&p, a3, 90);
	krp_pivot_sort(&p);
	hp.p = &p;
	hp.metric = "m<1>";
	hp.base = NULL;
	krp_html_report(v, 2, &o, &hp, &b);
	CHECK("html doctype", strncmp(b.data, "<!DOCTYPE html>", 15) == 0);
	CHECK("html closes", strstr(b.data, "</body>\n</html>\n") != NULL);
	CHECK("html no scripts", strstr(b.data, "<script") == NULL);
	CHECK("html no fetches", strstr(b.data, "src=") == NULL &&
				     strstr(b.data, "href=") == NULL &&
				     strstr(b.data, "url(") == NULL);
	CHECK("html headline row first",
	      strstr(b.data, "<tr class=\"metric-row sig-regression\" "
			     "data-metric=\"will-it-scale.per_process_ops\"><td "
			     "class=\"name\">will-it-scale.per_process_ops</td><td>110.00 &plusmn; "
			     "8.16</td><td class=\"chg\">-22.7%</td><td>85.00 &plusmn; "
			     "4.08</td><td>0.0316</td></tr>") != NULL);
	CHECK("html escapes names", strstr(b.data, "data-metric=\"x.&lt;odd&gt;&amp;name\"") &&
					!strstr(b.data, "x.<odd>"));
	CHECK("html 2 charts", count(b.data, "<svg class=\"chart\"") == 2);
	CHECK("html 12 samples", count(b.data, "<circle class=\"sample\"") == 12);
	CHECK("html heat map", strstr(b.data, "<svg id=\"pivot-heatmap\"") != NULL);
	CHECK("html 4 cells, 1 na", count(b.data, "<rect class=\"cell") == 4 &&
					count(b.data, "<rect class=\"cell na\"") == 1);
	CHECK("html pivot escaped title", strstr(b.data, "Pivot: m&lt;1&gt;</h2>") != NULL);
	CHECK("html pivot improvement", strstr(b.data, "10.00%") != NULL);
	krp_buf_free(&b);
	krp_pivot_free(&p);
	krp_variant_free(&v[0]);
	krp_variant_free(&v[1]);
	UNIT_EXIT();
}
