/* krepro-monitor: sample /proc and /sys files into LKP monitor raw files.
 *
 *   krepro-monitor -o DIR [-i SECONDS] [-m LIST] [-p PIDFILE]
 *
 * Every interval each monitor appends one sample to DIR/<monitor>:
 *   meminfo       "time: <epoch.usec>" + /proc/meminfo
 *   proc-vmstat   "time: <epoch.usec>" + /proc/vmstat
 *   numa-meminfo  "time: <epoch.usec>" + every node's meminfo ("Node N ..." lines)
 *   numa-vmstat   "time: <epoch.usec>" + per node "node: N" + its vmstat
 *   slabinfo, softirqs, interrupts, uptime
 *                 "time: <epoch.usec>" + /proc/<name>
 *   sched_debug   "time: <epoch.usec>" + /sys/kernel/debug/sched/debug (or
 *                 /proc/sched_debug), every -S seconds (default 60, as LKP) only
 *   vmstat        "time: <epoch.usec>" + "<group>.<field>: <value>" lines with
 *                 vmstat(8)'s fields: procs.r procs.b memory.{swpd,free,buff,
 *                 cache} (kB) and, from the second sample on, per-second
 *                 swap.si swap.so io.bi io.bo system.in system.cs and cpu.us
 *                 cpu.sy cpu.id cpu.wa cpu.st (% of the interval, /proc/stat)
 *   mpstat        "time: <epoch.usec>" + "cpu.all.<state>%: <value>" for usr
 *                 nice sys iowait irq soft steal guest gnice idle, from the
 *                 second sample on (mpstat(1)'s arithmetic on /proc/stat)
 *   cpuidle       "time: <epoch.usec>" + "cpu<N> state<M> <name> <time-us>
 *                 <usage>" per /sys/devices/system/cpu/cpu<N>/cpuidle/state<M>
 *   perf-stat, perf-profile
 *                 not sampled here: krepro-monitor starts "krepro-perf stat"
 *                 / "krepro-perf profile" writing DIR/perf-stat and
 *                 DIR/perf-profile, and stops them (SIGTERM) when it stops.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"

#define PROG "krepro-monitor"
#define NODE_DIR "/sys/devices/system/node"
#define BUF_INITIAL (64u << 10)
#define BUF_MAX (64u << 20) /* a sample larger than this is cut */

enum kind { K_FILE, K_NUMA, K_VMSTAT, K_MPSTAT, K_CPUIDLE, K_SCHED, K_PERF };

struct monitor {
	const char *name;
	enum kind kind;
	const char *src; /* K_FILE: path; K_NUMA: file name in nodeN/ */
	int node_line;	 /* K_NUMA: emit "node: N" before each node */
	int enabled;
	int fd;
	int warned;   /* a read failure was reported */
	int snapshot; /* sampled at the start and at the end only (as LKP's) */
};

static struct monitor monitors[] = {
    {"meminfo", K_FILE, "/proc/meminfo", 0, 0, -1, 0, 0},
    {"proc-vmstat", K_FILE, "/proc/vmstat", 0, 0, -1, 0, 0},
    {"numa-meminfo", K_NUMA, "meminfo", 0, 0, -1, 0, 0},
    {"numa-vmstat", K_NUMA, "vmstat", 1, 0, -1, 0, 0},
    {"vmstat", K_VMSTAT, NULL, 0, 0, -1, 0, 0},
    {"slabinfo", K_FILE, "/proc/slabinfo", 0, 0, -1, 0, 0},
    {"softirqs", K_FILE, "/proc/softirqs", 0, 0, -1, 0, 1},
    {"interrupts", K_FILE, "/proc/interrupts", 0, 0, -1, 0, 0},
    {"cpuidle", K_CPUIDLE, "/sys/devices/system/cpu", 0, 0, -1, 0, 1},
    {"mpstat", K_MPSTAT, NULL, 0, 0, -1, 0, 0},
    {"uptime", K_FILE, "/proc/uptime", 0, 0, -1, 0, 0},
    {"sched_debug", K_SCHED, "/sys/kernel/debug/sched/debug", 0, 0, -1, 0, 0},
    {"perf-stat", K_PERF, "stat", 0, 0, -1, 0, 0},
    {"perf-profile", K_PERF, "profile", 0, 0, -1, 0, 0},
};
#define NMON (sizeof(monitors) / sizeof(monitors[0]))

