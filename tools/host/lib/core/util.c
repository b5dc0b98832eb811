/* Host-side helpers (see util.h). */
#include "util.h"

#include "io.h"

#include <errno.h>
#include <math.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void oom(void)
{
	fputs("krepro: out of memory\n", stderr);
	abort();
}

void *krp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *krp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *krp_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom();
	return q;
}

char *krp_xstrdup(const char *s)
{
	return krp_xstrndup(s, strlen(s));
}

char *krp_xstrndup(const char *s, size_t n)
{
	char *p = krp_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void buf_reserve(struct krp_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	b->data = krp_xrealloc(b->data, cap);
	b->cap = cap;
}

void krp_buf_add(struct krp_buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void krp_buf_puts(struct krp_buf *b, const char *s)
{
	krp_buf_add(b, s, strlen(s));
}

void krp_buf_printf(struct krp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void krp_buf_free(struct krp_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int krp_read_file(const char *path, size_t max, char **data, size_t *len, char *err, size_t errsz)
{
	int fd, is_stdin = strcmp(path, "-") == 0, rc;

	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	rc = krp_read_fd(fd, path, max, data, len, err, errsz);
	if (!is_stdin)
		close(fd);
	return rc;
}

int krp_read_fd(int fd, const char *path, size_t max, char **data, size_t *len, char *err,
		size_t errsz)
{
	struct krp_buf b = {0};
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		goto too_large;
	/* Memory stays within max + 64 KiB whatever the input (a pipe or
	 * /dev/zero has no size to check first). */
	for (;;) {
		size_t room = max + 1 - b.len;
		ssize_t n;

		if (b.len + 65536 + 1 > b.cap) {
			size_t cap = b.cap ? b.cap * 2 : 65536 + 1;

			if (cap > max + 65536 + 1)
				cap = max + 65536 + 1;
			b.data = krp_xrealloc(b.data, cap);
			b.cap = cap;
		}
		n = read(fd, b.data + b.len, room < b.cap - b.len - 1 ? room : b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errsz, "%s: read error: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		if (b.len > max)
			goto too_large;
	}
	if (!b.data)
		b.data = krp_xrealloc(NULL, 1);
	b.data[b.len] = '\0';
	*data = b.data;
	*len = b.len;
	return 0;
too_large:
	snprintf(err, errsz, "%s: file too large (more than %zu bytes)", path, max);
fail:
	krp_buf_free(&b);
	return -1;
}

/* tmp_of: "<path>.tmp"; caller frees. */
static char *tmp_of(const char *path)
{
	size_t plen = strlen(path);
	char *tmp = krp_xmalloc(plen + 5);

	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp", 5);
	return tmp;
}

/* write_tmp: data into tmp, synced and closed; -1 with "tmp: problem" (tmp
 * removed). */
static int write_tmp(const char *tmp, const void *data, size_t len, char *err, size_t errsz)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0) {
		snprintf(err, errsz, "%s: cannot create: %s", tmp, strerror(errno));
		return -1;
	}
	if (krp_write_all(fd, data, len) != 0) {
		snprintf(err, errsz, "%s: write error: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	if (fsync(fd) != 0) {
		snprintf(err, errsz, "%s: fsync: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		snprintf(err, errsz, "%s: close: %s", tmp, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	unlink(tmp);
	return -1;
}

int krp_write_atomic_all(size_t n, const char *const *paths, const struct krp_buf *data, char *err,
			 size_t errsz)
{
	char **tmp = krp_xmalloc((n ? n : 1) * sizeof(*tmp));
	size_t i, written = 0, renamed = 0;
	int rc = -1;

	for (i = 0; i < n; i++)
		tmp[i] = tmp_of(paths[i]);
	for (; written < n; written++)
		if (write_tmp(tmp[written], data[written].data ? data[written].data : "",
			      data[written].len, err, errsz) != 0)
			goto out;
	for (; renamed < n; renamed++)
		if (rename(tmp[renamed], paths[renamed]) != 0) {
			snprintf(err, errsz, "%s: cannot rename to %s: %s", tmp[renamed],
				 paths[renamed], strerror(errno));
			goto out;
		}
	rc = 0;
out:
	/* a failure leaves no temporary and none of the new files: the ones
	 * renamed already are removed, so no output stands without the rest */
	for (i = 0; rc != 0 && i < written; i++)
		unlink(i < renamed ? paths[i] : tmp[i]);
	for (i = 0; i < n; i++)
		free(tmp[i]);
	free(tmp);
	return rc;
}

int krp_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errsz)
{
	struct krp_buf b = {0};

	b.data = (char *)data;
	b.len = len;
	return krp_write_atomic_all(1, &path, &b, err, errsz);
}

char *krp_path_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	p = krp_xmalloc(dl + nl + 2);
	memcpy(p, dir, dl);
	if (dl == 0 || dir[dl - 1] != '/')
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

char *krp_basename_dup(const char *path)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end) /* "/" or "" */
		return krp_xstrndup(path, end);
	return krp_xstrndup(path + start, end - start);
}

void krp_sanitize(char *out, size_t outsz, const char *s, size_t len)
{
	size_t o = 0, i;

	if (outsz == 0)
		return;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (o + 1 >= outsz)
				break;
			out[o++] = (char)c;
		} else {
			if (o + 4 >= outsz)
				break;
			snprintf(out + o, 5, "\\x%02x", c);
			o += 4;
		}
	}
	if (i < len && outsz > 4) {
		while (o + 3 >= outsz)
			o--;
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

size_t krp_index_find(const struct krp_index *ix, const char *key)
{
	size_t i;

	if (ix->cap == 0)
		return KRP_NOT_FOUND;
	for (i = hash_str(key) & (ix->cap - 1); ix->keys[i]; i = (i + 1) & (ix->cap - 1)) {
		if (strcmp(ix->keys[i], key) == 0)
			return ix->vals[i];
	}
	return KRP_NOT_FOUND;
}

static void index_grow(struct krp_index *ix)
{
	size_t oldcap = ix->cap, i;
	char **ok = ix->keys;
	size_t *ov = ix->vals;

	ix->cap = oldcap ? oldcap * 2 : 64;
	ix->keys = krp_xcalloc(ix->cap, sizeof(*ix->keys));
	ix->vals = krp_xcalloc(ix->cap, sizeof(*ix->vals));
	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (!ok[i])
			continue;
		for (j = hash_str(ok[i]) & (ix->cap - 1); ix->keys[j]; j = (j + 1) & (ix->cap - 1))
			;
		ix->keys[j] = ok[i];
		ix->vals[j] = ov[i];
	}
	free(ok);
	free(ov);
}

size_t krp_index_insert(struct krp_index *ix, const char *key, size_t val)
{
	size_t i;

	if ((ix->count + 1) * 2 > ix->cap)
		index_grow(ix);
	for (i = hash_str(key) & (ix->cap - 1); ix->keys[i]; i = (i + 1) & (ix->cap - 1)) {
		if (strcmp(ix->keys[i], key) == 0)
			return ix->vals[i];
	}
	ix->keys[i] = krp_xstrdup(key);
	ix->vals[i] = val;
	ix->count++;
	return KRP_NOT_FOUND;
}

void krp_index_free(struct krp_index *ix)
{
	size_t i;

	for (i = 0; i < ix->cap; i++)
		free(ix->keys[i]);
	free(ix->keys);
	free(ix->vals);
	ix->keys = NULL;
	ix->vals = NULL;
	ix->cap = ix->count = 0;
}

int krp_value_ok(double v)
{
	return isfinite(v) && fabs(v) <= KRP_RESULT_MAX;
}

int krp_parse_number(const char *s, size_t len, double *v)
{
	char tmp[48];
	size_t i = 0;

	if (len == 0 || len > 40)
		return -1;
	if (s[i] == '-')
		i++;
	if (i >= len || s[i] < '0' || s[i] > '9')
		return -1;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i < len && s[i] == '.') {
		i++;
		if (i >= len || s[i] < '0' || s[i] > '9')
			return -1;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i != len)
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*v = strtod(tmp, NULL);
	return 0;
}

void krp_strip_sym_suffix(char *sym)
{
	static const char *const sfx[] = {"isra", "constprop", "part", "cold", "llvm"};

	for (char *d = strchr(sym, '.'); d; d = strchr(d + 1, '.')) {
		for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
			size_t n = strlen(sfx[i]);

			if (d != sym && strncmp(d + 1, sfx[i], n) == 0 &&
			    (d[1 + n] == '\0' || d[1 + n] == '.')) {
				*d = '\0';
				return;
			}
		}
	}
}
