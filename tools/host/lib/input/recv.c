/* Receiver (see recv.h). */
#include "recv.h"

#include "io.h"

#include "contract.h"

#include "console_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct writer {
	int dirfd;
	size_t files;
};

int krp_host_owned_name(const char *name)
{
	const char *p = KRP_HOST_FILES;
	size_t n, plen = strlen(KRP_TENANT_PREFIX);

	/* A tenant's files arrive as vm_<N>.<name> and are renamed <name>;
	 * every such prefix is taken off ("vm_1.vm_2.images" too). */
	while (strncmp(name, KRP_TENANT_PREFIX, plen) == 0) {
		const char *d = name + plen, *q = d;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q == d || *q != '.')
			break;
		name = q + 1;
	}
	n = strlen(name);
	while (*p) {
		size_t w = strcspn(p, " ");

		if (w == n && strncmp(p, name, n) == 0)
			return 1;
		p += w;
		p += strspn(p, " ");
	}
	return 0;
}

int krp_tenant_name_ok(const char *name)
{
	const char *d, *p;

	if (strncmp(name, KRP_TENANT_PREFIX, strlen(KRP_TENANT_PREFIX)) != 0)
		return 1;
	d = p = name + strlen(KRP_TENANT_PREFIX);
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == d || *p != '.')
		return 1; /* not a tenant's file: "vm_x", "vm_2" */
	return krp_name_ok(p + 1);
}

static int write_file(void *vctx, const char *name, const unsigned char *data, size_t len,
		      char *err, size_t errsz)
{
	struct writer *w = vctx;
	int fd;

	/* The decoder has checked krp_name_ok(); check again: this is the
	 * only place that creates files. */
	if (!krp_name_ok(name)) {
		snprintf(err, errsz, "bad name");
		return -1;
	}
	if (++w->files > KRP_RECV_MAX_FILES) {
		snprintf(err, errsz, "more than %d files in one run", KRP_RECV_MAX_FILES);
		return -1;
	}
	if (!krp_tenant_name_ok(name)) {
		snprintf(err, errsz,
			 "the guest sent '%s': a tenant's file name must be a file name", name);
		return -1;
	}
	if (krp_host_owned_name(name)) {
		snprintf(err, errsz, "the guest sent '%s', a file only the host writes", name);
		return -1;
	}
	fd = openat(w->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errsz, "cannot create %s: %s", name, strerror(errno));
		return -1;
	}
	if (krp_write_all(fd, data, len) != 0) {
		snprintf(err, errsz, "write error on %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		snprintf(err, errsz, "close error on %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

int krp_recv_to_dir(const void *buf, size_t len, const char *staging_dir,
		    struct krp_decode_result *res)
{
	return krp_recv_session_to_dir(buf, len, 0, staging_dir, res);
}

int krp_recv_session_to_dir(const void *buf, size_t len, unsigned session, const char *staging_dir,
			    struct krp_decode_result *res)
{
	struct writer w = {0};
	struct krp_buf untexted = {0};
	int rc;

	if (mkdir(staging_dir, 0755) != 0 && errno != EEXIST) {
		memset(res, 0, sizeof(*res));
		snprintf(res->err, sizeof(res->err), "%s: cannot create directory: %s", staging_dir,
			 strerror(errno));
		return -2;
	}
	w.dirfd = open(staging_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.dirfd < 0) {
		memset(res, 0, sizeof(*res));
		snprintf(res->err, sizeof(res->err), "%s: cannot open directory: %s", staging_dir,
			 strerror(errno));
		return -2;
	}
	/* Text frames (a console a lab scheduler logged) become binary ones. */
	if (memmem(buf, len, "KRP1 text ", 10)) {
		krp_frames_untext(buf, len, &untexted);
		buf = untexted.data ? untexted.data : "";
		len = untexted.len;
	}
	rc = session ? krp_decode_session(buf, len, session, write_file, &w, res)
		     : krp_decode(buf, len, write_file, &w, res);
	krp_buf_free(&untexted);
	if (rc == 0 && fsync(w.dirfd) != 0) {
		snprintf(res->err, sizeof(res->err), "%s: fsync: %s", staging_dir, strerror(errno));
		rc = -1;
	}
	close(w.dirfd);
	return rc;
}
