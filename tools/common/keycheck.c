/* keycheck: the key table's value grammar (keycheck.h). */
#include "keycheck.h"
#include "value.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int krp_keys_parse(struct krp_keys *t, const char *text, size_t len)
{
	size_t cap = 0, i;
	char *p;

	memset(t, 0, sizeof(*t));
	t->text = malloc(len + 1);
	if (!t->text)
		return -1;
	memcpy(t->text, text, len);
	t->text[len] = '\0';
	for (p = t->text; p < t->text + len;) {
		char *end = memchr(p, '\n', (size_t)(t->text + len - p)), *w[4];
		int nw = 0;

		if (end)
			*end = '\0';
		else
			end = t->text + len;
		/* the first four words; the rest of the line stays (unused) */
		for (char *q = p; nw < 4;) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (!*q)
				break;
			w[nw++] = q;
			while (*q && *q != ' ' && *q != '\t')
				q++;
			if (*q)
				*q++ = '\0';
		}
		if (nw == 4) {
			if (t->n == cap) {
				struct krp_key_row *r;

				cap = cap ? cap * 2 : 64;
				r = realloc(t->rows, cap * sizeof(*r));
				if (!r) {
					krp_keys_free(t);
					return -1;
				}
				t->rows = r;
			}
			i = t->n++;
			t->rows[i].key = w[0];
			t->rows[i].check = w[1];
			t->rows[i].owner = w[3];
		}
		p = end + 1;
	}
	return 0;
}

void krp_keys_free(struct krp_keys *t)
{
	free(t->text);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static int owned(const char *owner, const char *suite)
{
	return strcmp(owner, "kit") == 0 || strcmp(owner, suite) == 0 ||
	       strncmp(owner, "monitor:", 8) == 0;
}

const char *krp_keys_check(const struct krp_keys *t, const char *key, const char *suite)
{
	if (strncmp(key, "sysctl.", 7) == 0 || strncmp(key, "sysfs.", 6) == 0)
		return "path";
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].key, key) == 0 && owned(t->rows[i].owner, suite))
			return t->rows[i].check;
	return NULL;
}

static size_t dist(const char *a, size_t la, const char *b, size_t lb)
{
	size_t *row = malloc((lb + 1) * sizeof(*row)), d;

	if (!row)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j] + 1, left = row[j - 1] + 1;
			size_t sub = diag + (a[i - 1] != b[j - 1]);

			diag = row[j];
			row[j] = up < left ? (up < sub ? up : sub) : (left < sub ? left : sub);
		}
	}
	d = row[lb];
	free(row);
	return d;
}

