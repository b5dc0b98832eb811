/* krepro-perf: system-wide counting and kernel call-chain sampling through
 * perf_event_open(2) directly (no perf binary).
 *
 *   krepro-perf stat    -o FILE [-i SECONDS]
 *   krepro-perf profile -o FILE [-F HZ] [-m PAGES]
 *
 * Both run until SIGTERM or SIGINT, then write their last output and exit 0.
 *
 * stat: one counter per event per online CPU (pid -1, the whole system).
 * Software events (cpu-clock, task-clock, page-faults, context-switches,
 * cpu-migrations, minor-faults, major-faults) are required; hardware events
 * (cpu-cycles, instructions, cache-references, cache-misses,
 * branch-instructions, branch-misses) are tried and written as
 * "<not supported>" when the machine has no PMU (QEMU TCG).  Every interval
 * and at the end a block of cumulative totals over all CPUs is appended:
 *   time: <epoch.usec>
 *   <event>: <count>          (cpu-clock and task-clock in msec, like perf)
 *   <event>: <not supported>
 * Counts are scaled by time_enabled / time_running if multiplexed.
 *
 * profile: PERF_COUNT_SW_CPU_CLOCK sampling at -F HZ on every CPU with
 * PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN (kernel chains; user chains are
 * excluded), read from one mmap ring buffer per CPU.  Addresses are
 * symbolised with /proc/kallsyms; a sample taken in user mode counts as the
 * frame "[user]".  At the end the file gets:
 *   time: <epoch.usec>
 *   event: cpu-clock
 *   period_ns: <n>
 *   samples: <n>
 *   lost: <n>
 *   <count> <leaf>;<caller>;...;<outermost>     (one line per distinct chain)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "contract.h"
#include "diag.h"

#define PROG "krepro-perf"
#define MAX_CPUS 1024
#define MAX_DEPTH 64

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void usage(FILE *f)
{
	fputs("Usage: " PROG " stat -o FILE [-i SECONDS]\n"
	      "       " PROG " profile -o FILE [-F HZ] [-m PAGES] [-D SECONDS] [-d SECONDS]\n"
	      "  stat     system-wide counters per CPU, totals appended every -i seconds\n"
	      "           (default 10) and at SIGTERM/SIGINT\n"
	      "  profile  cpu-clock sampling at -F HZ (default 250) with kernel call chains,\n"
	      "           -m ring pages per CPU (power of two, default 64); symbolised with\n"
	      "           /proc/kallsyms and written at SIGTERM/SIGINT; as LKP's perf-profile\n"
	      "           it can start -D seconds in (default $KREPRO_PROFILE_DELAY or 0) and\n"
	      "           record for -d seconds (default $KREPRO_PROFILE_DURATION or until\n"
	      "           the signal), so a long run is sampled in its steady middle only\n",
	      f);
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void print_time(FILE *f)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, KRP_SAMPLE_MARK " %lld.%06ld\n", (long long)now.tv_sec, now.tv_nsec / 1000);
}

static int ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (n < 1)
		n = 1;
	return n > MAX_CPUS ? MAX_CPUS : (int)n;
}

static sigset_t stop_sigs;

static void block_stop_signals(void)
{
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGINT);
	sigprocmask(SIG_BLOCK, &stop_sigs, NULL);
}

/* Waits up to ms for a stop signal; 1 if one arrived. */
static int wait_stop(long long ms)
{
	struct timespec rel = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	int sig = sigtimedwait(&stop_sigs, NULL, &rel);

	return sig == SIGTERM || sig == SIGINT;
}

/* ---- stat ------------------------------------------------------------- */

static const struct stat_event {
	const char *name;
	uint32_t type;
	uint64_t config;
	int hw;
	int msec; /* a clock in ns, printed in msec */
} events[] = {
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0, 1},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0, 1},
    /* No page-fault events: counting them system-wide puts perf's event
     * accounting on every fault (about 7% of a page_fault3 profile);
     * proc-vmstat's pgfault and pgmajfault give the same counts for free. */
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, 0},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 1, 0},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1, 0},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1, 0},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 1, 0},
};
#define NEV (sizeof(events) / sizeof(events[0]))

static int stat_fd[NEV][MAX_CPUS];

