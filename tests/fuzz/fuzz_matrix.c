/* libFuzzer target: matrix file parser and expander.  The first byte is
 * skipped (it picked a --board-cpus that is gone; the seeds keep it). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_matrix_err err;
	struct krp_buf out = {0};
	long n;

	if (size > 0) {
		data++;
		size--;
	}
	n = krp_matrix_expand((const char *)data, size, &out, &err);
	if (n < 0) {
		if (out.len != 0 || err.msg[0] == '\0')
			abort();
	} else {
		size_t lines = 0, i;

		if (n == 0 || n > KRP_MATRIX_MAX_CELLS)
			abort();
		for (i = 0; i < out.len; i++)
			lines += out.data[i] == '\n';
		if (lines != (size_t)n)
			abort();
	}
	krp_buf_free(&out);
	return 0;
}
