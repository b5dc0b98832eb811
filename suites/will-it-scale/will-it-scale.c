/* will-it-scale: a will-it-scale style runner with built-in testcases.
 *
 * Starts NR_TASK processes or threads running one testcase; each task
 * increments its own counter (one 256-byte slot per task in a shared
 * anonymous mapping).  After each 1 s sleep the runner prints the min,
 * max and total of the per-task deltas; after the warmup samples it
 * averages SECONDS measured samples and prints the LKP runtest CSV.
 *
 * Two builds of this file, as upstream's X_processes and X_threads:
 * will-it-scale runs processes, will-it-scale-threads (WIS_THREAD_BUILD)
 * threads.  A static musl program that links pthread_cancel, which the
 * thread build needs to stop its tasks, sends every cancellable system
 * call (read, write, poll, close, open, ...) through the cancellation
 * path: about 30 instructions more a call, 2-8% of pipe1, dup1, poll1 and
 * eventfd1 in exact mode.  Upstream's process binary does not link it.
 *
 * Adding a testcase: write a setup function (per task, before the start
 * barrier; optional) and a run function (never returns), and add a row to
 * wis_tests[]; a prepare function (optional) runs once in the runner before
 * the tasks start, as upstream's testcase_prepare. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wis_calc.h"

#ifdef WIS_THREAD_BUILD
#define PROG "will-it-scale-threads"
#define WIS_THREADS 1
#else
#define PROG "will-it-scale"
#define WIS_THREADS 0
#endif
#define SLOT_SIZE 256 /* bytes per task counter: no false sharing */
#define MAX_TASKS 4096
#define MAX_SECONDS 1000000UL

struct wis_task {
	unsigned long idx;
	int cpu; /* -1: no affinity */
	unsigned long long *counter;
	size_t pagesize;
	int fd, fd2;
	off_t off;	     /* pread3, pwrite3, readseek3, writeseek3: the task's page */
	int *fds;	     /* poll2: the task's files */
	char path[PATH_MAX]; /* open1-3, unlink1-2: the task's file */
};

struct wis_test {
	const char *name;
	const char *description;
	/* in the runner before the tasks start (upstream's testcase_prepare):
	 * 0 or -1 (after printing why) */
	int (*prepare)(unsigned long nr_tasks, size_t pagesize);
	int (*setup)(struct wis_task *t); /* 0 or -1 (after printing why) */
	void (*run)(struct wis_task *t);  /* loops forever */
};

static void task_msg(const struct wis_task *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof(buf), PROG ": task %lu: ", t->idx);

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	dprintf(STDERR_FILENO, "%s\n", buf);
}

/* One add to memory, no lock prefix: the instruction upstream's
 * (*iterations)++ compiles to (exact mode counts instructions: a load, add
 * and store cost 1.5% of getppid1).  Elsewhere relaxed atomics, which are
 * plain loads and stores with no data race for the sampling thread.
 * The testcases copy t->counter into a local before their loop: read
 * through t it is loaded again after every call (t escapes), one
 * instruction an op that upstream's loops, given the pointer, do not have
 * (1.6% of pthread_mutex1). */
static inline void counter_inc(unsigned long long *c)
{
#if defined(__x86_64__)
	__asm__ __volatile__("addq $1, %0" : "+m"(*c));
#else
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
#endif
}

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/* An unlinked temporary file in dir, opened with mkostemp's flags, of the
 * given size, or -1. */
static int make_tmp_file_in(const struct wis_task *t, const char *dir, int flags, off_t size)
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
static int make_tmp_file(const struct wis_task *t, off_t size)
{
	return make_tmp_file_in(t, tmp_dir(), 0, size);
}

/* ---- page_fault3: separate file shared mapping page fault ---- */

/* page_fault1-3, mmap1, mmap2: 128 MiB a mapping, as upstream */
#define MAP_SIZE (128UL << 20)

static int map_file_setup(struct wis_task *t)
{
	t->fd = make_tmp_file(t, (off_t)MAP_SIZE);
	return t->fd < 0 ? -1 : 0;
}

/* The three page-fault tests: map, write one byte per page, unmap. */
static void pf_loop(struct wis_task *t, int map_flags, int fd)
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

static void pf3_run(struct wis_task *t)
{
	pf_loop(t, MAP_SHARED, t->fd);
}

/* ---- page_fault1: anonymous memory page fault ---- */

static void pf1_run(struct wis_task *t)
{
	pf_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

/* ---- page_fault2: file private mapping (copy-on-write) page fault ---- */

static void pf2_run(struct wis_task *t)
{
	pf_loop(t, MAP_PRIVATE, t->fd);
}

/* ---- malloc1: malloc and free of 128 MiB (mmap/munmap in the allocator) ---- */

#define MALLOC1_SIZE (128UL << 20)

static void malloc_loop(struct wis_task *t, size_t size)
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

static void malloc1_run(struct wis_task *t)
{
	malloc_loop(t, MALLOC1_SIZE);
}

/* ---- brk1: grow and shrink the heap by one page ----
 * musl's brk() always fails, so the raw system call is used; the kernel
 * returns the new break on success.  Threads share one break: each call
 * still succeeds because every requested address is valid. */

static void brk1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long base = (unsigned long)syscall(SYS_brk, 0UL);

	for (;;) {
		if ((unsigned long)syscall(SYS_brk, base + t->pagesize) != base + t->pagesize) {
			task_msg(t, "brk grow failed");
			_exit(1);
		}
		syscall(SYS_brk, base);
		counter_inc(counter);
		counter_inc(counter);
	}
}

/* ---- context_switch1: ping-pong a byte over two pipes with a helper ----
 * The helper is a child process in process mode and a thread in thread
 * mode; it inherits the task's CPU, so every round trip is two context
 * switches on one CPU. */

