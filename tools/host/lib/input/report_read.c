/* Report email -> matrix (see report_read.h). */
#include "report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkpjob.h"
#include "report_keys.h"
#include "report_params.h"

struct rd {
	struct tok *t;
	size_t nt;
	const char *end; /* the normalized text's end (tokens point into it) */
	struct rtest tests[KRP_REPORT_MAX_TESTS];
	int ntests;
};

/* The suites' rules (suites/<name>/report.c, their meta's "report" lines):
 * the finders in their order, then the fixes. */
#define KRP_REPORT_FIND(f) krp_report_find f;
#define KRP_REPORT_FIX(f) krp_report_fix f;
#include "report_rules.def"
#undef KRP_REPORT_FIND
#undef KRP_REPORT_FIX
#define KRP_REPORT_FIND(f) f,
#define KRP_REPORT_FIX(f)
static krp_report_find *const finders[] = {
#include "report_rules.def"
    NULL};
#undef KRP_REPORT_FIND
#undef KRP_REPORT_FIX
#define KRP_REPORT_FIND(f)
#define KRP_REPORT_FIX(f) f,
static krp_report_fix *const fixes[] = {
#include "report_rules.def"
    NULL};
#undef KRP_REPORT_FIND
#undef KRP_REPORT_FIX

static int rr_tat(const struct rd *r, size_t i, const char *s)
{
	return i < r->nt && rr_teq(&r->t[i], s);
}

static int is_key(const char *p, size_t n)
{
	if (n == 0 || n > 31)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!rr_is_key_char(p[i]))
			return 0;
	return 1;
}

/* The text of tokens [a, b) into out. */
static void span_text(const struct rd *r, size_t a, size_t b, char *out, size_t outsz)
{
	if (a >= b || b > r->nt) {
		out[0] = 0;
		return;
	}
	rr_clean_text(out, outsz, r->t[a].p, (size_t)(r->t[b - 1].p + r->t[b - 1].n - r->t[a].p));
}

static struct rtest *new_test(struct rd *r, const char *testcase, size_t n)
{
	struct rtest *t;

	if (r->ntests == KRP_REPORT_MAX_TESTS || n == 0 || n >= sizeof(t->testcase))
		return NULL;
	t = &r->tests[r->ntests++];
	memset(t, 0, sizeof(*t));
	memcpy(t->testcase, testcase, n);
	return t;
}

/* "TBOX: words ... =====": the machine line of a details section. */
static void machine_of_tbox(const struct rd *r, const char *tbox, char *out, size_t outsz)
{
	size_t tl = strlen(tbox);

	for (size_t i = 0; i + 1 < r->nt; i++) {
		size_t e;

		if (r->t[i].n != tl + 1 || memcmp(r->t[i].p, tbox, tl) != 0 || r->t[i].p[tl] != ':')
			continue;
		for (e = i + 1;
		     e < r->nt && e < i + 40 && r->t[e].p[0] != '=' && r->t[e].p[0] != '*'; e++)
			;
		span_text(r, i + 1, e, out, outsz);
		return;
	}
}

/* "compiler/cpufreq_governor/.../testcase:" followed by "gcc-7/performance/...". */
static void read_header_blocks(struct rd *r)
{
	for (size_t i = 0; i + 1 < r->nt; i++) {
		const struct tok *k = &r->t[i], *v = &r->t[i + 1];
		size_t nk = 0, nv = 0, a, b;
		const char *kp[PARAMS_MAX], *vp[PARAMS_MAX];
		size_t kl[PARAMS_MAX], vl[PARAMS_MAX];
		struct rtest *t;
		const char *tc = NULL, *tbox = NULL;
		size_t tcl = 0;

		if (k->n < 10 || k->p[k->n - 1] != ':' || !memchr(k->p, '/', k->n))
			continue;
		for (a = 0; a < k->n - 1 && nk < PARAMS_MAX; a = b + 1) {
			for (b = a; b < k->n - 1 && k->p[b] != '/'; b++)
				;
			kp[nk] = k->p + a;
			kl[nk++] = b - a;
		}
		for (a = 0; a < v->n && nv < PARAMS_MAX; a = b + 1) {
			for (b = a; b < v->n && v->p[b] != '/'; b++)
				;
			vp[nv] = v->p + a;
			vl[nv++] = b - a;
		}
		if (nk != nv || nk < 2)
			continue;
		for (a = 0; a < nk; a++) {
			if (!is_key(kp[a], kl[a]))
				break;
			if (kl[a] == 8 && memcmp(kp[a], "testcase", 8) == 0)
				tc = vp[a], tcl = vl[a];
		}
		if (a != nk || !tc || !(t = new_test(r, tc, tcl)))
			continue;
		for (a = 0; a < nk; a++)
			rr_add_param(t, kp[a], kl[a], vp[a], vl[a]);
		if ((tbox = rr_param(t, "tbox_group")))
			machine_of_tbox(r, tbox, t->machine, sizeof(t->machine));
	}
}

