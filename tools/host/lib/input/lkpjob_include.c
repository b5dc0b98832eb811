/* lkp-tests' includes: "<<: FILE" lines of a job file replaced by FILE's
 * text (see lkpjob.h, krp_lkpjob_includes); the job's conversion is
 * lkpjob.c's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lkpjob.h"

static int regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* NAME beside the job, in DIR, DIR/jobs or DIR/jobs/<folder> (lkp's search,
 * its recursive part one folder deep); 0 with the path, or -1. */
static int find_include(const char *name, const char *job_dir, const char *lkp_dir, char *path,
			size_t pathsz)
{
	DIR *d;
	struct dirent *e;
	int found = 0;

	snprintf(path, pathsz, "%s/%s", job_dir, name);
	if (regular_file(path))
		return 0;
	if (!lkp_dir)
		return -1;
	snprintf(path, pathsz, "%s/%s", lkp_dir, name);
	if (regular_file(path))
		return 0;
	snprintf(path, pathsz, "%s/jobs/%s", lkp_dir, name);
	if (regular_file(path))
		return 0;
	snprintf(path, pathsz, "%s/jobs", lkp_dir);
	if (!(d = opendir(path)))
		return -1;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, pathsz, "%s/jobs/%s/%s", lkp_dir, e->d_name, name);
		found = regular_file(path);
	}
	closedir(d);
	return found ? 0 : -1;
}

static int expand(const char *buf, size_t len, const char *job_dir, const char *lkp_dir, int depth,
		  struct krp_buf *out, struct krp_matrix_err *err)
{
	unsigned long line = 0;

	for (size_t pos = 0; pos < len;) {
		const char *l = buf + pos, *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos, ind = 0, a;
		char name[256], path[4096], ferr[KRP_ERR_MAX], *data;
		size_t dlen;
		int rc;

		pos += n + 1;
		line++;
		while (ind < n && l[ind] == ' ')
			ind++;
		a = ind + 2;
		if (n < ind + 2 || memcmp(l + ind, "<<", 2) != 0) {
			krp_buf_add(out, l, n);
			krp_buf_puts(out, "\n");
			continue;
		}
		while (a < n && l[a] == ' ')
			a++;
		if (a >= n || l[a] != ':' || a + 1 >= n || l[a + 1] != ' ') {
			krp_buf_add(out, l, n);
			krp_buf_puts(out, "\n");
			continue;
		}
		for (a++; a < n && l[a] == ' '; a++)
			;
		if (a < n && (l[a] == '*' || l[a] == '[')) { /* a YAML merge: libyaml's */
			krp_buf_add(out, l, n);
			krp_buf_puts(out, "\n");
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
		if (find_include(name, job_dir, lkp_dir, path, sizeof(path)) != 0) {
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
		if (krp_read_file(path, KRP_LKPJOB_MAX_SIZE, &data, &dlen, ferr, sizeof(ferr)) !=
		    0) {
			snprintf(err->msg, sizeof(err->msg), "<<: %.64s: %.170s", name, ferr);
			return -1;
		}
		{
			struct krp_buf sub = {0};
			char dir[4096];

			snprintf(dir, sizeof(dir), "%s", path);
			*strrchr(dir, '/') = 0;
			rc = expand(data, dlen, dir, lkp_dir, depth + 1, &sub, err);
			free(data);
			if (rc != 0) {
				krp_buf_free(&sub);
				return -1;
			}
			for (size_t p = 0; p < sub.len;) { /* indented as the key */
				const char *snl = memchr(sub.data + p, '\n', sub.len - p);
				size_t sn = snl ? (size_t)(snl - sub.data - p) : sub.len - p;

				krp_buf_add(out, l, ind);
				krp_buf_add(out, sub.data + p, sn);
				krp_buf_puts(out, "\n");
				p += sn + 1;
			}
			krp_buf_free(&sub);
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

int krp_lkpjob_includes(const char *buf, size_t len, const char *job_dir, const char *lkp_dir,
			struct krp_buf *out, struct krp_matrix_err *err)
{
	memset(err, 0, sizeof(*err));
	if (expand(buf, len, job_dir, lkp_dir, 0, out, err) != 0) {
		krp_buf_free(out);
		return -1;
	}
	return 0;
}
