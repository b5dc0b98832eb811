/* libFuzzer target: the frame stream decoder over arbitrary bytes, in
 * memory (no files are written). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "frame_decode.h"

static int check_file(void *ctx, const char *name, const unsigned char *data, size_t len, char *err,
		      size_t errsz)
{
	size_t *total = ctx;

	(void)err;
	(void)errsz;
	/* Invariants: only valid names and bounded payloads reach the
	 * writer. */
	if (!krp_name_ok(name) || len > KRP_LEN_MAX)
		abort();
	*total += len;
	(void)krp_crc32_update(0, data, len);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_decode_result r;
	size_t total = 0;
	int rc = krp_decode(data, size, check_file, &total, &r);

	if (total > size || r.stray > size)
		abort();
	if (rc == 0 && (!r.have_end || r.end_files != r.files || strcmp(r.end_status, "ok") != 0))
		abort();
	if (rc != 0 && r.err[0] == '\0')
		abort();
	/* Sessions of a kexec chain, by step: the same invariants, and what
	 * one session passes on lies inside the stream. */
	for (unsigned step = 1; step <= 3; step++) {
		total = 0;
		rc = krp_decode_session(data, size, step, check_file, &total, &r);
		if (total > size || r.consumed > size || (rc != 0 && r.err[0] == '\0'))
			abort();
	}
	return 0;
}