/* "in testcase: T on test machine: M with following parameters: k: v ...". */
static void read_testcase_sentence(struct rd *r)
{
	for (size_t i = 0; i + 1 < r->nt; i++) {
		size_t m, e, p;
		struct rtest *t;

		if (!rr_tat(r, i, "testcase:") || (i > 0 && rr_tat(r, i - 1, "|")))
			continue;
		for (m = i + 2; m < r->nt && m < i + 8 && !rr_tat(r, m, "machine:"); m++)
			;
		/* "with following parameters:" (2015-2022) or "parameters:" */
		for (e = m + 1; e < r->nt && e < m + 60; e++)
			if (rr_tat(r, e, "parameters:"))
				break;
		if (e >= r->nt || e >= m + 60 || !(t = new_test(r, r->t[i + 1].p, r->t[i + 1].n)))
			continue;
		p = e + 1;
		if (e >= m + 3 && rr_tat(r, e - 2, "with") && rr_tat(r, e - 1, "following"))
			e -= 2;
		span_text(r, m + 1, e, t->machine, sizeof(t->machine));
		rr_read_params(r->t, r->nt, r->end, t, p);
		return; /* the first sentence is the report's own test */
	}
}

/* "| testcase: change | will-it-scale: METRIC -4.6% regression |
 *  | test machine | M | | test parameters | k=v | | k=v |" */
static void read_impact_table(struct rd *r)
{
	for (size_t i = 0; i + 4 < r->nt; i++) {
		size_t j, e;
		struct rtest *t;
		const struct tok *s;

		if (!rr_tat(r, i, "testcase:") || !rr_tat(r, i + 1, "change") ||
		    !rr_tat(r, i + 2, "|"))
			continue;
		s = &r->t[i + 3];
		if (s->n < 2 || s->p[s->n - 1] != ':' || !(t = new_test(r, s->p, s->n - 1)))
			continue;
		for (e = i + 4; e < r->nt && e < i + 12 && !rr_tat(r, e, "|"); e++)
			;
		span_text(r, i + 4, e, t->change, sizeof(t->change));
		for (j = e; j + 2 < r->nt && j < e + 200; j++) {
			if (r->t[j].p[0] == '+' && r->t[j].n > 3 && r->t[j].p[1] == '-')
				break; /* the table's closing rule */
			if (rr_tat(r, j, "machine") && rr_tat(r, j - 1, "test") &&
			    rr_tat(r, j + 1, "|")) {
				size_t m;

				for (m = j + 2; m < r->nt && m < j + 40 && !rr_tat(r, m, "|"); m++)
					;
				span_text(r, j + 2, m, t->machine, sizeof(t->machine));
			}
			if (memchr(r->t[j].p, '=', r->t[j].n) && rr_tat(r, j - 1, "|")) {
				const char *eq = memchr(r->t[j].p, '=', r->t[j].n);

				rr_add_param(t, r->t[j].p, (size_t)(eq - r->t[j].p), eq + 1,
					     r->t[j].n - (size_t)(eq - r->t[j].p) - 1);
			}
		}
	}
}

