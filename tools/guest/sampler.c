/* sampler: the sample buffer and /proc readers the samplers share (see
 * sampler.h). */
#include "sampler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "contract.h"
#include "io.h"

#define BUF_INITIAL (64u << 10)
#define BUF_MAX (64u << 20) /* a sample larger than this is cut */

/* The one sample buffer, reused; it only grows to the largest sample. */
static char *buf;
static size_t buf_len, buf_cap;
static const char *cur_name;
static int *cur_warned;

/* Makes room for at least want more bytes; -1 if over BUF_MAX. */
static int buf_reserve(size_t want)
{
	size_t cap = buf_cap ? buf_cap : BUF_INITIAL;
	char *p;

	if (buf && buf_len + want <= buf_cap)
		return 0;
	while (cap < buf_len + want) {
		if (cap >= BUF_MAX)
			return -1;
		cap *= 2;
	}
	p = realloc(buf, cap);
	if (!p)
		return -1;
	buf = p;
	buf_cap = cap;
	return 0;
}

int krp_sample_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (buf_reserve(128) < 0) {
		errno = ENOMEM;
		return -1;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + buf_len, buf_cap - buf_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= buf_cap - buf_len) {
		errno = EOVERFLOW;
		return -1;
	}
	buf_len += (size_t)n;
	return 0;
}

int krp_sample_begin(const char *name, int *warned)
{
	struct timespec now;

	buf_len = 0;
	cur_name = name;
	cur_warned = warned;
	clock_gettime(CLOCK_REALTIME, &now);
	return krp_sample_printf(KRP_SAMPLE_MARK " %lld.%06ld\n", (long long)now.tv_sec,
				 now.tv_nsec / 1000);
}

int krp_sample_write(int fd)
{
	return krp_write_all(fd, buf, buf_len);
}

size_t krp_sample_len(void)
{
	return buf_len;
}

void krp_sample_cut(size_t len)
{
	if (len < buf_len)
		buf_len = len;
}

void krp_sample_warn(const char *path)
{
	if (*cur_warned)
		return;
	*cur_warned = 1;
	fprintf(stderr, "krepro-monitor: warning: %s: %s: %s (further errors not reported)\n",
		cur_name, path, strerror(errno));
}

/* Appends the whole file (one read loop), plus a newline if it lacks one. */
int krp_sample_add_file(const char *path)
{
	size_t start = buf_len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n;

		if ((!buf || buf_len == buf_cap) && buf_reserve(4096) < 0) {
			errno = EFBIG;
			goto fail;
		}
		n = read(fd, buf + buf_len, buf_cap - buf_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		buf_len += (size_t)n;
	}
	close(fd);
	if (buf_len > start && buf[buf_len - 1] != '\n') {
		if (buf_reserve(1) < 0) {
			buf_len = start;
			errno = EFBIG;
			return -1;
		}
		buf[buf_len++] = '\n';
	}
	return 0;
fail:
	e = errno;
	close(fd);
	buf_len = start;
	errno = e;
	return -1;
}

int krp_read_small(const char *path, char *dst, size_t cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len + 1 < cap) {
		ssize_t n = read(fd, dst + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	dst[len] = '\0';
	return 0;
}

unsigned long long krp_field_ull(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == ':' || p[n] == '\t'))
			return strtoull(p + n + 1 + strspn(p + n + 1, " \t:"), NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* N of "<prefix>N" (N at most max); -1 if s is not that. */
static int num_suffix(const char *s, const char *prefix, unsigned long max, unsigned *out)
{
	size_t n = strlen(prefix);
	unsigned long v;
	char *end;

	if (strncmp(s, prefix, n) != 0 || s[n] < '0' || s[n] > '9')
		return -1;
	v = strtoul(s + n, &end, 10);
	if (*end || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

size_t krp_list_numbered(const char *dir, const char *prefix, unsigned *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < cap) {
		if (num_suffix(de->d_name, prefix, 1000000, &out[n]) == 0)
			n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_uint);
	return n;
}

const unsigned *krp_numa_nodes(size_t *n)
{
	static unsigned nodes[1024];
	static size_t nnodes;
	static int scanned;

	if (!scanned) {
		nnodes = krp_list_numbered(KRP_NODE_DIR, "node", nodes, 1024);
		scanned = 1;
	}
	*n = nnodes;
	return nodes;
}

int krp_sample_nodes(const char *file, int node_line)
{
	size_t n;
	const unsigned *nodes = krp_numa_nodes(&n);
	char path[128];

	for (size_t i = 0; i < n; i++) {
		size_t mark = buf_len;

		snprintf(path, sizeof(path), KRP_NODE_DIR "/node%u/%s", nodes[i], file);
		if (node_line && krp_sample_printf("node: %u\n", nodes[i]) < 0)
			return -1;
		if (krp_sample_add_file(path) < 0) {
			krp_sample_warn(path);
			buf_len = mark;
		}
	}
	return 0;
}

const char *krp_no_nodes(void)
{
	size_t n;

	krp_numa_nodes(&n);
	return n ? NULL : "no " KRP_NODE_DIR "/node<N>";
}

long long krp_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
