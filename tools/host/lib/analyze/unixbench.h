/* UnixBench index: the INDEX VALUES table over the baselines of
 * krp_ub_tests (unixbench_text.h, which also parses UnixBench's text).
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

#include "unixbench_text.h"
#include "util.h"

enum krp_ub_set {
	KRP_UB_AUTO, /* text input: 4.1 when lines say "secs", else 5 */
	KRP_UB_V4,
	KRP_UB_V5,
};

double krp_ub_index(double result, double baseline);
/* Geometric mean exp(mean(log x)); 0 for n == 0 or any x <= 0. */
double krp_ub_geomean(const double *x, size_t n);

/* The INDEX VALUES table of a section.  Returns the number of index tests
 * found (0: the table says so). */
size_t krp_ub_table(const struct krp_ub_section *s, enum krp_ub_set set, struct krp_buf *out);

#endif