static int all_digits(const char *p, size_t n, const char *suffixes)
{
	size_t i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	return i > 0 &&
	       ((i == n && !suffixes) || (i + 1 == n && suffixes && strchr(suffixes, p[i])));
}

/* 2014: "test case: brickland3/vm-scalability/300s-mmap-pread-rand-mt". */
static void read_old_test_case(struct rd *r)
{
	for (size_t i = 0; i + 2 < r->nt; i++) {
		const struct tok *v = &r->t[i + 2];
		const char *s1, *s2, *p, *end;
		struct rtest *t;
		size_t b;

		if (!rr_tat(r, i, "test") || !rr_tat(r, i + 1, "case:"))
			continue;
		s1 = memchr(v->p, '/', v->n);
		s2 = s1 ? memchr(s1 + 1, '/', (size_t)(v->p + v->n - s1 - 1)) : NULL;
		if (!s2 || !(t = new_test(r, s1 + 1, (size_t)(s2 - s1 - 1))))
			continue;
		for (b = i + 3; b + 4 < r->nt; b++)
			if (rr_tat(r, b, "test") && rr_tat(r, b + 1, "box")) {
				size_t e;

				for (e = b + 4; e < r->nt && e < b + 40; e++)
					if (r->t[e].p[r->t[e].n - 1] == '.')
						break;
				span_text(r, b + 4, e + 1, t->machine, sizeof(t->machine));
				break;
			}
		/* Words in lkp's path order: governor, runtime, size, nr_task,
		 * mode, then the test name (which may hold dashes). */
		end = v->p + v->n;
		for (p = s2 + 1; p < end;) {
			const char *d = memchr(p, '-', (size_t)(end - p));
			size_t n = (size_t)((d ? d : end) - p);

			if (n == 11 && memcmp(p, "performance", 11) == 0)
				rr_add_param(t, "cpufreq_governor", 16, p, n);
			else if (all_digits(p, n, "smh"))
				rr_add_param(t, "runtime", 7, p, n);
			else if (all_digits(p, n, "KMGT"))
				rr_add_param(t, "size", 4, p, n);
			else if (all_digits(p, n, "%"))
				rr_add_param(t, "nr_task", 7, p, n);
			else if ((n == 7 && memcmp(p, "process", 7) == 0) ||
				 (n == 6 && memcmp(p, "thread", 6) == 0))
				rr_add_param(t, "mode", 4, p, n);
			else {
				rr_add_param(t, "test", 4, p, (size_t)(end - p));
				break;
			}
			p += n + 1;
		}
	}
}

/* Quoted-printable bodies are decoded; "> " quoting is dropped. */
static char *normalize(const char *buf, size_t len, size_t *outlen)
{
	char *o = krp_xmalloc(len + 1);
	size_t n = 0;
	int qp = memmem(buf, len, "quoted-printable", 16) != NULL, bol = 1;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];

		if (bol) {
			while (i < len && (buf[i] == '>' ||
					   (buf[i] == ' ' && i + 1 < len && buf[i + 1] == '>')))
				i++;
			if (i < len && buf[i] == ' ')
				i++;
			bol = 0;
			if (i >= len)
				break;
			c = buf[i];
		}
		if (qp && c == '=' && i + 1 < len && buf[i + 1] == '\n') {
			i++; /* a soft break: the next line goes on this one, as it is */
			continue;
		}
		if (qp && c == '=' && i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
			i += 2; /* the same with CRLF line ends (RFC 2045's own) */
			continue;
		}
		if (c == '\r' && i + 1 < len && buf[i + 1] == '\n')
			continue; /* CRLF: the line end is the LF */
		if (qp && c == '=' && i + 2 < len && strchr("0123456789ABCDEF", buf[i + 1]) &&
		    strchr("0123456789ABCDEF", buf[i + 2]) && buf[i + 1] && buf[i + 2]) {
			char hex[3] = {buf[i + 1], buf[i + 2], 0};

			c = (char)strtol(hex, NULL, 16);
			i += 2;
		}
		o[n++] = c;
		if (c == '\n')
			bol = 1;
	}
	o[n] = 0;
	*outlen = n;
	return o;
}