/* The one sample buffer, reused; it only grows to the largest sample. */
static char *buf;
static size_t buf_len, buf_cap;

static unsigned *nodes; /* NUMA node numbers, ascending */
static size_t nnodes;

static const char *pidfile;

/* krepro-perf children (perf-stat, perf-profile). */
static pid_t perf_pids[2];
static const char *perf_names[2];
static size_t nperf;

/* /proc/stat and /proc/vmstat counters vmstat and mpstat need. */
enum {
	ST_USER,
	ST_NICE,
	ST_SYS,
	ST_IDLE,
	ST_IOWAIT,
	ST_IRQ,
	ST_SOFTIRQ,
	ST_STEAL,
	ST_GUEST,
	ST_GNICE,
	ST_NCPU
};
struct statsnap {
	int valid;
	long long mono; /* CLOCK_MONOTONIC ns when read */
	unsigned long long cpu[ST_NCPU];
	unsigned long long intr, ctxt, running, blocked;
	unsigned long long pgpgin, pgpgout, pswpin, pswpout;
};
static struct statsnap vm_prev, mp_prev;

static long long sched_every = 1; /* sched_debug: every Nth tick */
static long long tick_no;
static int final_sample;

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o DIR [-i SECONDS] [-m LIST] [-p PIDFILE]\n"
	      "  -o DIR      output directory (created if missing); one file per monitor\n"
	      "  -i SECONDS  sampling interval, may be fractional (default 1)\n"
	      "  -m LIST     monitors separated by ',' or '+' (default meminfo,proc-vmstat);\n"
	      "              known: meminfo proc-vmstat numa-meminfo numa-vmstat vmstat\n"
	      "              slabinfo softirqs interrupts cpuidle mpstat uptime sched_debug\n"
	      "              perf-stat perf-profile (run by krepro-perf); 'none': no monitor\n"
	      "  -S SECONDS  sched_debug interval (default 60, or $KREPRO_SCHED_DEBUG_INTERVAL)\n"
	      "  -P PROG     krepro-perf program (default krepro-perf in PATH)\n"
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

	va_start(ap, fmt);
	krp_vmessage(PROG, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < nperf; i++)
		kill(perf_pids[i], SIGTERM);
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

static long long mono_ns(void);

/* Reads a small /proc file into dst (NUL-terminated); -1 on error. */
static int read_small(const char *path, char *dst, size_t cap)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len + 1 < cap) {
		ssize_t n = read(fd, dst + len, cap - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0) {
				int e = errno;

				close(fd);
				errno = e;
				return -1;
			}
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	dst[len] = '\0';
	return 0;
}

