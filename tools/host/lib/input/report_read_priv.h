/* report_read's parts (report_read.c, report_params.c, report_keys.c):
 * the tokens of an email, the tests found in it, and what the parts share.
 * Not for other modules: report_read.h is the interface. */
#ifndef KREPRO_REPORT_READ_PRIV_H
#define KREPRO_REPORT_READ_PRIV_H
#include <stddef.h>

#include "report_read.h"

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

struct rd {
	struct tok *t;
	size_t nt;
	const char *end; /* the normalized text's end (tokens point into it) */
	struct rtest tests[KRP_REPORT_MAX_TESTS];
	int ntests;
};

int rr_teq(const struct tok *t, const char *s);
int rr_tat(const struct rd *r, size_t i, const char *s);
/* Copy printable ASCII, whitespace runs as one space, at most outsz-1. */
void rr_clean_text(char *out, size_t outsz, const char *p, size_t n);
int rr_is_key_char(char c);

/* A parameter into t, or named in t->skipped with why it is not taken. */
void rr_add_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn);
void rr_skip_param(struct rtest *t, const char *k, size_t kn, const char *v, size_t vn,
		   const char *why);
/* The parameters block of a "parameters:" at token p - 1 into t: as lines
 * when a line break follows it, else as tokens (an archive's joined lines). */
void rr_read_params(struct rd *r, struct rtest *t, size_t p);

/* k is a line of keys ("\nkey\n..."). */
int rr_has_key(const char *keys, const char *k);
/* The suite's required parameters a part's body (matrix lines, "suite: S"
 * first) does not set, into missing as "'a', 'b'"; 0 when none. */
int rr_missing_required(const char *body, const char *required, char *missing, size_t sz);

#endif