static void tokenize(struct rd *r, const char *b, size_t n)
{
	size_t cap = 0;

	for (size_t i = 0; i < n;) {
		size_t s;

		while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
			i++;
		if (i >= n)
			break;
		for (s = i; i < n && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r';
		     i++)
			;
		if (r->nt == cap) {
			cap = cap ? 2 * cap : 1024;
			r->t = krp_xrealloc(r->t, cap * sizeof(*r->t));
		}
		r->t[r->nt].p = b + s;
		r->t[r->nt++].n = i - s;
	}
}

/* "we noticed a -3.8% regression of vm-scalability.throughput" or a
 * subject holding a percentage; and the commit with its subject. */
static void report_header(const struct rd *r, const char *buf, size_t len, struct krp_buf *out)
{
	char text[TEXT_MAX];
	size_t i;

	for (i = 0; i + 4 < r->nt; i++)
		if (rr_tat(r, i, "noticed") && rr_tat(r, i + 1, "a"))
			break;
	if (i + 4 < r->nt) {
		size_t e;

		for (e = i + 2;
		     e < r->nt && e < i + 10 && !rr_tat(r, e, "due") && !rr_tat(r, e, "on") &&
		     !rr_tat(r, e, "on:") && !rr_tat(r, e, "commit:");
		     e++)
			;
		span_text(r, i + 2, e, text, sizeof(text));
		krp_buf_printf(out, "# reported: %s\n", text);
	} else {
		const char *nl = memchr(buf, '\n', len);

		rr_clean_text(text, 120, buf, nl ? (size_t)(nl - buf) : len);
		if (strchr(text, '%'))
			krp_buf_printf(out, "# reported: %s\n", text);
	}
	for (i = 0; i + 1 < r->nt; i++) {
		const struct tok *c = &r->t[i + 1];
		size_t h = 0, end = i + 2;

		if (!rr_tat(r, i, "commit") && !rr_tat(r, i, "commit:"))
			continue;
		while (h < c->n && strchr("0123456789abcdef", c->p[h]))
			h++;
		if (h != 40 || c->n != 40)
			continue;
		if (end < r->nt && r->t[end].p[0] == '(') /* ("subject") */
			for (size_t e = end; e < r->nt && e < i + 30; e++)
				if (r->t[e].n >= 2 &&
				    memcmp(r->t[e].p + r->t[e].n - 2, "\")", 2) == 0) {
					end = e + 1;
					break;
				}
		span_text(r, i + 1, end, text, sizeof(text));
		krp_buf_printf(out, "# commit: %s\n", text);
		break;
	}
}

/* One part of the matrix: its comments, its body (the matrix lines from
 * lkpjob), the change the report saw. */
struct part {
	struct krp_buf head;
	char *body;
	char change[TEXT_MAX];
};

/* Every line of a is a line of b. */
static int lines_within(const char *a, const char *b)
{
	while (*a) {
		const char *nl = strchr(a, '\n');
		size_t n = nl ? (size_t)(nl - a) + 1 : strlen(a);
		const char *at = b;
		int found = 0;

		while (!found && *at) {
			const char *bn = strchr(at, '\n');
			size_t m = bn ? (size_t)(bn - at) + 1 : strlen(at);

			found = m == n && memcmp(at, a, n) == 0;
			at += m;
		}
		if (!found)
			return 0;
		a += n;
	}
	return 1;
}

/* The same test: the same suite line (the body's first), one body's lines
 * within the other's. */
static int same_test(const char *a, const char *b)
{
	const char *na = strchr(a, '\n'), *nb = strchr(b, '\n');

	if (!na || !nb || na - a != nb - b || memcmp(a, b, (size_t)(na - a)) != 0)
		return 0;
	return lines_within(a, b) || lines_within(b, a);
}

/* A note of the part (a parameter not taken) into its comments and, once,
 * into notes (stderr's). */