static void stat_block(FILE *f, int n)
{
	print_time(f);
	for (size_t e = 0; e < NEV; e++) {
		double total = 0;
		int any = 0;

		for (int c = 0; c < n; c++) {
			uint64_t v[3]; /* value, time_enabled, time_running */

			if (stat_fd[e][c] < 0 || read(stat_fd[e][c], v, sizeof(v)) != sizeof(v))
				continue;
			any = 1;
			if (v[2] && v[2] < v[1])
				total += (double)v[0] * ((double)v[1] / (double)v[2]);
			else if (v[2] || !v[1])
				total += (double)v[0];
		}
		if (!any)
			fprintf(f, "%s: <not supported>\n", events[e].name);
		else if (events[e].msec)
			fprintf(f, "%s: %.2f\n", events[e].name, total / 1e6);
		else
			fprintf(f, "%s: %.0f\n", events[e].name, total);
	}
	fflush(f);
}

static int run_stat(FILE *f, double interval)
{
	int n = ncpus(), opened_sw = 0;
	long long ms = (long long)(interval * 1000.0), start, k;

	for (size_t e = 0; e < NEV; e++) {
		int err = 0, opened = 0;

		for (int c = 0; c < n; c++) {
			struct perf_event_attr a;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = events[e].type;
			a.config = events[e].config;
			a.disabled = 1;
			a.read_format =
			    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
			stat_fd[e][c] = perf_open(&a, c);
			if (stat_fd[e][c] < 0)
				err = errno;
			else
				opened++;
		}
		if (!opened) {
			fprintf(stderr, PROG ": %s: %s%s\n", events[e].name, strerror(err),
				events[e].hw ? " (reported as not supported)" : "");
		} else if (!events[e].hw) {
			opened_sw++;
		}
	}
	if (!opened_sw)
		die("no software event could be opened (CONFIG_PERF_EVENTS?)");
	for (size_t e = 0; e < NEV; e++)
		for (int c = 0; c < n; c++)
			if (stat_fd[e][c] >= 0)
				ioctl(stat_fd[e][c], PERF_EVENT_IOC_ENABLE, 0);
	fprintf(f, "# krepro-perf stat: system-wide, %d cpus, cumulative totals\n", n);
	stat_block(f, n);
	start = mono_ns();
	for (k = 1;; k++) {
		long long left = (start + k * ms * 1000000LL - mono_ns()) / 1000000LL;

		if (left < 0) {
			k = (mono_ns() - start) / (ms * 1000000LL);
			continue;
		}
		if (wait_stop(left))
			break;
		stat_block(f, n);
	}
	stat_block(f, n);
	return 0;
}

/* ---- kallsyms --------------------------------------------------------- */

struct ksym {
	uint64_t addr;
	char *name;
};
static struct ksym *syms;
static size_t nsyms;

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t cap = 0;

	if (!f)
		die("/proc/kallsyms: %s (CONFIG_KALLSYMS?)", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (addr == 0)
			continue;
		if (nsyms == cap) {
			struct ksym *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(syms, cap * sizeof(*syms));
			if (!p)
				die("out of memory");
			syms = p;
		}
		syms[nsyms].addr = addr;
		syms[nsyms].name = strdup(name);
		if (!syms[nsyms].name)
			die("out of memory");
		nsyms++;
	}
	fclose(f);
	if (!nsyms)
		die("/proc/kallsyms has no text symbols with addresses (kptr_restrict?)");
	qsort(syms, nsyms, sizeof(*syms), cmp_sym);
}

#define SYM_UNKNOWN ((uint32_t)-1)
#define SYM_USER ((uint32_t)-2)

