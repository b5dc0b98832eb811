/* Line-at-a-time reading of raw guest output and scanning of a line, shared
 * by the parsers. */
#ifndef KREPRO_TEXTLINE_H
#define KREPRO_TEXTLINE_H
#include <stddef.h>
#include <string.h>

#include "util.h"

struct krp_line {
	const char *p;
	size_t n;
};

/* Next line of buf starting at *pos (without '\n'); 0 at the end. */
static inline int krp_next_line(const char *buf, size_t len, size_t *pos, struct krp_line *l)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	l->p = buf + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->n = nl ? (size_t)(nl - l->p) : len - *pos;
	*pos += l->n + (nl ? 1 : 0);
	return 1;
}

static inline int krp_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline void krp_trim(struct krp_line *l)
{
	while (l->n && krp_is_space(l->p[0])) {
		l->p++;
		l->n--;
	}
	while (l->n && krp_is_space(l->p[l->n - 1]))
		l->n--;
}

/* 1 if l is exactly s. */
static inline int krp_line_is(const struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n == n && memcmp(l->p, s, n) == 0;
}

/* 1 if l starts with s. */
static inline int krp_line_starts(const struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n >= n && memcmp(l->p, s, n) == 0;
}

/* Consumes literal s at the front of l; 1 if it was there. */
static inline int krp_line_eat(struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	if (l->n < n || memcmp(l->p, s, n) != 0)
		return 0;
	l->p += n;
	l->n -= n;
	return 1;
}

static inline void krp_line_skip_space(struct krp_line *l)
{
	while (l->n && krp_is_space(l->p[0])) {
		l->p++;
		l->n--;
	}
}

/* The whole of l as a number (krp_parse_number). */
static inline int krp_line_num(const struct krp_line *l, double *v)
{
	return krp_parse_number(l->p, l->n, v);
}

/* Consumes a decimal number (digits, optional fraction) at the front. */
static inline int krp_line_eat_number(struct krp_line *l, double *v)
{
	size_t i = 0;

	while (i < l->n && ((l->p[i] >= '0' && l->p[i] <= '9') || l->p[i] == '.'))
		i++;
	if (krp_parse_number(l->p, i, v) != 0)
		return -1;
	l->p += i;
	l->n -= i;
	return 0;
}

/* "key: number" with key given; 0 and *v on a match. */
static inline int krp_line_key_value(const struct krp_line *line, const char *key, double *v)
{
	struct krp_line l = *line;

	if (!krp_line_eat(&l, key) || !krp_line_eat(&l, ":"))
		return -1;
	krp_line_skip_space(&l);
	return krp_parse_number(l.p, l.n, v);
}

/* Whitespace-separated tokens of l (at most max); returns the count. */
static inline size_t krp_line_tokens(const struct krp_line *l, struct krp_line *tok, size_t max)
{
	size_t i = 0, n = 0;

	while (i < l->n && n < max) {
		while (i < l->n && krp_is_space(l->p[i]))
			i++;
		if (i == l->n)
			break;
		tok[n].p = l->p + i;
		while (i < l->n && !krp_is_space(l->p[i]))
			i++;
		tok[n].n = (size_t)(l->p + i - tok[n].p);
		n++;
	}
	return n;
}

#endif
