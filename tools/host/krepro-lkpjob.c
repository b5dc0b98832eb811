/* krepro-lkpjob: an lkp-tests job file (0-day's job.yaml) as a krepro matrix. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkpjob.h"
#include "util.h"

#define TOOL "krepro-lkpjob"
#define JOB_FILE_MAX KRP_LKPJOB_MAX_SIZE

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] --keys MATRIX_KEYS [--lkp-tests DIR] JOB.yaml\n"
		   "\n"
		   "Read an lkp-tests job file (nested program maps, block lists, several\n"
		   "documents) and print the krepro matrix that runs it: testcase -> suite,\n"
		   "the program's parameters, lists as axes, the kit's monitors among the\n"
		   "job's.  Keys that do not apply (testbox, kconfig, commit,\n"
		   "cpufreq_governor, ...) are reported once on stderr and left out.\n"
		   "\n"
		   "  --keys FILE   the key table (./run-matrix.sh --keys): keys passed through\n"
		   "  --lkp-tests DIR  an lkp-tests checkout: where \"<<: FILE\" includes are\n"
		   "                found (beside the job first, then DIR, DIR/jobs, DIR/jobs/*)\n"
		   "\n"
		   "lkp's semantics: a later YAML document inherits the first and overrides\n"
		   "it; an empty value is the program's default.\n"
		   "\n"
		   "Errors: \"" TOOL ": FILE:LINE: problem\", exit status 2.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"keys", required_argument, NULL, 'k'},
	    {"lkp-tests", required_argument, NULL, 'l'},
	    {NULL, 0, NULL, 0},
	};
	struct krp_matrix_err merr;
	struct krp_buf out = {0}, notes = {0};
	char err[KRP_ERR_MAX], *data, *keys;
	const char *keys_path = NULL, *path, *lkp_dir = NULL;
	struct krp_buf text = {0};
	struct krp_lkpjob_origin origin = {0};
	char job_dir[4096], where[8400];
	size_t len;
	int c, rc;

	while ((c = getopt_long(argc, argv, "hk:l:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'k':
			keys_path = optarg;
			break;
		case 'l':
			lkp_dir = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!keys_path || optind != argc - 1) {
		fprintf(stderr, TOOL ": expected --keys FILE and one JOB.yaml (see --help)\n");
		return 2;
	}
	path = argv[optind];
	snprintf(where, sizeof(where), "%s", path);
	if (!(keys = krp_lkpjob_read_keys(keys_path, err, sizeof(err)))) {
		fprintf(stderr, TOOL ": %s\n", err);
		return 2;
	}
	if (krp_read_file(path, JOB_FILE_MAX, &data, &len, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		free(keys);
		return 2;
	}
	snprintf(job_dir, sizeof(job_dir), "%s", path);
	if (strrchr(job_dir, '/'))
		*strrchr(job_dir, '/') = 0;
	else
		strcpy(job_dir, ".");
	rc = krp_lkpjob_includes(data, len, job_dir, lkp_dir, &text, &origin, &merr);
	free(data);
	origin.job = path;
	if (rc == 0 && krp_lkpjob_to_matrix(text.data ? text.data : "", text.len, &origin, keys,
					    &out, &notes, &merr)) {
		/* a line of the text: the file and line it came from */
		unsigned long line;
		const char *inc = krp_lkpjob_origin_of(&origin, merr.line, &line);

		if (inc)
			snprintf(where, sizeof(where), "%s:%lu (included by %s)", inc, line, path);
		else if (merr.line)
			snprintf(where, sizeof(where), "%s:%lu", path, line);
		rc = -1;
	} else if (rc != 0 && merr.line) {
		snprintf(where, sizeof(where), "%s:%lu", path, merr.line);
	}
	krp_buf_free(&text);
	krp_lkpjob_origin_free(&origin);
	free(keys);
	if (rc != 0) {
		fprintf(stderr, TOOL ": %s: %s\n", where, merr.msg);
		krp_buf_free(&notes);
		return 2;
	}
	for (size_t i = 0, s = 0; i < notes.len; i++)
		if (notes.data[i] == '\n') {
			fprintf(stderr, TOOL ": %s: %.*s\n", path, (int)(i - s), notes.data + s);
			s = i + 1;
		}
	fwrite(out.data, 1, out.len, stdout);
	krp_buf_free(&out);
	krp_buf_free(&notes);
	return fflush(stdout) == 0 ? 0 : 2;
}
