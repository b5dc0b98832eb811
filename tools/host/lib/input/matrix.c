/* Matrix file parser and expander (see matrix.h). */
#include "matrix.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ent {
	char *key;
	char **vals;
	size_t nvals;
	int list;
	unsigned long line;
};

struct part {
	struct ent *e;
	size_t n, cap;
	unsigned long line; /* line of its "---", or 1 for part 0 */
};

struct parser {
	struct krp_matrix_err *err;
	unsigned long line;
};

static int fail(struct parser *ps, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct parser *ps, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	ps->err->line = line;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Printable form of one byte for messages. */
static const char *show(char c, char buf[8])
{
	unsigned char u = (unsigned char)c;

	if (u > 0x20 && u < 0x7f && u != '\'' && u != '\\')
		snprintf(buf, 8, "'%c'", c);
	else if (u == ' ')
		snprintf(buf, 8, "space");
	else
		snprintf(buf, 8, "\\x%02x", u);
	return buf;
}

static void ent_free(struct ent *e)
{
	size_t i;

	for (i = 0; i < e->nvals; i++)
		free(e->vals[i]);
	free(e->vals);
	free(e->key);
}

static void part_free(struct part *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		ent_free(&p->e[i]);
	free(p->e);
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Scan a value token at s[*i]; returns its length (0 if none).  A '#'
 * inside a value is the value's (reference: tarball:PATH#SHA256): as in
 * YAML, only a '#' after a space starts a comment.  No job.conf value
 * takes one: every key's check (lib/shared/matrix-keys, suites' meta) is
 * narrower. */
static size_t scan_value(const char *s, size_t n, size_t *i)
{
	size_t st = *i;

	while (*i < n && (krp_value_char(s[*i]) || (s[*i] == '#' && *i > st)) &&
	       s[*i] != ',') /* ',' separates list items */
		(*i)++;
	return *i - st;
}

/* After a value: optional spaces, then optional " #comment". */
static int check_tail(struct parser *ps, const char *s, size_t n, size_t i, const char *what)
{
	char b[8];
	size_t sp = i;

	while (i < n && s[i] == ' ')
		i++;
	if (i == n)
		return 0;
	if (s[i] == '#' && i > sp)
		return 0;
	if (i > sp && strcmp(what, "in value") == 0)
		return fail(ps, ps->line,
			    "unexpected text after the value (values cannot contain spaces)");
	return fail(ps, ps->line, "bad character %s %s", show(s[i], b), what);
}

static void ent_add_val(struct ent *e, const char *p, size_t n)
{
	e->vals = krp_xrealloc(e->vals, (e->nvals + 1) * sizeof(*e->vals));
	e->vals[e->nvals++] = krp_xstrndup(p, n);
}

static int parse_list(struct parser *ps, const char *s, size_t n, size_t i, struct ent *e)
{
	char b[8];

	e->list = 1;
	i++; /* '[' */
	for (;;) {
		size_t vl, st;

		while (i < n && s[i] == ' ')
			i++;
		if (i == n)
			return fail(ps, ps->line, "unterminated [ (missing ])");
		st = i;
		vl = scan_value(s, n, &i);
		if (vl == 0) {
			if (s[i] == ']' && e->nvals == 0)
				return fail(ps, ps->line, "empty list for key %s", e->key);
			if (s[i] == ',' || s[i] == ']')
				return fail(ps, ps->line, "empty list item for key %s", e->key);
			if (s[i] == '[')
				return fail(ps, ps->line, "nested lists are not supported");
			return fail(ps, ps->line, "bad character %s in list", show(s[i], b));
		}
		if (vl > KRP_VALUE_MAX)
			return fail(ps, ps->line, "value too long (max %d characters)",
				    KRP_VALUE_MAX);
		ent_add_val(e, s + st, vl);
		while (i < n && s[i] == ' ')
			i++;
		if (i == n)
			return fail(ps, ps->line, "unterminated [ (missing ])");
		if (s[i] == ',') {
			i++;
			continue;
		}
		if (s[i] == ']')
			return check_tail(ps, s, n, i + 1, "after ]");
		return fail(ps, ps->line, "bad character %s in list", show(s[i], b));
	}
}

/* Parse "key: value" (leading/trailing whitespace already handled). */
static int parse_entry(struct parser *ps, const char *s, size_t n, struct ent *e)
{
	size_t i = 0, st;
	char b[8];

	memset(e, 0, sizeof(*e));
	e->line = ps->line;
	if (!krp_key_char(s[0], 1)) {
		if (!memchr(s, ':', n))
			return fail(ps, ps->line, "missing colon (expected \"key: value\")");
		return fail(ps, ps->line,
			    "bad character %s at the start of a key (keys match [a-z][a-z0-9_.]*)",
			    show(s[0], b));
	}
	while (i < n && krp_key_char(s[i], 0))
		i++;
	if (i == n || s[i] != ':') {
		if (!memchr(s, ':', n))
			return fail(ps, ps->line, "missing colon after key");
		return fail(ps, ps->line, "bad character %s in key (keys match [a-z][a-z0-9_.]*)",
			    show(s[i], b));
	}
	if (i > KRP_KEY_MAX)
		return fail(ps, ps->line, "key too long (max %d characters)", KRP_KEY_MAX);
	e->key = krp_xstrndup(s, i);
	i++; /* ':' */
	if (i == n)
		return fail(ps, ps->line, "missing value for key %s", e->key);
	if (s[i] != ' ')
		return fail(ps, ps->line, "expected a space after \"%s:\"", e->key);
	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] == '#')
		return fail(ps, ps->line, "missing value for key %s", e->key);
	if (s[i] == '[') {
		if (parse_list(ps, s, n, i, e) != 0)
			return -1;
	} else {
		st = i;
		size_t vl = scan_value(s, n, &i);
		if (vl == 0)
			return fail(ps, ps->line, "bad character %s in value", show(s[i], b));
		if (vl > KRP_VALUE_MAX)
			return fail(ps, ps->line, "value too long (max %d characters)",
				    KRP_VALUE_MAX);
		if (check_tail(ps, s, n, i, "in value") != 0)
			return -1;
		ent_add_val(e, s + st, vl);
	}
	if (strcmp(e->key, "runs") == 0) {
		const char *v = e->vals[0];
		size_t k, vl = strlen(v);

		if (e->list)
			return fail(ps, ps->line, "runs must be a single number, not a list");
		for (k = 0; k < vl; k++) {
			if (v[k] < '0' || v[k] > '9')
				break;
		}
		if (k != vl || vl > 5 || strtol(v, NULL, 10) < 1)
			return fail(ps, ps->line, "runs must be a positive integer (got \"%s\")",
				    v);
	}
	return 0;
}

