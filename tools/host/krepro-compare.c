/* krepro-compare: 0-day style comparison table of variant result
 * directories, with a Welch t-test verdict on the headline metric. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_table.h"
#include "export.h"
#include "plot.h"
#include "results.h"
#include "util.h"

#define TOOL "krepro-compare"

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL
		   " [--help] [--all] [--alpha A] [--no-plot] [--json FILE] [--csv FILE]\n"
		   "       [--note TEXT]... BASE_DIR NEW_DIR [NEW_DIR...]\n"
		   "\n"
		   "Each DIR is a variant result directory holding numbered run directories\n"
		   "with stats.json.  Prints the 0-day table (mean, %%stddev, %%change) of the\n"
		   "metrics that changed significantly: at least 3 runs on both sides, Welch\n"
		   "t-test p < A (default 0.05), and |%%change| >= 1%% for benchmark metrics,\n"
		   ">= 5%% for monitors.  Then a summary line per NEW_DIR for the headline\n"
		   "metric with its 95%% confidence interval, and per-sample ASCII plots of\n"
		   "it ([*] base samples, [O] new samples).\n"
		   "\n"
		   "Failure metrics (last_state.*, dmesg.*, kmsg.*; 0/1 per run) get\n"
		   "\"fail:runs\" and \"%%reproduction\" rows (100 * (new rate - base rate)).\n"
		   "A run with last_state.failed = 1 counts in fail:runs and is left out of\n"
		   "the performance statistics.\n"
		   "\n"
		   "  --all        show every metric present on both sides\n"
		   "  --alpha A    significance level, 0 < A < 1\n"
		   "  --no-plot    no ASCII plots\n"
		   "  --json FILE  write every compared metric as JSON (means, stddevs,\n"
		   "               %%change, p, significant, runs; failure counts)\n"
		   "  --csv FILE   the same as CSV, one line per metric and new variant\n"
		   "  --note TEXT  print TEXT under the header (repeatable; the kit passes\n"
		   "               how a variant's series was applied when not strictly)\n"
		   "  --verdict METRIC  no table: one line on METRIC (BASE_DIR vs one NEW_DIR)\n"
		   "               and exit 0 if its change is significant, 3 if not (bisect)\n"
		   "\n"
		   "Exit status: 0 when the comparison was made, 2 on usage or input errors.\n");
}

/* One metric's verdict for bisection: 0 significant, 3 not, 2 missing. */
static int verdict_line(const char *metric, const struct krp_variant *b,
			const struct krp_variant *n, const struct krp_cmp_opts *o)
{
	struct krp_vstats vb = {0}, vn = {0};
	const struct krp_series *sb, *sn;
	struct krp_cell cell;
	int rc = 2;

	krp_vstats_build(b, &vb);
	krp_vstats_build(n, &vn);
	sb = krp_vstats_find(&vb, metric);
	sn = krp_vstats_find(&vn, metric);
	if (!sb || !sn) {
		fprintf(stderr, TOOL ": %s: not present on both sides\n", metric);
	} else {
		char fl[64] = "";

		krp_cmp_cell(metric, sb->x, sb->n, sn->x, sn->n, o, &cell);
		if (!isnan(cell.floor))
			snprintf(fl, sizeof(fl), ", floor %.2f%%", cell.floor);
		printf("%s: %+.2f%% (%s %zu vs %zu, p=%.4g%s): %s\n", metric, cell.pct,
		       cell.exact ? "exact, seeds" : "runs", cell.nb, cell.nn,
		       cell.have_t ? cell.w.p : 1.0, fl,
		       cell.significant ? "significant" : "not significant");
		rc = cell.significant ? 0 : 3;
	}
	krp_vstats_free(&vb);
	krp_vstats_free(&vn);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"note", required_argument, NULL, 'N'},
	    {"all", no_argument, NULL, 'a'},
	    {"alpha", required_argument, NULL, 'p'},
	    {"no-plot", no_argument, NULL, 'n'},
	    {"json", required_argument, NULL, 'j'},
	    {"csv", required_argument, NULL, 'c'},
	    {"verdict", required_argument, NULL, 'v'},
	    {NULL, 0, NULL, 0},
	};
	struct krp_cmp_opts o = {0, 0.05, 0, {NULL}, 0};
	struct krp_variant *vars;
	struct krp_buf out = {0};
	char err[KRP_ERR_MAX];
	size_t nvars, i;
	int c, plots = 1;
	const char *json_path = NULL, *csv_path = NULL, *verdict = NULL;

	while ((c = getopt_long(argc, argv, "hap:nj:c:v:N:", opts, NULL)) != -1) {
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
		case 'n':
			plots = 0;
			break;
		case 'j':
			json_path = optarg;
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 'v':
			verdict = optarg;
			break;
		case 'p':
			if (krp_cmp_parse_alpha(optarg, &o.alpha, err, sizeof(err)) != 0) {
				fprintf(stderr, TOOL ": %s\n", err);
				return 2;
			}
			break;
		default: /* getopt printed the problem */
			return 2;
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, TOOL ": need BASE_DIR and at least one NEW_DIR (see --help)\n");
		return 2;
	}
	nvars = (size_t)(argc - optind);
	vars = krp_xcalloc(nvars, sizeof(*vars));
	for (i = 0; i < nvars; i++) {
		const char *dir = argv[optind + (int)i];

		if (krp_variant_load(dir, &vars[i], err, sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			goto fail;
		}
		if (vars[i].nruns == 0) {
			fprintf(stderr, TOOL ": %s: no run directories (<n>/stats.json)\n", dir);
			goto fail;
		}
	}
	if (krp_cmp_set_clock(vars, nvars, &o, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		goto fail;
	}
	if (verdict) {
		int rc = nvars == 2 ? verdict_line(verdict, &vars[0], &vars[1], &o) : 2;

		if (nvars != 2)
			fprintf(stderr, TOOL ": --verdict takes BASE_DIR and one NEW_DIR\n");
		for (i = 0; i < nvars; i++)
			krp_variant_free(&vars[i]);
		free(vars);
		return rc;
	}
	krp_compare_report(vars, nvars, &o, &out);
	if (plots)
		krp_compare_plots(vars, nvars, &out);
	fwrite(out.data, 1, out.len, stdout);
	krp_buf_free(&out);
	if (json_path || csv_path) {
		/* both files or neither: written together (krp_write_atomic_all) */
		const char *paths[2];
		struct krp_buf x[2] = {{0}};
		size_t n = 0, k;
		int rc;

		if (json_path) {
			krp_compare_json(vars, nvars, &o, &x[n]);
			paths[n++] = json_path;
		}
		if (csv_path) {
			krp_compare_csv(vars, nvars, &o, &x[n]);
			paths[n++] = csv_path;
		}
		rc = krp_write_atomic_all(n, paths, x, err, sizeof(err));
		for (k = 0; k < n; k++)
			krp_buf_free(&x[k]);
		if (rc != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			goto fail;
		}
	}
	for (i = 0; i < nvars; i++)
		krp_variant_free(&vars[i]);
	free(vars);
	return fflush(stdout) == 0 ? 0 : 2;
fail:
	for (i = 0; i < nvars; i++)
		krp_variant_free(&vars[i]);
	free(vars);
	return 2;
}
