/* Pure arithmetic of the will-it-scale runner (suites/will-it-scale/will-it-scale.c):
 * per-second sample summation, the measured average, /proc/stat idle
 * percentage and the LKP CSV block.  Header-only (static inline) so that
 * tests/unit/wis_calc_test.c can test it on the host. */
#ifndef KREPRO_WIS_CALC_H
#define KREPRO_WIS_CALC_H
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Fields of the aggregate "cpu" line of /proc/stat, in kernel order:
 * user nice system idle iowait irq softirq steal guest guest_nice. */
enum {
	WIS_CPU_USER,
	WIS_CPU_NICE,
	WIS_CPU_SYSTEM,
	WIS_CPU_IDLE,
	WIS_CPU_IOWAIT,
	WIS_CPU_IRQ,
	WIS_CPU_SOFTIRQ,
	WIS_CPU_STEAL,
	WIS_CPU_GUEST,
	WIS_CPU_GUEST_NICE,
	WIS_CPU_FIELDS
};

struct wis_cpu {
	unsigned long long field[WIS_CPU_FIELDS]; /* missing trailing fields are 0 */
	int nfields;				  /* how many the line had */
};

/* One per-second sample over all tasks. */
struct wis_sample {
	unsigned long long min, max, total;
};

/* Finds the aggregate "cpu " line in the text of /proc/stat (the first line
 * on every kernel, but any line is accepted) and parses its numbers.  Returns
 * 0, or -1 if there is no such line or it has fewer than 4 numbers. */
static inline int wis_parse_proc_stat(const char *text, struct wis_cpu *out)
{
	const char *p = text;

	memset(out, 0, sizeof(*out));
	for (;;) {
		if (strncmp(p, "cpu ", 4) == 0)
			break;
		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
	}
	p += 4;
	while (out->nfields < WIS_CPU_FIELDS) {
		unsigned long long v = 0;
		int digits = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		while (*p >= '0' && *p <= '9') {
			unsigned d = (unsigned)(*p - '0');

			if (v > (~0ULL - d) / 10)
				return -1; /* overflow */
			v = v * 10 + d;
			digits++;
			p++;
		}
		if (!digits)
			break;
		out->field[out->nfields++] = v;
	}
	return out->nfields >= 4 ? 0 : -1;
}

/* Total jiffies of a snapshot: user+nice+system+idle+iowait+irq+softirq+steal.
 * guest and guest_nice are left out because the kernel already counts them
 * in user and nice. */
static inline unsigned long long wis_cpu_total(const struct wis_cpu *c)
{
	unsigned long long t = 0;

	for (int i = WIS_CPU_USER; i <= WIS_CPU_STEAL; i++)
		t += c->field[i];
	return t;
}

static inline unsigned long long wis_cpu_idle(const struct wis_cpu *c)
{
	return c->field[WIS_CPU_IDLE] + c->field[WIS_CPU_IOWAIT];
}

/* Idle percentage between two snapshots: 100 * delta(idle+iowait) /
 * delta(total), clamped to [0, 100]; 0 if no time passed (as upstream's
 * runtest.py).  Deltas are signed because iowait may go backwards. */
static inline double wis_idle_pct(const struct wis_cpu *before, const struct wis_cpu *after)
{
	long long dt = (long long)(wis_cpu_total(after) - wis_cpu_total(before));
	long long di = (long long)(wis_cpu_idle(after) - wis_cpu_idle(before));
	double pct;

	if (dt <= 0)
		return 0.0;
	pct = 100.0 * (double)di / (double)dt;
	if (pct < 0.0)
		pct = 0.0;
	if (pct > 100.0)
		pct = 100.0;
	return pct;
}

/* Per-task deltas cur[i] - prev[i] (counters only grow; unsigned wrap is
 * harmless) summed into min/max/total.  n must be >= 1. */
