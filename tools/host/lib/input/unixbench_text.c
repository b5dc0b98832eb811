/* UnixBench test names and result text (see unixbench_text.h). */
#include "unixbench_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Baselines: UnixBench pgms/index.base (George, SPARCstation 20-61). */
const struct krp_ub_test krp_ub_tests[] = {
    {"dhry2reg", "Dhrystone 2 using register variables", "lps", 116700.0, 0},
    {"whetstone-double", "Double-Precision Whetstone", "MWIPS", 55.0, 0},
    {"execl", "Execl Throughput", "lps", 43.0, 0},
    {"fstime", "File Copy 1024 bufsize 2000 maxblocks", "KBps", 3960.0, 0},
    {"fsbuffer", "File Copy 256 bufsize 500 maxblocks", "KBps", 1655.0, 0},
    {"fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "KBps", 5800.0, 0},
    {"pipe", "Pipe Throughput", "lps", 12440.0, 0},
    {"context1", "Pipe-based Context Switching", "lps", 4000.0, 0},
    {"spawn", "Process Creation", "lps", 126.0, 0},
    {"shell1", "Shell Scripts (1 concurrent)", "lpm", 42.4, 1},
    {"shell8", "Shell Scripts (8 concurrent)", "lpm", 6.0, 0},
    {"syscall", "System Call Overhead", "lps", 15000.0, 0},
    {"shell16", "Shell Scripts (16 concurrent)", "lpm", 0, 0},
    {"C", "C Compiler Throughput", "lpm", 0, 0},
    {"dc", "Dc: sqrt(2) to 99 decimal places", "lpm", 0, 0},
    {"hanoi", "Recursion Test -- Tower of Hanoi", "lps", 0, 0},
    {"grep", "Grep a large file (system's grep)", "lpm", 0, 0},
    {"sysexec", "Exec System Call Overhead", "lps", 0, 0},
    {"fstime-r", "File Read 1024 bufsize 2000 maxblocks", "KBps", 0, 0},
    {"fstime-w", "File Write 1024 bufsize 2000 maxblocks", "KBps", 0, 0},
    {"fsbuffer-r", "File Read 256 bufsize 500 maxblocks", "KBps", 0, 0},
    {"fsbuffer-w", "File Write 256 bufsize 500 maxblocks", "KBps", 0, 0},
    {"fsdisk-r", "File Read 4096 bufsize 8000 maxblocks", "KBps", 0, 0},
    {"fsdisk-w", "File Write 4096 bufsize 8000 maxblocks", "KBps", 0, 0},
    {"arithoh", "Arithoh", "lps", 0, 0},
    {"short", "Arithmetic Test (short)", "lps", 0, 0},
    {"int", "Arithmetic Test (int)", "lps", 0, 0},
    {"long", "Arithmetic Test (long)", "lps", 0, 0},
    {"float", "Arithmetic Test (float)", "lps", 0, 0},
    {"double", "Arithmetic Test (double)", "lps", 0, 0},
};
const size_t krp_ub_ntests = sizeof(krp_ub_tests) / sizeof(krp_ub_tests[0]);

const struct krp_ub_test *krp_ub_by_title(const char *title)
{
	size_t i;

	for (i = 0; i < krp_ub_ntests; i++) {
		if (strcmp(krp_ub_tests[i].title, title) == 0)
			return &krp_ub_tests[i];
	}
	return NULL;
}

const struct krp_ub_test *krp_ub_by_key(const char *key)
{
	size_t i;

	for (i = 0; i < krp_ub_ntests; i++) {
		if (strcmp(krp_ub_tests[i].key, key) == 0)
			return &krp_ub_tests[i];
	}
	return NULL;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Unsigned decimal "[0-9]+(.[0-9]+)?" ending exactly at s+len. */
static int number_at(const char *s, size_t len, double *v)
{
	return krp_parse_number(s, len, v) == 0 && *v >= 0 ? 0 : -1;
}

int krp_ub_parse_line(const char *line, size_t len, char *title, double *value, char *unit,
		      size_t unitsz, int *secs)
{
	const char *open, *close, *p, *e;
	const char *tail;
	size_t tl, n, i, o;
	double d;

	if (len == 0 || len > 1024)
		return -1;
	while (len && is_blank(line[len - 1]))
		len--;
	if (len == 0 || line[len - 1] != ')')
		return -1;
	close = line + len - 1;
	open = memrchr(line, '(', (size_t)(close - line));
	if (!open)
		return -1;
	/* "(29.6 secs, 3 samples)" or "(30.0 s, 2 samples)" */
	p = open + 1;
	e = p;
	while (e < close && (isdigit((unsigned char)*e) || *e == '.'))
		e++;
	if (number_at(p, (size_t)(e - p), &d) != 0 || e >= close || *e != ' ')
		return -1;
	tail = e + 1;
	tl = (size_t)(close - tail);
	if (tl > 5 && strncmp(tail, "secs,", 5) == 0) {
		*secs = 1;
		tail += 5;
	} else if (tl > 2 && strncmp(tail, "s,", 2) == 0) {
		*secs = 0;
		tail += 2;
	} else {
		return -1;
	}
	if (*tail != ' ')
		return -1;
	tail++;
	e = tail;
	while (e < close && isdigit((unsigned char)*e))
		e++;
	if (e == tail || (size_t)(close - e) < 7 || strncmp(e, " sample", 7) != 0)
		return -1;
	e += 7;
	if (e < close && *e == 's')
		e++;
	if (e != close)
		return -1;
	/* Before '(': blanks, unit, blanks, value, blanks, title. */
	e = open;
	while (e > line && is_blank(e[-1]))
		e--;
	p = e;
	while (p > line && isalpha((unsigned char)p[-1]))
		p--;
	n = (size_t)(e - p);
	if (n == 0 || n >= unitsz || p == line || !is_blank(p[-1]))
		return -1;
	memcpy(unit, p, n);
	unit[n] = '\0';
	e = p;
	while (e > line && is_blank(e[-1]))
		e--;
	p = e;
	while (p > line && (isdigit((unsigned char)p[-1]) || p[-1] == '.'))
		p--;
	if (p == line || !is_blank(p[-1]) || number_at(p, (size_t)(e - p), value) != 0)
		return -1;
	e = p;
	while (e > line && is_blank(e[-1]))
		e--;
	/* Title: leading blanks dropped, blank runs collapsed. */
	for (i = 0; i < (size_t)(e - line) && is_blank(line[i]); i++)
		;
	for (o = 0; i < (size_t)(e - line); i++) {
		unsigned char c = (unsigned char)line[i];

		if (c < 0x20 || c == 0x7f)
			return -1;
		if (is_blank((char)c)) {
			if (o && title[o - 1] == ' ')
				continue;
			c = ' ';
		}
		if (o + 1 >= KRP_UB_TITLE_MAX)
			return -1;
		title[o++] = (char)c;
	}
	if (o == 0)
		return -1;
	title[o] = '\0';
	return 0;
}

static struct krp_ub_section *new_section(struct krp_ub_doc *d, const char *label, size_t llen)
{
	struct krp_ub_section *s;

	if (d->n && d->s[d->n - 1].n == 0) { /* reuse an empty one */
		s = &d->s[d->n - 1];
		free(s->label);
	} else {
		if (d->n == d->cap) {
			d->cap = d->cap ? d->cap * 2 : 4;
			d->s = krp_xrealloc(d->s, d->cap * sizeof(*d->s));
		}
		s = &d->s[d->n++];
		memset(s, 0, sizeof(*s));
	}
	s->label = label ? krp_xstrndup(label, llen) : NULL;
	return s;
}

static void add_result(struct krp_ub_section *s, const char *title, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->r = krp_xrealloc(s->r, s->cap * sizeof(*s->r));
	}
	snprintf(s->r[s->n].title, sizeof(s->r[s->n].title), "%s", title);
	s->r[s->n].value = v;
	s->n++;
}

void krp_ub_parse(const char *text, size_t len, struct krp_ub_doc *d)
{
	const char *p = text, *end = text + len;
	struct krp_ub_section *cur = NULL;

	memset(d, 0, sizeof(*d));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char title[KRP_UB_TITLE_MAX], unit[16];
		double v;
		int secs = 0;

		if (ll >= 2 && p[0] == '=' && p[1] == '=') {
			const char *a = p, *b = p + ll;
			char safe[KRP_UB_TITLE_MAX];

			while (a < b && (*a == '=' || is_blank(*a)))
				a++;
			while (b > a && (b[-1] == '=' || is_blank(b[-1])))
				b--;
			krp_sanitize(safe, sizeof(safe), a, (size_t)(b - a));
			cur = new_section(d, safe, strlen(safe));
		} else if (krp_ub_parse_line(p, ll, title, &v, unit, sizeof(unit), &secs) == 0) {
			size_t i;
			int repeated = 0;

			for (i = 0; cur && i < cur->n; i++)
				repeated |= strcmp(cur->r[i].title, title) == 0;
			if (!cur || repeated)
				cur = new_section(d, NULL, 0);
			add_result(cur, title, v);
			cur->secs |= secs;
		}
		p += ll + 1;
	}
	if (d->n && d->s[d->n - 1].n == 0) {
		free(d->s[d->n - 1].label);
		free(d->s[d->n - 1].r);
		d->n--;
	}
}

void krp_ub_section_free(struct krp_ub_section *s)
{
	free(s->label);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

void krp_ub_doc_free(struct krp_ub_doc *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		krp_ub_section_free(&d->s[i]);
	free(d->s);
	memset(d, 0, sizeof(*d));
}

void krp_ub_from_metrics(const struct krp_metrics *m, struct krp_ub_section *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < krp_ub_ntests; i++) {
		char name[64];
		double v;

		snprintf(name, sizeof(name), "unixbench.%s", krp_ub_tests[i].key);
		if (krp_metrics_get(m, name, &v) == 0)
			add_result(s, krp_ub_tests[i].title, v);
	}
}
