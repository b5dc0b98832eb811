/* libFuzzer target: a LAVA log (records, timestamps, plain console) back to
 * console text, then text frames back to binary frames, and their sessions. */
#include <stdint.h>
#include <stdlib.h>

#include "console_text.h"
#include "frame_decode.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_buf text = {0}, frames = {0};

	krp_console_from_lava((const char *)data, size, &text);
	if (text.len > size + size / 2 + 64) /* a record's msg never outgrows its line */
		abort();
	krp_frames_untext(text.data ? text.data : "", text.len, &frames);
	if (frames.len > text.len + 64) /* base64 decoded, a cut frame one short line */
		abort();
	/* what krepro-recv --session does next: a cut text frame fails alone */
	for (unsigned step = 1; step <= 2; step++) {
		struct krp_decode_result r;

		if (krp_decode_session(frames.data ? frames.data : "", frames.len, step, NULL, NULL,
				       &r) != 0 &&
		    r.err[0] == '\0')
			abort();
	}
	krp_buf_free(&text);
	krp_buf_free(&frames);
	return 0;
}