static struct part *new_part(struct part **parts, size_t *np, unsigned long line)
{
	*parts = krp_xrealloc(*parts, (*np + 1) * sizeof(**parts));
	memset(&(*parts)[*np], 0, sizeof(**parts));
	(*parts)[*np].line = line;
	return &(*parts)[(*np)++];
}

static int parse_parts(struct parser *ps, const char *buf, size_t len, struct part **parts,
		       size_t *np)
{
	struct part *cur = new_part(parts, np, 1);
	size_t pos = 0;

	ps->line = 0;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos, k;
		struct ent e;

		pos += n + (nl ? 1 : 0);
		ps->line++;
		if (n > 0 && s[0] == '\t')
			return fail(ps, ps->line, "tab indentation");
		while (n > 0 && is_ws(s[n - 1]))
			n--;
		if (n == 0 || s[0] == '#')
			continue;
		if (s[0] == ' ') {
			size_t i = 0;

			while (i < n && s[i] == ' ')
				i++;
			if (s[i] == '#')
				continue;
			if (s[i] == '\t')
				return fail(ps, ps->line, "tab indentation");
			return fail(ps, ps->line, "indented line (nested keys are not supported)");
		}
		if (n == 3 && memcmp(s, "---", 3) == 0) {
			if (*np > 1 && cur->n == 0)
				return fail(ps, cur->line, "empty part after ---");
			cur = new_part(parts, np, ps->line);
			continue;
		}
		if (memchr(s, '\0', n)) {
			return fail(ps, ps->line, "bad character \\x00");
		}
		if (parse_entry(ps, s, n, &e) != 0) {
			ent_free(&e);
			return -1;
		}
		for (k = 0; k < cur->n; k++) {
			if (strcmp(cur->e[k].key, e.key) == 0) {
				fail(ps, ps->line, "duplicate key %s (first on line %lu)", e.key,
				     cur->e[k].line);
				ent_free(&e);
				return -1;
			}
		}
		if (cur->n >= KRP_MATRIX_KEYS_MAX) {
			ent_free(&e);
			return fail(ps, ps->line, "too many keys (max %d per part)",
				    KRP_MATRIX_KEYS_MAX);
		}
		if (cur->n == cur->cap) {
			cur->cap = cur->cap ? cur->cap * 2 : 16;
			cur->e = krp_xrealloc(cur->e, cur->cap * sizeof(*cur->e));
		}
		cur->e[cur->n++] = e;
	}
	if (*np > 1 && cur->n == 0)
		return fail(ps, cur->line, "empty part after ---");
	return 0;
}

