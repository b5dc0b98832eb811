/* krepro-monitor: sample /proc and /sys files into LKP monitor raw files.
 *
 *   krepro-monitor -o DIR [-i SECONDS] [-m LIST] [-p PIDFILE]
 *
 * The loop that runs the monitor families' samplers: each family's lives in
 * monitors/<family>/sample.c and is listed in its meta ("monitor NAME
 * SAMPLER"), from which the Makefile makes the table below (monitors.def).
 * Every interval each enabled monitor appends one sample to DIR/<monitor>:
 * a "time: <epoch.usec>" line (KRP_SAMPLE_MARK, contract.h), then its lines.
 * A snapshot monitor samples at the start and at the stop only; a slow one
 * every its period parameter's seconds (a "param" line of its meta); perf's run krepro-perf until
 * the stop. The first sample is taken at once, the next ones at absolute deadlines start + k *
 * interval (missed deadlines are skipped, drift does not build up).  SIGTERM or SIGINT: one last
 * sample, then exit 0. */
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
#include "io.h"
#include "sampler.h"

#define PROG "krepro-monitor"

#define KRP_MONITOR(name, sampler) extern const struct krp_sampler sampler;
#include "monitors.def"
#undef KRP_MONITOR

struct monitor {
	const char *name;
	const struct krp_sampler *s;
	int enabled;
	int fd;
	int warned;	 /* a read failure was reported */
	long long every; /* KRP_SLOW_TICK: every Nth tick */
};

static struct monitor monitors[] = {
#define KRP_MONITOR(name, sampler) {name, &sampler, 0, -1, 0, 1},
#include "monitors.def"
#undef KRP_MONITOR
};
#define NMON (sizeof(monitors) / sizeof(monitors[0]))

static const char *pidfile;

/* krepro-perf children (perf-stat, perf-profile). */
static pid_t perf_pids[NMON];
static const char *perf_names[NMON];
static size_t nperf;

/* The monitors' parameters and their defaults (the "param" lines of
 * monitors/<family>/meta); a job's values come as KEY=VALUE words of
 * $KREPRO_MONITOR_PARAMS (initramfs/knobs.sh) or -k KEY=VALUE. */
static const struct {
	const char *key, *def;
} params[] = {
#define KRP_MONITOR(name, sampler)
#define KRP_MONITOR_PARAM(key, def) {key, def},
#include "monitors.def"
#undef KRP_MONITOR_PARAM
#undef KRP_MONITOR
    {NULL, NULL}};
#define MAX_SET 32
static const char *param_set[MAX_SET]; /* -k KEY=VALUE, in order */
static size_t nparam_set;
static long long tick_no;
static int final_sample;

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o DIR [-i SECONDS] [-m LIST] [-k KEY=VALUE] [-p PIDFILE]\n"
	      "  -o DIR      output directory (created if missing); one file per monitor\n"
	      "  -i SECONDS  sampling interval, may be fractional (default 1)\n"
	      "  -m LIST     monitors separated by ',' or '+' (the job's monitors key);\n"
	      "              'none': no monitor; known (monitors/*/meta):\n",
	      f);
	for (size_t i = 0; i < NMON; i++)
		fprintf(f, "%s%s%s", i % 6 ? " " : "              ", monitors[i].name,
			i % 6 == 5 || i + 1 == NMON ? "\n" : "");
	fputs("  -k KEY=VALUE  a monitor parameter (monitors/*/meta; also the words of\n"
	      "              $KREPRO_MONITOR_PARAMS, which -k overrides):",
	      f);
	for (size_t i = 0; params[i].key; i++)
		fprintf(f, " %s (default %s)", params[i].key, params[i].def);
	fputs("\n"
	      "  -P PROG     krepro-perf program (default krepro-perf in PATH)\n"
	      "  -p PIDFILE  write our pid there (removed on exit)\n"
	      "Samples at once and then every interval; on SIGTERM/SIGINT takes a last\n"
	      "sample and exits 0.\n",
	      f);
}

