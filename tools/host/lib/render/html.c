/* report.html (see html.h). */
#include "html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_table.h"
#include "failures.h"
#include "kstats.h"
#include "plot.h"
#include "run_warnings.h"
#include "vstats.h"

void krp_html_escape(struct krp_buf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			krp_buf_puts(out, "&amp;");
			break;
		case '<':
			krp_buf_puts(out, "&lt;");
			break;
		case '>':
			krp_buf_puts(out, "&gt;");
			break;
		case '"':
			krp_buf_puts(out, "&quot;");
			break;
		case '\'':
			krp_buf_puts(out, "&#39;");
			break;
		default:
			krp_buf_add(out, s, 1);
		}
	}
}

void krp_html_heat(char *out, size_t outsz, double v, double lo, double hi)
{
	/* Linear from #eff3ff (lo) to #08519c (hi). */
	double f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
	int r, g, b;

	if (!(f >= 0))
		f = 0;
	if (f > 1)
		f = 1;
	r = (int)lround(0xef + f * (0x08 - 0xef));
	g = (int)lround(0xf3 + f * (0x51 - 0xf3));
	b = (int)lround(0xff + f * (0x9c - 0xff));
	snprintf(out, outsz, "#%02x%02x%02x", r, g, b);
}

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
				      "#9467bd", "#8c564b", "#e377c2", "#17becf"};

static const char css[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "pre{font-family:monospace;font-size:12px;background:#f6f6f6;padding:.6em;"
    "overflow-x:auto}"
    "table{border-collapse:collapse;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    "td.name,th.name{text-align:left;font-family:monospace}"
    "tr.sig-improvement td.chg{color:#1a7f37;font-weight:bold}"
    "tr.sig-regression td.chg{color:#c62828;font-weight:bold}"
    "tr.sig-change td.chg{font-weight:bold}"
    "pre.nondeterministic{color:#c62828;font-weight:bold;background:#fdecea}"
    "pre.contention,pre.balancer-idle{color:#8a5a00;font-weight:bold;background:#fff4e0}"
    ".charts{display:flex;flex-wrap:wrap;gap:12px}"
    "svg.chart{border:1px solid #ddd;background:#fff}"
    "svg text{font-family:sans-serif;font-size:11px;fill:#333}";

static void fmt_num(char *out, size_t outsz, double v)
{
	if (!isfinite(v))
		snprintf(out, outsz, "-");
	else if (fabs(v) >= 1e6 || (fabs(v) < 0.01 && v != 0))
		snprintf(out, outsz, "%.4g", v);
	else if (fabs(v) >= 1000)
		snprintf(out, outsz, "%.0f", v);
	else
		snprintf(out, outsz, "%.2f", v);
}

/* Samples of one metric by variant: a column of points per variant, the
 * mean as a bar, y range min..max of all samples. */
static void chart(struct krp_buf *out, const char *name, const struct krp_variant *vars,
		  const struct krp_vstats *vs, size_t nvars)
{
	const double W = 460, H = 240, L = 72, R = 12, T = 26, B = 48;
	double pw = W - L - R, ph = H - T - B, lo = INFINITY, hi = -INFINITY;
	size_t j, i;
	char a[64];

	for (j = 0; j < nvars; j++) {
		const struct krp_series *s = krp_vstats_find(&vs[j], name);

		for (i = 0; s && i < s->n; i++) {
			lo = fmin(lo, s->x[i]);
			hi = fmax(hi, s->x[i]);
		}
	}
	if (!isfinite(lo))
		return;
	if (hi == lo) {
		double d = lo != 0 ? fabs(lo) * 0.05 : 1;

		lo -= d;
		hi += d;
	}
	krp_buf_printf(out,
		       "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		       "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" data-metric=\"",
		       W, H, W, H);
	krp_html_escape(out, name);
	krp_buf_puts(out, "\"><title>");
	krp_html_escape(out, name);
	krp_buf_printf(out, "</title><text x=\"%.0f\" y=\"16\" text-anchor=\"middle\">", W / 2);
	krp_html_escape(out, name);
	krp_buf_puts(out, "</text>");
	krp_buf_printf(out,
		       "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>"
		       "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>",
		       L, T, L, T + ph, L, T + ph, L + pw, T + ph);
	for (i = 0; i <= 4; i++) {
		double v = hi - (double)i * (hi - lo) / 4, y = T + (double)i * ph / 4;

		fmt_num(a, sizeof(a), v);
		krp_buf_printf(out,
			       "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
			       "stroke=\"#eee\"/><text x=\"%.0f\" y=\"%.1f\" "
			       "text-anchor=\"end\">%s</text>",
			       L + 1, y, L + pw, y, L - 4, y + 4, a);
	}
	for (j = 0; j < nvars; j++) {
		const struct krp_series *s = krp_vstats_find(&vs[j], name);
		double cx = L + ((double)j + 0.5) * pw / (double)nvars;
		const char *col = palette[j % (sizeof(palette) / sizeof(palette[0]))];

		krp_buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">", cx,
			       T + ph + 16);
		krp_html_escape(out, vars[j].name);
		krp_buf_puts(out, "</text>");
		if (!s)
			continue;
		krp_buf_printf(out, "<g class=\"samples\" fill=\"%s\">", col);
		for (i = 0; i < s->n; i++) {
			double x = cx + ((double)i - (double)(s->n - 1) / 2) * 7;
			double y = T + (hi - s->x[i]) / (hi - lo) * ph;

			fmt_num(a, sizeof(a), s->x[i]);
			krp_buf_printf(out,
				       "<circle class=\"sample\" cx=\"%.1f\" cy=\"%.1f\" "
				       "r=\"4\"><title>run %zu: %s</title></circle>",
				       x, y, i + 1, a);
		}
		krp_buf_puts(out, "</g>");
		{
			double m = krp_mean(s->x, s->n);
			double y = T + (hi - m) / (hi - lo) * ph;

			fmt_num(a, sizeof(a), m);
			krp_buf_printf(out,
				       "<line class=\"mean\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				       "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
				       "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
				       "mean %s (n=%zu)</text>",
				       cx - 24, y, cx + 24, y, col, cx, T + ph + 32, a, s->n);
		}
	}
	krp_buf_puts(out, "</svg>\n");
}

