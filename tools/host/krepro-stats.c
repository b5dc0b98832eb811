/* krepro-stats: raw run output -> stats.json; runs of a variant ->
 * matrix.json, avg.json, stddev.json. */
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "util.h"

#define TOOL "krepro-stats"

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] run RUN_DIR\n"
		   "       " TOOL " [--help] unite VARIANT_DIR\n"
		   "\n"
		   "run    parse the raw files in RUN_DIR (will-it-scale, meminfo, proc-vmstat,\n"
		   "       <bench>.time) and write RUN_DIR/stats.json (metric -> number).\n"
		   "unite  read VARIANT_DIR/<n>/stats.json for every numeric run directory and\n"
		   "       write VARIANT_DIR/matrix.json (per-run values, null if missing),\n"
		   "       avg.json (mean) and stddev.json (population stddev).\n"
		   "\n"
		   "Exit status: 0 on success, 2 on usage or input errors.\n");
}

int main(int argc, char **argv)
{
	char err[KRP_ERR_MAX];
	long n;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr,
			TOOL ": expected \"run RUN_DIR\" or \"unite VARIANT_DIR\" (see --help)\n");
		return 2;
	}
	if (strcmp(argv[1], "run") == 0) {
		n = krp_stats_run(argv[2], err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			return 2;
		}
		printf("%s/stats.json: %ld metrics\n", argv[2], n);
		return 0;
	}
	if (strcmp(argv[1], "unite") == 0) {
		n = krp_stats_unite(argv[2], err, sizeof(err));
		if (n < 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			return 2;
		}
		printf("%s: united %ld runs\n", argv[2], n);
		return 0;
	}
	fprintf(stderr, TOOL ": unknown subcommand \"%s\" (see --help)\n", argv[1]);
	return 2;
}
