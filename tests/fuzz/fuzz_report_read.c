/* libFuzzer target: report emails -> matrix (tokens, quoted-printable,
 * quoting, 0-day tables, UnixBench lines, pivots). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

static const char keys[] =
    "\nsuite\ntest\nmode\nnr_task\nruntime\nsize\nthp\ntenants\nfit\nksm\nruns\nboard\nfault\n";
/* runs, board, fault: host settings, never taken from an email */
static const char test_keys[] =
    "\nsuite\ntest\nmode\nnr_task\nruntime\nsize\nthp\ntenants\nfit\nksm\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_buf out = {0}, notes = {0};
	struct krp_matrix_err err;
	int n = krp_report_to_matrix((const char *)data, size, "fuzz", keys, test_keys,
				     "\nwill-it-scale/test\n", &out, &notes, &err);

	if ((n < 0 && (out.len != 0 || err.msg[0] == '\0')) || n > KRP_REPORT_MAX_TESTS)
		abort();
	krp_buf_free(&out);
	krp_buf_free(&notes);
	return 0;
}