static void pivot_section(struct krp_buf *out, const struct krp_html_pivot *pv)
{
	const struct krp_pivot *p = pv->p;
	struct krp_buf txt = {0};
	char err[KRP_ERR_MAX], col[16], s[64];
	size_t nr = krp_pivot_nrows(p), nc = krp_pivot_ncols(p), r, c, a;
	double lo = INFINITY, hi = -INFINITY, v;
	const double CW = 78, CH = 24;
	double LW = 0, W, H;

	krp_buf_puts(out, "<h2 id=\"pivot\">Pivot: ");
	krp_html_escape(out, pv->metric);
	krp_buf_puts(out, "</h2>\n");
	if (krp_pivot_text(p, pv->base, &txt, err, sizeof(err)) != 0) {
		krp_buf_puts(out, "<p class=\"error\">");
		krp_html_escape(out, err);
		krp_buf_puts(out, "</p>\n");
		krp_buf_free(&txt);
		return;
	}
	krp_buf_puts(out, "<pre id=\"pivot-text\">");
	krp_html_escape(out, txt.data);
	krp_buf_puts(out, "</pre>\n");
	krp_buf_free(&txt);
	for (r = 0; r < nr; r++)
		for (c = 0; c < nc; c++)
			if (krp_pivot_cell(p, r, c, &v) == 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
	/* Row labels: the row keys' values joined by " / ". */
	for (r = 0; r < nr; r++) {
		size_t len = 0;

		for (a = 0; a < p->nrow; a++)
			len += strlen(krp_pivot_label(p, a, r)) + 3;
		if ((double)len * 6.5 > LW)
			LW = (double)len * 6.5;
	}
	LW += 10;
	W = LW + CW * (double)nc + 10;
	H = 16.0 * (double)p->ncol + CH * (double)nr + 30;
	krp_buf_printf(out,
		       "<svg id=\"pivot-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">"
		       "<title>pivot heat map</title>",
		       W, H, W, H);
	for (a = 0; a < p->ncol; a++) {
		for (c = 0; c < nc; c++) {
			krp_buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">",
				       LW + CW * ((double)c + 0.5), 14 + 16.0 * (double)a);
			krp_html_escape(out, krp_pivot_label(p, p->nrow + a, c));
			krp_buf_puts(out, "</text>");
		}
	}
	for (r = 0; r < nr; r++) {
		double y = 16.0 * (double)p->ncol + 6 + CH * (double)r;

		krp_buf_printf(out, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", LW - 6,
			       y + CH / 2 + 4);
		for (a = 0; a < p->nrow; a++) {
			if (a)
				krp_buf_puts(out, " / ");
			krp_html_escape(out, krp_pivot_label(p, a, r));
		}
		krp_buf_puts(out, "</text>");
		for (c = 0; c < nc; c++) {
			double x = LW + CW * (double)c;
			int have = krp_pivot_cell(p, r, c, &v) == 0;

			if (have) {
				krp_html_heat(col, sizeof(col), v, lo, hi);
				krp_pivot_fmt(s, sizeof(s), v);
			} else {
				snprintf(col, sizeof(col), "#dddddd");
				snprintf(s, sizeof(s), "na");
			}
			krp_buf_printf(
			    out,
			    "<rect class=\"cell%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
			    "height=\"%.0f\" fill=\"%s\" stroke=\"#fff\"><title>%s</title></rect>"
			    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" style=\"fill:%s\">"
			    "%s</text>",
			    have ? "" : " na", x, y, CW, CH, col, s, x + CW / 2, y + CH / 2 + 4,
			    have && hi > lo && (v - lo) / (hi - lo) > 0.55 ? "#fff" : "#222", s);
		}
	}
	krp_buf_puts(out, "</svg>\n");
}

