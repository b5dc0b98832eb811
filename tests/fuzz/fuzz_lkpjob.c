/* libFuzzer target: lkp-tests job files (libyaml) -> matrix, and that matrix
 * through the kit's own parser (which may still refuse a value, e.g. a list
 * for runs: run-matrix then names the converted file's line). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lkpjob.h"
#include "matrix.h"
#include "util.h"

static const char keys[] =
    "\nsuite\ntest\nmode\nnr_task\nruntime\nsize\nthp\nthreads\nmonitors\nfs\nruns\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_buf out = {0}, notes = {0}, cells = {0};
	struct krp_matrix_err err;

	if (krp_lkpjob_to_matrix((const char *)data, size, keys, &out, &notes, &err) != 0) {
		if (out.len != 0 || err.msg[0] == '\0')
			abort();
	} else if (krp_matrix_expand(out.data, out.len, &cells, &err) < 0 && err.msg[0] == '\0') {
		abort();
	}
	krp_buf_free(&out);
	krp_buf_free(&notes);
	krp_buf_free(&cells);
	/* "<<: FILE" lines: with no checkout and no folder, every include is
	 * refused naming it; the text without one comes back as it was */
	if (krp_lkpjob_includes((const char *)data, size, "/nonexistent", NULL, &out, NULL, &err) !=
	    0) {
		if (out.len != 0 || err.msg[0] == '\0' || err.line == 0)
			abort();
	} else if (out.len < size) {
		abort();
	}
	krp_buf_free(&out);
	return 0;
}