/* Value of "name<sep>value" at a line start in text; 0 if absent. */
static unsigned long long field_ull(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && (p[n] == ' ' || p[n] == ':' || p[n] == '\t'))
			return strtoull(p + n + 1 + strspn(p + n + 1, " \t:"), NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static char scratch[256u << 10];

static int read_statsnap(struct statsnap *s)
{
	const char *cpu;

	memset(s, 0, sizeof(*s));
	s->mono = mono_ns();
	if (read_small("/proc/stat", scratch, sizeof(scratch)) < 0)
		return -1;
	cpu = strncmp(scratch, "cpu ", 4) == 0 ? scratch + 4 : NULL;
	if (!cpu) {
		errno = EPROTO;
		return -1;
	}
	for (int i = 0; i < ST_NCPU; i++) {
		char *end;

		s->cpu[i] = strtoull(cpu, &end, 10);
		if (end == cpu)
			break;
		cpu = end;
	}
	s->intr = field_ull(scratch, "intr");
	s->ctxt = field_ull(scratch, "ctxt");
	s->running = field_ull(scratch, "procs_running");
	s->blocked = field_ull(scratch, "procs_blocked");
	if (read_small("/proc/vmstat", scratch, sizeof(scratch)) < 0)
		return -1;
	s->pgpgin = field_ull(scratch, "pgpgin");
	s->pgpgout = field_ull(scratch, "pgpgout");
	s->pswpin = field_ull(scratch, "pswpin");
	s->pswpout = field_ull(scratch, "pswpout");
	s->valid = 1;
	return 0;
}

static unsigned long long dsub(unsigned long long a, unsigned long long b)
{
	return a > b ? a - b : 0;
}

/* vmstat(8) fields; rates and cpu shares over the last interval. */
static int sample_vmstat(void)
{
	struct statsnap cur;
	unsigned long long mt, mf, buff, cached, srec, st, sf;

	if (read_statsnap(&cur) < 0)
		return -1;
	if (read_small("/proc/meminfo", scratch, sizeof(scratch)) < 0)
		return -1;
	mt = field_ull(scratch, "MemTotal");
	mf = field_ull(scratch, "MemFree");
	buff = field_ull(scratch, "Buffers");
	cached = field_ull(scratch, "Cached");
	srec = field_ull(scratch, "SReclaimable");
	st = field_ull(scratch, "SwapTotal");
	sf = field_ull(scratch, "SwapFree");
	(void)mt;
	/* procs_running counts this monitor, which is running while it reads. */
	if (buf_printf("procs.r: %llu\nprocs.b: %llu\n", cur.running ? cur.running - 1 : 0,
		       cur.blocked) < 0 ||
	    buf_printf("memory.swpd: %llu\nmemory.free: %llu\nmemory.buff: %llu\n"
		       "memory.cache: %llu\n",
		       dsub(st, sf), mf, buff, cached + srec) < 0)
		return -1;
	if (vm_prev.valid && cur.mono > vm_prev.mono) {
		double secs = (double)(cur.mono - vm_prev.mono) / 1e9;
		double kb_page = (double)sysconf(_SC_PAGESIZE) / 1024.0;
		unsigned long long d[ST_NCPU], tot = 0;

		for (int i = 0; i < ST_NCPU; i++) {
			d[i] = dsub(cur.cpu[i], vm_prev.cpu[i]);
			if (i != ST_GUEST && i != ST_GNICE) /* guest time is inside user */
				tot += d[i];
		}
		if (!tot)
			tot = 1;
		if (buf_printf("swap.si: %.0f\nswap.so: %.0f\nio.bi: %.0f\nio.bo: %.0f\n",
			       (double)dsub(cur.pswpin, vm_prev.pswpin) * kb_page / secs,
			       (double)dsub(cur.pswpout, vm_prev.pswpout) * kb_page / secs,
			       (double)dsub(cur.pgpgin, vm_prev.pgpgin) / secs,
			       (double)dsub(cur.pgpgout, vm_prev.pgpgout) / secs) < 0 ||
		    buf_printf("system.in: %.0f\nsystem.cs: %.0f\n",
			       (double)dsub(cur.intr, vm_prev.intr) / secs,
			       (double)dsub(cur.ctxt, vm_prev.ctxt) / secs) < 0 ||
		    buf_printf("cpu.us: %.0f\ncpu.sy: %.0f\ncpu.id: %.0f\ncpu.wa: %.0f\n"
			       "cpu.st: %.0f\n",
			       100.0 * (double)(d[ST_USER] + d[ST_NICE]) / (double)tot,
			       100.0 * (double)(d[ST_SYS] + d[ST_IRQ] + d[ST_SOFTIRQ]) /
				   (double)tot,
			       100.0 * (double)d[ST_IDLE] / (double)tot,
			       100.0 * (double)d[ST_IOWAIT] / (double)tot,
			       100.0 * (double)d[ST_STEAL] / (double)tot) < 0)
			return -1;
	}
	vm_prev = cur;
	return 0;
}

/* mpstat(1) "all" row: shares of the interval's cpu time, in percent. */
static int sample_mpstat(void)
{
	static const char *const names[] = {"usr",  "nice",  "sys",   "iowait", "irq",
					    "soft", "steal", "guest", "gnice",	"idle"};
	struct statsnap cur;
	unsigned long long d[ST_NCPU], tot = 0;
	double v[10];

	if (read_statsnap(&cur) < 0)
		return -1;
	if (mp_prev.valid) {
		for (int i = 0; i < ST_NCPU; i++) {
			d[i] = dsub(cur.cpu[i], mp_prev.cpu[i]);
			if (i != ST_GUEST && i != ST_GNICE)
				tot += d[i];
		}
		if (!tot)
			tot = 1;
		/* user and nice include guest and guest_nice time */
		v[0] = (double)dsub(d[ST_USER], d[ST_GUEST]);
		v[1] = (double)dsub(d[ST_NICE], d[ST_GNICE]);
		v[2] = (double)d[ST_SYS];
		v[3] = (double)d[ST_IOWAIT];
		v[4] = (double)d[ST_IRQ];
		v[5] = (double)d[ST_SOFTIRQ];
		v[6] = (double)d[ST_STEAL];
		v[7] = (double)d[ST_GUEST];
		v[8] = (double)d[ST_GNICE];
		v[9] = (double)d[ST_IDLE];
		for (int i = 0; i < 10; i++)
			if (buf_printf("cpu.all.%s%%: %.2f\n", names[i],
				       100.0 * v[i] / (double)tot) < 0)
				return -1;
	}
	mp_prev = cur;
	return 0;
}

static int num_suffix(const char *s, const char *prefix, unsigned *out)
{
	size_t n = strlen(prefix);
	unsigned long v;
	char *end;

	if (strncmp(s, prefix, n) != 0 || s[n] < '0' || s[n] > '9')
		return -1;
	v = strtoul(s + n, &end, 10);
	if (*end || v > 1000000)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int cmp_uint(const void *a, const void *b);

/* Sorted numbers N of <dir>/<prefix>N entries; returns count (max cap). */
static size_t list_numbered(const char *dir, const char *prefix, unsigned *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < cap) {
		if (num_suffix(de->d_name, prefix, &out[n]) == 0)
			n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_uint);
	return n;
}

/* cpu<N> state<M> <name> <time-us> <usage> lines. */
static int sample_cpuidle(const char *root)
{
	static unsigned cpus[4096], states[64];
	size_t ncpu = list_numbered(root, "cpu", cpus, 4096), lines = 0;
	char path[256], name[64], tbuf[64], ubuf[64];

	for (size_t i = 0; i < ncpu; i++) {
		size_t nst;

		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle", root, cpus[i]);
		nst = list_numbered(path, "state", states, 64);
		for (size_t j = 0; j < nst; j++) {
			char *nl;

			snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/name", root, cpus[i],
				 states[j]);
			if (read_small(path, name, sizeof(name)) < 0)
				continue;
			name[strcspn(name, " \t\n")] = '\0';
			snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/time", root, cpus[i],
				 states[j]);
			if (read_small(path, tbuf, sizeof(tbuf)) < 0)
				continue;
			snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/usage", root,
				 cpus[i], states[j]);
			if (read_small(path, ubuf, sizeof(ubuf)) < 0)
				continue;
			if ((nl = strchr(tbuf, '\n')))
				*nl = '\0';
			if ((nl = strchr(ubuf, '\n')))
				*nl = '\0';
			if (!name[0])
				continue;
			if (buf_printf("cpu%u state%u %s %s %s\n", cpus[i], states[j], name, tbuf,
				       ubuf) < 0)
				return -1;
			lines++;
		}
	}
	if (!lines) {
		errno = ENOENT;
		return -1;
	}
	return 0;
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
	if (m->kind == K_PERF)
		return;
	if (m->kind == K_SCHED && !final_sample && tick_no % sched_every != 0)
		return;
	if (m->snapshot && !final_sample && tick_no != 0)
		return;
	if (m->kind == K_FILE) {
		if (buf_add_file(m->src) < 0) {
			warn_once(m, m->src);
			return; /* no half sample */
		}
	} else if (m->kind == K_SCHED) {
		if (buf_add_file(m->src) < 0 && buf_add_file("/proc/sched_debug") < 0) {
			warn_once(m, m->src);
			return;
		}
	} else if (m->kind == K_VMSTAT || m->kind == K_MPSTAT || m->kind == K_CPUIDLE) {
		int rc = m->kind == K_VMSTAT   ? sample_vmstat()
			 : m->kind == K_MPSTAT ? sample_mpstat()
					       : sample_cpuidle(m->src);

		if (rc < 0) {
			warn_once(m, m->kind == K_CPUIDLE ? m->src : "/proc/stat");
			return;
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
	tick_no++;
}

static void perf_start(const char *prog, const char *mode, const char *out, const char *name)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execlp(prog, prog, mode, "-o", out, (char *)NULL);
		fprintf(stderr, PROG ": exec %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	perf_names[nperf] = name;
	perf_pids[nperf++] = pid;
}

/* Stops the perf children; a failed one is a warning, not our failure. */
static void perf_stop(void)
{
	for (size_t i = 0; i < nperf; i++)
		kill(perf_pids[i], SIGTERM);
	for (size_t i = 0; i < nperf; i++) {
		int st;

		while (waitpid(perf_pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fprintf(stderr, PROG ": warning: %s: krepro-perf ended with status %d\n",
				perf_names[i],
				WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	}
	nperf = 0;
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

	if (strcmp(list, "none") == 0) /* sample nothing, only wait for the stop */
		return;
	for (;;) {
		size_t len = strcspn(p, ",+"); /* '+': matrix values have no ',' */
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
	perf_stop();
	for (size_t i = 0; i < NMON; i++)
		if (monitors[i].enabled && monitors[i].kind != K_PERF && close(monitors[i].fd) < 0)
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
	const char *dir = NULL, *list = "meminfo,proc-vmstat", *perf_prog = "krepro-perf";
	const char *sd_env = getenv("KREPRO_SCHED_DEBUG_INTERVAL");
	double interval = 1.0, sd_interval = 60.0;
	long long interval_ns, start, k;
	sigset_t sigs;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:i:m:p:S:P:h", longopts, NULL)) != -1) {
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
		case 'S':
			sd_env = optarg;
			break;
		case 'P':
			perf_prog = optarg;
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
	if (sd_env && *sd_env) {
		char *end;

		errno = 0;
		sd_interval = strtod(sd_env, &end);
		if (errno || end == sd_env || *end || !isfinite(sd_interval) ||
		    sd_interval < 0.001 || sd_interval > 86400.0)
			die_usage("-S: bad sched_debug interval '%s' (0.001..86400 seconds)",
				  sd_env);
	}
	sched_every = llround(sd_interval / interval);
	if (sched_every < 1)
		sched_every = 1;

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
		if (monitors[i].kind == K_PERF) {
			perf_start(perf_prog, monitors[i].src, path, monitors[i].name);
			continue;
		}
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
				final_sample = 1;
				sample_all();
				finish(0);
			}
			if (sig < 0 && errno != EAGAIN && errno != EINTR)
				die("sigtimedwait: %s", strerror(errno));
		}
		sample_all();
	}
}