static void part_note(struct krp_buf *head, struct krp_buf *notes, const char *label,
		      const char *testcase, const char *prefix, const char *line, size_t n)
{
	if (head->data && memmem(head->data, head->len, line, n))
		return; /* a part given twice names it once */
	krp_buf_printf(head, "# %s%.*s\n", prefix, (int)n, line);
	if (notes)
		krp_buf_printf(notes, "%s: %s: not taken: %.*s\n", label, testcase, (int)n, line);
}

/* prefix: the comment's words before each line of text ("" for lkpjob's
 * notes, which say "ignored" themselves) */
static void part_notes(struct krp_buf *head, struct krp_buf *notes, const char *label,
		       const char *testcase, const char *prefix, const char *text)
{
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1)
		part_note(head, notes, label, testcase, prefix, text, (size_t)(nl - text));
}

static const char not_taken[] = "not taken from the email: ";

int krp_report_to_matrix(const char *buf, size_t len, const char *label, const char *known_keys,
			 const char *test_keys, const char *required, struct krp_buf *out,
			 struct krp_buf *notes, struct krp_matrix_err *err)
{
	struct rd *r = krp_xcalloc(1, sizeof(*r));
	struct part parts[KRP_REPORT_MAX_TESTS];
	struct krp_buf left = {0}, host = {0};
	char hostset[512] = "\n"; /* the host settings named, "\nkey\n..." */
	size_t nlen;
	char *text = normalize(buf, len, &nlen);
	int kept = 0, i;

	memset(err, 0, sizeof(*err));
	memset(parts, 0, sizeof(parts));
	r->end = text + nlen;
	tokenize(r, text, nlen);
	/* The sentence and the table first: they name the test machine and the
	 * change; the details' header blocks add tests only they hold. */
	read_testcase_sentence(r);
	read_impact_table(r);
	read_header_blocks(r);
	if (r->ntests == 0)
		read_old_test_case(r);
	for (i = 0; finders[i] && r->ntests == 0; i++) {
		struct rtest found = {0}, *t;

		if (finders[i](r->t, r->nt, text, nlen, &found) &&
		    (t = new_test(r, found.testcase, strlen(found.testcase))))
			*t = found;
	}

