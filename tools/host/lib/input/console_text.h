/* Result frames that crossed a lab scheduler's log: LAVA's log records back
 * into console text, and "KRP1 text" (base64) frames back into the binary
 * frames frame_decode.c reads. */
#ifndef KREPRO_CONSOLE_TEXT_H
#define KREPRO_CONSOLE_TEXT_H
#include <stddef.h>

#include "util.h"

/* A LAVA job log in any of its forms, one console line per record:
 *   {"dt": ..., "lvl": "target", "msg": "..."}     lava-run's stderr
 *   - {"dt": ..., "lvl": "target", "msg": "..."}   the server's output.yaml
 *   2026-11-30T20:16:57 text                       lavacli jobs logs
 * Records are YAML (read with libyaml: its escapes undone); only the levels
 * that carry the board's output (target, feedback) are kept.  Other lines
 * pass as they are (a plain console log stays itself).  Returns the number
 * of records read. */
size_t krp_console_from_lava(const char *buf, size_t len, struct krp_buf *out);

/* The same, stopping once the console text passes max bytes (*over set to
 * 1): the text kept is at most max plus one line of the log. */
size_t krp_console_from_lava_max(const char *buf, size_t len, size_t max, struct krp_buf *out,
				 int *over);

/* Copies buf to out with every "KRP1 text" frame made a "KRP1 file" frame
 * (base64 lines decoded; blank lines, \r and lines that are not base64 in
 * between are skipped; whole binary frames, the guest's end frames, copied
 * as they are).  A text frame cut short (the next frame's header, at a
 * line's start or after bytes without a newline, before its base64 is
 * whole) becomes "KRP1 cut HAVE NEED NAME", one that is not base64 "KRP1
 * badtext ...", a malformed header stays itself: frames the decoder
 * refuses, so that only the session holding one fails and the next
 * session (a kexec chain's next step) is found after it, as after a cut
 * binary frame. */
void krp_frames_untext(const char *buf, size_t len, struct krp_buf *out);

#endif
