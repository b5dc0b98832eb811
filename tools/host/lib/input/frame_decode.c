/* Frame stream decoder (see frame_decode.h). */
#include "frame_decode.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAGIC_SP KRP_MAGIC " "
#define END_SP KRP_MAGIC " end "

/* decode()'s modes: stop after the end frame (one session of several), or
 * after the first frame (is a whole frame there?). */
#define STOP_AT_END 1
#define ONE_FRAME 2

static int frame_at(const unsigned char *buf, size_t len, size_t at);

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Split the header line (without '\n') into its five space-separated
 * fields.  Returns 0 or -1 with a reason. */
struct header {
	char line[KRP_HEADER_MAX + 1];
	char *kind, *len, *crc, *name;
};

static int split_header(struct header *h, const unsigned char *p, size_t n, char *why, size_t whysz)
{
	char *f[5];
	size_t i, nf = 0;
	char *s;

	if (memchr(p, '\0', n)) {
		snprintf(why, whysz, "bad header: NUL byte");
		return -1;
	}
	memcpy(h->line, p, n);
	h->line[n] = '\0';
	s = h->line;
	f[nf++] = s;
	for (i = 0; i < n; i++) {
		if (h->line[i] == ' ') {
			if (nf == 5) {
				snprintf(why, whysz, "bad header: too many fields");
				return -1;
			}
			h->line[i] = '\0';
			f[nf++] = &h->line[i + 1];
		}
	}
	if (nf != 5) {
		snprintf(why, whysz, "bad header: expected 5 fields, got %zu", nf);
		return -1;
	}
	h->kind = f[1];
	h->len = f[2];
	h->crc = f[3];
	h->name = f[4];
	return 0;
}

static int parse_end_payload(const unsigned char *p, size_t n, struct krp_decode_result *res)
{
	char buf[128], *tok, *save = NULL;
	int have_files = 0, have_status = 0;

	if (n >= sizeof(buf) || memchr(p, '\0', n))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int is_files = strncmp(tok, "files=", 6) == 0;

		if (is_files || strncmp(tok, "step=", 5) == 0) {
			const char *d = strchr(tok, '=') + 1;
			unsigned long v = 0;

			if (!*d || strlen(d) > 9)
				return -1;
			for (; *d; d++) {
				if (*d < '0' || *d > '9')
					return -1;
				v = v * 10 + (unsigned long)(*d - '0');
			}
			if (is_files) {
				res->end_files = v;
				have_files = 1;
			} else {
				if (v == 0)
					return -1;
				res->end_step = v;
			}
		} else if (strncmp(tok, "status=", 7) == 0) {
			const char *w = tok + 7;
			size_t i, wl = strlen(w);

			if (wl == 0 || wl >= sizeof(res->end_status))
				return -1;
			for (i = 0; i < wl; i++) {
				unsigned char c = (unsigned char)w[i];

				if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				      (c >= '0' && c <= '9') || c == '_' || c == '-'))
					return -1;
			}
			memcpy(res->end_status, w, wl + 1);
			have_status = 1;
		}
	}
	return (have_files && have_status) ? 0 : -1;
}

static int decode(const void *vbuf, size_t len, int mode, krp_file_cb cb, void *ctx,
		  struct krp_decode_result *res)
{
	const unsigned char *buf = vbuf;
	struct krp_index names = {0};
	size_t pos = 0, magic = strlen(MAGIC_SP);
	int rc = -1;
	char tag[KRP_NAME_MAX + 64], safe[96];