static uint32_t sym_of(uint64_t ip)
{
	size_t lo = 0, hi = nsyms;

	if (ip < 0xffff800000000000ULL)
		return SYM_USER;
	if (!nsyms || ip < syms[0].addr)
		return SYM_UNKNOWN;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

static const char *sym_name(uint32_t s)
{
	if (s == SYM_USER)
		return "[user]";
	if (s == SYM_UNKNOWN)
		return "[unknown]";
	return syms[s].name;
}

/* ---- chain tables ----------------------------------------------------- */

/* Distinct chains with counts: raw addresses while sampling, symbol
 * numbers after the run (symbolising waits until the measured phase is
 * over, so reading /proc/kallsyms costs the benchmark nothing). */
struct chain {
	uint32_t depth;
	uint64_t count;
	uint64_t *frames; /* leaf first */
};
struct table {
	struct chain *chains;
	size_t n, cap;
	size_t *slots; /* 1 + index into chains, 0 empty */
	size_t nslots;
};
static struct table raw_chains, sym_chains;

static uint64_t hash_frames(const uint64_t *f, uint32_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (uint32_t i = 0; i < n; i++) {
		h ^= f[i];
		h *= 1099511628211ULL;
	}
	return h ^ n;
}

static void table_grow(struct table *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 4096;
	size_t *sl = calloc(ns, sizeof(*sl));

	if (!sl)
		die("out of memory");
	for (size_t i = 0; i < t->n; i++) {
		size_t j = hash_frames(t->chains[i].frames, t->chains[i].depth) & (ns - 1);

		while (sl[j])
			j = (j + 1) & (ns - 1);
		sl[j] = i + 1;
	}
	free(t->slots);
	t->slots = sl;
	t->nslots = ns;
}

static void chain_add(struct table *t, const uint64_t *f, uint32_t n, uint64_t count)
{
	size_t j;

	if ((t->n + 1) * 2 > t->nslots)
		table_grow(t);
	j = hash_frames(f, n) & (t->nslots - 1);
	while (t->slots[j]) {
		struct chain *c = &t->chains[t->slots[j] - 1];

		if (c->depth == n && memcmp(c->frames, f, n * sizeof(*f)) == 0) {
			c->count += count;
			return;
		}
		j = (j + 1) & (t->nslots - 1);
	}
	if (t->n == t->cap) {
		struct chain *p;

		t->cap = t->cap ? t->cap * 2 : 1024;
		p = realloc(t->chains, t->cap * sizeof(*t->chains));
		if (!p)
			die("out of memory");
		t->chains = p;
	}
	t->chains[t->n].depth = n;
	t->chains[t->n].count = count;
	t->chains[t->n].frames = malloc(n * sizeof(*f));
	if (!t->chains[t->n].frames)
		die("out of memory");
	memcpy(t->chains[t->n].frames, f, n * sizeof(*f));
	t->slots[j] = ++t->n;
}

static int cmp_chain(const void *a, const void *b)
{
	const struct chain *x = a, *y = b;

	return x->count > y->count ? -1 : x->count < y->count;
}

/* raw_chains -> sym_chains, sorted by count. */
static void symbolise(void)
{
	uint64_t f[MAX_DEPTH];

	load_kallsyms();
	for (size_t i = 0; i < raw_chains.n; i++) {
		const struct chain *c = &raw_chains.chains[i];

		for (uint32_t d = 0; d < c->depth; d++)
			f[d] = sym_of(c->frames[d]);
		chain_add(&sym_chains, f, c->depth, c->count);
	}
	qsort(sym_chains.chains, sym_chains.n, sizeof(*sym_chains.chains), cmp_chain);
}

/* ---- profile ---------------------------------------------------------- */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	uint64_t size; /* data bytes, power of two */
};
static struct ring rings[MAX_CPUS];
static int nrings;
static uint64_t nsamples, nlost;

static void ring_copy(const struct ring *r, uint64_t off, void *dst, size_t n)
{
	size_t at = (size_t)(off & (r->size - 1)), first = (size_t)r->size - at;

	if (first >= n) {
		memcpy(dst, r->data + at, n);
	} else {
		memcpy(dst, r->data + at, first);
		memcpy((unsigned char *)dst + first, r->data, n - first);
	}
}

static void take_sample(const uint64_t *rec, size_t words)
{
	uint64_t frames[MAX_DEPTH], ip, nr;
	uint32_t n = 0;

	/* PERF_SAMPLE_IP, then TID (pid, tid u32 pair), then CALLCHAIN */
	if (words < 3)
		return;
	ip = rec[0];
	nr = rec[2];
	if (nr > words - 3)
		return;
	for (uint64_t i = 0; i < nr && n < MAX_DEPTH; i++) {
		uint64_t a = rec[3 + i];

		if (a >= (uint64_t)PERF_CONTEXT_MAX) /* context marker */
			continue;
		frames[n++] = a;
	}
	if (n == 0)
		frames[n++] = ip;
	nsamples++;
	chain_add(&raw_chains, frames, n, 1);
}