void krp_closest(const char *w, const char *list, char *out, size_t outsz)
{
	size_t best = 0, bl = 0, bk = 0, lw = strlen(w);
	int any = 0;

	for (const char *p = list; *list;) {
		const char *e = strchr(p, '|');
		size_t l = e ? (size_t)(e - p) : strlen(p), k = dist(w, lw, p, l);

		if (!any || k < bk) {
			best = (size_t)(p - list);
			bl = l;
			bk = k;
			any = 1;
		}
		if (!e)
			break;
		p = e + 1;
	}
	if (outsz == 0)
		return;
	if (bl >= outsz)
		bl = outsz - 1;
	memcpy(out, list + best, bl);
	out[bl] = '\0';
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int span_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* awk's string to number: leading blanks, a sign, digits, a fraction */
static double num(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if ((*s < '0' || *s > '9') && *s != '-' && *s != '+' && *s != '.')
		return 0;
	return strtod(s, NULL);
}

static int only(const char *s, const char *set)
{
	return s[strspn(s, set)] == '\0';
}

#define WORD_SET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"

static int bad_words(const char *v)
{
	size_t l = strlen(v);

	return l == 0 || v[0] == '+' || v[l - 1] == '+' || strstr(v, "++") ||
	       !only(v, WORD_SET "+") || l > 64;
}

/* "|" LIST "|" holds "|" W "|" (W is LEN bytes, bars and all: awk's index) */
static int in_list(const char *list, const char *w, size_t len)
{
	size_t ll = strlen(list);

	for (const char *q = list; q + len <= list + ll; q++)
		if ((q == list || q[-1] == '|') && memcmp(q, w, len) == 0 &&
		    (q + len == list + ll || q[len] == '|'))
			return 1;
	return 0;
}

/* a number of digits then one of SUFFIXES (or none) */
static int number_then(const char *v, const char *suffixes)
{
	size_t n = strspn(v, "0123456789");

	return n > 0 && (v[n] == '\0' || (v[n + 1] == '\0' && strchr(suffixes, v[n])));
}

static int say(char *msg, size_t msgsz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *msg, size_t msgsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (msgsz)
		vsnprintf(msg, msgsz, fmt, ap);
	va_end(ap);
	return 1;
}

/* each piece of V cut at SEP (awk's split: "" has none, "a++b" an empty
 * one), FN(piece, len, ctx) until it returns nonzero */
static int each_piece(const char *v, char sep, int (*fn)(const char *, size_t, void *), void *ctx)
{
	if (!*v)
		return 0;
	for (const char *p = v;;) {
		const char *e = strchr(p, sep);
		size_t l = e ? (size_t)(e - p) : strlen(p);
		int r = fn(p, l, ctx);

		if (r || !e)
			return r;
		p = e + 1;
	}
}

struct piece_ctx {
	const char *list; /* for list lookups */
	const char **hit; /* the piece that failed */
	size_t *hitlen;
};

static int not_in(const char *p, size_t l, void *c)
{
	struct piece_ctx *x = c;

	if (in_list(x->list, p, l))
		return 0;
	*x->hit = p;
	*x->hitlen = l;
	return 1;
}

static int bad_variant(const char *p, size_t l, void *c)
{
	struct piece_ctx *x = c;
	int bad = l == 0 || l > 100 ||
		  !strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", p[0]);

	for (size_t i = 0; !bad && i < l; i++)
		bad =
		    !strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._@+~^-",
			    p[i]) ||
		    p[i] == '\0' || (i + 1 < l && p[i] == '.' && p[i + 1] == '.') ||
		    /* each part of A+B starts as a name does, none empty */
		    (p[i] == '+' && (i + 1 == l || strchr("~^.+", p[i + 1]) != NULL));
	if (!bad)
		return 0;
	*x->hit = p;
	*x->hitlen = l;
	return 1;
}

static size_t bars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '|';
	return n;
}

