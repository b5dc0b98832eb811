/* Matrix files (the jobs directory): a flat YAML subset expanded into cells.
 *
 *   # comment            blank lines and comments are ignored
 *   key: value           scalar; key and value as in job.conf (contract.h),
 *                        but no ',' in a value
 *   key: [a, b, c]       list = axis; cells are the Cartesian product of all
 *                        axes in file order (first axis varies slowest)
 *   ---                  part separator: part 0 is shared, every later part
 *                        is merged on top of it (later keys override) and
 *                        yields its own cells; a single part yields its cells
 *
 * "runs: N" is a plain positive integer.  Values are kept as written
 * ("100%" too: run-matrix resolves counts against the cell's board, once).
 * Any error names the line and nothing is produced. */
#ifndef KREPRO_MATRIX_H
#define KREPRO_MATRIX_H
#include <stddef.h>

#include "contract.h"
#include "util.h"

#define KRP_MATRIX_MAX_CELLS 10000
#define KRP_MATRIX_KEYS_MAX 1000
#define KRP_MATRIX_OUT_MAX ((size_t)64 << 20)

struct krp_matrix_err {
	unsigned long line; /* 1-based; 0 when no line applies */
	char msg[256];
};

/* Expand buf into out: one line per cell, "key=value" pairs separated by
 * spaces, keys in file order.  Returns the number of cells, or -1 with err
 * (out is then left empty). */
long krp_matrix_expand(const char *buf, size_t len, struct krp_buf *out,
		       struct krp_matrix_err *err);

#endif
