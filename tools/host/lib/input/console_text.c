/* LAVA logs and text frames -> console bytes and binary frames. */
#include "console_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "frame.h"
#include "frame_decode.h"

/* One record line "{...}" -> its msg when lvl is target or feedback. */
static int lava_record(const char *p, size_t n, struct krp_buf *out)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *pr;
	const char *lvl = NULL, *msg = NULL;
	size_t msg_len = 0;
	int ok = 0;

	if (!yaml_parser_initialize(&parser))
		return 0;
	yaml_parser_set_input_string(&parser, (const unsigned char *)p, n);
	if (!yaml_parser_load(&parser, &doc)) {
		yaml_parser_delete(&parser);
		return 0;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && root->type == YAML_MAPPING_NODE) {
		for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
			yaml_node_t *v = yaml_document_get_node(&doc, pr->value);

			if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE)
				continue;
			if (strcmp((const char *)k->data.scalar.value, "lvl") == 0)
				lvl = (const char *)v->data.scalar.value;
			else if (strcmp((const char *)k->data.scalar.value, "msg") == 0) {
				msg = (const char *)v->data.scalar.value;
				msg_len = v->data.scalar.length;
			}
		}
		ok = 1;
		if (lvl && msg && (strcmp(lvl, "target") == 0 || strcmp(lvl, "feedback") == 0)) {
			krp_buf_add(out, msg, msg_len);
			krp_buf_add(out, "\n", 1);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return ok;
}

/* "2026-11-30T20:16:57 " or with fractional seconds: its length, else 0. */
static size_t timestamp_prefix(const char *p, size_t n)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	if (n < sizeof(pat))
		return 0;
	for (i = 0; i < sizeof(pat) - 1; i++)
		if (pat[i] == 'd' ? (p[i] < '0' || p[i] > '9') : p[i] != pat[i])
			return 0;
	if (i < n && p[i] == '.')
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
	return i < n && p[i] == ' ' ? i + 1 : 0;
}

size_t krp_console_from_lava(const char *buf, size_t len, struct krp_buf *out)
{
	int over;

	return krp_console_from_lava_max(buf, len, (size_t)-1, out, &over);
}

size_t krp_console_from_lava_max(const char *buf, size_t len, size_t max, struct krp_buf *out,
				 int *over)
{
	size_t pos = 0, records = 0;

	*over = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - buf) - pos : len - pos, skip = 0, ts;
		const char *p = buf + pos;

		/* A line gives at most itself and a newline. */
		if (n + 1 > max || out->len > max - n - 1) {
			*over = 1;
			break;
		}

		if (n >= 2 && p[0] == '-' && p[1] == ' ')
			skip = 2;
		if (n > skip + 7 && memcmp(p + skip, "{\"dt\": ", 7) == 0 &&
		    lava_record(p + skip, n - skip, out)) {
			records++;
		} else if ((ts = timestamp_prefix(p, n)) > 0) {
			records++;
			krp_buf_add(out, p + ts, n - ts);
			krp_buf_add(out, "\n", 1);
		} else {
			krp_buf_add(out, p, n + (nl ? 1 : 0));
		}
		pos += n + 1;
	}
	return records;
}

static int is_b64_line(const char *p, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '+' || c == '/' || c == '='))
			return 0;
	}
	return 1;
}

/* The first "KRP1 " in p[0..n) after its start, or NULL. */
static const char *magic_in(const char *p, size_t n)
{
	return n > 1 ? memmem(p + 1, n - 1, KRP_MAGIC " ", 5) : NULL;
}

void krp_frames_untext(const char *buf, size_t len, struct krp_buf *out)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos), *m;
		size_t n = nl ? (size_t)(nl - buf) - pos : len - pos, whole;
		char name[KRP_NAME_MAX + 1], crc[9], hdr[KRP_HEADER_MAX];
		unsigned long plen;
		size_t need, have = 0;
		char *b64;
		unsigned char *bin;
		long got;
		int h;

		if (n >= 5 && memcmp(buf + pos, KRP_MAGIC " ", 5) == 0 &&
		    (whole = krp_frame_whole(buf + pos, len - pos)) > 0) {
			/* a binary frame (an end frame): its payload is data */
			krp_buf_add(out, buf + pos, whole);
			pos += whole;
			continue;
		}
		if ((m = magic_in(buf + pos, n))) {
			/* a boot cut without a newline, the next one's frame on its line:
			 * the bytes before it stay without one (frame_decode.c's resync) */
			krp_buf_add(out, buf + pos, (size_t)(m - buf) - pos);
			pos = (size_t)(m - buf);
			continue;
		}
		if (n < 10 || n >= KRP_HEADER_MAX || memcmp(buf + pos, "KRP1 text ", 10) != 0) {
			krp_buf_add(out, buf + pos, n + (nl ? 1 : 0));
			pos += n + 1;
			continue;
		}
		memcpy(hdr, buf + pos, n);
		hdr[n] = 0;
		if (n > 0 && hdr[n - 1] == '\r')
			hdr[n - 1] = 0;
		if (sscanf(hdr, "KRP1 text %9lu %8[0-9a-f] %128[A-Za-z0-9._+-]", &plen, crc,
			   name) != 3 ||
		    plen > KRP_LEN_MAX || strlen(crc) != 8) {
			/* left as it is: the decoder refuses it as a broken frame */
			krp_buf_add(out, buf + pos, n + (nl ? 1 : 0));
			pos += n + 1;
			continue;
		}
		need = 4 * ((plen + 2) / 3);
		b64 = krp_xmalloc(need + 1);
		pos += n + 1;
		while (have < need && pos < len) {
			const char *l = buf + pos, *e = memchr(l, '\n', len - pos);
			size_t ln = e ? (size_t)(e - l) : len - pos;

			/* the next frame, on its line or after bytes without a
			 * newline: this one is cut */
			if ((ln >= 5 && memcmp(l, "KRP1 ", 5) == 0))
				break;
			if ((m = magic_in(l, ln))) {
				pos = (size_t)(m - buf);
				break;
			}
			pos += ln + 1;
			while (ln > 0 && (l[ln - 1] == '\r' || l[ln - 1] == ' '))
				ln--;
			if (!is_b64_line(l, ln))
				continue; /* a console line in between */
			if (have + ln > need)
				break;
			memcpy(b64 + have, l, ln);
			have += ln;
		}
		if (pos > len)
			pos = len;
		if (have != need) {
			/* a frame the decoder refuses, saying why: the session it is in
			 * is broken there, and the next session is found after it, as
			 * after a cut binary frame */
			krp_buf_printf(out, "KRP1 cut %zu %zu %s\n", have, need, name);
			free(b64);
			continue;
		}
		bin = krp_xmalloc(need / 4 * 3 + 1); /* what need characters can hold, not plen */
		got = krp_b64_decode(b64, need, bin);
		free(b64);
		if (got != (long)plen) {
			krp_buf_printf(out, "KRP1 badtext 0 00000000 %s\n", name);
			free(bin);
			continue;
		}
		h = snprintf(hdr, sizeof(hdr), "KRP1 file %lu %s %s\n", plen, crc, name);
		krp_buf_add(out, hdr, (size_t)h);
		krp_buf_add(out, bin, plen);
		krp_buf_add(out, "\n", 1);
		free(bin);
	}
}
