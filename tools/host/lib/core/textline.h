/* Line-at-a-time reading of raw guest output, shared by the parsers. */
#ifndef KREPRO_TEXTLINE_H
#define KREPRO_TEXTLINE_H
#include <stddef.h>
#include <string.h>

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

#endif