#define die_usage(...) krp_die_usage(PROG, __VA_ARGS__)

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/* One sample of one monitor, written with one write loop. */
static void sample(struct monitor *m)
{
	const struct krp_sampler *s = m->s;

	if (s->perf_mode)
		return;
	if (s->when == KRP_SLOW_TICK && !final_sample && tick_no % m->every != 0)
		return;
	if (s->when == KRP_SNAPSHOT && !final_sample && tick_no != 0)
		return;
	if (krp_sample_begin(m->name, &m->warned) < 0)
		die("out of memory");
	if (s->sample ? s->sample() < 0 : krp_sample_add_file(s->file) < 0) {
		if (!s->sample)
			krp_sample_warn(s->file);
		return; /* no half sample */
	}
	if (krp_sample_write(m->fd) < 0)
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

/* The value of monitor parameter KEY: -k's last, else the job's
 * ($KREPRO_MONITOR_PARAMS), else its meta's default ("" if none). */
static const char *param_value(const char *key)
{
	static char buf[128];
	size_t kl = strlen(key);
	const char *env = getenv("KREPRO_MONITOR_PARAMS"), *v = NULL;

	for (size_t i = 0; i < nparam_set; i++)
		if (!strncmp(param_set[i], key, kl) && param_set[i][kl] == '=')
			v = param_set[i] + kl + 1;
	if (v)
		return v;
	for (const char *p = env; p && *p;) {
		size_t n = strcspn(p, " ");

		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=' && n - kl - 1 < sizeof(buf)) {
			memcpy(buf, p + kl + 1, n - kl - 1);
			buf[n - kl - 1] = 0;
			v = buf;
		}
		p += n + (p[n] == ' ');
	}
	if (v)
		return v;
	for (size_t i = 0; params[i].key; i++)
		if (!strcmp(params[i].key, key))
			return params[i].def;
	die("no monitor parameter '%s' (monitors/*/meta)", key);
	return "";
}

static void finish(int code)
{
	perf_stop();
	for (size_t i = 0; i < NMON; i++)
		if (monitors[i].enabled && !monitors[i].s->perf_mode && close(monitors[i].fd) < 0)
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
	const char *dir = NULL, *list = NULL, *perf_prog = "krepro-perf";
	double interval = 1.0;
	long long interval_ns, start, k;
	sigset_t sigs;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:i:m:p:k:P:h", longopts, NULL)) != -1) {
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
		case 'k': {
			size_t kl = strcspn(optarg, "=");
			size_t i = 0;

			while (params[i].key &&
			       (strlen(params[i].key) != kl || strncmp(params[i].key, optarg, kl)))
				i++;
			if (!optarg[kl] || !params[i].key)
				die_usage("-k: '%s' is not KEY=VALUE of a monitor parameter",
					  optarg);
			if (nparam_set == MAX_SET)
				die_usage("-k: more than %d", MAX_SET);
			param_set[nparam_set++] = optarg;
			break;
		}
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
	if (!list) /* the default list is the key table's (lib/shared/matrix-keys) */
		die_usage("missing -m LIST (the job's monitors key)");
	enable_monitors(list);
	interval_ns = llround(interval * 1e9);
	for (size_t i = 0; i < NMON; i++) {
		const char *pv, *key = monitors[i].s->period;
		double period;
		char *end;

		if (monitors[i].s->when != KRP_SLOW_TICK || !key)
			continue;
		pv = param_value(key);
		errno = 0;
		period = strtod(pv, &end);
		if (errno || end == pv || *end || !isfinite(period) || period < 0.001 ||
		    period > 86400.0)
			die_usage("%s: bad period '%s' (0.001..86400 seconds)", key, pv);
		monitors[i].every = llround(period / interval);
		if (monitors[i].every < 1)
			monitors[i].every = 1;
	}

	for (size_t i = 0; i < NMON; i++) {
		const char *why;

		if (monitors[i].enabled && monitors[i].s->unavailable &&
		    (why = monitors[i].s->unavailable())) {
			fprintf(stderr, PROG ": warning: %s: %s; monitor disabled\n",
				monitors[i].name, why);
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
	for (size_t i = 0; i < NMON; i++) {
		char path[4096];

		if (!monitors[i].enabled)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, monitors[i].name) >=
		    (int)sizeof(path))
			die("%s: path too long", dir);
		if (monitors[i].s->perf_mode) {
			perf_start(perf_prog, monitors[i].s->perf_mode, path, monitors[i].name);
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

		if (fd < 0 || krp_write_all(fd, s, (size_t)n) < 0 || close(fd) < 0) {
			const char *p = pidfile;

			pidfile = NULL; /* do not remove what we did not write */
			die("%s: %s", p, strerror(errno));
		}
	}

	start = krp_mono_ns();
	sample_all();
	for (k = 1;; k++) {
		long long deadline = start + k * interval_ns, now = krp_mono_ns();

		if (now >= deadline) { /* sampling overran: skip missed ticks */
			k = (now - start) / interval_ns + 1;
			deadline = start + k * interval_ns;
		}
		for (;;) {
			struct timespec rel;
			int sig;

			now = krp_mono_ns();
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
