/* Decoder for the guest-to-host frame stream (docs/ARCHITECTURE.md, "Guest
 * to host protocol").  Works on an in-memory buffer; the input is untrusted.
 * File payloads are handed to a callback; nothing is written here. */
#ifndef KREPRO_FRAME_DECODE_H
#define KREPRO_FRAME_DECODE_H
#include <stddef.h>

#include "frame.h"

/* Called for each valid file frame, in stream order.  Return 0 to go on, or
 * nonzero after writing a reason into err (it becomes part of the decode
 * error). */
typedef int (*krp_file_cb)(void *ctx, const char *name, const unsigned char *data, size_t len,
			   char *err, size_t errsz);

struct krp_decode_result {
	size_t frames;		 /* frames seen (including a failing one) */
	size_t files;		 /* valid file frames */
	size_t stray;		 /* bytes outside frames */
	int have_end;		 /* an end frame was received */
	unsigned long end_files; /* files=<n> of the end frame */
	char end_status[32];	 /* status=<word> of the end frame */
	unsigned long end_step;	 /* step=<n> of the end frame, 0 without */
	char err[1024];		 /* reason when krp_decode returns -1 */
	size_t consumed;	 /* bytes walked: up to just after the end frame */
	size_t bad_at;		 /* offset of the frame that failed, if one did (or the
				  * last byte before a session's cut) */
};

/* The length of the whole valid frame (header, payload, CRC, newline) at
 * buf, or 0 when there is none. */
size_t krp_frame_whole(const void *buf, size_t len);

/* Decode a whole stream.  Returns 0 when every frame is valid, an end frame
 * was received, its files= equals the number of file frames and its status
 * is "ok"; else -1 with res->err set (e.g. "frame 3 (meminfo): crc mismatch:
 * header 1234abcd, payload 89abcdef"). */
int krp_decode(const void *buf, size_t len, krp_file_cb cb, void *ctx,
	       struct krp_decode_result *res);

/* The same for one session of a stream holding several, each closed by its
 * own end frame: a kexec chain sends one session per boot.  When the end
 * frames carry step=<n>, `session` is that step number: a step that sent
 * twice or sent garbage costs only itself, and the sessions after it still
 * reach their own steps.  Without step= (older guests) sessions are counted
 * in order from 1.  Frames of other sessions are not passed to cb. */
int krp_decode_session(const void *buf, size_t len, unsigned session, krp_file_cb cb, void *ctx,
		       struct krp_decode_result *res);

#endif
