/* will-it-scale: what several testcases share (testcase.h lists it): the
 * task's messages, temporary files, NAME and the files named after it,
 * which the runner removes after the run, and the loops of testcases that
 * differ only in their setup or an argument. */
#include <poll.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "testcase.h"

void task_msg(const struct wis_task *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), PROG ": task %lu: ", t->idx);

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	dprintf(STDERR_FILENO, "%s\n", buf);
}

const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* An unlinked temporary file in dir, opened with mkostemp's flags, of the
 * given size, or -1. */
int make_tmp_file_in(const struct wis_task *t, const char *dir, int flags, off_t size)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/willitscale.XXXXXX", dir) >= (int)sizeof(path)) {
		task_msg(t, "%s: path too long", dir);
		return -1;
	}
	fd = mkostemp(path, flags);
	if (fd < 0) {
		task_msg(t, "mkostemp %s: %s", path, strerror(errno));
		return -1;
	}
	if (unlink(path) < 0) {
		task_msg(t, "unlink %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (ftruncate(fd, size) < 0) {
		task_msg(t, "ftruncate %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* An unlinked temporary file in TMPDIR of the given size, or -1. */
int make_tmp_file(const struct wis_task *t, off_t size)
{
	return make_tmp_file_in(t, tmp_dir(), 0, size);
}

int map_file_setup(struct wis_task *t)
{
	t->fd = make_tmp_file(t, (off_t)MAP_SIZE);
	return t->fd < 0 ? -1 : 0;
}

/* The three page-fault tests: map, write one byte per page, unmap. */
void pf_loop(struct wis_task *t, int map_flags, int fd)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		volatile char *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, map_flags, fd, 0);

		if (c == MAP_FAILED) {
			task_msg(t, "mmap: %s", strerror(errno));
			_exit(1);
		}
		for (size_t off = 0; off < MAP_SIZE; off += t->pagesize) {
			c[off] = 0;
			counter_inc(counter);
		}
		if (munmap((void *)c, MAP_SIZE) < 0) {
			task_msg(t, "munmap: %s", strerror(errno));
			_exit(1);
		}
	}
}

void malloc_loop(struct wis_task *t, size_t size)
{
	/* in a register across the calls, as upstream's counter pointer */
	unsigned long long *counter = t->counter;

	for (;;) {
		void *p = malloc(size);

		if (!p) {
			task_msg(t, "malloc: out of memory");
			_exit(1);
		}
		free(p);
		counter_inc(counter);
	}
}

/* futex1..4: a wake with nobody waiting, or a wait on a value that does
 * not match (returns at once): the cost of the call */
void futex_op_loop(struct wis_task *t, int op, unsigned int val)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		unsigned int word = 0;

		syscall(SYS_futex, &word, op, val, NULL, NULL, 0);
		counter_inc(counter);
	}
}

/* mmap1, mmap2: map 128 MiB and unmap it, nothing touched */
void map_unmap_loop(struct wis_task *t, int flags, int fd)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		void *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED, "mmap");
		munmap(c, MAP_SIZE);
		counter_inc(counter);
	}
}

/* Writes len zero bytes (rounded up to WIS_BUFLEN) at fd's position:
 * data, not a hole, as upstream's write of a zeroed buffer; 0 or -1. */
int write_zeros(int fd, size_t len)
{
	static const char zeros[WIS_BUFLEN];

	for (size_t done = 0; done < len; done += sizeof(zeros))
		if (write(fd, zeros, sizeof(zeros)) != (ssize_t)sizeof(zeros))
			return -1;
	return 0;
}

/* An unlinked temporary file holding len zero bytes. */
int zero_file_setup(struct wis_task *t, size_t len)
{
	t->fd = make_tmp_file(t, 0);
	if (t->fd < 0)
		return -1;
	if (write_zeros(t->fd, len) < 0) {
		task_msg(t, "write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int empty_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, 0);
}

int buf_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, WIS_BUFLEN);
}

void lseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		counter_inc(counter);
	}
}

void read1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	lseek(t->fd, 0, SEEK_SET);
	for (;;) {
		ssize_t n = read(t->fd, buf, sizeof(buf));

		WIS_CHECK(t, n >= 0, "read");
		if (n == 0)
			lseek(t->fd, 0, SEEK_SET);
		counter_inc(counter);
	}
}