	memset(res, 0, sizeof(*res));
	while (pos < len) {
		size_t rest = len - pos, hlen, plen, got, i;
		const unsigned char *nl, *payload;
		struct header h;
		char why[256];
		uint32_t hcrc = 0, pcrc;

		if (rest < magic || memcmp(buf + pos, MAGIC_SP, magic) != 0) {
			/* Not a frame: skip to the start of the next line. */
			nl = memchr(buf + pos, '\n', rest);
			size_t skip = nl ? (size_t)(nl - (buf + pos)) + 1 : rest;
			/* In a session, a whole frame after bytes without a newline is
			 * where the guest's next boot started: what came before it was
			 * cut (the session ends broken there; next_span resyncs). */
			const unsigned char *m =
			    (mode & STOP_AT_END) ? memmem(buf + pos, skip, MAGIC_SP, magic) : NULL;
			if (m && frame_at(m, len - (size_t)(m - buf), 0)) {
				res->frames++;
				res->bad_at = (size_t)(m - buf) - 1;
				snprintf(res->err, sizeof(res->err),
					 "frame %zu: the stream is cut: it starts again after %zu "
					 "bytes without a newline",
					 res->frames, (size_t)(m - (buf + pos)));
				goto out;
			}
			/* An empty line is the sender's own separator, not noise. */
			if (!(skip == 1 && buf[pos] == '\n'))
				res->stray += skip;
			pos += skip;
			continue;
		}
		res->frames++;
		res->bad_at = pos;
		snprintf(tag, sizeof(tag), "frame %zu", res->frames);
		nl = memchr(buf + pos, '\n', rest < KRP_HEADER_MAX ? rest : KRP_HEADER_MAX);
		if (!nl) {
			snprintf(res->err, sizeof(res->err), "%s: %s", tag,
				 rest < KRP_HEADER_MAX ? "truncated header"
						       : "header line too long");
			goto out;
		}
		hlen = (size_t)(nl - (buf + pos));
		if (split_header(&h, buf + pos, hlen, why, sizeof(why)) != 0) {
			krp_sanitize(safe, sizeof(safe), (const char *)buf + pos, hlen);
			snprintf(res->err, sizeof(res->err), "%s: %s: \"%s\"", tag, why, safe);
			goto out;
		}
		if (!krp_name_ok(h.name)) {
			krp_sanitize(safe, sizeof(safe), h.name, strlen(h.name));
			snprintf(res->err, sizeof(res->err), "%s: bad name \"%s\"", tag, safe);
			goto out;
		}
		snprintf(tag, sizeof(tag), "frame %zu (%s)", res->frames, h.name);
		int is_file = strcmp(h.kind, "file") == 0, is_end = strcmp(h.kind, "end") == 0;
		/* what krp_frames_untext left of a text frame it could not read */
		if (strcmp(h.kind, "cut") == 0 && strspn(h.len, "0123456789") == strlen(h.len) &&
		    strspn(h.crc, "0123456789") == strlen(h.crc) && strlen(h.len) < 10 &&
		    strlen(h.crc) < 10) {
			snprintf(res->err, sizeof(res->err),
				 "%s: text frame cut short: %s of %s base64 characters", tag, h.len,
				 h.crc);
			goto out;
		}
		if (strcmp(h.kind, "badtext") == 0 || strcmp(h.kind, "text") == 0) {
			snprintf(res->err, sizeof(res->err), "%s: text frame: %s", tag,
				 h.kind[0] == 'b' ? "bad base64" : "malformed header");
			goto out;
		}
		if (!is_file && !is_end) {
			krp_sanitize(safe, sizeof(safe), h.kind, strlen(h.kind));
			snprintf(res->err, sizeof(res->err), "%s: unknown kind \"%s\"", tag, safe);
			goto out;
		}
		if (is_end && strcmp(h.name, "end") != 0) {
			snprintf(res->err, sizeof(res->err), "%s: bad name for an end frame", tag);
			goto out;
		}
		size_t ll = strlen(h.len);
		plen = 0;
		for (i = 0; i < ll; i++) {
			if (h.len[i] < '0' || h.len[i] > '9' || i >= 9)
				break;
			plen = plen * 10 + (size_t)(h.len[i] - '0');
		}
		if (ll == 0 || i != ll) {
			krp_sanitize(safe, sizeof(safe), h.len, ll);
			snprintf(res->err, sizeof(res->err), "%s: bad length \"%s\"", tag, safe);
			goto out;
		}
		if (plen > KRP_LEN_MAX) {
			snprintf(res->err, sizeof(res->err),
				 "%s: length %zu exceeds the maximum %u", tag, plen,
				 (unsigned)KRP_LEN_MAX);
			goto out;
		}
		if (strlen(h.crc) != 8) {
			krp_sanitize(safe, sizeof(safe), h.crc, strlen(h.crc));
			snprintf(res->err, sizeof(res->err), "%s: bad crc field \"%s\"", tag, safe);
			goto out;
		}
		for (i = 0; i < 8; i++) {
			int d = hexval((unsigned char)h.crc[i]);

			if (d < 0) {
				krp_sanitize(safe, sizeof(safe), h.crc, 8);
				snprintf(res->err, sizeof(res->err), "%s: bad crc field \"%s\"",
					 tag, safe);
				goto out;
			}
			hcrc = (hcrc << 4) | (uint32_t)d;
		}
		payload = nl + 1;
		got = len - (size_t)(payload - buf);
		if (got < plen) {
			snprintf(res->err, sizeof(res->err),
				 "%s: truncated payload: expected %zu bytes, got %zu", tag, plen,
				 got);
			goto out;
		}
		pcrc = krp_crc32_update(0, payload, plen);
		if (pcrc != hcrc) {
			snprintf(res->err, sizeof(res->err),
				 "%s: crc mismatch: header %08lx, payload %08lx", tag,
				 (unsigned long)hcrc, (unsigned long)pcrc);
			goto out;
		}
		if (got == plen) {
			snprintf(res->err, sizeof(res->err),
				 "%s: truncated frame: missing newline after payload", tag);
			goto out;
		}
		if (payload[plen] != '\n') {
			snprintf(res->err, sizeof(res->err),
				 "%s: missing newline after payload (byte 0x%02x)", tag,
				 payload[plen]);
			goto out;
		}
		if (res->have_end) {
			snprintf(res->err, sizeof(res->err), "%s: frame after the end frame", tag);
			goto out;
		}
		if (is_end) {
			if (parse_end_payload(payload, plen, res) != 0) {
				krp_sanitize(safe, sizeof(safe), (const char *)payload, plen);
				snprintf(
				    res->err, sizeof(res->err),
				    "%s: bad end payload \"%s\" (want files=<n> status=<word>)",
				    tag, safe);
				goto out;
			}
			res->have_end = 1;
			if (mode & (STOP_AT_END | ONE_FRAME)) {
				pos = (size_t)(payload - buf) + plen + 1;
				break;
			}
		} else {
			if (krp_index_insert(&names, h.name, res->frames) != KRP_NOT_FOUND) {
				snprintf(res->err, sizeof(res->err), "%s: duplicate file name",
					 tag);
				goto out;
			}
			if (cb && cb(ctx, h.name, payload, plen, why, sizeof(why)) != 0) {
				snprintf(res->err, sizeof(res->err), "%s: %s", tag, why);
				goto out;
			}
			res->files++;
		}
		pos = (size_t)(payload - buf) + plen + 1;
		if (mode & ONE_FRAME)
			break;
	}
	res->consumed = pos;
	res->bad_at = pos;
	if (!res->have_end) {
		snprintf(res->err, sizeof(res->err), "no end frame: guest did not finish");
		goto out;
	}
	if (res->end_files != res->files) {
		snprintf(res->err, sizeof(res->err),
			 "end frame says files=%lu but %zu file frames were received",
			 res->end_files, res->files);
		goto out;
	}
	if (strcmp(res->end_status, "ok") != 0) {
		snprintf(res->err, sizeof(res->err), "guest reported status=%s", res->end_status);
		goto out;
	}
	rc = 0;
out:
	krp_index_free(&names);
	return rc;
}

