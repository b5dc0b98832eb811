/* usemem: a vm-scalability style memory toucher.
 *
 * usemem [-n NPROC] [-t NTHREAD] [-f FILE] [--readonly] [--random]
 *        [--runtime SEC] SIZE
 *
 * Starts NPROC processes of NTHREAD threads (default 1 x 1).  Every task
 * maps SIZE bytes (anonymous private memory, or FILE shared), then reads
 * (--readonly) or writes SIZE/8 8-byte words, sequentially or at random
 * indexes (--random), stopping early once --runtime seconds have passed
 * since the start.  Each task prints, in one write,
 *   "N bytes / T usecs = K KB/s"     (T from the common start time; N is
 *                                     SIZE/8 for the mapping plus 8 bytes a
 *                                     word touched, upstream's composite)
 *   "T usecs to free memory"          (the munmap)
 * as the upstream usemem does. */
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
#define CHECK_EVERY 65536UL /* words between runtime checks */

static unsigned long nproc, nthread;
static const char *file;
static int readonly, random_access;
static unsigned long runtime; /* 0: none */
static unsigned long long size;
static struct timespec start_time;
static int go_pipe[2] = {-1, -1}; /* runner closes the write end: go */

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG " [options] SIZE[k|m|g|t]\n"
		   "  -n, --nproc N      N processes (default 1)\n"
		   "  -t, --thread N     N threads per process (default 1)\n"
		   "  -f, --file FILE    map FILE shared instead of anonymous memory\n"
		   "  -o, --readonly     read the memory (open FILE read-only)\n"
		   "  -R, --random       random word order instead of sequential\n"
		   "  -T, --runtime SEC  stop touching after SEC seconds from the start\n"
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
 * own: upstream's access costs a call per word and its loads are never
 * folded away. */
static __attribute__((noinline)) unsigned long long touch_word(volatile unsigned long long *p,
							       unsigned long long k, int read)
{
	if (read)
		return p[k];
	p[k] = k;
	return 0;
}

/* One task: map, wait for go, touch, report, unmap. */
static void do_task(unsigned long idx)
{
	struct pollfd pfd = {.fd = go_pipe[0], .events = POLLIN};
	unsigned long long words = size / 8, done = 0;
	uint64_t rs = usemem_seed(idx);
	int fd = -1, prot = PROT_READ | (readonly ? 0 : PROT_WRITE);
	unsigned long long *p;
	struct timespec t0;
	char line[256];

	if (file) {
		fd = open(file, readonly ? O_RDONLY : O_RDWR);
		if (fd < 0)
			die("open %s: %s", file, strerror(errno));
		p = mmap(NULL, size, prot, MAP_SHARED, fd, 0);
	} else {
		p = mmap(NULL, size, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (p == MAP_FAILED)
		die("mmap %llu bytes: %s", size, strerror(errno));
	while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
		;
	/* upstream's order: touch, count, then every 65,536th word (the first
	 * included) look at the clock */
	for (unsigned long long i = 0; i < words; i++) {
		touch_word(p, random_access ? usemem_rand_index(&rs, words - 1) : i, readonly);
		done++;
		if (!(i & (CHECK_EVERY - 1)) && runtime_exceeded())
			break;
	}
	usemem_format_result(line, sizeof(line), usemem_reported_bytes(size, done),
			     usecs_since(&start_time));
	put(line);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	munmap(p, size);
	usemem_format_free(line, sizeof(line), usecs_since(&t0));
	put(line);
	if (fd >= 0)
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

static unsigned long parse_count(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || *s < '0' || *s > '9' || v < 1 || v > MAX_TASKS)
		die("%s: '%s' is not a number in 1..%d", what, s, MAX_TASKS);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"nproc", required_argument, NULL, 'n'}, {"thread", required_argument, NULL, 't'},
	    {"file", required_argument, NULL, 'f'},  {"readonly", no_argument, NULL, 'o'},
	    {"random", no_argument, NULL, 'R'},	     {"runtime", required_argument, NULL, 'T'},
	    {"help", no_argument, NULL, 'h'},	     {NULL, 0, NULL, 0},
	};
	unsigned long np;
	pid_t *pids;
	int c, failed = 0;

	while ((c = getopt_long(argc, argv, "n:t:f:oRT:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			nproc = parse_count(optarg, "--nproc");
			break;
		case 't':
			nthread = parse_count(optarg, "--thread");
			break;
		case 'f':
			file = optarg;
			break;
		case 'o':
			readonly = 1;
			break;
		case 'R':
			random_access = 1;
			break;
		case 'T': {
			char *end;

			errno = 0;
			runtime = strtoul(optarg, &end, 10);
			if (errno || *end || *optarg < '0' || *optarg > '9')
				die("--runtime: '%s' is not a number of seconds", optarg);
			break;
		}
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
	if (pipe(go_pipe) < 0)
		die("pipe: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &start_time);
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
