/* Guest-to-host result frames (see docs/ARCHITECTURE.md, "Guest to host
 * protocol").  Shared by the guest sender and the host receiver. */
#ifndef KREPRO_FRAME_H
#define KREPRO_FRAME_H
#include <stddef.h>
#include <stdint.h>

#define KRP_MAGIC "KRP1"
#define KRP_NAME_MAX 128
#define KRP_LEN_MAX (64u << 20)
#define KRP_HEADER_MAX 192

/* IEEE 802.3 CRC-32 (the zlib/gzip one); crc32_update(0, buf, len) for a
 * whole buffer, or chained for pieces. */
uint32_t krp_crc32_update(uint32_t crc, const void *buf, size_t len);

/* 1 if name is an acceptable frame/file name: [A-Za-z0-9][A-Za-z0-9._+-]*,
 * at most KRP_NAME_MAX bytes, not "." or "..". */
int krp_name_ok(const char *name);

/* Format "KRP1 <kind> <len> <crc8> <name>\n" into out; returns its length,
 * or -1 if kind/name/len are invalid or out is too small. */
int krp_format_header(char *out, size_t outsz, const char *kind, size_t len, uint32_t crc,
		      const char *name);

/* Console-safe frames ("KRP1 text <len> <crc32> <name>\n" then the payload
 * in base64, KRP_B64_LINE characters a line): what a lab scheduler's log
 * keeps intact (LAVA escapes quotes, drops \r and ESC, folds blank lines,
 * replaces invalid UTF-8).  len and crc32 are the decoded payload's. */
#define KRP_B64_LINE 76
/* out: 4 * ((n + 2) / 3) characters, no terminator. */
void krp_b64_encode(const unsigned char *in, size_t n, char *out);
/* Decodes n characters (a multiple of 4, '=' padding only at the end) into
 * out; returns the byte count or -1. */
long krp_b64_decode(const char *in, size_t n, unsigned char *out);

#endif