struct cs1_helper {
	int rfd, wfd;
};

static void cs1_echo(int rfd, int wfd)
{
	char c;

	for (;;) {
		if (read(rfd, &c, 1) != 1)
			_exit(1);
		if (write(wfd, &c, 1) != 1)
			_exit(1);
	}
}

#if WIS_THREADS
static void *cs1_thread(void *arg)
{
	struct cs1_helper *h = arg;

	cs1_echo(h->rfd, h->wfd);
	return NULL;
}
#endif

static int cs1_setup(struct wis_task *t)
{
	int to_helper[2], from_helper[2];
	struct cs1_helper h;

	if (pipe(to_helper) < 0 || pipe(from_helper) < 0) {
		task_msg(t, "pipe: %s", strerror(errno));
		return -1;
	}
	h.rfd = to_helper[0];
	h.wfd = from_helper[1];
#if WIS_THREADS
	{
		struct cs1_helper *hp = malloc(sizeof(*hp)); /* lives as long as the helper */
		pthread_t th;
		int err;

		if (!hp) {
			task_msg(t, "out of memory");
			return -1;
		}
		*hp = h;
		err = pthread_create(&th, NULL, cs1_thread, hp);

		if (err) {
			task_msg(t, "pthread_create: %s", strerror(err));
			return -1;
		}
		pthread_detach(th);
	}
#else
	{
		pid_t parent = getpid();
		pid_t pid = fork();

		if (pid < 0) {
			task_msg(t, "fork: %s", strerror(errno));
			return -1;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			cs1_echo(h.rfd, h.wfd);
		}
	}
#endif
	/* fd pair used by the task: write to the helper, read its answer */
	t->fd = to_helper[1];
	t->fd2 = from_helper[0];
	return 0;
}

static void cs1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char c = 'x';

	for (;;) {
		if (write(t->fd, &c, 1) != 1 || read(t->fd2, &c, 1) != 1) {
			task_msg(t, "pipe ping-pong failed");
			_exit(1);
		}
		/* two context switches per round trip: upstream counts both */
		counter_inc(counter);
		counter_inc(counter);
	}
}

/* ---- system-call tests: one call (or pair) per op, as upstream ---- */

/* die on a failed call inside a test loop */
#define WIS_CHECK(t, cond, what)                                                                   \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			task_msg(t, "%s: %s", what, strerror(errno));                              \
			_exit(1);                                                                  \
		}                                                                                  \
	} while (0)

#define WIS_BUFLEN 4096
#define WIS_FILESIZE (1UL << 20)

static void getppid1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		getppid(); /* musl, like glibc today, makes the call every time */
		counter_inc(counter);
	}
}

static void sched_yield_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		WIS_CHECK(t, sched_yield() == 0, "sched_yield");
		counter_inc(counter);
	}
}

static void signal1_handler(int sig)
{
	(void)sig;
}

static void signal1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal1_handler;
	WIS_CHECK(t, sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	for (;;) {
		raise(SIGUSR1);
		counter_inc(counter);
	}
}

/* futex1..4: a wake with nobody waiting, or a wait on a value that does
 * not match (returns at once): the cost of the call */
static void futex_op_loop(struct wis_task *t, int op, unsigned int val)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		unsigned int word = 0;

		syscall(SYS_futex, &word, op, val, NULL, NULL, 0);
		counter_inc(counter);
	}
}

static void futex1_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAKE, 1);
}

static void futex2_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAIT, 1);
}

static void futex3_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAKE_PRIVATE, 1);
}

static void futex4_run(struct wis_task *t)
{
	futex_op_loop(t, FUTEX_WAIT_PRIVATE, 1);
}

/* mmap1, mmap2: map 128 MiB and unmap it, nothing touched */
static void map_unmap_loop(struct wis_task *t, int flags, int fd)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		void *c = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);

		WIS_CHECK(t, c != MAP_FAILED, "mmap");
		munmap(c, MAP_SIZE);
		counter_inc(counter);
	}
}

static void mmap1_run(struct wis_task *t)
{
	map_unmap_loop(t, MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

static void mmap2_run(struct wis_task *t)
{
	map_unmap_loop(t, MAP_PRIVATE, t->fd);
}

/* Writes len zero bytes (rounded up to WIS_BUFLEN) at fd's position:
 * data, not a hole, as upstream's write of a zeroed buffer; 0 or -1. */
static int write_zeros(int fd, size_t len)
{
	static const char zeros[WIS_BUFLEN];

	for (size_t done = 0; done < len; done += sizeof(zeros))
		if (write(fd, zeros, sizeof(zeros)) != (ssize_t)sizeof(zeros))
			return -1;
	return 0;
}

/* An unlinked temporary file holding len zero bytes. */
static int zero_file_setup(struct wis_task *t, size_t len)
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

static int empty_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, 0);
}

static int buf_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, WIS_BUFLEN);
}

static int mib_file_setup(struct wis_task *t)
{
	return zero_file_setup(t, WIS_FILESIZE);
}

static void dup1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		int fd2 = dup(t->fd);

		WIS_CHECK(t, fd2 >= 0, "dup");
		close(fd2);
		counter_inc(counter);
	}
}

static void lseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		counter_inc(counter);
	}
}

static void read1_run(struct wis_task *t)
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

static void write1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];
	size_t size = 0;

	for (;;) {
		ssize_t n = write(t->fd, buf, sizeof(buf));

		WIS_CHECK(t, n >= 0, "write");
		size += (size_t)n;
		if (size >= WIS_FILESIZE) {
			size = 0;
			lseek(t->fd, 0, SEEK_SET);
		}
		counter_inc(counter);
	}
}

static void pread1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pread(t->fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "pread");
		counter_inc(counter);
	}
}

static void pwrite1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pwrite(t->fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "pwrite");
		counter_inc(counter);
	}
}