int krp_check_plan(const char *check, const char *key, const char *val, const char *suite,
		   const char *monitors, char *msg, size_t msgsz)
{
	char near[256], want[1024];
	const char *hit = NULL;
	size_t hitlen = 0, vl = strlen(val);
	struct piece_ctx pc = {NULL, &hit, &hitlen};
	const char *lo = "", *hi = "";
	size_t lol = 0;
	int bad = 0;

	/* Numbers are decimal without a leading zero: the shell's arithmetic
	 * reads 08 as a bad octal number. */
	if ((strncmp(check, "int:", 4) == 0 || strncmp(check, "count:", 6) == 0 ||
	     strcmp(check, "duration") == 0 || strcmp(check, "size") == 0) &&
	    val[0] == '0' && val[1] >= '0' && val[1] <= '9')
		return say(
		    msg, msgsz,
		    "bad value '%s' for '%s': a number with a leading zero (write it without)", val,
		    key);
	if (strcmp(check, "word") == 0 || strcmp(check, "path") == 0) {
		bad = vl == 0 || !only(val, WORD_SET) || vl > 64;
	} else if (strcmp(check, "words") == 0) {
		bad = bad_words(val);
	} else if (strncmp(check, "int:", 4) == 0) {
		const char *c = strchr(check + 4, ':');

		lo = check + 4;
		lol = c ? (size_t)(c - lo) : strlen(lo);
		hi = c ? c + 1 : "";
		{
			char lobuf[64];
			size_t n = lol < sizeof(lobuf) - 1 ? lol : sizeof(lobuf) - 1;
			char hibuf[64];
			size_t hn = strcspn(hi, ":");

			memcpy(lobuf, lo, n);
			lobuf[n] = '\0';
			if (hn > sizeof(hibuf) - 1)
				hn = sizeof(hibuf) - 1;
			memcpy(hibuf, hi, hn);
			hibuf[hn] = '\0';
			bad = !all_digits(val) || vl > 9 || num(val) < num(lobuf) ||
			      num(val) > num(hibuf);
			if (bad)
				snprintf(want, sizeof(want), "a whole number from %s to %s", lobuf,
					 hibuf);
		}
	} else if (strncmp(check, "count:", 6) == 0) {
		size_t nl = vl && val[vl - 1] == '%' ? vl - 1 : vl;
		double n = 0;

		for (size_t i = 0; i < nl && i < 20; i++)
			n = n * 10 + (val[i] - '0');
		bad = !span_digits(val, nl) || nl > 8 || n < 1 || n > num(check + 6);
		if (bad)
			snprintf(want, sizeof(want), "N (1..%s) or N%% of the board's CPUs",
				 check + 6);
	} else if (strcmp(check, "duration") == 0) {
		uint64_t secs;

		bad = krp_seconds(val, &secs) != 0 || vl > 7;
	} else if (strcmp(check, "size") == 0) {
		uint64_t bytes; /* under 2^50 and 12 digits: exact as awk's double */

		bad = krp_size(val, &bytes) != 0 || strspn(val, "0123456789") > 12 ||
		      bytes >= 1ULL << 50;
	} else if (strncmp(check, "enum:", 5) == 0) {
		bad = !in_list(check + 5, val, vl);
	} else if (strncmp(check, "words:", 6) == 0) {
		bad = bad_words(val);
		pc.list = check + 6;
		if (!bad && each_piece(val, '+', not_in, &pc)) {
			char w[256];

			snprintf(w, sizeof(w), "%.*s", (int)hitlen, hit);
			krp_closest(w, check + 6, near, sizeof(near));
			return say(msg, msgsz,
				   "unknown %s test '%s' in '%s' (did you mean '%s'? the list: the "
				   "check of "
				   "'%s' in suites/%s/meta, docs/KEYS.md)",
				   suite, w, val, near, key, suite);
		}
	} else if (strcmp(check, "monitors") == 0) {
		bad = vl == 0 || !only(val, "abcdefghijklmnopqrstuvwxyz0123456789_+-");
		pc.list = monitors[0] == '|' ? monitors + 1 : monitors;
		if (!bad && strcmp(val, "none") != 0 && each_piece(val, '+', not_in, &pc)) {
			char w[256];

			snprintf(w, sizeof(w), "%.*s", (int)hitlen, hit);
			krp_closest(w, pc.list, near, sizeof(near));
			return say(msg, msgsz,
				   "unknown monitor '%s' in '%s' (did you mean '%s'? the list: the "
				   "monitor "
				   "lines of monitors/*/meta, docs/MONITORS.md)",
				   w, val, near);
		}
	} else if (strcmp(check, "variant") == 0) {
		/* the names' syntax; the stack rules and the series'
		 * existence are lib/build/series.sh's */
		if (each_piece(val, ',', bad_variant, &pc))
			return say(
			    msg, msgsz,
			    "bad variant name '%.*s' (base, SERIES, SERIES@N, A+B, and with a git "
			    "reference a commit: an id, a tag, REF^, REF~N)",
			    (int)hitlen, hit);
	} else if (strcmp(check, "reference") == 0) {
		/* build.sh pins it (the tarball's sha256, the commit); here only
		 * its form: one printable word the shell and YAML keep as is */
		bad = vl > 1024 ||
		      (strncmp(val, "tarball:", 8) != 0 && strncmp(val, "git:", 4) != 0) ||
		      !only(val, WORD_SET "+/:@#%=,~^");
	} else if (strcmp(check, "seeds") == 0) {
		/* FIRST or FIRST-LAST: the text before the last '-', after the
		 * first */
		const char *last = strrchr(val, '-'), *first = strchr(val, '-');
		size_t fl = last ? (size_t)(last - val) : vl;
		const char *h = first ? first + 1 : val;
		size_t hl = strlen(h);
		double a = 0, b = 0;

		for (size_t i = 0; i < fl && i < 20; i++)
			a = a * 10 + (val[i] - '0');
		for (size_t i = 0; i < hl && i < 20; i++)
			b = b * 10 + (h[i] - '0');
		bad = !span_digits(val, fl) || !span_digits(h, hl) || val[0] == '0' ||
		      h[0] == '0' || fl > 6 || hl > 6 || a > b;
	}
	if (!bad)
		return 0;
	if (strncmp(check, "enum:", 5) == 0) {
		/* a long list (a suite's tests): the closest name, not all */
		if (bars(check + 5) >= 7) {
			krp_closest(val, check + 5, near, sizeof(near));
			return say(
			    msg, msgsz,
			    "unknown %s %s '%s' (did you mean '%s'? the list: the check of '%s' in "
			    "suites/%s/meta, docs/KEYS.md)",
			    suite, key, val, near, key, suite);
		}
		{
			size_t o = 0;

			o += (size_t)snprintf(want, sizeof(want), "one of ");
			for (const char *p = check + 5; *p && o + 3 < sizeof(want); p++) {
				if (*p == '|') {
					want[o++] = ',';
					want[o++] = ' ';
				} else
					want[o++] = *p;
			}
			want[o] = '\0';
		}
	} else if (strncmp(check, "int:", 4) == 0 || strncmp(check, "count:", 6) == 0) {
		/* want was written above */
	} else if (strcmp(check, "duration") == 0)
		snprintf(want, sizeof(want), "a duration: N, Ns, Nm or Nh");
	else if (strcmp(check, "size") == 0)
		snprintf(want, sizeof(want), "a size: N, NK, NM, NG or NT, below 1P");
	else if (strcmp(check, "seeds") == 0)
		snprintf(want, sizeof(want),
			 "a seed N or seeds N-M (whole numbers 1..999999 without leading zeros, N "
			 "<= M)");
	else if (strcmp(check, "reference") == 0)
		snprintf(
		    want, sizeof(want),
		    "tarball:PATH[#SHA256] or git:REPO@REF (letters, digits and _.-+/:@#%%=,~^, at "
		    "most 1024)");
	else if (strncmp(check, "words", 5) == 0)
		snprintf(want, sizeof(want),
			 "words of letters, digits, '_', '.', '-' joined by '+' (at most 64)");
	else
		snprintf(want, sizeof(want), "letters, digits, '_', '.', '-' (at most 64)");
	return say(msg, msgsz, "bad value '%s' for '%s': expected %s", val, key, want);
}