void pread1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pread(t->fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "pread");
		counter_inc(counter);
	}
}

void pwrite1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pwrite(t->fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "pwrite");
		counter_inc(counter);
	}
}

/* pipe1, unix1: one byte written and read back on a descriptor pair */
void byte_loop(struct wis_task *t, const int fd[2])
{
	unsigned long long *counter = t->counter;
	char c = 0;

	for (;;) {
		WIS_CHECK(t, write(fd[1], &c, 1) == 1, "write");
		WIS_CHECK(t, read(fd[0], &c, 1) == 1, "read");
		counter_inc(counter);
	}
}

/* lock1: a write lock and its release on one byte count 2, as upstream */
void lock1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		struct flock l = {
		    .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};

		WIS_CHECK(t, fcntl(t->fd, F_SETLKW, &l) == 0, "fcntl lock");
		l.l_type = F_UNLCK;
		WIS_CHECK(t, fcntl(t->fd, F_SETLKW, &l) == 0, "fcntl unlock");
		counter_inc(counter);
		counter_inc(counter);
	}
}

/* pthread_mutex1: one mutex for the whole program (contended between
 * threads; each process has its own copy); pthread_mutex2: the task's own */
pthread_mutex_t wis_mutex = PTHREAD_MUTEX_INITIALIZER;

void mutex_loop(struct wis_task *t, pthread_mutex_t *m)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		counter_inc(counter);
	}
}

void readseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		WIS_CHECK(t, read(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "read");
		counter_inc(counter);
	}
}

void writeseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		WIS_CHECK(t, write(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write");
		counter_inc(counter);
	}
}

/* open1: task i's file is NAME.i beside NAME, a file the runner
 * makes in TMPDIR before the tasks start (name_prepare) and removes with
 * theirs after they end (upstream's testcase_prepare and testcase_cleanup),
 * so no file is left behind.  Directly in TMPDIR as upstream's: a deeper
 * path would add a lookup to every open. */
char named_base[PATH_MAX]; /* NAME; empty until made */

/* Makes NAME holding len zero bytes; -1 after printing why. */
int named_base_make(size_t len)
{
	int fd;

	if (snprintf(named_base, sizeof(named_base), "%s/willitscale.XXXXXX", tmp_dir()) >=
	    (int)sizeof(named_base)) {
		named_base[0] = 0;
		fprintf(stderr, PROG ": TMPDIR too long\n");
		return -1;
	}
	fd = mkstemp(named_base);
	if (fd < 0) {
		fprintf(stderr, PROG ": cannot make a file in %s: %s\n", tmp_dir(),
			strerror(errno));
		named_base[0] = 0;
		return -1;
	}
	if (write_zeros(fd, len) < 0) {
		fprintf(stderr, PROG ": write %s: %s\n", named_base, strerror(errno));
		close(fd);
		return -1; /* the runner removes NAME */
	}
	close(fd);
	return 0;
}

int name_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(0);
}

/* unlink1's names (tests/unlink1.c); NULL until made */
char (*own_names)[PATH_MAX];
unsigned long own_names_nr;

void open1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		int fd = open(t->path, O_RDWR);

		WIS_CHECK(t, fd >= 0, "open");
		close(fd);
		counter_inc(counter);
	}
}

void unlink1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		int fd = open(t->path, O_RDWR | O_CREAT, 0600);

		WIS_CHECK(t, fd >= 0, "open");
		close(fd);
		unlink(t->path);
		counter_inc(counter);
	}
}