static void poll1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		struct pollfd pfd = {.fd = t->fd, .events = POLLOUT};

		WIS_CHECK(t, poll(&pfd, 1, 0) >= 0, "poll");
		counter_inc(counter);
	}
}

/* pipe1, unix1: one byte written and read back on a descriptor pair */
static void byte_loop(struct wis_task *t, const int fd[2])
{
	unsigned long long *counter = t->counter;
	char c = 0;

	for (;;) {
		WIS_CHECK(t, write(fd[1], &c, 1) == 1, "write");
		WIS_CHECK(t, read(fd[0], &c, 1) == 1, "read");
		counter_inc(counter);
	}
}

static void pipe1_run(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, pipe(fd) == 0, "pipe");
	byte_loop(t, fd);
}

static void eventfd1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	uint64_t w = 1, r;
	int fd = eventfd(0, 0);

	WIS_CHECK(t, fd >= 0, "eventfd");
	for (;;) {
		WIS_CHECK(t, write(fd, &w, sizeof(w)) == (ssize_t)sizeof(w), "eventfd write");
		WIS_CHECK(t, read(fd, &r, sizeof(r)) == (ssize_t)sizeof(r), "eventfd read");
		counter_inc(counter);
	}
}

static void malloc2_run(struct wis_task *t)
{
	malloc_loop(t, 1024);
}

/* lock1: a write lock and its release on one byte count 2, as upstream */
static void lock1_run(struct wis_task *t)
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

static void posix_semaphore1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	sem_t sem;

	WIS_CHECK(t, sem_init(&sem, 0, 1) == 0, "sem_init");
	for (;;) {
		sem_wait(&sem);
		sem_post(&sem);
		counter_inc(counter);
	}
}

/* pthread_mutex1: one mutex for the whole program (contended between
 * threads; each process has its own copy); pthread_mutex2: the task's own */
static pthread_mutex_t wis_mutex = PTHREAD_MUTEX_INITIALIZER;

static void mutex_loop(struct wis_task *t, pthread_mutex_t *m)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		counter_inc(counter);
	}
}

static void pthread_mutex1_run(struct wis_task *t)
{
	mutex_loop(t, &wis_mutex);
}

static void pthread_mutex2_run(struct wis_task *t)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	mutex_loop(t, &m);
}

static void readseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		WIS_CHECK(t, read(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "read");
		counter_inc(counter);
	}
}

static void writeseek1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, 0, SEEK_SET);
		WIS_CHECK(t, write(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write");
		counter_inc(counter);
	}
}

static void unix1_run(struct wis_task *t)
{
	int fd[2];

	WIS_CHECK(t, socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == 0, "socketpair");
	byte_loop(t, fd);
}

/* open1: task i's file is NAME.i beside NAME, a file the runner
 * makes in TMPDIR before the tasks start (name_prepare) and removes with
 * theirs after they end (upstream's testcase_prepare and testcase_cleanup),
 * so no file is left behind.  Directly in TMPDIR as upstream's: a deeper
 * path would add a lookup to every open. */
static char named_base[PATH_MAX]; /* NAME; empty until made */

/* Makes NAME holding len zero bytes; -1 after printing why. */
static int named_base_make(size_t len)
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

static int name_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(0);
}

static int open1_setup(struct wis_task *t)
{
	int fd;

	if (snprintf(t->path, sizeof(t->path), "%s.%lu", named_base, t->idx) >=
	    (int)sizeof(t->path)) {
		task_msg(t, "TMPDIR too long");
		return -1;
	}
	fd = open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		task_msg(t, "create %s: %s", t->path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* unlink1: task i's file is a mkstemp name of its own directly in TMPDIR,
 * made and removed again in the runner before the tasks start (upstream's
 * testcase_prepare), so that while the tasks run TMPDIR holds no file of
 * the testcase's but theirs, as upstream's.  As open1's NAME.i beside NAME
 * (two characters longer, and a second entry in the directory every create
 * and unlink of the loop changes) it read 1.3% fewer ops in exact mode. */
static char (*own_names)[PATH_MAX]; /* the tasks' names; NULL until made */
static unsigned long own_names_nr;

static int own_names_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)pagesize;
	own_names = calloc(nr_tasks, sizeof(*own_names));
	if (!own_names) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (unsigned long i = 0; i < nr_tasks; i++) {
		int fd;

		if (snprintf(own_names[i], sizeof(own_names[i]), "%s/willitscale.XXXXXX",
			     tmp_dir()) >= (int)sizeof(own_names[i])) {
			fprintf(stderr, PROG ": TMPDIR too long\n");
			return -1;
		}
		fd = mkstemp(own_names[i]);
		if (fd < 0) {
			fprintf(stderr, PROG ": cannot make a file in %s: %s\n", tmp_dir(),
				strerror(errno));
			return -1;
		}
		own_names_nr = i + 1;
		close(fd);
		unlink(own_names[i]);
	}
	return 0;
}

static int own_name_setup(struct wis_task *t)
{
	memcpy(t->path, own_names[t->idx], sizeof(t->path));
	return 0;
}

static void open1_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		int fd = open(t->path, O_RDWR);

		WIS_CHECK(t, fd >= 0, "open");
		close(fd);
		counter_inc(counter);
	}
}

static void unlink1_run(struct wis_task *t)
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

/* open2, unlink2: task i's file is NAME.i/willitscale, in a folder of its
 * own (upstream's mkdtemp folders, one per task, in TMPDIR). */
