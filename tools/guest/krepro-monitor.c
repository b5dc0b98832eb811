/* krepro-monitor: sample /proc and /sys files into LKP monitor raw files.
 *
 *   krepro-monitor -o DIR [-i SECONDS] [-m LIST] [-p PIDFILE]
 *
 * Every interval each monitor appends one sample to DIR/<monitor>:
 *   meminfo       "time: <epoch.usec>" + /proc/meminfo
 *   proc-vmstat   "time: <epoch.usec>" + /proc/vmstat
 *   numa-meminfo  "time: <epoch.usec>" + every node's meminfo ("Node N ..." lines)
 *   numa-vmstat   "time: <epoch.usec>" + per node "node: N" + its vmstat
 * The first sample is taken at once, the next ones at absolute deadlines
 * start + k * interval (missed deadlines are skipped, drift does not build
 * up).  SIGTERM or SIGINT: one last sample, then exit 0. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PROG "krepro-monitor"
#define NODE_DIR "/sys/devices/system/node"
#define BUF_INITIAL (64u << 10)
#define BUF_MAX (64u << 20) /* a sample larger than this is cut */

enum kind { K_FILE, K_NUMA };

struct monitor {
	const char *name;
	enum kind kind;
	const char *src; /* K_FILE: path; K_NUMA: file name in nodeN/ */
	int node_line;	 /* K_NUMA: emit "node: N" before each node */
	int enabled;
	int fd;
	int warned; /* a read failure was reported */
};

static struct monitor monitors[] = {
    {"meminfo", K_FILE, "/proc/meminfo", 0, 0, -1, 0},
    {"proc-vmstat", K_FILE, "/proc/vmstat", 0, 0, -1, 0},
    {"numa-meminfo", K_NUMA, "meminfo", 0, 0, -1, 0},
    {"numa-vmstat", K_NUMA, "vmstat", 1, 0, -1, 0},
};
#define NMON (sizeof(monitors) / sizeof(monitors[0]))

/* The one sample buffer, reused; it only grows to the largest sample. */
static char *buf;
static size_t buf_len, buf_cap;

static unsigned *nodes; /* NUMA node numbers, ascending */
static size_t nnodes;

static const char *pidfile;

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o DIR [-i SECONDS] [-m LIST] [-p PIDFILE]\n"
	      "  -o DIR      output directory (created if missing); one file per monitor\n"
	      "  -i SECONDS  sampling interval, may be fractional (default 1)\n"
	      "  -m LIST     comma-separated monitors (default meminfo,proc-vmstat);\n"
	      "              known: meminfo proc-vmstat numa-meminfo numa-vmstat\n"
	      "  -p PIDFILE  write our pid there (removed on exit)\n"
	      "Samples at once and then every interval; on SIGTERM/SIGINT takes a last\n"
	      "sample and exits 0.\n",
	      f);
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

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (pidfile)
		unlink(pidfile);
	exit(1);
}

/* Makes room for at least want more bytes; 0 or -1 if over BUF_MAX. */
static int buf_reserve(size_t want)
{
	size_t cap = buf_cap;
	char *p;

	if (buf_len + want <= buf_cap)
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

static int buf_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int buf_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (buf_reserve(128) < 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + buf_len, buf_cap - buf_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= buf_cap - buf_len)
		return -1;
	buf_len += (size_t)n;
	return 0;
}

/* Appends the whole file (one read loop), plus a newline if it lacks one.
 * On failure the buffer is left as it was and errno is set. */
