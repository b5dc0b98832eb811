/* will-it-scale's testcases: what the runner (will-it-scale.c) and every
 * tests/NAME.c share, and the helpers several testcases use (testcase.c).
 *
 * A testcase is one file, tests/NAME.c, ending in its row:
 *   WIS_TESTCASE(NAME, "description", prepare, setup, run);
 * setup runs in each task before the start barrier, prepare once in the
 * runner before the tasks start (upstream's testcase_prepare); both may be
 * NULL and return 0 or -1 after printing why.  run never returns.  The
 * Makefile lists the files of tests/ into the runner's table, so adding a
 * testcase is adding its file (and its name to meta's test enum).
 *
 * Each file is compiled once for each build (WIS_THREAD_BUILD: threads). */
#ifndef WIS_TESTCASE_H
#define WIS_TESTCASE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef WIS_THREAD_BUILD
#define PROG "will-it-scale-threads"
#define WIS_THREADS 1
#else
#define PROG "will-it-scale"
#define WIS_THREADS 0
#endif

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

/* NAME is the file's name: the runner's generated table refers to
 * wis_test_NAME, so a row whose name is not its file's does not link. */
#define WIS_TESTCASE(name, description, prepare, setup, run)                                       \
	const struct wis_test wis_test_##name = {#name, description, prepare, setup, run}

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
/* page_fault1-3, mmap1, mmap2, tlb_flush1, tlb_flush3: 128 MiB a mapping, as upstream */
#define MAP_SIZE (128UL << 20)

/* ---- testcase.c: messages and files ---- */

void task_msg(const struct wis_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *tmp_dir(void);
int make_tmp_file_in(const struct wis_task *t, const char *dir, int flags, off_t size);
int make_tmp_file(const struct wis_task *t, off_t size);
int write_zeros(int fd, size_t len);
int zero_file_setup(struct wis_task *t, size_t len);
int empty_file_setup(struct wis_task *t);
int buf_file_setup(struct wis_task *t);
int map_file_setup(struct wis_task *t);
int create_path(struct wis_task *t);
int dir_file_setup(struct wis_task *t);

/* NAME, the file the runner makes in TMPDIR for a testcase (empty until
 * made), and the tasks' files unlink1 names; named_files_remove removes
 * them all after the run. */
extern char named_base[PATH_MAX];
extern char (*own_names)[PATH_MAX];
extern unsigned long own_names_nr;
int named_base_make(size_t len);
void named_files_remove(unsigned long nr_tasks);
int name_prepare(unsigned long nr_tasks, size_t pagesize);
int name_buf_prepare(unsigned long nr_tasks, size_t pagesize);
int name_pages_prepare(unsigned long nr_tasks, size_t pagesize);
int name_mib_prepare(unsigned long nr_tasks, size_t pagesize);
int name_open(struct wis_task *t, int flags);
int name_rdwr_setup(struct wis_task *t);
int name_rdonly_setup(struct wis_task *t);
int name_page_rdwr_setup(struct wis_task *t);
int name_page_rdonly_setup(struct wis_task *t);

/* ---- testcase.c: loops several testcases run ---- */

extern pthread_mutex_t wis_mutex;
void pf_loop(struct wis_task *t, int map_flags, int fd);
void malloc_loop(struct wis_task *t, size_t size);
void futex_op_loop(struct wis_task *t, int op, unsigned int val);
void map_unmap_loop(struct wis_task *t, int flags, int fd);
void byte_loop(struct wis_task *t, const int fd[2]);
void mutex_loop(struct wis_task *t, pthread_mutex_t *m);
void tlb_flush_loop(struct wis_task *t, size_t size, int flags, int fd, char want);
void lseek1_run(struct wis_task *t);
void read1_run(struct wis_task *t);
void pread1_run(struct wis_task *t);
void pwrite1_run(struct wis_task *t);
void lock1_run(struct wis_task *t);
void readseek1_run(struct wis_task *t);
void writeseek1_run(struct wis_task *t);
void open1_run(struct wis_task *t);
void unlink1_run(struct wis_task *t);
void read_direct_run(struct wis_task *t);
void fallocate_run(struct wis_task *t);

#endif
