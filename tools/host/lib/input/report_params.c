/* report_read's parameters block: every line taken or named as not taken
 * (see report_read.h). */
#include <stdio.h>
#include <string.h>

#include "report_params.h"

int rr_teq(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && memcmp(t->p, s, t->n) == 0;
}

/* Token i of nt is s. */
static int tat(const struct tok *tok, size_t nt, size_t i, const char *s)
{
	return i < nt && rr_teq(&tok[i], s);
}

/* Copy printable ASCII, whitespace runs as one space, at most outsz-1. */
void rr_clean_text(char *out, size_t outsz, const char *p, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < outsz; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (o > 0 && out[o - 1] != ' ')
				out[o++] = ' ';
		} else if (c >= 0x21 && c < 0x7f) {
			out[o++] = (char)c;
		}
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = 0;
}

const char *rr_param(const struct rtest *t, const char *k)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->keys[i], k) == 0)
			return t->vals[i];
	return NULL;
}

int rr_is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* A parameter's name as 0-day prints it: lkp's keys, a knob's dotted path
 * (sysctl.vm.swappiness), a description's dash (test-description). */
static int is_param_key(const char *p, size_t n)
{
	if (n == 0 || n > 31 ||
	    !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z') ||
	      (p[0] >= '0' && p[0] <= '9')))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!rr_is_key_char(p[i]) && !(p[i] >= 'A' && p[i] <= 'Z') && p[i] != '.' &&
		    p[i] != '-')
			return 0;
	return 1;
}

/* A parameter of the email the matrix does not take: named with why, in
 * the part's comments and on stderr (krp_report_to_matrix), never dropped
 * in silence. */
void rr_skip_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn,
		   const char *why)
{
	char key[48], val[64];
	size_t o = strlen(t->skipped);

	rr_clean_text(key, sizeof(key), k, kn);
	rr_clean_text(val, sizeof(val), v, vn);
	if (strlen(val) == sizeof(val) - 1)
		memcpy(val + sizeof(val) - 4, "...", 3);
	if (o + 1 < sizeof(t->skipped))
		snprintf(t->skipped + o, sizeof(t->skipped) - o, "%s%s%s (%s)\n", key,
			 val[0] ? ": " : "", val, why);
}

void rr_add_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn)
{
	if (!is_param_key(k, kn)) {
		rr_skip_param(t, k, kn, v, vn, "not a parameter's name");
		return;
	}
	if (vn == 0 || vn >= sizeof(t->vals[0])) {
		rr_skip_param(t, k, kn, v, vn,
			      vn ? "a value longer than the kit reads" : "no value");
		return;
	}
	for (int i = 0; i < t->n; i++)
		if (strlen(t->keys[i]) == kn && memcmp(t->keys[i], k, kn) == 0) {
			if (strlen(t->vals[i]) != vn || memcmp(t->vals[i], v, vn) != 0)
				rr_skip_param(t, k, kn, v, vn,
					      "given twice: the first value is taken");
			return;
		}
	if (t->n == PARAMS_MAX) {
		rr_skip_param(t, k, kn, v, vn, "more parameters than the kit reads from one test");
		return;
	}
	memcpy(t->keys[t->n], k, kn);
	t->keys[t->n][kn] = 0;
	memcpy(t->vals[t->n], v, vn);
	t->vals[t->n][vn] = 0;
	t->n++;
}

/* One line of a parameters block: "key: value".  A list ("[a, b]") is an
 * axis, as lkp's; a value the matrix cannot hold is named, as is a line
 * that is no "key: value". */
static void param_line(struct rtest *t, const char *p, size_t n)
{
	const char *colon = memchr(p, ':', n), *v;
	char val[128];
	size_t kn, vn;

	if (!colon || (colon + 1 < p + n && colon[1] != ' ' && colon[1] != '\t')) {
		rr_skip_param(t, p, n, "", 0, "not a 'key: value' line");
		return;
	}
	kn = (size_t)(colon - p);
	for (v = colon + 1; v < p + n && (*v == ' ' || *v == '\t'); v++)
		;
	vn = (size_t)(p + n - v);
	if (vn > 0 && v[0] == '[' && v[vn - 1] != ']') {
		rr_skip_param(t, p, kn, v, vn, "a list without its closing ']'");
		return;
	}
	rr_clean_text(val, sizeof(val), v, vn); /* a list's words joined by one space */
	if (strlen(val) == sizeof(val) - 1)
		rr_skip_param(t, p, kn, v, vn, "a value longer than the kit reads");
	else
		rr_add_param(t, p, kn, val, strlen(val));
}

/* The block as lines (2015 on: "parameters:", a blank line, one indented
 * "key: value" a line, a blank line; a blank line followed by more lines
 * indented as the block's is inside it).  Every line is taken or named: a key
 * the kit does not know is lkpjob's to name, a multi-line value ("|", ">",
 * a nested map) is named with its lines skipped, and the block goes on. */
