/* Host-side helpers: allocation, growable buffers, whole-file reads, atomic
 * writes, a string-keyed index. */
#ifndef KREPRO_UTIL_H
#define KREPRO_UTIL_H
#include <stdarg.h>
#include <stddef.h>

#define KRP_ERR_MAX 512

void *krp_xmalloc(size_t n);
void *krp_xcalloc(size_t n, size_t size);
void *krp_xrealloc(void *p, size_t n);
char *krp_xstrdup(const char *s);
char *krp_xstrndup(const char *s, size_t n);

/* Growable byte buffer, always NUL-terminated once anything was added. */
struct krp_buf {
	char *data;
	size_t len, cap;
};
void krp_buf_add(struct krp_buf *b, const void *p, size_t n);
void krp_buf_puts(struct krp_buf *b, const char *s);
void krp_buf_printf(struct krp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void krp_buf_free(struct krp_buf *b);

/* Read a whole file ("-" = stdin) of at most max bytes.  The result is
 * NUL-terminated (not counted in *len).  On error returns -1 with a message
 * "path: problem" in err. */
int krp_read_file(const char *path, size_t max, char **data, size_t *len, char *err, size_t errsz);
/* The same from an open descriptor (left open); path names it in err. */
int krp_read_fd(int fd, const char *path, size_t max, char **data, size_t *len, char *err,
		size_t errsz);

/* Write data to path via path.tmp + rename.  -1 with "path: problem". */
int krp_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errsz);

/* Write n files together: each data[i] to paths[i].tmp (fully written,
 * synced, closed), then every one renamed into place only when all were
 * written.  On failure -1 with "path: problem", and no temporary and none
 * of the new files is left (one renamed already is removed): never one
 * output without the others. */
int krp_write_atomic_all(size_t n, const char *const *paths, const struct krp_buf *data, char *err,
			 size_t errsz);

/* Join dir and name with one '/'; caller frees. */
char *krp_path_join(const char *dir, const char *name);

/* Last path component of dir, ignoring trailing slashes; caller frees. */
char *krp_basename_dup(const char *path);

/* Copy s into out (size outsz) with non-printable bytes escaped as \xNN and
 * the result truncated; for error messages about untrusted text. */
void krp_sanitize(char *out, size_t outsz, const char *s, size_t len);

/* Open-addressing hash index from string keys to size_t values. */
struct krp_index {
	char **keys;
	size_t *vals;
	size_t cap, count;
};
#define KRP_NOT_FOUND ((size_t)-1)
size_t krp_index_find(const struct krp_index *ix, const char *key);
/* Inserts key (copied) -> val; returns the existing value if key was
 * already present (no change), else KRP_NOT_FOUND. */
size_t krp_index_insert(struct krp_index *ix, const char *key, size_t val);
void krp_index_free(struct krp_index *ix);

/* Strict decimal number: -?[0-9]+(\.[0-9]+)?, at most 40 characters.
 * Returns 0 and sets *v, or -1. */
int krp_parse_number(const char *s, size_t len, double *v);

/* The largest magnitude a result value may have.  A value beyond it (or
 * not finite) is refused wherever one enters (krp_metric_add, krp_acc_add,
 * stats.json): sums, squares and differences of a million such values stay
 * finite, so no mean, stddev, test or plot becomes inf or nan. */
#define KRP_RESULT_MAX 1e150
int krp_value_ok(double v);

/* A function's symbol without compiler clone suffixes: "foo.isra.0" ->
 * "foo" (in place); perf-profile's and the memory model's profile rows. */
void krp_strip_sym_suffix(char *sym);

#endif