/* fail:runs per variant and %reproduction against the base for the
 * failure metrics whose rate differs (all with --all). */
static void failures(struct krp_buf *out, const struct krp_variant *vars, size_t nvars, int all)
{
	size_t nkeys, i, j, shown = 0;
	char **keys = krp_failure_keys(vars, nvars, &nkeys);

	for (i = 0; i < nkeys; i++) {
		size_t fb, rb, fn, rn;

		if (!krp_failure_row_shown(vars, nvars, keys[i], all))
			continue;
		krp_fail_count(&vars[0], keys[i], &fb, &rb);
		if (shown++ == 0) {
			krp_buf_puts(
			    out, "<h2 id=\"failures\">Failures</h2>\n<table "
				 "id=\"failures-table\">\n<tr><th class=\"name\">metric</th><th>");
			krp_html_escape(out, vars[0].name);
			krp_buf_puts(out, " fail:runs</th>");
			for (j = 1; j < nvars; j++) {
				krp_buf_puts(out, "<th>%reproduction</th><th>");
				krp_html_escape(out, vars[j].name);
				krp_buf_puts(out, " fail:runs</th>");
			}
			krp_buf_puts(out, "</tr>\n");
		}
		krp_buf_puts(out, "<tr class=\"failure-row\"><td class=\"name\">");
		krp_html_escape(out, keys[i]);
		krp_buf_printf(out, "</td><td>%zu:%zu</td>", fb, rb);
		for (j = 1; j < nvars; j++) {
			krp_fail_count(&vars[j], keys[i], &fn, &rn);
			krp_buf_printf(out, "<td>%.0f%%</td><td>%zu:%zu</td>",
				       krp_reproduction(fb, rb, fn, rn), fn, rn);
		}
		krp_buf_puts(out, "</tr>\n");
	}
	if (shown)
		krp_buf_puts(out, "</table>\n");
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
}

/* A run warning's lines (run_warnings.h) as <pre class=CLS>, when there are any. */
static void put_warning(struct krp_buf *out, const char *cls, const struct krp_buf *lines)
{
	if (lines->len == 0)
		return;
	krp_buf_printf(out, "<pre class=\"%s\">", cls);
	krp_html_escape(out, lines->data);
	krp_buf_puts(out, "</pre>\n");
}

