/* lkp-tests' includes: "<<: FILE" lines of a job file replaced by FILE's
 * text (see lkpjob.h, krp_lkpjob_includes); the job's conversion is
 * lkpjob.c's. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lkpjob.h"

/* NAME under BASE, opened component by component with O_NOFOLLOW: no link
 * is followed in NAME, whatever its folders (BASE itself is the user's).
 * The descriptor, or -1 with errno (ELOOP or ENOTDIR: a link on the way). */
static int open_beneath(const char *base, const char *name)
{
	char comp[256];
	int dir = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (dir < 0)
		return -1;
	for (const char *p = name;;) {
		size_t n = strcspn(p, "/");
		int last = p[n] == '\0';

		if (n == 0 || n >= sizeof(comp)) { /* "a//b", "a/" */
			close(dir);
			errno = ENOENT;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (!last) { /* O_NOFOLLOW|O_DIRECTORY says ENOTDIR for a link: ask */
			struct stat st;

			if (fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode)) {
				close(dir);
				errno = ELOOP;
				return -1;
			}
		}
		/* O_NONBLOCK: a FIFO opens without waiting, then fails the check */
		fd = openat(dir, comp,
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
		close(dir);
		if (fd < 0 || last)
			return fd;
		dir = fd;
		p += n + 1;
	}
}

/* NAME beside the job, in DIR, DIR/jobs or DIR/jobs/<folder> (lkp's search,
 * its recursive part one folder deep, never through a link): its descriptor
 * with its path, -1 when none, -2 when one is there but a link or not a
 * regular file (path says which: it is refused, not skipped). */
static int find_include(const char *name, const char *job_dir, const char *lkp_dir, char *path,
			size_t pathsz)
{
	char dirs[3][4096];
	size_t nd = 0;
	DIR *d;
	struct dirent *e;

	snprintf(dirs[nd++], sizeof(dirs[0]), "%s", job_dir);
	if (lkp_dir) {
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s", lkp_dir);
		snprintf(dirs[nd++], sizeof(dirs[0]), "%s/jobs", lkp_dir);
	}
	for (size_t i = 0; i < nd + 1; i++) {
		struct stat st;
		int fd;

		if (i == nd) { /* DIR/jobs/<folder>: folders, not links to one */
			int why = ENOENT;

			if (!lkp_dir || !(d = opendir(dirs[2])))
				return -1;
			fd = -1;
			while ((e = readdir(d))) {
				char sub[512];

				if (e->d_name[0] == '.' || strlen(e->d_name) > 200 ||
				    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
				    !S_ISDIR(st.st_mode))
					continue;
				snprintf(sub, sizeof(sub), "%s/%s", e->d_name, name);
				if ((size_t)snprintf(path, pathsz, "%s/%s", dirs[2], sub) >= pathsz)
					continue;
				fd = open_beneath(dirs[2], sub);
				why = errno;
				if (fd >= 0 || why == ELOOP)
					break;
			}
			closedir(d);
			if (fd < 0 && why != ELOOP)
				return -1;
			errno = why;
		} else {
			snprintf(path, pathsz, "%s/%s", dirs[i], name);
			fd = open_beneath(dirs[i], name);
		}
		if (fd < 0 && errno == ELOOP)
			return -2;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			return -2;
		}
		return fd;
	}
	return -1;
}

static void origin_add(struct krp_lkpjob_origin *o, unsigned file, unsigned long line)
{
	if (!o)
		return;
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 256;
		o->at = krp_xrealloc(o->at, o->cap * sizeof(*o->at));
	}
	o->at[o->n].file = file;
	o->at[o->n++].line = line;
}

/* A line of the text: the including lines' indentation, then the line. */
static void put_line(struct krp_buf *out, const char *prefix, size_t plen, const char *l, size_t n,
		     struct krp_lkpjob_origin *origin, unsigned file, unsigned long line)
{
	krp_buf_add(out, prefix, plen);
	krp_buf_add(out, l, n);
	krp_buf_puts(out, "\n");
	origin_add(origin, file, line);
}

static int expand(const char *buf, size_t len, const char *job_dir, const char *lkp_dir, int depth,
		  const char *prefix, size_t plen, unsigned file, struct krp_buf *out,
		  struct krp_lkpjob_origin *origin, struct krp_matrix_err *err)
{
	unsigned long line = 0;

