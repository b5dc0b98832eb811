/* krepro-index: the UnixBench INDEX VALUES table (BASELINE, RESULT, INDEX =
 * result / baseline * 10, FINAL SCORE = geometric mean) from UnixBench's own
 * result lines or from krepro results ("unixbench.<key>" metrics, see
 * tools/host/lib/analyze/unixbench.h for the names). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vstats.h"
#include "kstats.h"
#include "results.h"
#include "unixbench.h"
#include "util.h"

#define TOOL "krepro-index"

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] [--baselines 4|5] [FILE|-|RESULT_DIR]\n"
		   "\n"
		   "Prints UnixBench's INDEX VALUES table: per index test BASELINE, RESULT\n"
		   "and INDEX = RESULT / BASELINE * 10, then FINAL SCORE = the geometric mean\n"
		   "of the index values.  Baselines: George (SPARCstation 20-61) = 10.0.\n"
		   "\n"
		   "FILE (default: stdin) holds UnixBench result lines such as\n"
		   "  Execl Throughput                2915.4 lps   (29.6 secs, 3 samples)\n"
		   "Other lines are ignored.  A line starting with \"==\" starts a new table\n"
		   "labelled with it, and so does a test seen again.\n"
		   "RESULT_DIR is a krepro run directory (stats.json) or variant directory\n"
		   "(<n>/stats.json; the mean over runs, failed runs left out) with metrics\n"
		   "unixbench.<key>: dhry2reg whetstone-double execl fstime fsbuffer fsdisk\n"
		   "pipe context1 spawn shell1 shell8 syscall (index tests), shell16 C dc\n"
		   "hanoi grep sysexec fstime-r fstime-w fsbuffer-r fsbuffer-w fsdisk-r\n"
		   "fsdisk-w (no baseline).\n"
		   "\n"
		   "  --baselines 4  UnixBench 4.1 index set (11 tests, no shell1)\n"
		   "  --baselines 5  UnixBench 5.0+ index set (12 tests)\n"
		   "  default: 4 for text whose lines say \"secs\" (UnixBench 4), else 5\n"
		   "\n"
		   "Exit status: 0 when a table with index tests was printed, 1 when the\n"
		   "input has results but no index test, 2 on usage or input errors.\n");
}

/* Mean over the non-failed runs of a variant directory (or the single run
 * of a run directory) into m. */
static int load_dir(const char *dir, struct krp_metrics *m, char *err, size_t errsz)
{
	char *sp = krp_path_join(dir, "stats.json");
	struct stat st;
	struct krp_variant v;
	struct krp_vstats vs;
	size_t i;

	if (stat(sp, &st) == 0) {
		int rc = krp_stats_load(sp, m, err, errsz);

		free(sp);
		return rc;
	}
	free(sp);
	if (krp_variant_load(dir, &v, err, errsz) != 0)
		return -1;
	if (v.nruns == 0) {
		snprintf(err, errsz, "%s: no stats.json and no run directories", dir);
		krp_variant_free(&v);
		return -1;
	}
	krp_vstats_build(&v, &vs);
	for (i = 0; i < vs.n; i++)
		krp_metric_add(m, vs.s[i].name, krp_mean(vs.s[i].x, vs.s[i].n), KRP_SET);
	krp_vstats_free(&vs);
	krp_variant_free(&v);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"baselines", required_argument, NULL, 'b'},
	    {NULL, 0, NULL, 0},
	};
	enum krp_ub_set set = KRP_UB_AUTO;
	const char *path = "-";
	char err[KRP_ERR_MAX];
	struct krp_buf out = {0};
	struct stat st;
	size_t found = 0, i;
	int c;

	while ((c = getopt_long(argc, argv, "hb:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'b':
			if (strcmp(optarg, "4") == 0)
				set = KRP_UB_V4;
			else if (strcmp(optarg, "5") == 0)
				set = KRP_UB_V5;
			else {
				fprintf(stderr, TOOL ": --baselines: expected 4 or 5, got \"%s\"\n",
					optarg);
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, TOOL ": at most one FILE or RESULT_DIR (see --help)\n");
		return 2;
	}
	if (argc - optind == 1)
		path = argv[optind];
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct krp_metrics m;
		struct krp_ub_section s;

		krp_metrics_init(&m);
		if (load_dir(path, &m, err, sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			krp_metrics_free(&m);
			return 2;
		}
		krp_ub_from_metrics(&m, &s);
		krp_metrics_free(&m);
		if (s.n == 0) {
			fprintf(stderr, TOOL ": %s: no unixbench.* metrics\n", path);
			krp_ub_section_free(&s);
			return 2;
		}
		found = krp_ub_table(&s, set == KRP_UB_AUTO ? KRP_UB_V5 : set, &out);
		krp_ub_section_free(&s);
	} else {
		struct krp_ub_doc d;
		char *data;
		size_t len;

		if (krp_read_file(path, KRP_RAW_MAX, &data, &len, err, sizeof(err)) != 0) {
			fprintf(stderr, TOOL ": %s\n", err);
			return 2;
		}
		krp_ub_parse(data, len, &d);
		free(data);
		if (d.n == 0) {
			fprintf(stderr,
				TOOL ": %s: no UnixBench result lines "
				     "(\"<test> <value> <unit> (<t> secs, <n> samples)\")\n",
				strcmp(path, "-") ? path : "stdin");
			return 2;
		}
		for (i = 0; i < d.n; i++) {
			if (i)
				krp_buf_puts(&out, "\n");
			found += krp_ub_table(&d.s[i], set, &out);
		}
		krp_ub_doc_free(&d);
	}
	fwrite(out.data, 1, out.len, stdout);
	krp_buf_free(&out);
	if (fflush(stdout) != 0)
		return 2;
	return found ? 0 : 1;
}