static inline void wis_sample_compute(const unsigned long long *prev, const unsigned long long *cur,
				      size_t n, struct wis_sample *out)
{
	out->min = ~0ULL;
	out->max = 0;
	out->total = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned long long d = cur[i] - prev[i];

		if (d < out->min)
			out->min = d;
		if (d > out->max)
			out->max = d;
		out->total += d;
	}
	if (n == 0)
		out->min = 0;
}

/* Aggregate ops per second: sum of the measured totals / seconds (integer
 * division, as upstream). */
static inline unsigned long long wis_average(unsigned long long measured_sum, unsigned long seconds)
{
	return seconds ? measured_sum / seconds : 0;
}

/* "min:%llu max:%llu total:%llu\n"; returns snprintf's result. */
static inline int wis_format_sample(char *out, size_t outsz, const struct wis_sample *s)
{
	return snprintf(out, outsz, "min:%llu max:%llu total:%llu\n", s->min, s->max, s->total);
}

/* The LKP CSV block: header, the "0 tasks" row and one row
 * "N,<avg if process>,<idle>,<avg if thread>,<idle>,<linear>" (idle with 2
 * decimals).  linear is 0 as in LKP's one-shot nr_task mode; in a sweep
 * (lkp-tests' runtest.py) it is the 1-task average times N.  Returns
 * snprintf's result. */
static inline int wis_format_csv(char *out, size_t outsz, unsigned long nr_tasks, int threads,
				 unsigned long long average, double idle_pct,
				 unsigned long long linear)
{
	return snprintf(out, outsz,
			"tasks,processes,processes_idle,threads,threads_idle,linear\n"
			"0,0,100,0,100,0\n"
			"%lu,%llu,%.2f,%llu,%.2f,%llu\n",
			nr_tasks, threads ? 0ULL : average, idle_pct, threads ? average : 0ULL,
			idle_pct, linear);
}

/* The task counts of lkp-tests' sweep (a will-it-scale job without
 * nr_task: its lib/sysinfo.sh setup_threads_to_iterate): 1, then for each
 * node i the cores one LLC holds (L2 instances over L3 instances) and i
 * nodes' cores (CPUs / nodes / threads a core), then with 4 CPUs or more
 * 3/4 of them and all; sorted, each once, integer arithmetic.  Writes at
 * most max counts to out; returns how many, or -1 when the topology has no
 * L3 or no core a node, where lkp-tests' script stops too. */
static inline int wis_sweep_counts(unsigned long cpus, unsigned long nodes,
				   unsigned long threads_per_core, unsigned long l2,
				   unsigned long l3, unsigned long *out, int max)
{
	unsigned long want[3 + 2 * 64], per_node;
	size_t n = 0;
	int got = 0;

	if (l3 == 0 || nodes == 0 || nodes > 64 || threads_per_core == 0)
		return -1;
	per_node = cpus / nodes / threads_per_core;
	if (per_node == 0)
		return -1;
	want[n++] = 1;
	for (unsigned long i = 1; i <= nodes; i++) {
		want[n++] = l2 / l3;
		want[n++] = i * per_node;
	}
	if (cpus >= 4) {
		want[n++] = cpus * 3 / 4;
		want[n++] = cpus;
	}
	/* sort -un: insert each into the sorted output once (0 is not a count) */
	for (size_t k = 0; k < n; k++) {
		int at = 0, dup = 0;

		if (want[k] == 0)
			continue;
		while (at < got && out[at] < want[k])
			at++;
		dup = at < got && out[at] == want[k];
		if (dup)
			continue;
		if (got == max)
			return -1;
		memmove(out + at + 1, out + at, (size_t)(got - at) * sizeof(*out));
		out[at] = want[k];
		got++;
	}
	return got;
}

/* A sweep's measured seconds a count (lkp-tests' setup_params): runtime
 * over 3 + nodes iterations, halved, less the 5 warmup
 * seconds, at least 5. */
static inline unsigned long wis_sweep_seconds(unsigned long runtime, unsigned long nodes)
{
	long d = (long)(runtime / (3 + nodes) / 2) - 5;

	return d < 5 ? 5 : (unsigned long)d;
}

#endif