	for (i = 0; i < r->ntests; i++) {
		struct rtest *t = &r->tests[i];
		struct krp_buf doc = {0}, m = {0}, lnotes = {0};
		struct krp_matrix_err e;
		struct part *p;
		const char *body;
		int j;

		for (j = 0; fixes[j]; j++)
			fixes[j](t, text, nlen);
		krp_buf_printf(&doc, "testcase: '%s'\n", t->testcase);
		for (j = 0; j < t->n; j++) {
			if (strcmp(t->keys[j], "testcase") == 0)
				continue;
			if (strchr(t->vals[j], '\'') || strchr(t->vals[j], '\\')) {
				rr_skip_param(t, t->keys[j], strlen(t->keys[j]), t->vals[j],
					      strlen(t->vals[j]),
					      "a quote or backslash the kit refuses");
				continue;
			}
			if (rr_has_key(known_keys, t->keys[j]) &&
			    !rr_has_key(test_keys, t->keys[j])) {
				/* a host setting: the email decides the test only */
				if (!rr_has_key(hostset, t->keys[j]) &&
				    strlen(hostset) + strlen(t->keys[j]) + 2 < sizeof(hostset)) {
					strcat(strcat(hostset, t->keys[j]), "\n");
					krp_buf_printf(&host, "%s%s", host.len ? ", " : "",
						       t->keys[j]);
				}
				continue;
			}
			krp_buf_printf(&doc, t->vals[j][0] == '[' ? "%s: %s\n" : "%s: '%s'\n",
				       t->keys[j], t->vals[j]);
		}
		if (krp_lkpjob_to_matrix(doc.data, doc.len, NULL, known_keys, &m, &lnotes, &e) !=
		    0) {
			krp_buf_printf(&left, "# %s test '%s' left out: %s\n", label, t->testcase,
				       e.msg);
			goto next;
		}
		body = strchr(m.data, '\n') + 1; /* past lkpjob's comment line */
		for (j = 0; j < kept; j++)
			if (same_test(parts[j].body, body))
				break;
		if (j < kept) { /* the same test twice (sentence, table row, details) */
			p = &parts[j];
			if (strlen(body) > strlen(p->body)) { /* the fuller description */
				free(p->body);
				p->body = krp_xstrdup(body);
			}
			if (t->change[0] && !p->change[0])
				snprintf(p->change, sizeof(p->change), "%s", t->change);
			part_notes(&p->head, notes, label, t->testcase, not_taken, t->skipped);
			if (lnotes.len)
				part_notes(&p->head, notes, label, t->testcase, "", lnotes.data);
			goto next;
		}
		p = &parts[kept++];
		if (t->machine[0])
			krp_buf_printf(&p->head, "# test machine: %s%s%s%s\n", t->machine,
				       rr_param(t, "tbox_group") ? " (" : "",
				       rr_param(t, "tbox_group") ? rr_param(t, "tbox_group") : "",
				       rr_param(t, "tbox_group") ? ")" : "");
		if (t->comment[0])
			krp_buf_printf(&p->head, "# %s\n", t->comment);
		part_notes(&p->head, notes, label, t->testcase, not_taken, t->skipped);
		if (lnotes.len)
			part_notes(&p->head, notes, label, t->testcase, "", lnotes.data);
		p->body = krp_xstrdup(body);
		snprintf(p->change, sizeof(p->change), "%s", t->change);
	next:
		krp_buf_free(&doc);
		krp_buf_free(&m);
		krp_buf_free(&lnotes);
	}
	/* a part without a parameter its suite cannot run without: the email
	 * is refused, naming what is missing (never a matrix that lacks it) */
	for (i = 0; i < kept && required; i++) {
		char missing[256];

		if (rr_missing_required(parts[i].body, required, missing, sizeof(missing))) {
			const char *nl = strchr(parts[i].body, '\n');

			snprintf(
			    err->msg, sizeof(err->msg),
			    "the email's %.*s test has no %.120s, which suites/%.*s/meta requires; "
			    "not written",
			    (int)(nl - parts[i].body - 7), parts[i].body + 7, missing,
			    (int)(nl - parts[i].body - 7), parts[i].body + 7);
			kept = 0;
			left.len = 0;
			break;
		}
	}
	if (kept == 0 && err->msg[0]) {
		/* said above */
	} else if (kept == 0) {
		if (left.len)
			snprintf(err->msg, sizeof(err->msg), "no test the kit can run: %.*s",
				 (int)(left.len - 1), left.data + 2);
		else
			snprintf(err->msg, sizeof(err->msg),
				 "no test found (a 0-day report, UnixBench results or a tenant "
				 "pivot table)");
	} else {
		krp_buf_printf(out, "# krepro matrix from %s (./run-matrix.sh from-report)\n",
			       label);
		report_header(r, text, nlen, out);
		krp_buf_puts(out,
			     "# to compare a series: variants: [base, SERIES] and runs: N here\n");
		if (host.len && notes)
			krp_buf_printf(
			    notes,
			    "%s: not taken: %.*s (host settings; a report decides the test only)\n",
			    label, (int)host.len, host.data);
		if (host.len)
			krp_buf_printf(
			    out,
			    "# not taken from the email (host settings; a report decides "
			    "the test only): %.*s\n",
			    (int)host.len, host.data);
		if (left.len)
			krp_buf_add(out, left.data, left.len);
		for (i = 0; i < kept; i++) {
			krp_buf_puts(out, "---\n");
			krp_buf_add(out, parts[i].head.data, parts[i].head.len);
			krp_buf_puts(out, parts[i].body);
			if (parts[i].change[0])
				krp_buf_printf(out, "# change: %s\n", parts[i].change);
		}
	}
	for (i = 0; i < KRP_REPORT_MAX_TESTS; i++) {
		krp_buf_free(&parts[i].head);
		free(parts[i].body);
	}
	krp_buf_free(&left);
	krp_buf_free(&host);
	free(r->t);
	free(r);
	free(text);
	return kept ? kept : -1;
}
