/* usemem: a vm-scalability style memory toucher.
 *
 * usemem [-n NPROC] [-t NTHREAD] [-f FILE] [--readonly] [--random]
 *        [--prealloc [--remap]] [--prefault] [--unit SIZE] [--msync]
 *        [--open-rw] [--hugetlb] [--runtime SEC] [--detach] [--sleep SEC]
 *        [--pid-file FILE] SIZE
 *
 * Starts NPROC processes of NTHREAD threads (default 1 x 1).  Every task
 *  maps SIZE bytes (private memory of /dev/zero, as upstream: not THP-aligned
 * as MAP_ANONYMOUS is; or FILE shared), then reads
 * (--readonly) or writes SIZE/8 8-byte words, sequentially or at random
 * indexes (--random), stopping early once --runtime seconds have passed
 * since the start.  Each task prints, in one write,
 *   "N bytes / T usecs = K KB/s"     (T from the common start time; N is
 *                                     SIZE/8 for the mapping plus 8 bytes a
 *                                     word touched, upstream's composite)
 *   "T usecs to free memory"          (the munmap)
 * as the upstream usemem does.  What the options change, as upstream's:
 *   --prealloc  one mapping, made before the tasks start (after the start
 *               time), that every task touches: threads share it, processes
 *               inherit it (copy-on-write for private memory).  It is never
 *               unmapped: no free line.
 *   --remap     mremap the preallocated mapping to 10 x SIZE first (it
 *               counts SIZE/8 more; the tasks touch the first SIZE bytes).
 *   --prefault  MAP_POPULATE.
 *   --unit U    each task maps SIZE in chunks of U bytes, one mapping a
 *               chunk, touched in turn (SIZE/8 counted chunk by chunk);
 *               chunks of /dev/zero (below) stay separate VMAs
 *               (MAP_ANONYMOUS neighbours would merge into one).  The free
 *               line only with at most 32 chunks (more: left to exit).
 *   --msync     msync(MS_SYNC) each mapping after its pass (timed).
 *   --open-rw   open FILE and map it read-write even with --readonly.
 *   --hugetlb   anonymous memory from the 2 MiB huge page pool (upstream's
 *               -O -U), mapped and unmapped in whole huge pages.
 *   --detach    after its report each task forks; the child keeps the
 *               memory and goes on, the task exits (its pid appended to
 *               --pid-file FILE): the migrate case's holder, as upstream's.
 *   --sleep SEC after the report (and --detach), sleep SEC seconds before
 *               unmapping. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "usemem_calc.h"

#define PROG "usemem"
#define MAX_TASKS 4096
#define MAX_SECONDS 0x7fffffffUL /* --runtime, --sleep: an int of seconds */
#define CHECK_EVERY 65536UL	 /* words between runtime checks */
#define MAX_FREED 32		 /* chunks a task unmaps and times, as upstream */
#define REMAP_SCALE 10ULL	 /* --remap: the new length, in SIZEs */
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

static unsigned long nproc, nthread;
static const char *file;
static int readonly, random_access;
static int prealloc, remap, prefault, sync_after, open_rw, hugetlb;
static unsigned long long unit; /* 0: one mapping */
static unsigned long runtime;	/* 0: none */
static int detach;
static unsigned int sleep_secs;
static const char *pid_file;
static unsigned long long size;
static struct timespec start_time;
static int go_pipe[2] = {-1, -1};      /* runner closes the write end: go */
static unsigned long long *shared_map; /* --prealloc */
static int zero_fd = -1;	       /* /dev/zero: private memory, as upstream maps it */

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " [options] SIZE[k|m|g|t]\n"
		   "  -n, --nproc N      N processes (default 1)\n"
		   "  -t, --thread N     N threads per process (default 1)\n"
		   "  -f, --file FILE    map FILE shared instead of anonymous memory\n"
		   "  -o, --readonly     read the memory (open FILE read-only)\n"
		   "  -R, --random       random word order instead of sequential\n"
		   "  -P, --prealloc     one mapping made before the tasks, touched by all\n"
		   "  -E, --remap        mremap the preallocated mapping to 10 x SIZE first\n"
		   "  -F, --prefault     map with MAP_POPULATE\n"
		   "  -u, --unit SIZE    map in chunks of SIZE bytes, touched in turn\n"
		   "  -S, --msync        msync(MS_SYNC) each mapping after its pass\n"
		   "  -w, --open-rw      open and map FILE read-write even with --readonly\n"
		   "  -U, --hugetlb      anonymous memory from the 2 MiB huge page pool\n"
		   "  -T, --runtime SEC  stop touching after SEC seconds from the start\n"
		   "  -d, --detach       after the report, fork: the child keeps the memory\n"
		   "  -s, --sleep SEC    sleep SEC seconds after the report, before unmapping\n"
		   "  -p, --pid-file F   append the detached child's pid to F\n"
		   "Each task prints 'N bytes / T usecs = K KB/s' and 'T usecs to free memory'.\n");
}