int krp_decode(const void *buf, size_t len, krp_file_cb cb, void *ctx,
	       struct krp_decode_result *res)
{
	return decode(buf, len, 0, cb, ctx, res);
}

/* One session of a multi-session stream: where it lies, the step its end
 * frame names, and whether it decoded. */
struct span {
	size_t start, len;
	unsigned long step;
	int ok, ended;
	char err[sizeof(((struct krp_decode_result *)0)->err)];
};

/* A whole valid frame (header, payload, CRC, newline) starts at `at`. */
static int frame_at(const unsigned char *buf, size_t len, size_t at)
{
	struct krp_decode_result e;

	decode(buf + at, len - at, ONE_FRAME, NULL, NULL, &e);
	/* bad_at is 0 only when the first frame itself failed. */
	return e.frames == 1 && e.bad_at > 0;
}

size_t krp_frame_whole(const void *buf, size_t len)
{
	struct krp_decode_result e;

	decode(buf, len, ONE_FRAME, NULL, NULL, &e);
	return e.frames == 1 && e.bad_at > 0 ? e.consumed : 0;
}

/* The next frame magic at or after `from`, or len. */
static size_t next_magic(const unsigned char *buf, size_t len, size_t from)
{
	const unsigned char *m;

	if (from >= len)
		return len;
	m = memmem(buf + from, len - from, MAGIC_SP, strlen(MAGIC_SP));
	return m ? (size_t)(m - buf) : len;
}