static int dir_file_setup(struct wis_task *t)
{
	char dir[PATH_MAX];
	int fd;

	if (snprintf(dir, sizeof(dir), "%s.%lu", named_base, t->idx) >= (int)sizeof(dir) ||
	    snprintf(t->path, sizeof(t->path), "%s/willitscale", dir) >= (int)sizeof(t->path)) {
		task_msg(t, "TMPDIR too long");
		return -1;
	}
	if (mkdir(dir, 0700) < 0) {
		task_msg(t, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		task_msg(t, "create %s: %s", t->path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* ---- "same file" testcases: every task opens NAME, which the runner
 * made before they start (upstream's testcase_prepare) ---- */

static int name_buf_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(WIS_BUFLEN);
}

/* a page for each task: task i works at offset i pages */
static int name_pages_prepare(unsigned long nr_tasks, size_t pagesize)
{
	return named_base_make(nr_tasks * pagesize);
}

static int name_mib_prepare(unsigned long nr_tasks, size_t pagesize)
{
	(void)nr_tasks;
	(void)pagesize;
	return named_base_make(WIS_FILESIZE);
}

static int name_open(struct wis_task *t, int flags)
{
	t->fd = open(named_base, flags);
	if (t->fd < 0) {
		task_msg(t, "open %s: %s", named_base, strerror(errno));
		return -1;
	}
	return 0;
}

static int name_rdwr_setup(struct wis_task *t)
{
	return name_open(t, O_RDWR);
}

static int name_rdonly_setup(struct wis_task *t)
{
	return name_open(t, O_RDONLY);
}

static int name_page_rdwr_setup(struct wis_task *t)
{
	t->off = (off_t)(t->idx * t->pagesize);
	return name_open(t, O_RDWR);
}

static int name_page_rdonly_setup(struct wis_task *t)
{
	t->off = (off_t)(t->idx * t->pagesize);
	return name_open(t, O_RDONLY);
}

/* open3: the path is NAME's */
static int name_path_setup(struct wis_task *t)
{
	snprintf(t->path, sizeof(t->path), "%s", named_base);
	return 0;
}

static void pread3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pread(t->fd, buf, sizeof(buf), t->off) == (ssize_t)sizeof(buf),
			  "pread");
		counter_inc(counter);
	}
}

static void pwrite3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		WIS_CHECK(t, pwrite(t->fd, buf, sizeof(buf), t->off) == (ssize_t)sizeof(buf),
			  "pwrite");
		counter_inc(counter);
	}
}

static void readseek3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, t->off, SEEK_SET);
		WIS_CHECK(t, read(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "read");
		counter_inc(counter);
	}
}

static void writeseek3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	static const char buf[WIS_BUFLEN];

	for (;;) {
		lseek(t->fd, t->off, SEEK_SET);
		WIS_CHECK(t, write(t->fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "write");
		counter_inc(counter);
	}
}

/* ---- read3, read4: O_DIRECT reads of a page (tmpfs takes O_DIRECT
 * since Linux 6.6; before, the open fails as upstream's does) ---- */

