/* libFuzzer target: a LAVA log (records, timestamps, plain console) back to
 * console text, then text frames back to binary frames. */
#include <stdint.h>
#include <stdlib.h>

#include "console_text.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_buf text = {0}, frames = {0};
	char err[160];

	krp_console_from_lava((const char *)data, size, &text);
	if (text.len > size + size / 2 + 64) /* a record's msg never outgrows its line */
		abort();
	if (krp_frames_untext(text.data ? text.data : "", text.len, &frames, err, sizeof(err)) ==
		0 &&
	    frames.len > text.len + 64)
		abort();
	krp_buf_free(&text);
	krp_buf_free(&frames);
	return 0;
}
