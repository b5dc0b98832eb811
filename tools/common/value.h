/* The kit's grammar of a size and a duration, written once for the host
 * tools, the guest programs and the QEMU plugin (header-only: each side
 * builds it with its own compiler and flags).
 *
 *   size      digits (or 0x and hex digits, with KRP_VALUE_HEX), then
 *             optionally K, M, G or T in either case: 10, 20, 30 or 40
 *             bits more, as the kernel's memparse
 *   duration  digits, then optionally s, m or h: seconds, minutes, hours
 *
 * A value that does not fit 64 bits is refused, never wrapped. */
#ifndef KREPRO_VALUE_H
#define KREPRO_VALUE_H
#include <stdint.h>
#include <string.h>

#define KRP_VALUE_HEX 1u

/* digits of BASE at s into *v; the count of digits, or -1 on overflow */
static inline int krp_value_digits(const char *s, unsigned base, uint64_t *v, const char **end)
{
	uint64_t x = 0;
	int n = 0;

	for (;; s++, n++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / base)
			return -1;
		x = x * base + d;
	}
	*v = x;
	*end = s;
	return n;
}

/* A size at the start of s: 0 and *v, *end past its suffix; -1 when s
 * does not start with one or it overflows. */
static inline int krp_size_prefix(const char *s, unsigned flags, uint64_t *v, const char **end)
{
	unsigned shift = 0, base = 10;
	uint64_t x;
	const char *e;

	if ((flags & KRP_VALUE_HEX) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (krp_value_digits(s, base, &x, &e) <= 0)
		return -1;
	switch (*e) {
	case 'K':
	case 'k':
		shift = 10;
		break;
	case 'M':
	case 'm':
		shift = 20;
		break;
	case 'G':
	case 'g':
		shift = 30;
		break;
	case 'T':
	case 't':
		shift = 40;
		break;
	default:
		break;
	}
	if (shift) {
		if (x > (UINT64_MAX >> shift))
			return -1;
		x <<= shift;
		e++;
	}
	*v = x;
	*end = e;
	return 0;
}

/* A duration at the start of s in seconds: as krp_size_prefix. */
static inline int krp_seconds_prefix(const char *s, uint64_t *v, const char **end)
{
	uint64_t x, mul = 1;
	const char *e;

	if (krp_value_digits(s, 10, &x, &e) <= 0)
		return -1;
	if (*e == 'm')
		mul = 60;
	else if (*e == 'h')
		mul = 3600;
	if (*e == 's' || mul > 1)
		e++;
	if (x > UINT64_MAX / mul)
		return -1;
	*v = x * mul;
	*end = e;
	return 0;
}

/* the whole of s a size (decimal) or a duration: 0, or -1 */
static inline int krp_size(const char *s, uint64_t *v)
{
	const char *e;

	return krp_size_prefix(s, 0, v, &e) == 0 && *e == '\0' ? 0 : -1;
}

static inline int krp_seconds(const char *s, uint64_t *v)
{
	const char *e;

	return krp_seconds_prefix(s, v, &e) == 0 && *e == '\0' ? 0 : -1;
}

/* the whole of s read as KIND, the key table's name of the check: "size"
 * or "duration"; 0, -1 when s is not one, -2 for another kind */
static inline int krp_value_of(const char *kind, const char *s, uint64_t *v)
{
	if (strcmp(kind, "duration") == 0)
		return krp_seconds(s, v);
	if (strcmp(kind, "size") == 0)
		return krp_size(s, v);
	return -2;
}
#endif