	for (size_t pos = 0; pos < len;) {
		const char *l = buf + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos, ind = 0, a;
		char name[256], path[4096], ferr[KRP_ERR_MAX], *data;
		size_t dlen;
		int rc, fd;

		pos += n + 1;
		line++;
		while (ind < n && l[ind] == ' ')
			ind++;
		a = ind + 2;
		if (n < ind + 2 || memcmp(l + ind, "<<", 2) != 0) {
			put_line(out, prefix, plen, l, n, origin, file, line);
			continue;
		}
		while (a < n && l[a] == ' ')
			a++;
		if (a >= n || l[a] != ':' || a + 1 >= n || l[a + 1] != ' ') {
			put_line(out, prefix, plen, l, n, origin, file, line);
			continue;
		}
		for (a++; a < n && l[a] == ' '; a++)
			;
		if (a < n && (l[a] == '*' || l[a] == '[')) { /* a YAML merge: libyaml's */
			put_line(out, prefix, plen, l, n, origin, file, line);
			continue;
		}
		err->line = line;
		if (n - a >= sizeof(name) || a == n) {
			snprintf(err->msg, sizeof(err->msg), "<<: an include names one file");
			return -1;
		}
		memcpy(name, l + a, n - a);
		name[n - a] = 0;
		while (name[0] && name[strlen(name) - 1] == ' ')
			name[strlen(name) - 1] = 0;
		if ((name[0] == '\'' || name[0] == '"') && strlen(name) >= 2 &&
		    name[strlen(name) - 1] == name[0]) {
			memmove(name, name + 1, strlen(name));
			name[strlen(name) - 1] = 0;
		}
		if (name[0] == '{') {
			snprintf(err->msg, sizeof(err->msg),
				 "<<: %.64s: an include with overrides is not supported (name the "
				 "file alone and set the keys after it)",
				 name);
			return -1;
		}
		if (!name[0] || name[0] == '/' || strstr(name, "..")) {
			snprintf(err->msg, sizeof(err->msg),
				 "<<: '%.64s': an include is a file of lkp-tests' jobs, named "
				 "without '/' at the start or '..'",
				 name);
			return -1;
		}
		if (depth >= 8) {
			snprintf(err->msg, sizeof(err->msg), "<<: %.64s: includes nested 8 deep",
				 name);
			return -1;
		}
		fd = find_include(name, job_dir, lkp_dir, path, sizeof(path));
		if (fd == -2) { /* refused, never read: its text is no one's to see */
			snprintf(err->msg, sizeof(err->msg),
				 "<<: %.64s: %.100s: a link or not a regular file (an include is "
				 "never read through a link)",
				 name, path);
			return -1;
		}
		if (fd < 0) {
			if (lkp_dir)
				snprintf(err->msg, sizeof(err->msg),
					 "<<: %.64s: not found beside the job nor in %.120s/jobs",
					 name, lkp_dir);
			else
				snprintf(err->msg, sizeof(err->msg),
					 "<<: %.64s includes a part of lkp-tests' jobs: give an "
					 "lkp-tests checkout with --lkp-tests DIR",
					 name);
			return -1;
		}
		rc = krp_read_fd(fd, path, KRP_LKPJOB_MAX_SIZE, &data, &dlen, ferr, sizeof(ferr));
		close(fd);
		if (rc != 0) {
			snprintf(err->msg, sizeof(err->msg), "<<: %.64s: %.170s", name, ferr);
			return -1;
		}
		{
			char dir[4096], *sub_prefix = krp_xmalloc(plen + ind + 1);
			unsigned sub_file = 0;

			memcpy(sub_prefix, prefix, plen);
			memcpy(sub_prefix + plen, l, ind); /* indented as the key */
			if (origin) {
				origin->files = krp_xrealloc(
				    origin->files, (origin->nfiles + 1) * sizeof(*origin->files));
				origin->files[origin->nfiles++] = krp_xstrdup(path);
				sub_file = (unsigned)origin->nfiles;
			}
			snprintf(dir, sizeof(dir), "%s", path);
			*strrchr(dir, '/') = 0;
			rc = expand(data, dlen, dir, lkp_dir, depth + 1, sub_prefix, plen + ind,
				    sub_file, out, origin, err);
			free(sub_prefix);
			free(data);
			if (rc != 0) { /* the include's own line, then this one's */
				char inner[sizeof(err->msg)];

				snprintf(inner, sizeof(inner), "%s", err->msg);
				snprintf(err->msg, sizeof(err->msg), "<<: %.64s:%lu: %.160s", name,
					 err->line, inner);
				err->line = line;
				return -1;
			}
		}
		err->line = 0;
		if (out->len > KRP_LKPJOB_MAX_SIZE) {
			snprintf(err->msg, sizeof(err->msg), "with its includes, over %zu bytes",
				 (size_t)KRP_LKPJOB_MAX_SIZE);
			return -1;
		}
	}
	return 0;
}

void krp_lkpjob_origin_free(struct krp_lkpjob_origin *o)
{
	for (size_t i = 0; i < o->nfiles; i++)
		free(o->files[i]);
	free(o->files);
	free(o->at);
	memset(o, 0, sizeof(*o));
}

const char *krp_lkpjob_origin_of(const struct krp_lkpjob_origin *o, unsigned long line,
				 unsigned long *file_line)
{
	*file_line = line;
	if (!o || line == 0 || line > o->n)
		return NULL;
	*file_line = o->at[line - 1].line;
	return o->at[line - 1].file ? o->files[o->at[line - 1].file - 1] : NULL;
}

int krp_lkpjob_includes(const char *buf, size_t len, const char *job_dir, const char *lkp_dir,
			struct krp_buf *out, struct krp_lkpjob_origin *origin,
			struct krp_matrix_err *err)
{
	memset(err, 0, sizeof(*err));
	if (expand(buf, len, job_dir, lkp_dir, 0, "", 0, 0, out, origin, err) != 0) {
		krp_buf_free(out);
		if (origin)
			krp_lkpjob_origin_free(origin);
		return -1;
	}
	return 0;
}
