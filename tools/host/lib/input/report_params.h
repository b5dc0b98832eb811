/* report_read's lower part (report_params.c): the tokens of an email, a
 * test found in it and its parameters, and the suites' rules of reading
 * (suites/<name>/report.c), which see only this.  report_read.c builds on
 * it; nothing here calls back.  Not for other modules: report_read.h is the
 * interface. */
#ifndef KREPRO_REPORT_PARAMS_H
#define KREPRO_REPORT_PARAMS_H
#include <stddef.h>

#define PARAMS_MAX 32
#define TEXT_MAX 200
#define SKIPPED_MAX 2048

struct tok {
	const char *p;
	size_t n;
};

struct rtest {
	char testcase[64];
	char machine[TEXT_MAX];
	char change[TEXT_MAX];
	char comment[TEXT_MAX];
	char keys[PARAMS_MAX][32];
	char vals[PARAMS_MAX][96];
	int n;
	char skipped[SKIPPED_MAX]; /* "key: value (why)\n" a parameter not taken */
};

int rr_teq(const struct tok *t, const char *s);
/* Copy printable ASCII, whitespace runs as one space, at most outsz-1. */
void rr_clean_text(char *out, size_t outsz, const char *p, size_t n);
int rr_is_key_char(char c);

/* The value of parameter k of t, NULL if none. */
const char *rr_param(const struct rtest *t, const char *k);
/* A parameter into t, or named in t->skipped with why it is not taken. */
void rr_add_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn);
void rr_skip_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn,
		   const char *why);
/* The parameters block of a "parameters:" at token p - 1 of the nt tokens
 * tok (of a text ending at end) into t: as lines when a line break follows
 * it, else as tokens (an archive's joined lines). */
void rr_read_params(const struct tok *tok, size_t nt, const char *end, struct rtest *t, size_t p);

/* A suite's rules (its meta's "report" lines, tools/meta-tables.awk): a
 * finder, tried in its order while no test is found, reads the email's nt
 * tokens tok or its normalized text and fills out (testcase first), 1 when
 * it found its suite's test; a fix changes a found test t of its suite. */
typedef int krp_report_find(const struct tok *tok, size_t nt, const char *text, size_t len,
			    struct rtest *out);
typedef void krp_report_fix(struct rtest *t, const char *text, size_t len);

#endif