void krp_html_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     const struct krp_html_pivot *pv, struct krp_buf *out)
{
	struct krp_vstats *vs = krp_xcalloc(nvars, sizeof(*vs));
	struct krp_buf text = {0};
	const char **shown;
	const char *head;
	size_t nshown = 0, i, j;
	char a[64], b[64];

	for (j = 0; j < nvars; j++)
		krp_vstats_build_in(vars, nvars, j, &vs[j]);
	krp_compare_report(vars, nvars, o, &text);
	krp_compare_plots(vars, nvars, &text);

	krp_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<title>krepro report: ");
	krp_html_escape(out, vars[0].name);
	for (j = 1; j < nvars; j++) {
		krp_buf_puts(out, j == 1 ? " vs " : ", ");
		krp_html_escape(out, vars[j].name);
	}
	krp_buf_printf(
	    out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>krepro report</h1>\n", css);
	krp_buf_puts(out, "<table id=\"variants\"><tr><th class=\"name\">variant</th>"
			  "<th class=\"name\">directory</th><th>runs</th><th>failed</th></tr>\n");
	for (j = 0; j < nvars; j++) {
		krp_buf_puts(out, "<tr><td class=\"name\">");
		krp_html_escape(out, vars[j].name);
		krp_buf_puts(out, j ? "" : " (base)");
		krp_buf_puts(out, "</td><td class=\"name\">");
		krp_html_escape(out, vars[j].dir);
		krp_buf_printf(out, "</td><td>%zu</td><td>%zu</td></tr>\n", vars[j].nruns,
			       krp_variant_nfailed(&vars[j]));
	}
	krp_buf_printf(out, "</table>\n<p id=\"clock\">clock: %s</p>\n",
		       o->exact ? "exact (instruction-counted QEMU: every metric a function of "
				  "the inputs)"
				: "real (host time)");
	{
		struct krp_buf nd = {0}, hc = {0}, bi = {0};

		if (o->exact)
			krp_put_nondeterminism(&nd, vars, nvars);
		krp_put_contention(&hc, vars, nvars);
		krp_put_balancer_idle(&bi, vars, nvars);
		put_warning(out, "nondeterministic", &nd);
		put_warning(out, "contention", &hc);
		put_warning(out, "balancer-idle", &bi);
		krp_buf_free(&nd);
		krp_buf_free(&hc);
		krp_buf_free(&bi);
	}
	/* the summary's line where the headline's plain and model verdicts
	 * differ, where a reader of the page looks first */
	for (j = 1; j < nvars; j++) {
		const char *h = krp_headline(&vs[0], &vs[j]);
		char line[1024];
		int pv, mv;

		if (!h ||
		    !krp_model_disagreement(h, &vs[0], &vs[j], o, &pv, &mv, line, sizeof(line)))
			continue;
		krp_buf_puts(out, "<p class=\"disagreement\">");
		if (nvars > 2) {
			krp_html_escape(out, vars[j].name);
			krp_buf_puts(out, " vs ");
			krp_html_escape(out, vars[0].name);
			krp_buf_puts(out, ": ");
		}
		krp_html_escape(out, line);
		krp_buf_puts(out, "</p>\n");
	}
	krp_buf_puts(out, "<h2 id=\"comparison\">Comparison</h2>\n"
			  "<pre id=\"compare-text\">");
	krp_html_escape(out, text.data ? text.data : "");
	krp_buf_puts(out, "</pre>\n");
	krp_buf_free(&text);

	/* Metrics table: headline first, then the shown metrics by name. */
	shown = krp_xcalloc(vs[0].n + 1, sizeof(*shown));
	head = nvars > 1 ? krp_headline(&vs[0], &vs[1]) : NULL;
	if (head)
		shown[nshown++] = head;
	{
		size_t *order;
		struct krp_metrics names;

		krp_metrics_init(&names);
		for (i = 0; i < vs[0].n; i++)
			krp_metric_add(&names, vs[0].s[i].name, 0, KRP_SET);
		order = krp_metrics_sorted(&names);
		for (i = 0; i < names.n; i++) {
			const struct krp_series *sb =
			    krp_vstats_find(&vs[0], names.v[order[i]].name);
			int show = 0, any = 0;

			if (head && strcmp(sb->name, head) == 0)
				continue;
			for (j = 1; j < nvars; j++) {
				const struct krp_series *sn = krp_vstats_find(&vs[j], sb->name);
				struct krp_cell c;

				if (!sn)
					continue;
				any = 1;
				krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o, &c);
				show |= c.significant;
			}
			if (any && (show || o->all))
				shown[nshown++] = sb->name;
		}
		free(order);
		krp_metrics_free(&names);
	}
	krp_buf_puts(out, "<h2 id=\"metrics\">Metrics</h2>\n<table id=\"metrics-table\">\n<tr>"
			  "<th class=\"name\">metric</th><th>");
	krp_html_escape(out, vars[0].name);
	krp_buf_puts(out, " mean &plusmn; sd</th>");
	for (j = 1; j < nvars; j++) {
		krp_buf_puts(out, "<th>%change</th><th>");
		krp_html_escape(out, vars[j].name);
		krp_buf_puts(out, " mean &plusmn; sd</th><th>p (Welch)</th>");
	}
	krp_buf_puts(out, "</tr>\n");
	for (i = 0; i < nshown; i++) {
		const struct krp_series *sb = krp_vstats_find(&vs[0], shown[i]);
		const char *cls = "";

		for (j = 1; j < nvars; j++) {
			const struct krp_series *sn = krp_vstats_find(&vs[j], shown[i]);
			struct krp_cell c;

			if (!sn)
				continue;
			krp_cmp_cell(shown[i], sb->x, sb->n, sn->x, sn->n, o, &c);
			if (c.significant && !*cls) {
				int d = krp_direction(shown[i]);

				cls = d == 0			 ? " sig-change"
				      : (c.mn > c.mb) == (d > 0) ? " sig-improvement"
								 : " sig-regression";
			}
		}
		krp_buf_printf(out, "<tr class=\"metric-row%s\" data-metric=\"", cls);
		krp_html_escape(out, shown[i]);
		krp_buf_puts(out, "\"><td class=\"name\">");
		krp_html_escape(out, shown[i]);
		fmt_num(a, sizeof(a), krp_mean(sb->x, sb->n));
		fmt_num(b, sizeof(b), krp_pstddev(sb->x, sb->n));
		krp_buf_printf(out, "</td><td>%s &plusmn; %s</td>", a, b);
		for (j = 1; j < nvars; j++) {
			const struct krp_series *sn = krp_vstats_find(&vs[j], shown[i]);
			struct krp_cell c;

			if (!sn) {
				krp_buf_puts(out, "<td></td><td></td><td></td>");
				continue;
			}
			krp_cmp_cell(shown[i], sb->x, sb->n, sn->x, sn->n, o, &c);
			krp_fmt_change(a, sizeof(a), c.shown, !krp_is_absolute(shown[i]));
			krp_buf_printf(out, "<td class=\"chg\">%s</td>", a);
			fmt_num(a, sizeof(a), c.mn);
			fmt_num(b, sizeof(b), c.sdn);
			krp_buf_printf(out, "<td>%s &plusmn; %s</td>", a, b);
			/* No p-value where none was computed (no spread on
			 * either side, or too few runs). */
			if (!c.have_t || c.w.zero_var)
				krp_buf_puts(out, "<td>-</td>");
			else if (c.w.p < 0.0001)
				krp_buf_puts(out, "<td>&lt;0.0001</td>");
			else
				krp_buf_printf(out, "<td>%.4f</td>", c.w.p);
		}
		krp_buf_puts(out, "</tr>\n");
	}
	krp_buf_puts(out, "</table>\n");
	failures(out, vars, nvars, o->all);
	if (nshown == 0)
		krp_buf_puts(out, "<p>no significant changes</p>\n");

	krp_buf_puts(out, "<h2 id=\"samples\">Samples by variant</h2>\n<div class=\"charts\">\n");
	for (i = 0; i < nshown && i < KRP_HTML_MAX_CHARTS; i++)
		chart(out, shown[i], vars, vs, nvars);
	krp_buf_puts(out, "</div>\n");
	if (nshown > KRP_HTML_MAX_CHARTS)
		krp_buf_printf(out, "<p>(%zu more metrics without a chart)</p>\n",
			       nshown - KRP_HTML_MAX_CHARTS);
	if (pv && pv->p)
		pivot_section(out, pv);
	krp_buf_puts(out, "<p class=\"footer\">generated by krepro-report</p>\n</body>\n</html>\n");
	free(shown);
	for (j = 0; j < nvars; j++)
		krp_vstats_free(&vs[j]);
	free(vs);
}