/* read3: the task's own 1 MiB file, opened O_DIRECT and written so */
static int read3_setup(struct wis_task *t)
{
	void *buf;

	t->fd = make_tmp_file_in(t, tmp_dir(), O_DIRECT, 0);
	if (t->fd < 0)
		return -1;
	buf = aligned_alloc(t->pagesize, WIS_FILESIZE);
	if (!buf) {
		task_msg(t, "out of memory");
		return -1;
	}
	memset(buf, 0, WIS_FILESIZE);
	if (write(t->fd, buf, WIS_FILESIZE) != (ssize_t)WIS_FILESIZE) {
		task_msg(t, "O_DIRECT write: %s", strerror(errno));
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

/* read4: NAME (1 MiB), opened O_DIRECT by each task */
static int name_direct_setup(struct wis_task *t)
{
	return name_open(t, O_DIRECT | O_RDONLY);
}

static void read_direct_run(struct wis_task *t)
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

/* ---- brk2: brk between one and two pages above the start, so the heap
 * grows and shrinks where brk1 makes and removes a VMA; raw system call
 * as in brk1 (musl's brk and sbrk(n) always fail) ---- */

static void brk2_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long addr = (unsigned long)syscall(SYS_brk, 0UL) + t->pagesize;

	if ((unsigned long)syscall(SYS_brk, addr) != addr) {
		task_msg(t, "brk grow failed");
		_exit(1);
	}
	for (;;) {
		if ((unsigned long)syscall(SYS_brk, addr + t->pagesize) != addr + t->pagesize) {
			task_msg(t, "brk grow failed");
			_exit(1);
		}
		syscall(SYS_brk, addr);
		counter_inc(counter);
		counter_inc(counter);
	}
}

/* ---- poll2: poll of 128 files, each the task's own ---- */

#define POLL2_FILES 128

/* Threads share one descriptor table: room for every task's files (and
 * ten more each, as upstream's limit). */
static int poll2_prepare(unsigned long nr_tasks, size_t pagesize)
{
	rlim_t need = (rlim_t)(POLL2_FILES + 10) * (WIS_THREADS ? nr_tasks : 1);
	struct rlimit rl;

	(void)pagesize;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, PROG ": getrlimit: %s\n", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur >= need)
		return 0;
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fprintf(stderr, PROG ": RLIMIT_NOFILE %llu: %s\n", (unsigned long long)need,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int poll2_setup(struct wis_task *t)
{
	t->fds = malloc(POLL2_FILES * sizeof(*t->fds));
	if (!t->fds) {
		task_msg(t, "out of memory");
		return -1;
	}
	for (int i = 0; i < POLL2_FILES; i++) {
		t->fds[i] = make_tmp_file(t, 0);
		if (t->fds[i] < 0)
			return -1;
	}
	return 0;
}

static void poll2_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	/* on the stack, as upstream's: the compiler unrolls the copy below
	 * (from t->fds it was 3.5 more instructions a file, 4% of poll2) */
	int fds[POLL2_FILES];

	memcpy(fds, t->fds, sizeof(fds));
	for (;;) {
		struct pollfd pfd[POLL2_FILES];

		memset(pfd, 0, sizeof(pfd));
		for (int i = 0; i < POLL2_FILES; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLOUT;
		}
		WIS_CHECK(t, poll(pfd, POLL2_FILES, 0) >= 0, "poll");
		counter_inc(counter);
	}
}

/* ---- pthread_mutex3-5: pthread_mutex1's mutex held over an update of a
 * global, a stack or a thread-local variable.  The variables are not
 * static: a static one that is only written may be optimised away. ---- */

unsigned long wis_mutex3_val;
_Thread_local unsigned long wis_mutex5_val;

static void pthread_mutex3_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		wis_mutex3_val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

static void pthread_mutex4_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;
	unsigned long val = 0;

	/* its address escapes (upstream: alloca), so each update is a memory
	 * one and the compiler keeps it */
	__asm__ __volatile__("" : : "r"(&val) : "memory");
	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

static void pthread_mutex5_run(struct wis_task *t)
{
	unsigned long long *counter = t->counter;

	for (;;) {
		pthread_mutex_lock(&wis_mutex);
		wis_mutex5_val++;
		pthread_mutex_unlock(&wis_mutex);
		counter_inc(counter);
	}
}

/* ---- fallocate1, fallocate2: fallocate 8 KiB at a time up to 1 MiB,
 * then truncate to 0; one op per fallocate.  fallocate1's file is on
 * /dev/shm (tmpfs, upstream's path), fallocate2's in TMPDIR. ---- */

#define FALLOC_LEN (WIS_FILESIZE / 128)

static int fallocate1_setup(struct wis_task *t)
{
	t->fd = make_tmp_file_in(t, "/dev/shm", 0, 0);
	return t->fd < 0 ? -1 : 0;
}

static void fallocate_run(struct wis_task *t)
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

#define TLB_FLUSH2_SIZE (1UL << 20) /* tlb_flush2's anonymous mapping */

static void tlb_flush_loop(struct wis_task *t, size_t size, int flags, int fd, char want)
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

static void tlb_flush1_run(struct wis_task *t)
{
	tlb_flush_loop(t, MAP_SIZE, MAP_PRIVATE, t->fd, 0);
}

static void tlb_flush2_run(struct wis_task *t)
{
	tlb_flush_loop(t, TLB_FLUSH2_SIZE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

static void tlb_flush3_run(struct wis_task *t)
{
	tlb_flush_loop(t, MAP_SIZE, MAP_SHARED, t->fd, 1);
}

static const struct wis_test wis_tests[] = {
    {"brk1", "brk increase/decrease of one page", NULL, NULL, brk1_run},
    {"brk2", "brk unshared increase/decrease of one page", NULL, NULL, brk2_run},
    {"context_switch1", "Context switch via pipes", NULL, cs1_setup, cs1_run},
    {"dup1", "Separate file dup/close", NULL, empty_file_setup, dup1_run},
    {"eventfd1", "eventfd read/write of 8 bytes", NULL, NULL, eventfd1_run},
    {"fallocate1", "Separate file fallocate against tmpfs", NULL, fallocate1_setup, fallocate_run},
    {"fallocate2", "Separate file fallocate", NULL, empty_file_setup, fallocate_run},
    {"futex1", "futex(FUTEX_WAKE)", NULL, NULL, futex1_run},
    {"futex2", "futex(FUTEX_WAIT)", NULL, NULL, futex2_run},
    {"futex3", "futex(FUTEX_WAKE_PRIVATE)", NULL, NULL, futex3_run},
    {"futex4", "futex(FUTEX_WAIT_PRIVATE)", NULL, NULL, futex4_run},
    {"getppid1", "getppid", NULL, NULL, getppid1_run},
    {"lock1", "Separate file write lock/unlock", NULL, empty_file_setup, lock1_run},
    {"lock2", "Same file write lock/unlock", name_prepare, name_rdwr_setup, lock1_run},
    {"lseek1", "Separate file lseek", NULL, buf_file_setup, lseek1_run},
    {"lseek2", "Same file lseek", name_buf_prepare, name_rdwr_setup, lseek1_run},
    {"malloc1", "malloc/free of 128MB", NULL, NULL, malloc1_run},
    {"malloc2", "malloc/free of 1kB", NULL, NULL, malloc2_run},
    {"mmap1", "Anonymous memory mmap/munmap of 128MB", NULL, NULL, mmap1_run},
    {"mmap2", "Separate file mmap/munmap of 128MB", NULL, map_file_setup, mmap2_run},
    {"open1", "Separate file open/close", name_prepare, open1_setup, open1_run},
    {"open2", "Separate file open/close in different directories", name_prepare, dir_file_setup,
     open1_run},
    {"open3", "Same file open/close", name_prepare, name_path_setup, open1_run},
    {"page_fault1", "Anonymous memory page fault", NULL, NULL, pf1_run},
    {"page_fault2", "Separate file private mapping page fault", NULL, map_file_setup, pf2_run},
    {"page_fault3", "Separate file shared mapping page fault", NULL, map_file_setup, pf3_run},
    {"pipe1", "pipe read/write", NULL, NULL, pipe1_run},
    {"poll1", "poll of 1 fd", NULL, empty_file_setup, poll1_run},
    {"poll2", "poll of 128 fds", poll2_prepare, poll2_setup, poll2_run},
    {"posix_semaphore1", "POSIX semaphores", NULL, NULL, posix_semaphore1_run},
    {"pread1", "Separate file pread", NULL, buf_file_setup, pread1_run},
    {"pread2", "Same file pread to same offset", name_buf_prepare, name_rdonly_setup, pread1_run},
    {"pread3", "Same file pread to different offsets", name_pages_prepare, name_page_rdonly_setup,
     pread3_run},
    {"pthread_mutex1", "Contended pthread mutex", NULL, NULL, pthread_mutex1_run},
    {"pthread_mutex2", "Uncontended pthread mutex", NULL, NULL, pthread_mutex2_run},
    {"pthread_mutex3", "Contended pthread mutex with global update", NULL, NULL,
     pthread_mutex3_run},
    {"pthread_mutex4", "Contended pthread mutex with local update", NULL, NULL, pthread_mutex4_run},
    {"pthread_mutex5", "Contended pthread mutex with TLS update", NULL, NULL, pthread_mutex5_run},
    {"pwrite1", "Separate file pwrite", NULL, empty_file_setup, pwrite1_run},
    {"pwrite2", "Same file pwrite to same offset", name_buf_prepare, name_rdwr_setup, pwrite1_run},
    {"pwrite3", "Same file pwrite to different offsets", name_pages_prepare, name_page_rdwr_setup,
     pwrite3_run},
    {"read1", "Separate file read", NULL, mib_file_setup, read1_run},
    {"read2", "Same file read", name_mib_prepare, name_rdonly_setup, read1_run},
    {"read3", "Separate file O_DIRECT read", NULL, read3_setup, read_direct_run},
    {"read4", "Same file O_DIRECT read", name_mib_prepare, name_direct_setup, read_direct_run},
    {"readseek1", "Separate file seek+read", NULL, buf_file_setup, readseek1_run},
    {"readseek2", "Same file seek+read to same offset", name_buf_prepare, name_rdwr_setup,
     readseek1_run},
    {"readseek3", "Same file seek+read to different offsets", name_pages_prepare,
     name_page_rdonly_setup, readseek3_run},
    {"sched_yield", "sched_yield", NULL, NULL, sched_yield_run},
    {"signal1", "signal delivery", NULL, NULL, signal1_run},
    {"tlb_flush1", "TLB flush of separate file private mapping", NULL, map_file_setup,
     tlb_flush1_run},
    {"tlb_flush2", "TLB flush of anonymous memory private mapping", NULL, NULL, tlb_flush2_run},
    {"tlb_flush3", "TLB flush of separate file shared mapping", NULL, map_file_setup,
     tlb_flush3_run},
    {"unix1", "unix domain socket read/write", NULL, NULL, unix1_run},
    {"unlink1", "Separate file open/close/unlink", own_names_prepare, own_name_setup, unlink1_run},
    {"unlink2", "Separate file open/close/unlink in different directories", name_prepare,
     dir_file_setup, unlink1_run},
    {"write1", "Separate file write", NULL, empty_file_setup, write1_run},
    {"writeseek1", "Separate file seek+write", NULL, empty_file_setup, writeseek1_run},
    /* sic: upstream's description */
    {"writeseek2", "Same file seek+read to same offset", name_buf_prepare, name_rdwr_setup,
     writeseek1_run},
    {"writeseek3", "Same file seek+write to different offsets", name_pages_prepare,
     name_page_rdwr_setup, writeseek3_run},
};

/* ---- runner ---- */

struct opts {
	const struct wis_test *test;
	unsigned long nr;
	unsigned long seconds;
	unsigned long warmup;
	int affinity;
};

static struct opts opt = {.warmup = 6, .affinity = 1};

static int start_pipe[2] = {-1, -1}; /* runner writes one byte: go */
static int ready_pipe[2] = {-1, -1}; /* each task writes 'R' (ready) or 'F' */
static unsigned char *counters;	     /* nr * SLOT_SIZE bytes, MAP_SHARED */
static pid_t *pids;
static size_t pagesize;

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " -t TEST -m process|thread -n NR_TASK -s SECONDS\n"
		   "       [-w WARMUP_SECONDS] [--no-affinity]\n"
		   "  -t TEST          testcase:");
	for (size_t i = 0; i < sizeof(wis_tests) / sizeof(wis_tests[0]); i++)
		fprintf(f, " %s", wis_tests[i].name);
	fprintf(f,
		"\n"
		"  -m MODE          process (will-it-scale) or thread (will-it-scale-threads):\n"
		"                   each build runs one mode, as upstream's two binaries\n"
		"  -n NR_TASK       number of parallel tasks (1..%d)\n"
		"  -s SECONDS       measured seconds (after the warmup)\n"
		"  -w SAMPLES       warmup samples discarded (default 6, as upstream's\n"
		"                   main.c, whose WARMUP_ITERATIONS 5 discards samples 0-5)\n"
		"  --no-affinity    do not pin task i to CPU i %% nr_cpus\n"
		"Prints 'warmup', one 'min:N max:N total:N' line a sample (the runner\n"
		"sleeps 1 s after each read, as upstream's), 'measurement'\n"
		"after the warmup, 'average:N' (ops/s over all tasks) and the LKP CSV.\n",
		MAX_TASKS);
}

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(2);
}

