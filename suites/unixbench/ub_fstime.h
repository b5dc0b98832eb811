/* unixbench's file tests (File Read, Write and Copy, UnixBench's fstime):
 * one part of unixbench.c, included by it after its die(), now() and the
 * options' globals (dir), and by nothing else. */
#ifndef KREPRO_UB_FSTIME_H
#define KREPRO_UB_FSTIME_H

/* ---- fstime: read, write, copy a max_blocks KiB file in bufsize chunks ---- */

enum fs_mode { FS_READ, FS_WRITE, FS_COPY };

struct fs_arg {
	enum fs_mode mode;
	unsigned long bufsize, max_blocks;
};

static int open_tmp(const char *tag, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/dummy%s-%d", dir, tag, (int)getpid());
	fd = open(path, flags | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	unlink(path);
	return fd;
}

static void fill_file(int fd, char *buf, const struct fs_arg *a, unsigned long nbuf)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		die("lseek: %s", strerror(errno));
	for (unsigned long i = 0; i < nbuf; i++)
		if (write(fd, buf, a->bufsize) != (ssize_t)a->bufsize)
			die("write: %s", strerror(errno));
}

static volatile sig_atomic_t fs_stop;

static void fs_alarm(int sig)
{
	(void)sig;
	fs_stop = 1;
}

/* As UnixBench's fstime: SIGALRM ends the test; write checks it after each
 * pass over the file, read and copy after each buffer and start over at
 * the end of the file (a read that returns 0), counting each full buffer
 * as it goes: the same calls and about the same instructions a buffer (a
 * loop with a mode test and a floating-point count in it read 1% fewer
 * KBps than upstream's in exact mode). */
static void sample_fs(const void *arg, double *count, double *secs)
{
	const struct fs_arg *a = arg;
	const size_t bs = a->bufsize;
	unsigned long nbuf = ub_fs_buffers(a->bufsize, a->max_blocks), counted = 0;
	char *buf = calloc(1, a->bufsize);
	int f = open_tmp("0", O_RDWR), g = -1;
	struct itimerval it;
	double t0;
	ssize_t n = 0;

	if (!buf)
		die("out of memory");
	memset(buf, 'x', a->bufsize);
	/* what is read is written first; what is written starts empty, as
	 * upstream's files (its first pass allocates the file's pages) */
	if (a->mode != FS_WRITE)
		fill_file(f, buf, a, nbuf);
	if (a->mode == FS_COPY)
		g = open_tmp("1", O_RDWR);
	if (lseek(f, 0, SEEK_SET) < 0 || (g >= 0 && lseek(g, 0, SEEK_SET) < 0))
		die("lseek: %s", strerror(errno));
	it = sample_timer();
	fs_stop = 0;
	signal(SIGALRM, fs_alarm);
	setitimer(ITIMER_REAL, &it, NULL);
	t0 = now();
	switch (a->mode) {
	case FS_WRITE:
		while (!fs_stop) {
			for (unsigned long i = 0; i < nbuf; i++) {
				if ((n = write(f, buf, bs)) != (ssize_t)bs)
					goto fail;
				counted += bs;
			}
			lseek(f, 0, SEEK_SET);
		}
		break;
	case FS_READ:
		while (!fs_stop) {
			if ((n = read(f, buf, bs)) != (ssize_t)bs) {
				if (n != 0)
					goto fail;
				lseek(f, 0, SEEK_SET); /* the end of the file */
				continue;
			}
			counted += bs;
		}
		break;
	case FS_COPY:
		while (!fs_stop) {
			if ((n = read(f, buf, bs)) != (ssize_t)bs) {
				if (n != 0)
					goto fail;
				lseek(f, 0, SEEK_SET);
				lseek(g, 0, SEEK_SET);
				continue;
			}
			if ((n = write(g, buf, bs)) != (ssize_t)bs)
				goto fail;
			counted += bs;
		}
		break;
	}
	*secs = now() - t0;
	signal(SIGALRM, SIG_DFL);
	*count = (double)counted / 1024.0; /* KB: the rate is KBps */
	close(f);
	if (g >= 0)
		close(g);
	free(buf);
	return;
fail:
	die("%s: %s", a->mode == FS_READ ? "read" : "write", n < 0 ? strerror(errno) : "short");
}

#endif