/* Creates the task's file, t->path, empty; -1 after printing why. */
int create_path(struct wis_task *t)
{
	int fd = open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);

	if (fd < 0) {
		task_msg(t, "create %s: %s", t->path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* open2, unlink2: task i's file is NAME.i/willitscale, in a folder of its
 * own (upstream's mkdtemp folders, one per task, in TMPDIR). */
int dir_file_setup(struct wis_task *t)
{
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s.%lu", named_base, t->idx) >= (int)sizeof(dir) ||
	    snprintf(t->path, sizeof(t->path), "%s/willitscale", dir) >= (int)sizeof(t->path)) {
		task_msg(t, "TMPDIR too long");
		return -1;
	}
	if (mkdir(dir, 0700) < 0) {
		task_msg(t, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	return create_path(t);
}

/* ---- "same file" testcases: every task opens NAME, which the runner
 * made before they start (upstream's testcase_prepare) ---- */

int name_buf_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(WIS_BUFLEN);
}

/* a page for each task: task i works at offset i pages */
int name_pages_prepare(unsigned long nr_tasks, size_t pagesize)
{
	return named_base_make(nr_tasks * pagesize);
}

int name_mib_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(WIS_FILESIZE);
}

int name_open(struct wis_task *t, int flags)
{
	t->fd = open(named_base, flags);
	if (t->fd < 0) {
		task_msg(t, "open %s: %s", named_base, strerror(errno));
		return -1;
	}
	return 0;
}

int name_rdwr_setup(struct wis_task *t)
{
	return name_open(t, O_RDWR);
}

int name_rdonly_setup(struct wis_task *t)
{
	return name_open(t, O_RDONLY);
}

int name_page_rdwr_setup(struct wis_task *t)
{
	t->off = (off_t)(t->idx * t->pagesize);
	return name_open(t, O_RDWR);
}

int name_page_rdonly_setup(struct wis_task *t)
{
	t->off = (off_t)(t->idx * t->pagesize);
	return name_open(t, O_RDONLY);
}

/* ---- read3, read4: O_DIRECT reads of a page (tmpfs takes O_DIRECT
 * since Linux 6.6; before, the open fails as upstream's does) ---- */

void read_direct_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char *p = aligned_alloc(t->pagesize, t->pagesize);

	WIS_CHECK(t, p != NULL, "aligned_alloc");
	for (;;) {
		ssize_t n = read(t->fd, p, t->pagesize);

		WIS_CHECK(t, n >= 0, "read");
		if (n == 0)
			lseek(t->fd, 0, SEEK_SET);
		counter_inc(counter);
	}
}

/* ---- fallocate1, fallocate2: fallocate 8 KiB at a time up to 1 MiB,
 * then truncate to 0; one op per fallocate.  fallocate1's file is on
 * /dev/shm (tmpfs, upstream's path), fallocate2's in TMPDIR. ---- */

#define FALLOC_LEN (WIS_FILESIZE / 128)

void fallocate_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	off_t place = 0;

	for (;;) {
		int ret = fallocate(t->fd, 0, place, FALLOC_LEN);

		WIS_CHECK(t, ret == 0 || errno == EINTR, "fallocate");
		place += FALLOC_LEN;
		if (place >= (off_t)WIS_FILESIZE) {
			WIS_CHECK(t, ftruncate(t->fd, 0) == 0, "ftruncate");
			place = 0;
		}
		counter_inc(counter);
	}
}

/* ---- tlb_flush1-3: map, then for each page write a byte, drop the page
 * (MADV_DONTNEED: a TLB flush, on every CPU the task's threads ran on)
 * and read it back, one op per page; unmap.  A private mapping reads the
 * file's 0 again, a shared one the 1 written. ---- */

void tlb_flush_loop(struct wis_task *t, size_t size, int flags, int fd, char want)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		volatile char *c = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED, "mmap");
		for (size_t off = 0; off < size; off += t->pagesize) {
			c[off] = 1;
			madvise((void *)(c + off), t->pagesize, MADV_DONTNEED);
			if (c[off] != want) {
				task_msg(t, "read %d after MADV_DONTNEED, want %d", c[off], want);
				_exit(1);
			}
			counter_inc(counter);
		}
		munmap((void *)c, size);
	}
}

/* Removes what the tasks and the prepare function made: unlink1's names,
 * NAME.i (open1), NAME.i/willitscale and the folder NAME.i (open2, unlink2),
 * and NAME. */
void named_files_remove(unsigned long nr_tasks)
{
	char path[PATH_MAX];

	for (unsigned long i = 0; i < own_names_nr; i++)
		unlink(own_names[i]);
	if (!named_base[0])
		return;
	for (unsigned long i = 0; i < nr_tasks; i++) {
		char file[PATH_MAX];

		if (snprintf(path, sizeof(path), "%s.%lu", named_base, i) >= (int)sizeof(path) ||
		    snprintf(file, sizeof(file), "%s/willitscale", path) >= (int)sizeof(file))
			continue;
		unlink(path);
		unlink(file);
		rmdir(path);
	}
	unlink(named_base);
}
