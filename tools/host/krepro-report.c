/* krepro-report: one self-contained report.html (inline CSS and SVG, no
 * network) with the 0-day comparison, a metrics table, per-metric sample
 * charts by variant and optionally a pivot heat map; the same tables as
 * text on stdout. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_table.h"
#include "html.h"
#include "plot.h"
#include "pivot.h"
#include "results.h"
#include "util.h"

#define TOOL "krepro-report"
#define MAX_KEYS KRP_PIVOT_MAX_KEYS

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] [--all] [--alpha A] [--note TEXT]... -o report.html\n"
		   "       [--pivot RESULTS_ROOT_OR_LIST --rows KEY[,KEY] --cols KEY[,KEY]\n"
		   "        --metric M [--base VALUE] [--order KEY=V1,V2,...]]\n"
		   "       BASE_DIR NEW_DIR [NEW_DIR...]\n"
		   "\n"
		   "Writes one self-contained HTML file (inline CSS and SVG, no scripts,\n"
		   "nothing fetched): the variants, the 0-day comparison text (as\n"
		   "krepro-compare prints it, with the ASCII plots), a table of the shown\n"
		   "metrics (significant ones, or every one with --all), an SVG chart per\n"
		   "shown metric with the samples of every variant, and with --pivot the\n"
		   "pivot table (see krepro-pivot --help) as text and as an SVG heat map.\n"
		   "--note TEXT lines go under the comparison's header (as krepro-compare).\n"
		   "The same tables go to stdout as text.\n"
		   "\n"
		   "Exit status: 0 when the report was written, 2 on usage or input errors.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},	      {"note", required_argument, NULL, 'N'},
	    {"all", no_argument, NULL, 'a'},	      {"alpha", required_argument, NULL, 'p'},
	    {"output", required_argument, NULL, 'o'}, {"pivot", required_argument, NULL, 'P'},
	    {"rows", required_argument, NULL, 'r'},   {"cols", required_argument, NULL, 'c'},
	    {"metric", required_argument, NULL, 'm'}, {"base", required_argument, NULL, 'b'},
	    {"order", required_argument, NULL, 'O'},  {NULL, 0, NULL, 0},
	};
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	const char *outpath = NULL, *proot = NULL, *metric = NULL, *base = NULL;
	char *rows_s = NULL, *cols_s = NULL, *orders[MAX_KEYS * 2];
	size_t norders = 0, nvars = 0, i;
	struct krp_variant *vars = NULL;
	struct krp_pivot piv;
	struct krp_html_pivot hp = {NULL, NULL, NULL};
	struct krp_buf html = {0}, text = {0};
	char err[KRP_ERR_MAX];
	int c, rc = 2, have_piv = 0;

	while ((c = getopt_long(argc, argv, "hap:o:P:r:c:m:b:O:N:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'a':
			o.all = 1;
			break;
		case 'N':
			if (krp_cmp_add_note(&o, optarg, err, sizeof(err)) != 0) {
				fprintf(stderr, TOOL ": %s\n", err);
				return 2;
			}
			break;
		case 'p':
			if (krp_cmp_parse_alpha(optarg, &o.alpha, err, sizeof(err)) != 0) {
				fprintf(stderr, TOOL ": %s\n", err);
				return 2;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'P':
			proot = optarg;
			break;
		case 'r':
			rows_s = optarg;
			break;
		case 'c':
			cols_s = optarg;
			break;
		case 'm':
			metric = optarg;
			break;
		case 'b':
			base = optarg;
			break;
		case 'O':
			if (norders == MAX_KEYS * 2) {
				fprintf(stderr, TOOL ": too many --order options\n");
				return 2;
			}
			orders[norders++] = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!outpath || argc - optind < 2) {
		fprintf(stderr, TOOL ": need -o FILE, BASE_DIR and a NEW_DIR (see --help)\n");
		return 2;
	}
	if (proot && (!rows_s || !cols_s || !metric)) {
		fprintf(stderr, TOOL ": --pivot needs --rows, --cols and --metric\n");
		return 2;
	}
	nvars = (size_t)(argc - optind);
	vars = krp_xcalloc(nvars, sizeof(*vars));
	for (i = 0; i < nvars; i++) {
		if (krp_variant_load(argv[optind + (int)i], &vars[i], err, sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			goto out;
		}
		if (vars[i].nruns == 0) {
			fprintf(stderr, TOOL ": %s: no run directories (<n>/stats.json)\n",
				argv[optind + (int)i]);
			goto out;
		}
	}
	if (krp_cmp_set_clock(vars, nvars, &o, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		goto out;
	}
	if (proot) {
		have_piv = 1;
		if (krp_pivot_build(&piv, rows_s, cols_s, orders, norders, proot, metric, err,
				    sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			goto out;
		}
		hp.p = &piv;
		hp.metric = metric;
		hp.base = base;
	}
	krp_compare_report(vars, nvars, &o, &text);
	krp_compare_plots(vars, nvars, &text);
	if (have_piv) {
		krp_buf_printf(&text, "\npivot of %s:\n", metric);
		if (krp_pivot_text(&piv, base, &text, err, sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s: %s\n", proot, err);
			goto out;
		}
	}
	krp_html_report(vars, nvars, &o, hp.p ? &hp : NULL, &html);
	if (krp_write_atomic(outpath, html.data, html.len, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		goto out;
	}
	fwrite(text.data, 1, text.len, stdout);
	printf("\nreport: %s\n", outpath);
	rc = fflush(stdout) == 0 ? 0 : 2;
out:
	krp_buf_free(&html);
	krp_buf_free(&text);
	if (have_piv)
		krp_pivot_free(&piv);
	for (i = 0; i < nvars; i++)
		krp_variant_free(&vars[i]);
	free(vars);
	return rc;
}
