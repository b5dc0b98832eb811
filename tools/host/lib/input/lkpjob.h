/* lkp-tests job files (the job.yaml 0-day attaches to every report) read with
 * libyaml and rewritten as a krepro matrix.
 *
 *   suite/testcase        the kit's suite of that name: a folder under suites/,
 *                         or one its meta names with "lkp NAME" (specjbb2015
 *                         -> specjbb; the Makefile's lkp_suites.def)
 *   <suite>: {k: v, ...}  the program's parameters, flattened
 *   <monitor>:            a monitor the kit has joins "monitors: a+b"
 *   k: [a, b] / block list  an axis, as lkp's split-job expands it
 *   :#! ... / ---         lkp's comment keys are skipped; each YAML document
 *                         is one part of the matrix
 *
 * Known lkp keys are mapped (nr_task, runtime, mode, test, size, fs,
 * thp_enabled -> thp, ...), a key the job's suite declares itself first
 * (hackbench's nr_threads and iterations), then what the suite's meta says
 * of lkp's names and semantics (its lkp lines: specjbb's nr_threads is its
 * threads, hackbench's mode threads is thread, unixbench's X11 tests are
 * refused, will-it-scale without mode runs both builds); keys that do not
 * apply to the kit (testbox, kconfig, commit, cpufreq_governor, ...) are
 * reported once in notes and never reach the matrix, so never the result
 * path.  Errors name the line. */
#ifndef KREPRO_LKPJOB_H
#define KREPRO_LKPJOB_H
#include <stddef.h>

#include "matrix.h"
#include "util.h"

#define KRP_LKPJOB_MAX_NODES 100000 /* aliases are followed: bound the walk */
#define KRP_LKPJOB_MAX_DEPTH 16
#define KRP_LKPJOB_MAX_SIZE ((size_t)1 << 20) /* a job file, its includes too */

/* Where each line of a job's text came from once its includes are in
 * (krp_lkpjob_includes): line I of the text is line at[I-1].line of file
 * at[I-1].file, 0 the job itself, N the Nth include read (files[N-1], its
 * path; one file included twice is two). */
struct krp_lkpjob_at {
	unsigned file;
	unsigned long line;
};
struct krp_lkpjob_origin {
	struct krp_lkpjob_at *at;
	size_t n, cap;
	char **files;
	size_t nfiles;
	const char *job; /* the job's own name in messages (the caller's; NULL: "the job") */
};
void krp_lkpjob_origin_free(struct krp_lkpjob_origin *o);
/* Text line LINE's file (NULL: the job) and its line there. */
const char *krp_lkpjob_origin_of(const struct krp_lkpjob_origin *o, unsigned long line,
				 unsigned long *file_line);

/* Rewrite the lkp job in buf as a matrix into out; notes (one line each: what
 * was ignored and why) into notes.  known_keys: the kit's matrix keys as
 * "\nkey\nkey\n" (from lib/shared/matrix-keys), passed through when a job uses them;
 * "\nSUITE/key\n" for a key SUITE declares (krp_lkpjob_keys).  A key that
 * is not a name is refused as a file that is not a job, its text never
 * quoted.  origin: where buf's lines came from (krp_lkpjob_includes; NULL:
 * all from the job): a key one map gives twice from the same file is
 * refused naming both lines (FILE:LINE), while a key set over one from
 * another file (the job's after an include's) overrides it, as in lkp-tests.
 * Returns 0, or -1 with err (out empty). */
int krp_lkpjob_to_matrix(const char *buf, size_t len, const struct krp_lkpjob_origin *origin,
			 const char *known_keys, struct krp_buf *out, struct krp_buf *notes,
			 struct krp_matrix_err *err);

/* lkp's includes, "<<: FILE" lines, replaced by FILE's text indented as
 * the line (lkp-tests' yaml_merge_included_files, textual): FILE is looked
 * up beside the job (job_dir), then in lkp_dir, lkp_dir/jobs and
 * lkp_dir/jobs/<folder> (an lkp-tests checkout, NULL for none); "<<: *x"
 * (a YAML merge) is left to libyaml.  An include not found, absolute, with
 * "..", with overrides ({file: ...}), nested 8 deep, not a regular file or
 * reached through a symbolic link (FILE or a folder of its name: opened
 * with O_NOFOLLOW, component by component) is an error naming it and its
 * line (err->line; the message says how to give the checkout), never
 * quoting its text.  origin (NULL: not wanted) gets where each line of out
 * came from.  Returns 0 with the text in out, or -1. */
int krp_lkpjob_includes(const char *buf, size_t len, const char *job_dir, const char *lkp_dir,
			struct krp_buf *out, struct krp_lkpjob_origin *origin,
			struct krp_matrix_err *err);

/* The kit's key table (./run-matrix.sh --keys: "KEY CHECK WHERE OWNER ..."
 * lines, # comments) as known_keys: every KEY, and SUITE/KEY for a key
 * whose OWNER is a suite.  The caller frees it. */
char *krp_lkpjob_keys(const char *table, size_t len);
/* The same from the key table's file (at most 64 KiB); NULL with err. */
char *krp_lkpjob_read_keys(const char *path, char *err, size_t errsz);

/* Flow collections ('[', '{') nested deeper than KRP_LKPJOB_MAX_DEPTH in
 * buf, refused before libyaml reads it (its cost grows with the square of
 * the depth): 0, or -1 with err's line and message set. */
int krp_lkpjob_flow_depth(const char *buf, size_t len, struct krp_matrix_err *err);

#endif