static unsigned long parse_ulong(const char *s, char o, unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		die_usage("-%c: not a number: '%s'", o, s);
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		die_usage("-%c: '%s' out of range %lu..%lu", o, s, min, max);
	return v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"no-affinity", no_argument, NULL, 'A'},
	    {NULL, 0, NULL, 0},
	};
	int c, have_m = 0, have_n = 0, have_s = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:m:n:s:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			opt.test = NULL;
			for (size_t i = 0; i < sizeof(wis_tests) / sizeof(wis_tests[0]); i++)
				if (strcmp(optarg, wis_tests[i].name) == 0)
					opt.test = &wis_tests[i];
			if (!opt.test)
				die_usage("unknown testcase '%s'", optarg);
			break;
		case 'm':
			if (strcmp(optarg, "process") != 0 && strcmp(optarg, "thread") != 0)
				die_usage("-m: expected process or thread, got '%s'", optarg);
			if ((strcmp(optarg, "thread") == 0) != WIS_THREADS)
				die_usage("-m %s: this build runs %s; run %s", optarg,
					  WIS_THREADS ? "threads" : "processes",
					  WIS_THREADS ? "will-it-scale" : "will-it-scale-threads");
			have_m = 1;
			break;
		case 'n':
			opt.nr = parse_ulong(optarg, 'n', 1, MAX_TASKS);
			have_n = 1;
			break;
		case 's':
			opt.seconds = parse_ulong(optarg, 's', 1, MAX_SECONDS);
			have_s = 1;
			break;
		case 'w':
			opt.warmup = parse_ulong(optarg, 'w', 0, MAX_SECONDS);
			break;
		case 'A':
			opt.affinity = 0;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			if (optopt)
				die_usage("option '-%c' needs an argument", optopt);
			die_usage("option '%s' needs an argument", argv[optind - 1]);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!opt.test)
		die_usage("missing -t TEST");
	if (!have_m)
		die_usage("missing -m process|thread");
	if (!have_n)
		die_usage("missing -n NR_TASK");
	if (!have_s)
		die_usage("missing -s SECONDS");
}

