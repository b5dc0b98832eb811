/* krepro-pivot: the matrix pivot of seed 003 (rows kernel x tenant, columns
 * the other axes, "improvement from <base>" in percent).  See pivot.h for
 * how cells are found. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivot.h"
#include "util.h"

#define TOOL "krepro-pivot"
#define MAX_KEYS KRP_PIVOT_MAX_KEYS

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] --rows KEY[,KEY] --cols KEY[,KEY] --metric M\n"
		   "       [--base VALUE] [--order KEY=V1,V2,...] RESULTS_ROOT_OR_LIST\n"
		   "\n"
		   "Pivot table of one metric over matrix cells.  Every directory below\n"
		   "RESULTS_ROOT holding job.conf and stats.json is a run; its job.conf\n"
		   "key=value lines name the cell (key \"kernel\" falls back to \"variant\").\n"
		   "A LIST file names run directories or roots, one per line.  A cell is the\n"
		   "mean of M over its runs (failed runs and runs without M or a key are\n"
		   "left out); missing cells print \"na\".  Rows: combinations of the --rows\n"
		   "keys, columns: of the --cols keys (values in natural order, or as given\n"
		   "by --order, which also drops other values).  Then, for each other value\n"
		   "of the first row key, \"improvement from BASE\" = 100 * (cell - base\n"
		   "cell) / base cell, \"%%.2f%%%%\"; BASE defaults to the value \"base\" (the\n"
		   "kit's base kernel) when there is one, else to the first value.\n"
		   "A key A+B joins its parts' values (--rows variant+numa_balancing: rows\n"
		   "base+numa_balancing=0, ...).  When runs hold the memory model's\n"
		   "model.M, a last row key \"measure\" shows each row (\"plain\") beside its\n"
		   "model row (\"model\"), in the table and in the improvement block.\n"
		   "\n"
		   "Exit status: 0 when a table was printed, 2 on usage or input errors.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"rows", required_argument, NULL, 'r'},
	    {"cols", required_argument, NULL, 'c'},
	    {"metric", required_argument, NULL, 'm'},
	    {"base", required_argument, NULL, 'b'},
	    {"order", required_argument, NULL, 'o'},
	    {NULL, 0, NULL, 0},
	};
	char *rows_s = NULL, *cols_s = NULL, *orders[MAX_KEYS * 2];
	const char *metric = NULL, *base = NULL;
	size_t norders = 0;
	struct krp_pivot p;
	struct krp_buf out = {0};
	char err[KRP_ERR_MAX];
	int c, rc = 2;

	while ((c = getopt_long(argc, argv, "hr:c:m:b:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
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
		case 'o':
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
	if (!rows_s || !cols_s || !metric || argc - optind != 1) {
		fprintf(stderr,
			TOOL ": need --rows, --cols, --metric and one RESULTS_ROOT (see --help)\n");
		return 2;
	}
	if (krp_pivot_build(&p, rows_s, cols_s, orders, norders, argv[optind], metric, err,
			    sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		goto out;
	}
	if (krp_pivot_text(&p, base, &out, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s: %s\n", argv[optind], err);
		goto out;
	}
	printf("%s: mean over runs (%zu runs left out)\n", metric, p.skipped);
	if (p.measure)
		printf("measure \"model\": model.%s, the same work in the memory model's time "
		       "(docs/MEMORY-MODEL.md)\n",
		       metric);
	fwrite(out.data, 1, out.len, stdout);
	rc = fflush(stdout) == 0 ? 0 : 2;
out:
	krp_buf_free(&out);
	krp_pivot_free(&p);
	return rc;
}
