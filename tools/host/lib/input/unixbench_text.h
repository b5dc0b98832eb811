/* UnixBench's tests and the text it prints: the one table of test keys,
 * titles, units and index baselines (krp_ub_tests), the result-line parser
 * and sections of results.  Input side, below the parsers and the index
 * (unixbench.h), which both read the table. */
#ifndef KREPRO_UNIXBENCH_TEXT_H
#define KREPRO_UNIXBENCH_TEXT_H
#include <stddef.h>

#include "metrics.h"

struct krp_ub_test {
	const char *key;
	const char *title; /* as UnixBench prints it */
	const char *unit;
	double baseline; /* 0: not an index test */
	int since5;	 /* index test only from UnixBench 5.0 on */
};

/* Known tests in UnixBench's index order, then the others. */
extern const struct krp_ub_test krp_ub_tests[];
extern const size_t krp_ub_ntests;
const struct krp_ub_test *krp_ub_by_title(const char *title);
const struct krp_ub_test *krp_ub_by_key(const char *key);

/* One result line: "<title>  <value> <unit>  (<time> secs|s, <n> samples)".
 * Title whitespace runs become one space.  Returns 0 or -1 (not a result
 * line).  *secs is set when the time is given as "secs" (UnixBench 4). */
#define KRP_UB_TITLE_MAX 128
int krp_ub_parse_line(const char *line, size_t len, char *title, double *value, char *unit,
		      size_t unitsz, int *secs);

struct krp_ub_result {
	char title[KRP_UB_TITLE_MAX];
	double value;
};
struct krp_ub_section {
	char *label; /* from a "== label ==" line, or NULL */
	struct krp_ub_result *r;
	size_t n, cap;
	int secs; /* some line used "secs" */
};
struct krp_ub_doc {
	struct krp_ub_section *s;
	size_t n, cap;
};

/* Split text into sections: a line starting with "==" starts one (its
 * label is the line without '=' and surrounding blanks), and so does a
 * test repeated within the current section.  Sections without result
 * lines are dropped. */
void krp_ub_parse(const char *text, size_t len, struct krp_ub_doc *d);
void krp_ub_doc_free(struct krp_ub_doc *d);

/* Section from krepro metrics "unixbench.<key>". */
void krp_ub_from_metrics(const struct krp_metrics *m, struct krp_ub_section *s);
void krp_ub_section_free(struct krp_ub_section *s);

#endif