static void kill_tasks(void);

static void fatal(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	kill_tasks(); /* children would die with us (PDEATHSIG), but be explicit */
	exit(1);
}

/* CPUs of our affinity mask in ascending order; task i goes to
 * cpus[i % ncpus] (= CPU i % nr_online_cpus with the usual full mask). */
static int *cpus;
static int ncpus;

static void get_cpus(void)
{
	cpu_set_t set;

	cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	if (!cpus)
		fatal("out of memory");
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpus[ncpus++] = i;
	}
	if (ncpus == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1)
			n = 1;
		if (n > CPU_SETSIZE)
			n = CPU_SETSIZE;
		for (ncpus = 0; ncpus < n; ncpus++)
			cpus[ncpus] = ncpus;
	}
}

static void write_ready(char c)
{
	while (write(ready_pipe[1], &c, 1) < 0 && errno == EINTR)
		;
}

/* Body of every task: pin, set up, report ready, wait for the start byte,
 * run.  Returns only on setup failure. */
static void task_body(struct wis_task *t)
{
	struct pollfd pfd = {.fd = start_pipe[0], .events = POLLIN};

	if (t->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		/* pid 0 = the calling thread */
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			task_msg(t, "sched_setaffinity cpu %d: %s", t->cpu, strerror(errno));
			write_ready('F');
			return;
		}
	}
	if (opt.test->setup && opt.test->setup(t) < 0) {
		write_ready('F');
		return;
	}
	write_ready('R');
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	opt.test->run(t);
}

#if WIS_THREADS
static pthread_t *tids; /* the tasks */

static void *thread_main(void *arg)
{
	/* as upstream: a task in a loop without a cancellation point (brk1,
	 * getppid1) still ends when the runner cancels it */
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	task_body(arg);
	return NULL; /* setup failed; already reported */
}
#endif

static void init_task(struct wis_task *t, unsigned long i)
{
	t->idx = i;
	t->cpu = opt.affinity ? cpus[i % (unsigned long)ncpus] : -1;
	t->counter = (unsigned long long *)(void *)(counters + i * SLOT_SIZE);
	t->pagesize = pagesize;
	t->fd = -1;
	t->fd2 = -1;
	t->off = 0;
	t->fds = NULL;
}

/* Removes what the tasks and the prepare function made: unlink1's names,
 * NAME.i (open1), NAME.i/willitscale and the folder NAME.i (open2, unlink2),
 * and NAME. */