/* "|"-separated LIST holds W exactly (the guest's split and compare) */
static int listed(const char *list, const char *w, size_t wl)
{
	for (const char *p = list;;) {
		const char *e = strchr(p, '|');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == wl && memcmp(p, w, l) == 0)
			return 1;
		if (!e)
			return 0;
		p = e + 1;
	}
}

static int unlisted(const char *p, size_t l, void *c)
{
	struct piece_ctx *x = c;

	if (listed(x->list, p, l))
		return 0;
	*x->hit = p;
	*x->hitlen = l;
	return 1;
}

int krp_check_guest(const struct krp_keys *t, const char *keys_name, const char *suite,
		    const char *extra, const char *key, const char *val, char *msg, size_t msgsz)
{
	const struct krp_key_row *row = NULL;
	const char *c;

	for (size_t i = 0; i < t->n && !row; i++)
		if (strcmp(t->rows[i].key, key) == 0 && owned(t->rows[i].owner, suite))
			row = &t->rows[i];
	if (!row) {
		/* the keys the host adds (contract.h's KRP_JOB_EXTRA_KEYS) */
		size_t kl = strlen(key);

		for (const char *p = extra; *p; p++)
			if (*p == ' ' && strncmp(p + 1, key, kl) == 0 && p[kl + 1] == ' ')
				return 0;
		return say(msg, msgsz, "unknown key '%s' for suite %s (%s: docs/KEYS.md)", key,
			   suite, keys_name);
	}
	c = row->check;
	if (strncmp(c, "enum:", 5) == 0) {
		if (listed(c + 5, val, strlen(val)))
			return 0;
		return say(msg, msgsz, "%s must be one of %s, not '%s'", key, c + 5, val);
	}
	if (strncmp(c, "words:", 6) == 0) {
		const char *hit = NULL;
		size_t hitlen = 0;
		struct piece_ctx pc = {c + 6, &hit, &hitlen};

		if (each_piece(val, '+', unlisted, &pc))
			return say(msg, msgsz, "%s: '%.*s' is none of %s", key, (int)hitlen, hit,
				   c + 6);
		return 0;
	}
	if (strncmp(c, "int", 3) == 0 || strncmp(c, "count", 5) == 0 ||
	    strncmp(c, "size", 4) == 0 || strncmp(c, "duration", 8) == 0) {
		if (!number_then(val, "KMGT"))
			return say(msg, msgsz, "%s must be a number, not '%s'", key, val);
		if (strncmp(c, "int:", 4) == 0) {
			char lo[64], hi[64];
			const char *l = c + 4, *h = strchr(l, ':');
			size_t ll = h ? (size_t)(h - l) : strlen(l),
			       hl = h ? strcspn(h + 1, ":") : 0;

			snprintf(lo, sizeof(lo), "%.*s", (int)ll, l);
			snprintf(hi, sizeof(hi), "%.*s", (int)hl, h ? h + 1 : "");
			if (num(val) < num(lo) || num(val) > num(hi))
				return say(msg, msgsz, "%s must be from %s to %s, not %s", key, lo,
					   hi, val);
		}
	}
	return 0;
}
