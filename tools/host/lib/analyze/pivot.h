/* Matrix pivot (the table of seed 003): rows are combinations of the row
 * keys' values, columns combinations of the column keys' values, a cell the
 * mean of one metric over the runs with those values; missing cells "na";
 * then an "improvement from <base>" block in percent.
 *
 * Cells come from run directories: every directory below a results root
 * holding job.conf and stats.json is one run; job.conf's key=value lines
 * give the cell parameters, host.conf's the variant ("kernel" is the variant), stats.json
 * the metric.  Failed runs (last_state.failed) are left out. */
#ifndef KREPRO_PIVOT_H
#define KREPRO_PIVOT_H
#include <stddef.h>

#include "jobconf.h"
#include "util.h"

struct krp_pivot_axis {
	char *key;
	char **vals;
	char **ord; /* each value's sort key (krp_pivot_add_ordered), else its value */
	size_t n, cap;
	int fixed; /* order given by krp_pivot_order: other values dropped */
};
struct krp_pivot_entry {
	size_t *vi; /* value index per axis */
	double sum;
	size_t n;
};
struct krp_pivot {
	struct krp_pivot_axis *ax; /* row axes, then column axes */
	size_t nrow, ncol;
	struct krp_pivot_entry *e;
	size_t ne, cape;
	size_t skipped;	   /* runs without the metric or a key, or failed */
	size_t model_runs; /* runs that had model.<metric> too */
	size_t measure;	   /* 1 + the row axis "measure" (plain, model), or 0 */
};

void krp_pivot_init(struct krp_pivot *p, const char *const *rows, size_t nrow,
		    const char *const *cols, size_t ncol);
void krp_pivot_free(struct krp_pivot *p);
/* Fix the order (and the set) of an axis's values.  -1 if no such axis. */
int krp_pivot_order(struct krp_pivot *p, const char *key, const char *const *vals, size_t n);
/* Add one run's value; vals has nrow + ncol entries. */
void krp_pivot_add(struct krp_pivot *p, const char *const *vals, double v);
/* The same, each value with a sort key (ords, nrow + ncol entries, NULL
 * for none): a value written as the matrix did (64M, 2m) sorts by what it
 * resolved to (67108864, 120). */
void krp_pivot_add_ordered(struct krp_pivot *p, const char *const *vals, const char *const *ords,
			   double v);
/* Sort the axes not fixed by krp_pivot_order by their sort keys (numbers by
 * value, then strings, strverscmp), equal keys by value. */
void krp_pivot_sort(struct krp_pivot *p);

/* Number of row / column combinations; the cell of (row r, column c):
 * 0 and its mean, or -1 (na). */
size_t krp_pivot_nrows(const struct krp_pivot *p);
size_t krp_pivot_ncols(const struct krp_pivot *p);
int krp_pivot_cell(const struct krp_pivot *p, size_t r, size_t c, double *mean);
/* Value of axis a in row r (a < nrow) or column c (a >= nrow). */
const char *krp_pivot_label(const struct krp_pivot *p, size_t a, size_t rc);

/* improvement = 100 * (v - base) / base. */
double krp_pivot_improvement(double v, double base);
/* Cell text: integers (and |v| >= 1000) "%.0f", else "%.2f". */
void krp_pivot_fmt(char *out, size_t outsz, double v);

/* Walk root (a directory; or a file listing run directories or roots, one
 * per line) and add every run.  -1 with err on an unreadable input. */
int krp_pivot_collect(struct krp_pivot *p, const char *root, const char *metric, char *err,
		      size_t errsz);

/* Most keys --rows or --cols take. */
#define KRP_PIVOT_MAX_KEYS 8

/* What krepro-pivot and krepro-report --pivot both do: rows and cols are
 * comma lists of 1..KRP_PIVOT_MAX_KEYS keys (a key "A+B" joins its parts'
 * values: base+numa_balancing=0), orders are "KEY=V1,V2,..." (all
 * modified in place); then collect metric under root and sort.  When runs
 * hold the memory model's model.<metric> (docs/MEMORY-MODEL.md), a last
 * row key "measure" puts each row's model row ("model") beside it
 * ("plain"), in the table and in the improvement block.  p is left safe
 * to krp_pivot_free; -1 with err on a bad option or input. */
int krp_pivot_build(struct krp_pivot *p, char *rows, char *cols, char **orders, size_t norders,
		    const char *root, const char *metric, char *err, size_t errsz);

/* The text table, and the improvement block of every value of the first
 * row key against base (NULL: its first value).  -1 with err if base is
 * not a value of the first row key. */
int krp_pivot_text(const struct krp_pivot *p, const char *base, struct krp_buf *out, char *err,
		   size_t errsz);

#endif