/* The session starting at or after off.  It starts at the first frame
 * header that begins a line, or at the first whole valid frame anywhere
 * (after a header cut in the middle or garbage without a newline, the
 * guest's next boot starts on the same line).
 * A session broken before its end frame (a frame cut short, a garbage
 * header) ends where the next session starts: at the first valid frame
 * after the break, wherever it lies in a line, when the frames from there
 * on are a whole session of their own (closed by an end frame whose files=
 * counts them: the guest's next boot), else at the next end frame that
 * decodes (the broken session's own close, after a frame garbled in the
 * middle of it).  Either way the sessions after it are found.  Returns 0
 * at the end of the stream (no frame left). */
static int next_span(const unsigned char *buf, size_t len, size_t off, struct span *sp)
{
	struct krp_decode_result r, e;
	size_t at;
	int first_valid = 1;

	memset(sp, 0, sizeof(*sp));
	for (at = next_magic(buf, len, off); at < len; at = next_magic(buf, len, at + 1)) {
		if (at == off || buf[at - 1] == '\n' || frame_at(buf, len, at))
			break;
	}
	if (at >= len)
		return 0;
	off = at;
	sp->start = off;
	sp->ok = decode(buf + off, len - off, STOP_AT_END, NULL, NULL, &r) == 0;
	snprintf(sp->err, sizeof(sp->err), "%s", r.err);
	if (r.have_end) {
		sp->len = r.consumed;
		sp->step = r.end_step;
		sp->ended = 1;
		return 1;
	}
	/* Resynchronise: the first valid frame after the break, then end frames. */
	for (at = next_magic(buf, len, off + r.bad_at + 1); at < len;
	     at = next_magic(buf, len, at + 1)) {
		if (first_valid) {
			decode(buf + at, len - at, STOP_AT_END, NULL, NULL, &e);
			if (e.bad_at > 0 && !(e.have_end && e.frames == 1)) {
				first_valid = 0;
				if (e.have_end && e.end_files == e.files) {
					sp->len = at - off;
					return 1;
				}
			}
		}
		if (len - at < strlen(END_SP) || memcmp(buf + at, END_SP, strlen(END_SP)) != 0)
			continue;
		decode(buf + at, len - at, STOP_AT_END, NULL, NULL, &e);
		if (e.have_end && e.frames == 1) {
			sp->len = at + e.consumed - off;
			sp->step = e.end_step;
			sp->ended = 1;
			return 1;
		}
	}
	sp->len = len - off;
	return 1;
}

int krp_decode_session(const void *vbuf, size_t len, unsigned session, krp_file_cb cb, void *ctx,
		       struct krp_decode_result *res)
{
	const unsigned char *buf = vbuf;
	struct span sp, nth = {0}, bystep = {0}, unfinished = {0};
	size_t off = 0;
	unsigned k = 0, matches = 0;
	int stepped = 0, have_nth = 0, have_unfinished = 0;

	while (off < len && next_span(buf, len, off, &sp)) {
		k++;
		if (k == session) {
			nth = sp;
			have_nth = 1;
		}
		if (sp.step)
			stepped = 1;
		if (sp.step == session && matches++ == 0)
			bystep = sp;
		if (!sp.ended) {
			unfinished = sp;
			have_unfinished = 1;
		}
		off = sp.start + sp.len;
	}
	memset(res, 0, sizeof(*res));
	if (stepped) {
		if (matches > 1) {
			snprintf(res->err, sizeof(res->err), "step %u sent %u sessions", session,
				 matches);
			return -1;
		}
		if (matches == 0 && have_unfinished) {
			snprintf(res->err, sizeof(res->err), "step %u: %.900s", session,
				 unfinished.err);
			return -1;
		}
		if (matches == 0) {
			snprintf(res->err, sizeof(res->err), "step %u sent no session", session);
			return -1;
		}
		nth = bystep;
	} else if (!have_nth) {
		snprintf(res->err, sizeof(res->err),
			 "session %u missing: %u session%s in the stream", session, k,
			 k == 1 ? "" : "s");
		return -1;
	}
	if (!nth.ok) {
		snprintf(res->err, sizeof(res->err), "%s %u: %.900s", stepped ? "step" : "session",
			 session, nth.err);
		return -1;
	}
	int rc = decode(buf + nth.start, nth.len, STOP_AT_END, cb, ctx, res);
	res->consumed += nth.start;
	return rc;
}
