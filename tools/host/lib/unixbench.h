/* UnixBench index: the published baselines, a parser for the result lines
 * UnixBench prints, and the INDEX VALUES table.
 *
 * Metric names in krepro stats.json: "unixbench.<key>" with the key of
 * UnixBench's own test names (pgms/index.base and Run):
 *   dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1
 *   spawn shell1 shell8 syscall                      (index tests)
 *   shell16 C dc hanoi grep sysexec fstime-r fstime-w fsbuffer-r
 *   fsbuffer-w fsdisk-r fsdisk-w                     (no baseline)
 * with the test's rate in its unit (lps, lpm, KBps, MWIPS).
 *
 * INDEX = result / baseline * 10 per test; FINAL SCORE = geometric mean of
 * the index values of the tests present.  Baselines: George, a
 * SPARCstation 20-61 (index 10.0).  Two sets: UnixBench 4.1 (11 tests) and
 * 5.0+ (12 tests: adds shell1 at 42.4 lpm, an extrapolated baseline). */
#ifndef KREPRO_UNIXBENCH_H
#define KREPRO_UNIXBENCH_H
#include <stddef.h>

#include "metrics.h"
#include "util.h"

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

enum krp_ub_set {
	KRP_UB_AUTO, /* text input: 4.1 when lines say "secs", else 5 */
	KRP_UB_V4,
	KRP_UB_V5,
};

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

double krp_ub_index(double result, double baseline);
/* Geometric mean exp(mean(log x)); 0 for n == 0 or any x <= 0. */
double krp_ub_geomean(const double *x, size_t n);

/* The INDEX VALUES table of a section.  Returns the number of index tests
 * found (0: the table says so). */
size_t krp_ub_table(const struct krp_ub_section *s, enum krp_ub_set set, struct krp_buf *out);

#endif
