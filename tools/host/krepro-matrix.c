/* krepro-matrix: expand a matrix file into cells, one per line. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "util.h"

#define TOOL "krepro-matrix"
#define MATRIX_FILE_MAX ((size_t)4 << 20)

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] FILE\n"
		   "\n"
		   "Expand a matrix file (FILE, or '-' for stdin) and print one cell per\n"
		   "line as space-separated key=value pairs in the key order of the file.\n"
		   "\n"
		   "  key: value          scalar\n"
		   "  key: [a, b, c]      axis; cells are the Cartesian product of all axes\n"
		   "  ---                 part separator; part 0 is shared and merged under\n"
		   "                      every later part (later keys override)\n"
		   "  # comment           ignored, as are blank lines\n"
		   "\n"
		   "Values are printed as written (nr_task \"100%%\" too: run-matrix.sh\n"
		   "resolves counts against the cell's board).\n"
		   "\n"
		   "Errors are printed as \"" TOOL ": FILE:LINE: problem\" and nothing else is\n"
		   "printed.  Exit status: 0 on success, 2 on usage or input errors.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct krp_matrix_err merr;
	struct krp_buf out = {0};
	char err[KRP_ERR_MAX], *data;
	const char *path, *shown;
	size_t len;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		default: /* getopt printed the problem */
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, TOOL ": expected exactly one FILE (see --help)\n");
		return 2;
	}
	path = argv[optind];
	shown = strcmp(path, "-") == 0 ? "(stdin)" : path;
	if (krp_read_file(path, MATRIX_FILE_MAX, &data, &len, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return 2;
	}
	if (krp_matrix_expand(data, len, &out, &merr) < 0) {
		if (merr.line)
			fprintf(stderr, TOOL ": %s:%lu: %s\n", shown, merr.line, merr.msg);
		else
			fprintf(stderr, TOOL ": %s: %s\n", shown, merr.msg);
		free(data);
		return 2;
	}
	free(data);
	fwrite(out.data, 1, out.len, stdout);
	krp_buf_free(&out);
	return fflush(stdout) == 0 ? 0 : 2;
}