/* Does a blank line at p (its '\n') lie inside the block: is the next line
 * that is not blank indented as the block's lines (block_indent, not 0)
 * and a "key: value" line? */
static int block_goes_on(const char *p, const char *end, size_t block_indent)
{
	while (p < end) {
		const char *s = ++p, *c, *colon;

		while (p < end && *p != '\n')
			p++;
		for (c = s; c < p && (*c == ' ' || *c == '\t'); c++)
			;
		if (c == p || (c + 1 == p && *c == '\r'))
			continue;
		colon = memchr(c, ':', (size_t)(p - c));
		return block_indent > 0 && (size_t)(c - s) == block_indent && colon &&
		       is_param_key(c, (size_t)(colon - c));
	}
	return 0;
}

static void read_param_lines(struct rtest *t, const char *p, const char *end)
{
	int started = 0;
	size_t block_indent = 0;

	while (p < end && *p != '\n') /* the rest of the "parameters:" line */
		p++;
	while (p < end) {
		const char *s = ++p, *c, *e;
		size_t indent;

		while (p < end && *p != '\n')
			p++;
		for (c = s; c < p && (*c == ' ' || *c == '\t'); c++)
			;
		for (e = p; e > c && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		if (c == e) {
			/* the blank line that ends the block, unless the block's
			 * lines go on after it (never a line dropped unnamed) */
			if (started && !block_goes_on(p, end, block_indent))
				return;
			continue;
		}
		indent = (size_t)(c - s);
		if (!started)
			block_indent = indent;
		started = 1;
		{
			const char *colon = memchr(c, ':', (size_t)(e - c));
			const char *v = colon ? colon + 1 : e;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			if (colon && (v == e || *v == '|' || *v == '>')) {
				/* a multi-line value: its lines are more indented */
				const char *q = p,
					   *why =
					       v == e
						   ? "a nested value: the kit takes one value a key"
						   : "a multi-line value: the kit takes one line";
				int lines = 0;

				while (q < end) {
					const char *ls = q + 1, *lc = ls;

					while (lc < end && (*lc == ' ' || *lc == '\t'))
						lc++;
					if (lc >= end || *lc == '\n' || (size_t)(lc - ls) <= indent)
						break;
					for (q = lc; q < end && *q != '\n'; q++)
						;
					lines++;
				}
				if (v == e && lines == 0)
					why = "no value";
				rr_skip_param(t, c, (size_t)(colon - c), v, (size_t)(e - v), why);
				p = q;
				continue;
			}
		}
		param_line(t, c, (size_t)(e - c));
	}
}

/* The block as tokens, when the email's lines were joined (a mail archive's
 * copy): "k: v" pairs up to the first word that is no key.  lkp's
 * description (test-description: words... test-url: URL) is named; a list
 * runs to its ']'; a multi-line value cannot be told from what follows, so
 * the block ends there, saying so. */
static void read_param_tokens(const struct tok *tok, size_t nt, struct rtest *t, size_t p)
{
	while (p + 1 < nt) {
		const struct tok *k = &tok[p], *v = &tok[p + 1];
		size_t e;

		if (k->n < 2 || k->p[k->n - 1] != ':' || !is_param_key(k->p, k->n - 1))
			return;
		if (rr_teq(k, "test-description:")) {
			for (e = p + 1; e < nt && e < p + 400 && !tat(tok, nt, e, "test-url:"); e++)
				;
			rr_skip_param(t, k->p, k->n - 1, "", 0, "the test's description");
			p = e;
			continue;
		}
		if (rr_teq(k, "test-url:")) {
			rr_skip_param(t, k->p, k->n - 1, v->p, v->n, "the test's description");
			p += 2;
			continue;
		}
		if (v->p[0] == '|' || v->p[0] == '>') {
			rr_skip_param(t, k->p, k->n - 1, v->p, v->n,
				      "a multi-line value, whose end this email's wrapping hides: "
				      "the parameters after it are not read");
			return;
		}
		e = p + 1;
		if (v->p[0] == '[')
			while (e < nt && e < p + 33 && tok[e].p[tok[e].n - 1] != ']')
				e++;
		if (e >= nt || e >= p + 33) {
			rr_skip_param(t, k->p, k->n - 1, v->p, v->n,
				      "a list without its closing ']'");
			return;
		}
		param_line(t, k->p, (size_t)(tok[e].p + tok[e].n - k->p));
		p = e + 1;
	}
}

void rr_read_params(const struct tok *tok, size_t nt, const char *end, struct rtest *t, size_t p)
{
	if (p < nt && memchr(tok[p - 1].p, '\n', (size_t)(tok[p].p - tok[p - 1].p)))
		read_param_lines(t, tok[p - 1].p + tok[p - 1].n, end);
	else
		read_param_tokens(tok, nt, t, p);
}
