/* LAVA logs and base64 text frames back to console bytes and binary frames:
 * what LAVA's log rewriting (quotes escaped, \r and ESC dropped) leaves. */
#include <stdlib.h>

#include "console_text.h"
#include "frame.h"
#include "unit.h"

int main(void)
{
	const unsigned char bin[] = {'a', '"', '\r', '\n', 0x1b, '[', 0xff, 0, 'z'};
	char b64[64], hdr[KRP_HEADER_MAX];
	unsigned char back[16];
	struct krp_buf log = {0}, text = {0}, frames = {0};
	int h;

	krp_b64_encode(bin, sizeof(bin), b64);
	b64[12] = 0;
	CHECK_STR("base64 of 9 bytes", b64, "YSINChtb/wB6");
	CHECK("base64 decodes back", krp_b64_decode(b64, 12, back) == (long)sizeof(bin) &&
					 memcmp(back, bin, sizeof(bin)) == 0);
	CHECK("padding", krp_b64_decode("YQ==", 4, back) == 1 && back[0] == 'a');
	CHECK("bad base64 refused",
	      krp_b64_decode("Y=Q=", 4, back) == -1 && krp_b64_decode("YQ=", 3, back) == -1);

	/* A text frame as lava-run logs it, with a console line in between. */
	h = krp_format_header(hdr, sizeof(hdr), "text", sizeof(bin),
			      krp_crc32_update(0, bin, sizeof(bin)), "kmsg");
	CHECK("text header", h > 0);
	hdr[h - 1] = 0;
	krp_buf_printf(
	    &log, "{\"dt\": \"2026-11-30T20:16:56.6\", \"lvl\": \"info\", \"msg\": \"start\"}\n");
	krp_buf_printf(
	    &log, "{\"dt\": \"2026-11-30T20:16:56.7\", \"lvl\": \"target\", \"msg\": \"%s\"}\n",
	    hdr);
	krp_buf_printf(&log, "{\"dt\": \"2026-11-30T20:16:56.7\", \"lvl\": \"target\", \"msg\": "
			     "\"a \\\\\\\"q\\\\\\\"\"}\n");
	krp_buf_printf(
	    &log, "{\"dt\": \"2026-11-30T20:16:56.8\", \"lvl\": \"feedback\", \"msg\": \"%s\"}\n",
	    b64);
	CHECK("records read", krp_console_from_lava(log.data, log.len, &text) == 4);
	CHECK("info records dropped", !memmem(text.data, text.len, "start", 5));
	CHECK("escapes undone", memmem(text.data, text.len, "a \\\"q\\\"\n", 8) != NULL);
	krp_frames_untext(text.data, text.len, &frames);
	CHECK("text frame -> file frame", !memmem(frames.data, frames.len, "KRP1 text", 9));
	CHECK("the file frame holds the bytes LAVA would have mangled",
	      memmem(frames.data, frames.len, bin, sizeof(bin)) != NULL &&
		  memmem(frames.data, frames.len, "KRP1 file 9 ", 12) != NULL);
	krp_buf_free(&frames);
	krp_buf_free(&text);

	/* lavacli's timestamps; a cut frame is an error naming it. */
	krp_buf_free(&log);
	memset(&log, 0, sizeof(log));
	krp_buf_printf(&log, "2026-11-30T20:16:57 %s\n2026-11-30T20:16:57 YSIN\n", hdr);
	CHECK("timestamped lines", krp_console_from_lava(log.data, log.len, &text) == 2 &&
				       memmem(text.data, text.len, "\nYSIN\n", 6) != NULL);
	krp_frames_untext(text.data, text.len, &frames);
	CHECK("a cut text frame is one the decoder refuses, naming it",
	      memmem(frames.data, frames.len, "KRP1 cut 4 12 kmsg\n", 19) != NULL);
	krp_buf_free(&frames);
	krp_buf_free(&text);
	krp_buf_free(&log);
	return unit_failed;
}