static unsigned long long usecs_since(const struct timespec *a)
{
	struct timespec b;
	long long d;

	clock_gettime(CLOCK_MONOTONIC, &b);
	d = (long long)(b.tv_sec - a->tv_sec) * 1000000LL + (b.tv_nsec - a->tv_nsec) / 1000;
	return d > 0 ? (unsigned long long)d : 0;
}

static int runtime_exceeded(void)
{
	struct timespec now;

	if (!runtime)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (unsigned long)(now.tv_sec - start_time.tv_sec) > runtime;
}

static void put(const char *s)
{
	size_t n = strlen(s);

	while (n) {
		ssize_t w = write(STDOUT_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* One word read or written through a volatile pointer, in a call of its
 * own (noipa: all of it, return value included, as upstream's -O keeps
 * its do_access): upstream's access costs a call per word and its loads
 * are never folded away. */
static __attribute__((noipa)) unsigned long long
touch_word(volatile unsigned long long *p, unsigned long long k, int read, unsigned long long data)
{
	if (read)
		return p[k];
	p[k] = data;
	return 0;
}

/* Upstream's per-word bookkeeping, which under -icount is time like the
 * access itself: its step (bytes between words) reloaded and divided, its
 * repeat counter, the data word taken from an option, the bytes counted,
 * its delay and read-limit options tested, its read flag reloaded for the
 * access.  Its compiler reloads them every word (they share the words'
 * type, so any store may change them); here volatile does that.  None but
 * word_read (--readonly) is a kit option: they keep upstream's values.
 * Counted with callgrind, a word costs the kit's loop as many instructions
 * as upstream's (sequential write 36, read 35; random 56, 55). */
static volatile unsigned long long word_step = 8, word_data, word_delay, word_limit;
static volatile int word_repeat, word_signal, word_read;

static int writable(void)
{
	return !readonly || open_rw;
}

static int open_file(void)
{
	int fd = open(file, writable() ? O_RDWR : O_RDONLY);

	if (fd < 0)
		die("open %s: %s", file, strerror(errno));
	return fd;
}

/* One mapping of LEN bytes: of FD (FILE shared, /dev/zero private) or,
 * with FD -1, anonymous private memory. */
static unsigned long long *map_memory(unsigned long long len, int fd)
{
	int prot = PROT_READ | (writable() ? PROT_WRITE : 0);
	int flags = prefault ? MAP_POPULATE : 0;
	void *p;

	if (fd >= 0)
		p = mmap(NULL, len, prot, flags | (file ? MAP_SHARED : MAP_PRIVATE), fd, 0);
	else if (hugetlb)
		p = mmap(NULL, usemem_huge_len(len), prot,
			 flags | MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	else
		p = mmap(NULL, len, prot, flags | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap %llu bytes%s: %s", len, hugetlb ? " of huge pages" : "", strerror(errno));
	return p;
}

static void unmap_memory(void *p, unsigned long long len)
{
	munmap(p, hugetlb ? usemem_huge_len(len) : len);
}

static void wait_go(void)
{
	struct pollfd pfd = {.fd = go_pipe[0], .events = POLLIN};

	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
}

/* One pass over the LEN/8 words of P: the words touched.  Upstream's
 * order: touch, count, then every 65,536th word (the first included) look
 * at the clock; *STOPPED once --runtime has passed.  --msync after it. */
static unsigned long long touch_pass(unsigned long long *p, unsigned long long len, uint64_t *rs,
				     int *stopped)
{
	unsigned long long words = len / 8, done = 0, limit = word_limit;

	for (unsigned long long i = 0; i < words; i += word_step / 8) {
		unsigned long long k = i;

		if (random_access) {
			/* upstream converts its unsigned bound to double each
			 * draw, sign test included: hide that it is >= 0 */
			unsigned long long max = words - 1;

			__asm__ volatile("" : "+r"(max));
			k = usemem_rand_index(rs, max);
		}
		unsigned long long data = word_data; /* one load, as upstream's */

		if (!data)
			data = k;
		if (word_signal) /* upstream's signal-driven passes: not a kit option */
			continue;
		if (word_repeat && !readonly && !random_access && p[k] != k)
			die("word %llu reads %llu after a pass", k, p[k]);
		touch_word(p, k, word_read, data); /* reloaded, as upstream's flag */
		done += 8;
		if (word_delay && ((uintptr_t)(p + k) >> 12) != 0)
			poll(NULL, 0, 0);
		if (!(i & (CHECK_EVERY - 1)) && runtime_exceeded()) {
			*stopped = 1;
			break;
		}
		if (limit && !--limit)
			break;
	}
	done /= 8;
	if (sync_after && msync(p, len, MS_SYNC) != 0)
		die("msync: %s", strerror(errno));
	return done;
}

static void report(unsigned long long bytes)
{
	char line[256];

	usemem_format_result(line, sizeof(line), bytes, usecs_since(&start_time));
	put(line);
}

/* --detach: the task forks and exits; its child, which keeps the memory,
 * goes on (the task's death signal is not inherited). */
static void detach_task(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		return;
	if (pid_file) {
		FILE *f = fopen(pid_file, "a");

		if (!f || fprintf(f, "%d\n", (int)pid) < 0 || fclose(f) != 0)
			die("%s: %s", pid_file, strerror(errno));
	}
	_exit(0);
}

/* After the report: --detach, then --sleep (restarted if a signal cuts it). */
static void hold_memory(void)
{
	unsigned int left = sleep_secs;

	if (detach)
		detach_task();
	while (left)
		left = sleep(left);
}

/* One task: map, wait for go, touch, report, unmap (chunk by chunk with
 * --unit; with --prealloc: touch the common mapping and report). */
static void do_task(unsigned long idx)
{
	unsigned long long *maps[MAX_FREED], lens[MAX_FREED];
	unsigned long long left = size, len, bytes = 0, nmaps = 0, *p;
	uint64_t rs = usemem_seed(idx);
	int fd = -1, stopped = 0;
	struct timespec t0;
	char line[256];

	if (shared_map) {
		wait_go();
		bytes = usemem_reported_bytes(size, touch_pass(shared_map, size, &rs, &stopped));
		report(bytes + (remap ? size / 8 : 0));
		hold_memory();
		return;
	}
	if (file)
		fd = open_file();
	else
		fd = zero_fd; /* -1 with --hugetlb */
	len = usemem_chunk_len(left, unit);
	p = map_memory(len, fd);
	wait_go();
	for (;;) {
		bytes += usemem_reported_bytes(len, touch_pass(p, len, &rs, &stopped));
		if (nmaps < MAX_FREED) {
			maps[nmaps] = p;
			lens[nmaps] = len;
		}
		nmaps++;
		left -= len;
		if (!left || stopped || runtime_exceeded())
			break;
		len = usemem_chunk_len(left, unit);
		p = map_memory(len, fd);
	}
	report(bytes);
	hold_memory();
	if (nmaps <= MAX_FREED) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (unsigned long long i = 0; i < nmaps; i++)
			unmap_memory(maps[i], lens[i]);
		usemem_format_free(line, sizeof(line), usecs_since(&t0));
		put(line);
	}
	if (file)
		close(fd);
}

static void *thread_main(void *arg)
{
	do_task((unsigned long)(uintptr_t)arg);
	return NULL;
}

/* One process: nthread threads (or the process itself). */
static void do_process(unsigned long pidx)
{
	unsigned long nt = nthread ? nthread : 1;
	pthread_t *th;

	if (!nthread) {
		do_task(pidx);
		return;
	}
	th = calloc(nt, sizeof(*th));
	if (!th)
		die("out of memory");
	for (unsigned long i = 0; i < nt; i++) {
		int err =
		    pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)(pidx * nt + i));

		if (err)
			die("pthread_create: %s", strerror(err));
	}
	for (unsigned long i = 0; i < nt; i++)
		pthread_join(th[i], NULL);
	free(th);
}

/* S as a decimal number in LO..HI (UNIT names what it counts, "" or
 * "of seconds "); dies naming the option WHAT otherwise. */
static unsigned long parse_number(const char *s, const char *what, const char *unit,
				  unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || *s < '0' || *s > '9' || v < lo || v > hi)
		die("%s: '%s' is not a number %sin %lu..%lu", what, s, unit, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"nproc", required_argument, NULL, 'n'}, {"thread", required_argument, NULL, 't'},
	    {"file", required_argument, NULL, 'f'},  {"readonly", no_argument, NULL, 'o'},
	    {"random", no_argument, NULL, 'R'},	     {"runtime", required_argument, NULL, 'T'},
	    {"prealloc", no_argument, NULL, 'P'},    {"remap", no_argument, NULL, 'E'},
	    {"prefault", no_argument, NULL, 'F'},    {"unit", required_argument, NULL, 'u'},
	    {"msync", no_argument, NULL, 'S'},	     {"open-rw", no_argument, NULL, 'w'},
	    {"hugetlb", no_argument, NULL, 'U'},     {"detach", no_argument, NULL, 'd'},
	    {"sleep", required_argument, NULL, 's'}, {"pid-file", required_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},	     {NULL, 0, NULL, 0},
	};
	unsigned long np;
	pid_t *pids;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "n:t:f:oRPEFu:SwUT:ds:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			nproc = parse_number(optarg, "--nproc", "", 1, MAX_TASKS);
			break;
		case 't':
			nthread = parse_number(optarg, "--thread", "", 1, MAX_TASKS);
			break;
		case 'f':
			file = optarg;
			break;
		case 'o':
			readonly = word_read = 1;
			break;
		case 'R':
			random_access = 1;
			break;
		case 'P':
			prealloc = 1;
			break;
		case 'E':
			remap = 1;
			break;
		case 'F':
			prefault = 1;
			break;
		case 'u':
			if (usemem_parse_size(optarg, &unit) != 0 || unit < 8)
				die("--unit: bad size '%s' (bytes, K/M/G/T suffix, >= 8)", optarg);
			break;
		case 'S':
			sync_after = 1;
			break;
		case 'w':
			open_rw = 1;
			break;
		case 'U':
			hugetlb = 1;
			break;
		case 'T':
			runtime = parse_number(optarg, "--runtime", "of seconds ", 0, MAX_SECONDS);
			break;
		case 'd':
			detach = 1;
			break;
		case 's':
			sleep_secs = (unsigned int)parse_number(optarg, "--sleep", "of seconds ", 0,
								MAX_SECONDS);
			break;
		case 'p':
			pid_file = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	if (usemem_parse_size(argv[optind], &size) != 0 || size < 8)
		die("bad size '%s' (a number of bytes with an optional K/M/G/T suffix, >= 8)",
		    argv[optind]);
	if (usemem_total_tasks(nproc, nthread) > MAX_TASKS)
		die("too many tasks (at most %d)", MAX_TASKS);
	if (remap && !prealloc)
		die("--remap moves the --prealloc mapping: give both");
	if (remap && size > ~0ULL / REMAP_SCALE)
		die("--remap: %llu x %llu bytes do not fit", REMAP_SCALE, size);
	if (prealloc && unit)
		die("--unit maps in each task, --prealloc once: not both");
	if (hugetlb && file)
		die("--hugetlb maps anonymous memory: not with --file");
	if (detach && nthread)
		die("--detach forks a task: not with --thread");
	if (pid_file && !detach)
		die("--pid-file records the detached child: give --detach");
	if (!file && !hugetlb && (zero_fd = open("/dev/zero", O_RDONLY)) < 0)
		die("open /dev/zero: %s", strerror(errno));
	if (pipe(go_pipe) < 0)
		die("pipe: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &start_time);
	if (prealloc) { /* after the start time, as upstream: its cost is counted */
		int fd = file ? open_file() : zero_fd;

		shared_map = map_memory(size, fd);
		if (remap) {
			void *q = mremap(shared_map, size, REMAP_SCALE * size, MREMAP_MAYMOVE);

			if (q == MAP_FAILED)
				die("mremap %llu to %llu bytes: %s", size, REMAP_SCALE * size,
				    strerror(errno));
			shared_map = q;
		}
		if (fd >= 0)
			close(fd);
	}
	np = nproc ? nproc : 1;
	pids = calloc(np, sizeof(*pids));
	if (!pids)
		die("out of memory");
	for (unsigned long i = 0; i < np; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(go_pipe[1]);
			do_process(i);
			_exit(0);
		}
		pids[i] = pid;
	}
	close(go_pipe[1]); /* every task's poll() sees POLLHUP: go */
	for (unsigned long i = 0; i < np; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed = 1;
	}
	return failed;
}
