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

	struct krp_lkpjob_origin origin = {0};

	if (krp_lkpjob_to_matrix((const char *)data, size, NULL, keys, &out, &notes, &err) != 0) {
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
	if (krp_lkpjob_includes((const char *)data, size, "/nonexistent", NULL, &out, &origin,
				&err) != 0) {
		if (out.len != 0 || err.msg[0] == '\0' || err.line == 0 || origin.n != 0)
			abort();
	} else if (out.len < size) {
		abort();
	} else {
		/* the text with its origin, as krepro-lkpjob reads it */
		struct krp_buf m = {0};

		origin.job = "job.yaml";
		if (krp_lkpjob_to_matrix(out.data ? out.data : "", out.len, &origin, keys, &m,
					 &notes, &err) != 0 &&
		    (m.len != 0 || err.msg[0] == '\0'))
			abort();
		krp_buf_free(&m);
	}
	krp_buf_free(&out);
	krp_buf_free(&notes);
	krp_lkpjob_origin_free(&origin);
	return 0;
}