static int buf_add_file(const char *path)
{
	size_t start = buf_len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n;

		if (buf_len == buf_cap && buf_reserve(4096) < 0) {
			close(fd);
			buf_len = start;
			errno = EFBIG;
			return -1;
		}
		n = read(fd, buf + buf_len, buf_cap - buf_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			buf_len = start;
			errno = e;
			return -1;
		}
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
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void warn_once(struct monitor *m, const char *path)
{
	if (m->warned)
		return;
	m->warned = 1;
	fprintf(stderr, PROG ": warning: %s: %s: %s (further errors not reported)\n", m->name, path,
		strerror(errno));
}

/* One sample of one monitor, written with one write loop. */
static void sample(struct monitor *m)
{
	struct timespec now;
	char path[128];

	buf_len = 0;
	clock_gettime(CLOCK_REALTIME, &now);
	if (buf_printf("time: %lld.%06ld\n", (long long)now.tv_sec, now.tv_nsec / 1000) < 0)
		die("out of memory");
	if (m->kind == K_FILE) {
		if (buf_add_file(m->src) < 0) {
			warn_once(m, m->src);
			return; /* no half sample */
		}
	} else {
		for (size_t i = 0; i < nnodes; i++) {
			size_t mark = buf_len;

			snprintf(path, sizeof(path), NODE_DIR "/node%u/%s", nodes[i], m->src);
			if (m->node_line && buf_printf("node: %u\n", nodes[i]) < 0)
				die("out of memory");
			if (buf_add_file(path) < 0) {
				warn_once(m, path);
				buf_len = mark;
			}
		}
	}
	if (write_all(m->fd, buf, buf_len) < 0)
		die("write %s: %s", m->name, strerror(errno));
}

static void sample_all(void)
{
	for (size_t i = 0; i < NMON; i++)
		if (monitors[i].enabled)
			sample(&monitors[i]);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* Collects node<N> directories once. */
static void scan_nodes(void)
{
	DIR *d = opendir(NODE_DIR);
	struct dirent *de;
	size_t cap = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *s = de->d_name;
		unsigned long v;
		char *end;

		if (strncmp(s, "node", 4) != 0 || s[4] < '0' || s[4] > '9')
			continue;
		v = strtoul(s + 4, &end, 10);
		if (*end || v > 65535)
			continue;
		if (nnodes == cap) {
			unsigned *p;

			cap = cap ? cap * 2 : 16;
			p = realloc(nodes, cap * sizeof(*nodes));
			if (!p)
				die("out of memory");
			nodes = p;
		}
		nodes[nnodes++] = (unsigned)v;
	}
	closedir(d);
	qsort(nodes, nnodes, sizeof(*nodes), cmp_uint);
}

static void enable_monitors(const char *list)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");
		int found = 0;

		if (len == 0)
			die_usage("-m: empty monitor name in '%s'", list);
		for (size_t i = 0; i < NMON; i++) {
			if (strlen(monitors[i].name) == len &&
			    strncmp(monitors[i].name, p, len) == 0) {
				monitors[i].enabled = 1;
				found = 1;
			}
		}
		if (!found)
			die_usage("-m: unknown monitor '%.*s'", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
	}
}

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void finish(int code)
{
	for (size_t i = 0; i < NMON; i++)
		if (monitors[i].enabled && close(monitors[i].fd) < 0)
			die("close %s: %s", monitors[i].name, strerror(errno));
	if (pidfile)
		unlink(pidfile);
	exit(code);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *dir = NULL, *list = "meminfo,proc-vmstat";
	double interval = 1.0;
	long long interval_ns, start, k;
	sigset_t sigs;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:i:m:p:h", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 'i':
			errno = 0;
			interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(interval) ||
			    interval < 0.001 || interval > 86400.0)
				die_usage("-i: bad interval '%s' (0.001..86400 seconds)", optarg);
			break;
		case 'm':
			list = optarg;
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			die_usage("option '-%c' needs an argument", optopt);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (!dir)
		die_usage("missing -o DIR");
	enable_monitors(list);
	interval_ns = llround(interval * 1e9);

	scan_nodes();
	for (size_t i = 0; i < NMON; i++) {
		if (monitors[i].enabled && monitors[i].kind == K_NUMA && nnodes == 0) {
			fprintf(stderr, PROG ": warning: %s: no %s/node<N>; monitor disabled\n",
				monitors[i].name, NODE_DIR);
			monitors[i].enabled = 0;
		}
	}

	/* Block the stop signals: they are taken synchronously by sigtimedwait,
	 * so one arriving during a sample is not lost. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die("mkdir %s: %s", dir, strerror(errno));
	buf_cap = BUF_INITIAL;
	buf = malloc(buf_cap);
	if (!buf)
		die("out of memory");
	for (size_t i = 0; i < NMON; i++) {
		char path[4096];

		if (!monitors[i].enabled)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, monitors[i].name) >=
		    (int)sizeof(path))
			die("%s: path too long", dir);
		monitors[i].fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (monitors[i].fd < 0)
			die("%s: %s", path, strerror(errno));
	}
	if (pidfile) {
		char s[32];
		int n = snprintf(s, sizeof(s), "%d\n", (int)getpid());
		int fd = open(pidfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0 || write_all(fd, s, (size_t)n) < 0 || close(fd) < 0) {
			const char *p = pidfile;

			pidfile = NULL; /* do not remove what we did not write */
			die("%s: %s", p, strerror(errno));
		}
	}

	start = mono_ns();
	sample_all();
	for (k = 1;; k++) {
		long long deadline = start + k * interval_ns, now = mono_ns();

		if (now >= deadline) { /* sampling overran: skip missed ticks */
			k = (now - start) / interval_ns + 1;
			deadline = start + k * interval_ns;
		}
		for (;;) {
			struct timespec rel;
			int sig;

			now = mono_ns();
			if (now >= deadline)
				break;
			rel.tv_sec = (time_t)((deadline - now) / 1000000000LL);
			rel.tv_nsec = (long)((deadline - now) % 1000000000LL);
			sig = sigtimedwait(&sigs, NULL, &rel);
			if (sig == SIGTERM || sig == SIGINT) {
				sample_all();
				finish(0);
			}
			if (sig < 0 && errno != EAGAIN && errno != EINTR)
				die("sigtimedwait: %s", strerror(errno));
		}
		sample_all();
	}
}