static void ring_drain(struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	static uint64_t rec[(MAX_DEPTH * 8) + 512];

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;

		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size - sizeof(h) <= sizeof(rec)) {
			ring_copy(r, tail + sizeof(h), rec, h.size - sizeof(h));
			take_sample(rec, (h.size - sizeof(h)) / 8);
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost[2]; /* id, lost */

			ring_copy(r, tail + sizeof(h), lost, sizeof(lost));
			nlost += lost[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static int run_profile(FILE *f, long hz, long pages, double delay, double duration)
{
	int n = ncpus();
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t period = (uint64_t)(1000000000L / hz);
	struct pollfd pfd[MAX_CPUS];
	int done = 0;

	for (int c = 0; c < n; c++) {
		struct perf_event_attr a;
		struct ring *r = &rings[nrings];
		void *m;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = period;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
		a.disabled = 1;
		a.exclude_callchain_user = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(pages * psz / 4);
		r->fd = perf_open(&a, c);
		if (r->fd < 0) {
			if (errno == ENODEV || errno == EINVAL)
				continue; /* offline CPU */
			die("perf_event_open cpu-clock sampling on cpu %d: %s", c, strerror(errno));
		}
		m = mmap(NULL, (size_t)((pages + 1) * psz), PROT_READ | PROT_WRITE, MAP_SHARED,
			 r->fd, 0);
		if (m == MAP_FAILED)
			die("mmap ring of cpu %d: %s", c, strerror(errno));
		r->meta = m;
		r->data = (unsigned char *)m + psz;
		r->size = (uint64_t)(pages * psz);
		pfd[nrings].fd = r->fd;
		pfd[nrings].events = POLLIN;
		nrings++;
	}
	if (!nrings)
		die("no CPU could be sampled");
	done = delay > 0 && wait_stop((long long)(delay * 1000.0));
	if (!done) {
		long long stop_at = duration > 0 ? mono_ns() + (long long)(duration * 1e9) : 0;

		for (int i = 0; i < nrings; i++)
			ioctl(rings[i].fd, PERF_EVENT_IOC_ENABLE, 0);
		while (!done && (!stop_at || mono_ns() < stop_at)) {
			if (poll(pfd, (nfds_t)nrings, 0) < 0 && errno != EINTR)
				die("poll: %s", strerror(errno));
			for (int i = 0; i < nrings; i++)
				ring_drain(&rings[i]);
			done = wait_stop(100);
		}
	}
	for (int i = 0; i < nrings; i++) {
		ioctl(rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
		ring_drain(&rings[i]);
	}
	/* Symbolising reads all of /proc/kallsyms: not while the benchmark runs. */
	while (!done)
		done = wait_stop(1000);
	for (int i = 0; i < nrings; i++)
		close(rings[i].fd);
	symbolise();
	print_time(f);
	fprintf(f, "event: cpu-clock\nperiod_ns: %llu\nsamples: %llu\nlost: %llu\n",
		(unsigned long long)period, (unsigned long long)nsamples,
		(unsigned long long)nlost);
	for (size_t i = 0; i < sym_chains.n; i++) {
		const struct chain *c = &sym_chains.chains[i];

		fprintf(f, "%llu ", (unsigned long long)c->count);
		for (uint32_t d = 0; d < c->depth; d++)
			fprintf(f, "%s%s", d ? ";" : "", sym_name((uint32_t)c->frames[d]));
		fputc('\n', f);
	}
	return 0;
}

/* parse_seconds: 0..86400 seconds, or die naming where the value came from
 * (an option such as "-D", or an environment variable). */
static double parse_seconds(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= 0 && v <= 86400))
		die("%s: bad seconds '%s' (0..86400)", what, s);
	return v;
}

/* env_seconds: a seconds value from the environment (init sets them from
 * the job's runtime); unset or empty is 0. */
static double env_seconds(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? parse_seconds(v, name) : 0;
}

int main(int argc, char **argv)
{
	const char *mode, *out = NULL;
	double interval = 10.0, delay = env_seconds("KREPRO_PROFILE_DELAY"),
	       duration = env_seconds("KREPRO_PROFILE_DURATION");
	long hz = 250, pages = 64;
	FILE *f;
	int c, rc;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "stat") != 0 && strcmp(argv[1], "profile") != 0)) {
		usage(stderr);
		return 2;
	}
	mode = argv[1];
	optind = 2;
	opterr = 0;
	while ((c = getopt(argc, argv, ":o:i:F:m:D:d:")) != -1) {
		char *end;

		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			interval = strtod(optarg, &end);
			if (end == optarg || *end || !(interval >= 0.01 && interval <= 86400))
				die("-i: bad interval '%s' (0.01..86400 s)", optarg);
			break;
		case 'F':
			hz = strtol(optarg, &end, 10);
			if (end == optarg || *end || hz < 1 || hz > 100000)
				die("-F: bad frequency '%s' (1..100000 Hz)", optarg);
			break;
		case 'D':
		case 'd':
			*(c == 'D' ? &delay : &duration) =
			    parse_seconds(optarg, c == 'D' ? "-D" : "-d");
			break;
		case 'm':
			pages = strtol(optarg, &end, 10);
			if (end == optarg || *end || pages < 1 || pages > 65536 ||
			    (pages & (pages - 1)))
				die("-m: bad page count '%s' (a power of two)", optarg);
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!out || optind != argc) {
		usage(stderr);
		return 2;
	}
	block_stop_signals();
	f = fopen(out, "we");
	if (!f)
		die("%s: %s", out, strerror(errno));
	rc = strcmp(mode, "stat") == 0 ? run_stat(f, interval)
				       : run_profile(f, hz, pages, delay, duration);
	if (fclose(f) != 0)
		die("%s: %s", out, strerror(errno));
	return rc;
}
