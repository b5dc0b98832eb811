/* The kernel's symbols (see ksyms.h). */
#include "ksyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr;
	size_t name; /* offset in names, or SIZE_MAX: not text */
};

struct krm_ksyms {
	struct ksym *s;
	size_t n;
	char *names;
};

static int name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line (no newline) into *addr, *text, the name's [*ns, *ne). */
static const char *parse_line(const char *l, uint64_t *addr, int *text, const char **name,
			      size_t *nlen)
{
	const char *p = l;
	uint64_t a = 0;
	int d, digits = 0;

	while ((d = hexval(*p)) >= 0) {
		if (++digits > 16)
			return "address over 16 hex digits";
		a = a << 4 | (uint64_t)d;
		p++;
	}
	if (digits == 0 || *p != ' ')
		return "expected 'ADDRESS TYPE NAME'";
	p++;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '?') || p[1] != ' ')
		return "expected a one-letter symbol type";
	*text = strchr("tTwW", *p) != NULL;
	p += 2;
	*name = p;
	while (name_char(*p))
		p++;
	if (*p)
		return "a symbol name holds a byte outside [A-Za-z0-9_.$]";
	*nlen = (size_t)(p - *name);
	if (*nlen == 0 || *nlen > KRM_KSYM_NAME_MAX)
		return "a symbol name of 0 or too many bytes";
	*addr = a;
	return NULL;
}

static const char *names_of; /* qsort has no context argument */

static int by_addr(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* at one address: the other symbols first, then text by name */
	if ((a->name == SIZE_MAX) != (b->name == SIZE_MAX))
		return a->name == SIZE_MAX ? -1 : 1;
	if (a->name == SIZE_MAX)
		return 0;
	return strcmp(names_of + a->name, names_of + b->name);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 1024;
	void *q;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return p;
	q = realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

struct krm_ksyms *krm_ksyms_load(const char *path, char *err, size_t errlen)
{
	struct krm_ksyms *k = calloc(1, sizeof(*k));
	size_t cap = 0, ncap = 0, nused = 0, lineno = 0, total = 0;
	char line[256];
	const char *why = NULL;
	FILE *f;

	if (!k) {
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		free(k);
		return NULL;
	}
	while (!why && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line), nlen = 0;
		uint64_t addr = 0;
		int text = 0;
		const char *name = NULL;
		void *q;

		lineno++;
		total += len;
		if (total > KRM_KSYMS_MAX_BYTES) {
			why = "over the bound of 256 MiB";
			break;
		}
		if (len == 0 || line[len - 1] != '\n') {
			why = feof(f) ? "no newline at the end" : "a line over 254 bytes";
			break;
		}
		line[--len] = 0;
		if ((why = parse_line(line, &addr, &text, &name, &nlen)) != NULL)
			break;
		if (k->n == KRM_KSYMS_MAX) {
			why = "more symbols than the bound";
			break;
		}
		if (!(q = grow(k->s, &cap, k->n + 1, sizeof(*k->s)))) {
			why = "out of memory";
			break;
		}
		k->s = q;
		k->s[k->n].addr = addr;
		k->s[k->n].name = SIZE_MAX;
		if (text) {
			if (!(q = grow(k->names, &ncap, nused + nlen + 1, 1))) {
				why = "out of memory";
				break;
			}
			k->names = q;
			memcpy(k->names + nused, name, nlen);
			k->names[nused + nlen] = 0;
			k->s[k->n].name = nused;
			nused += nlen + 1;
		}
		k->n++;
	}
	if (!why && ferror(f))
		why = "read error";
	if (!why && !k->names)
		why = "no text symbol (t, T, w, W): not a System.map";
	fclose(f);
	if (why) {
		snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
		krm_ksyms_free(k);
		return NULL;
	}
	names_of = k->names;
	qsort(k->s, k->n, sizeof(*k->s), by_addr);
	names_of = NULL;
	return k;
}

const char *krm_ksyms_find(const struct krm_ksyms *k, uint64_t pc)
{
	size_t lo = 0, hi;

	if (!k || k->n == 0 || pc < k->s[0].addr)
		return NULL;
	hi = k->n; /* the last entry with addr <= pc is in [lo, hi) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return k->s[lo].name == SIZE_MAX ? NULL : k->names + k->s[lo].name;
}

size_t krm_ksyms_count(const struct krm_ksyms *k)
{
	return k ? k->n : 0;
}

void krm_ksyms_free(struct krm_ksyms *k)
{
	if (!k)
		return;
	free(k->s);
	free(k->names);
	free(k);
}