static void named_files_remove(void)
{
	char path[PATH_MAX];

	for (unsigned long i = 0; i < own_names_nr; i++)
		unlink(own_names[i]);
	if (!named_base[0])
		return;
	for (unsigned long i = 0; i < opt.nr; i++) {
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

static void start_tasks(void)
{
#if WIS_THREADS
	{
		struct wis_task *ts = calloc(opt.nr, sizeof(*ts));

		tids = calloc(opt.nr, sizeof(*tids));
		if (!ts || !tids)
			fatal("out of memory");
		for (unsigned long i = 0; i < opt.nr; i++) {
			int err;

			init_task(&ts[i], i);
			err = pthread_create(&tids[i], NULL, thread_main, &ts[i]);
			if (err)
				fatal("pthread_create: %s", strerror(err));
		}
	}
#else
	pid_t parent = getpid();

	pids = calloc(opt.nr, sizeof(*pids));
	if (!pids)
		fatal("out of memory");
	fflush(stdout);
	fflush(stderr);
	for (unsigned long i = 0; i < opt.nr; i++) {
		pid_t pid = fork();

		if (pid < 0)
			fatal("fork: %s", strerror(errno));
		if (pid == 0) {
			struct wis_task t;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1); /* the runner is already gone */
			init_task(&t, i);
			task_body(&t);
			_exit(1);
		}
		pids[i] = pid;
	}
#endif
}

/* Ends the tasks, as upstream: threads cancelled and joined, processes
 * killed and reaped. */
#if WIS_THREADS
static void kill_tasks(void)
{
	/* threads end with the process */
}

static void stop_tasks(void)
{
	struct timespec until;

	for (unsigned long i = 0; i < opt.nr; i++)
		pthread_cancel(tids[i]);
	/* Bounded: a task cancelled while it holds pthread_mutex1's shared
	 * mutex can leave a sibling waiting for it for ever (10 runs in 40
	 * with two tasks); exit() ends such a thread. */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	for (unsigned long i = 0; i < opt.nr; i++)
		pthread_timedjoin_np(tids[i], NULL, &until);
}
#else
static void kill_tasks(void)
{
	for (unsigned long i = 0; pids && i < opt.nr; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
}

static void stop_tasks(void)
{
	kill_tasks();
	for (unsigned long i = 0; i < opt.nr; i++)
		if (pids[i] > 0)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
}
#endif

/* In process mode: fatal if any task has exited. */
static void check_children(void)
{
	int st;
	pid_t pid;

	if (WIS_THREADS)
		return;
	pid = waitpid(-1, &st, WNOHANG);
	if (pid <= 0)
		return;
	for (unsigned long i = 0; i < opt.nr; i++)
		if (pids[i] == pid)
			pids[i] = 0;
	if (WIFSIGNALED(st))
		fatal("task pid %d killed by signal %d", (int)pid, WTERMSIG(st));
	fatal("task pid %d exited with status %d", (int)pid, WEXITSTATUS(st));
}

/* Waits until every task reported ready; fatal on a failure. */
static void wait_ready(void)
{
	unsigned long ready = 0;

	while (ready < opt.nr) {
		struct pollfd pfd = {.fd = ready_pipe[0], .events = POLLIN};
		char buf[256];
		ssize_t n;
		int r = poll(&pfd, 1, 1000);

		if (r < 0 && errno != EINTR)
			fatal("poll: %s", strerror(errno));
		if (r <= 0) {
			check_children();
			continue;
		}
		n = read(ready_pipe[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fatal("ready pipe: %s", n < 0 ? strerror(errno) : "unexpected EOF");
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != 'R')
				fatal("task setup failed");
		ready += (unsigned long)n;
	}
}

static void snapshot(unsigned long long *out)
{
	for (unsigned long i = 0; i < opt.nr; i++)
		out[i] = __atomic_load_n((unsigned long long *)(void *)(counters + i * SLOT_SIZE),
					 __ATOMIC_RELAXED);
}

/* Sleeps 1 s from now, as upstream's runner does between reads: each
 * window is 1 s plus the read and the wake-up, so a sample counts a
 * little more than 1 s of work, as upstream's do (docs/BENCHMARKS.md:
 * fixed deadlines read 0.2-1.8% under upstream's rounds). */
static void sleep_one_second(void)
{
	struct timespec left = {.tv_sec = 1, .tv_nsec = 0};
	int err;

	while ((err = clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left)) == EINTR)
		;
	if (err)
		fatal("clock_nanosleep: %s", strerror(err));
}

/* Reads /proc/stat's aggregate cpu line; returns 0 or -1 (warned). */
static int read_cpu(struct wis_cpu *c)
{
	char buf[4096];
	size_t len = 0;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		goto fail;
	while (len < sizeof(buf) - 1) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (memchr(buf, '\n', len))
			break; /* the cpu line is the first line */
	}
	close(fd);
	buf[len] = 0;
	if (wis_parse_proc_stat(buf, c) == 0)
		return 0;
	errno = EINVAL;
fail:
	fprintf(stderr, PROG ": warning: /proc/stat: %s; idle reported as 0\n", strerror(errno));
	return -1;
}

static void put_line(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	unsigned long long *prev, *cur, measured = 0, average;
	struct wis_cpu cpu_before, cpu_after;
	int cpu_ok = 0;
	char line[256];
	char csv[512];
	long ps;

	parse_args(argc, argv);
	ps = sysconf(_SC_PAGESIZE);
	pagesize = ps > 0 ? (size_t)ps : 4096;

	/* The counters first, then the first malloc (its metadata mapping
	 * lands below them), as in upstream's runner: the tasks' lowest
	 * mapping is then private anonymous memory, so mmap1's 128 MiB merge
	 * with it as upstream's do (with the counters lowest, every mmap made
	 * a new VMA: 9% fewer ops in exact mode). */
	counters = mmap(NULL, opt.nr * SLOT_SIZE, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED)
		fatal("mmap counters: %s", strerror(errno));
	get_cpus();
	prev = calloc(opt.nr, sizeof(*prev));
	cur = calloc(opt.nr, sizeof(*cur));
	if (!prev || !cur)
		fatal("out of memory");
	if (pipe2(start_pipe, O_CLOEXEC) < 0 || pipe2(ready_pipe, O_CLOEXEC) < 0)
		fatal("pipe: %s", strerror(errno));

	if (opt.test->prepare && opt.test->prepare(opt.nr, pagesize) < 0) {
		named_files_remove();
		fatal("testcase %s: prepare failed", opt.test->name);
	}
	start_tasks();
	wait_ready();

	put_line("warmup\n");
	if (opt.warmup == 0) {
		put_line("measurement\n");
		cpu_ok = read_cpu(&cpu_before) == 0;
	}
	snapshot(prev);
	if (write(start_pipe[1], "g", 1) != 1)
		fatal("start pipe: %s", strerror(errno));

	for (unsigned long k = 1; k <= opt.warmup + opt.seconds; k++) {
		struct wis_sample s;
		unsigned long long *tmp;

		sleep_one_second();
		snapshot(cur);
		check_children();
		wis_sample_compute(prev, cur, opt.nr, &s);
		tmp = prev;
		prev = cur;
		cur = tmp;
		wis_format_sample(line, sizeof(line), &s);
		put_line(line);
		if (k > opt.warmup)
			measured += s.total;
		if (k == opt.warmup) {
			put_line("measurement\n");
			cpu_ok = read_cpu(&cpu_before) == 0;
		}
	}
	if (cpu_ok)
		cpu_ok = read_cpu(&cpu_after) == 0;

	average = wis_average(measured, opt.seconds);
	snprintf(line, sizeof(line), "average:%llu\n", average);
	put_line(line);
	wis_format_csv(csv, sizeof(csv), opt.nr, WIS_THREADS, average,
		       cpu_ok ? wis_idle_pct(&cpu_before, &cpu_after) : 0.0);
	put_line(csv);
	if (ferror(stdout))
		fatal("write stdout failed");

	stop_tasks();
	named_files_remove();
	return 0;
}
