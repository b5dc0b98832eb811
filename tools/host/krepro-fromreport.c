/* krepro-fromreport: a report email (0-day's, UnixBench results, a tenant
 * pivot) -> the matrix that reproduces it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkpjob.h"
#include "report_read.h"
#include "util.h"

#define TOOL "krepro-fromreport"
#define REPORT_MAX ((size_t)8 << 20)

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] --keys MATRIX_KEYS REPORT.txt\n"
		   "\n"
		   "Read a performance report email and print the matrix that reproduces\n"
		   "it: 0-day's (any year: the \"testcase: ... with following parameters\"\n"
		   "sentence, the \"compiler/.../testcase:\" headers, the \"also has\n"
		   "significant impact\" table, the 2014 \"test case: BOX/TEST/PARAMS\"),\n"
		   "UnixBench result lines, or a tenant pivot (nofit/fit, noksm/ksm,\n"
		   "nothp/thp).  One part per test, with the test machine as a comment.\n"
		   "\n"
		   "  --keys FILE   the key table (./run-matrix.sh --keys)\n"
		   "\n"
		   "Exit status 2 when no test is found.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"keys", required_argument, NULL, 'k'},
	    {NULL, 0, NULL, 0},
	};
	struct krp_matrix_err merr;
	struct krp_buf out = {0}, notes = {0};
	char err[KRP_ERR_MAX], *data, *keys, *test_keys, *required, *table;
	const char *keys_path = NULL;
	size_t len, tlen;
	int c, rc;

	while ((c = getopt_long(argc, argv, "hk:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'k':
			keys_path = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!keys_path || optind != argc - 1) {
		fprintf(stderr, TOOL ": expected --keys FILE and one REPORT (see --help)\n");
		return 2;
	}
	if (krp_read_file(keys_path, (size_t)64 << 10, &table, &tlen, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return 2;
	}
	keys = krp_lkpjob_keys(table, tlen);
	test_keys = krp_report_test_keys(table, tlen);
	required = krp_report_required_keys(table, tlen);
	free(table);
	if (krp_read_file(argv[optind], REPORT_MAX, &data, &len, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		free(keys);
		free(test_keys);
		free(required);
		return 2;
	}
	rc = krp_report_to_matrix(data, len, argv[optind], keys, test_keys, required, &out, &notes,
				  &merr);
	free(data);
	free(keys);
	free(test_keys);
	free(required);
	/* each parameter not taken, named on stderr as in the matrix */
	for (size_t s = 0, i = 0; i < notes.len; i++)
		if (notes.data[i] == '\n') {
			fprintf(stderr, TOOL ": %.*s\n", (int)(i - s), notes.data + s);
			s = i + 1;
		}
	krp_buf_free(&notes);
	if (rc < 0) {
		fprintf(stderr, TOOL ": %s: %s\n", argv[optind], merr.msg);
		return 2;
	}
	fwrite(out.data, 1, out.len, stdout);
	krp_buf_free(&out);
	return fflush(stdout) == 0 ? 0 : 2;
}