/* Emit the cells of one merged entry list. */
static int emit(struct parser *ps, const struct ent **ents, size_t n, unsigned long line,
		size_t *total, struct krp_buf *out)
{
	size_t cells = 1, i, *idx;

	for (i = 0; i < n; i++) {
		if (!ents[i]->list)
			continue;
		if (cells > KRP_MATRIX_MAX_CELLS / ents[i]->nvals)
			return fail(ps, ents[i]->line, "more than %d cells", KRP_MATRIX_MAX_CELLS);
		cells *= ents[i]->nvals;
	}
	if (*total + cells > KRP_MATRIX_MAX_CELLS)
		return fail(ps, line, "more than %d cells in total", KRP_MATRIX_MAX_CELLS);
	*total += cells;
	idx = krp_xcalloc(n ? n : 1, sizeof(*idx));
	for (;;) {
		for (i = 0; i < n; i++) {
			if (i)
				krp_buf_puts(out, " ");
			krp_buf_puts(out, ents[i]->key);
			krp_buf_puts(out, "=");
			krp_buf_puts(out, ents[i]->vals[idx[i]]);
		}
		krp_buf_puts(out, "\n");
		if (out->len > KRP_MATRIX_OUT_MAX) {
			free(idx);
			return fail(ps, line, "expanded matrix too large");
		}
		/* Odometer: the last axis varies fastest. */
		for (i = n; i > 0; i--) {
			if (++idx[i - 1] < ents[i - 1]->nvals)
				break;
			idx[i - 1] = 0;
		}
		if (i == 0)
			break;
	}
	free(idx);
	return 0;
}

long krp_matrix_expand(const char *buf, size_t len, struct krp_buf *out, struct krp_matrix_err *err)
{
	struct parser ps = {err, 0};
	struct part *parts = NULL;
	size_t np = 0, total = 0, p, i, k;
	const struct ent **ents = NULL;
	long rc = -1;

	memset(err, 0, sizeof(*err));
	if (parse_parts(&ps, buf, len, &parts, &np) != 0)
		goto out;
	if (np == 1 && parts[0].n == 0) {
		fail(&ps, 0, "no keys");
		goto out;
	}
	for (p = (np == 1 ? 0 : 1); p < np; p++) {
		size_t n = 0;

		ents = krp_xrealloc(ents, (parts[0].n + parts[p].n + 1) * sizeof(*ents));
		for (i = 0; i < parts[0].n; i++)
			ents[n++] = &parts[0].e[i];
		if (p > 0) {
			for (i = 0; i < parts[p].n; i++) {
				for (k = 0; k < parts[0].n; k++) {
					if (strcmp(parts[0].e[k].key, parts[p].e[i].key) == 0)
						break;
				}
				if (k < parts[0].n)
					ents[k] = &parts[p].e[i];
				else
					ents[n++] = &parts[p].e[i];
			}
		}
		if (emit(&ps, ents, n, parts[p].line, &total, out) != 0)
			goto out;
	}
	rc = (long)total;
out:
	if (rc < 0)
		krp_buf_free(out);
	free(ents);
	for (p = 0; p < np; p++)
		part_free(&parts[p]);
	free(parts);
	return rc;
}
