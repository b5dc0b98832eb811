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
 * "N,<avg if process>,<idle>,<avg if thread>,<idle>,0" (idle with 2
 * decimals, linear 0 as in LKP's one-shot nr_task mode).  Returns
 * snprintf's result. */
static inline int wis_format_csv(char *out, size_t outsz, unsigned long nr_tasks, int threads,
				 unsigned long long average, double idle_pct)
{
	return snprintf(out, outsz,
			"tasks,processes,processes_idle,threads,threads_idle,linear\n"
			"0,0,100,0,100,0\n"
			"%lu,%llu,%.2f,%llu,%.2f,0\n",
			nr_tasks, threads ? 0ULL : average, idle_pct, threads ? average : 0ULL,
			idle_pct);
}

#endif
