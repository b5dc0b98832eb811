/* A performance report email read back into the matrix that reproduces it
 * (./run-matrix.sh from-report).  Understood, in any line wrapping (a mail
 * archive may have joined every line into one) and with "> " quoting:
 *
 *   0-day, 2015 on   "in testcase: T on test machine: M with following
 *                    parameters: k: v ...", the "compiler/.../testcase:"
 *                    header and its "gcc-7/.../vm-scalability" values, and
 *                    the "also has significant impact" table (one part each)
 *   0-day, 2014      "test case: TBOX/TESTCASE/300s-mmap-pread-rand-mt" and
 *                    'The test box "TBOX" is M.'
 *   UnixBench        result lines ("Execl Throughput 2915.4 lps (...)")
 *   tenant pivots    a "kernel | vm | nofit fit | noksm ksm | nothp thp"
 *                    table (specjbb under AutoNUMA, seed 003)
 *
 * the last two, and what a suite changes in a test found (vm-scalability's
 * file system), by the suites' rules (suites/<name>/report.c, named by
 * their meta's "report" lines; report_params.h); report_read.c names no
 * suite.
 *
 * Each test found becomes an lkp-style job document, converted by lkpjob.c
 * (one table of names and of what does not apply), then written as one part
 * of a matrix with comments naming the commit, the change reported and the
 * test machine. */
#ifndef KREPRO_REPORT_READ_H
#define KREPRO_REPORT_READ_H
#include <stddef.h>

#include "matrix.h"
#include "util.h"

#define KRP_REPORT_MAX_TESTS 32

/* known_keys as for krp_lkpjob_to_matrix (every matrix key); test_keys the
 * same form, the keys an email may set (krp_report_test_keys): a kit key
 * outside it (variants, board, runs, timeout, kernel_cmdline, fault, ...)
 * is a host setting, never taken from an email, and the matrix says so in a
 * comment.  Every line of a parameters block is taken or named as not
 * taken (an unknown key, a multi-line or unreadable value, a line that is
 * no "key: value"): a "# not taken from the email: ..." comment in its
 * part and a "LABEL: TEST: not taken: ..." line in notes (NULL: none); a
 * list value ("[a, b]") is an axis.  Parts that describe the same test (the
 * same suite, one's parameters a subset of the other's with equal values)
 * are one part.  required ("\nSUITE/KEY\n...", krp_report_required_keys;
 * NULL: not checked): a part without one of its suite's is an error naming
 * what is missing, and nothing is written.  Returns the number of parts
 * (>= 1) with the matrix in out, or -1 with err. */
int krp_report_to_matrix(const char *buf, size_t len, const char *label, const char *known_keys,
			 const char *test_keys, const char *required, struct krp_buf *out,
			 struct krp_buf *notes, struct krp_matrix_err *err);

/* From the key table (./run-matrix.sh --keys: "KEY CHECK WHERE OWNER ..."
 * lines): "\nkey\n..." of the keys a report may set: suite, every suite's
 * parameters and the kit's guest knobs (path keys) but the kit's own tests
 * and host-side choices (fault, kernel_cmdline, monitor_ab).  The caller
 * frees it. */
char *krp_report_test_keys(const char *table, size_t len);

/* From the same table: "\nSUITE/KEY\n..." of every suite parameter whose
 * default is "required" (will-it-scale's test, mode and nr_task).  The
 * caller frees it. */
char *krp_report_required_keys(const char *table, size_t len);

#endif
