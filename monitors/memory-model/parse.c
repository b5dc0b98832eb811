/* memory-model: the QEMU plugin's report (see parse.h). */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "acc.h"
#include "model_format.h"
#include "textline.h"
#include "util.h"

#define MM_MAX_CPUS 1024

enum {
	MM_EVENT_ENUM_FIRST = -1,
#define MM_EVENT_ENUM(e, name, metric) MM_##e,
	KRP_MODEL_EVENTS(MM_EVENT_ENUM)
#undef MM_EVENT_ENUM
	    MM_NEVENTS
};

static const char *const mm_report_name[MM_NEVENTS] = {
#define MM_EVENT_NAME(e, name, metric) name,
    KRP_MODEL_EVENTS(MM_EVENT_NAME)
#undef MM_EVENT_NAME
};
static const char *const mm_metric_name[MM_NEVENTS] = {
#define MM_EVENT_METRIC(e, name, metric) metric,
    KRP_MODEL_EVENTS(MM_EVENT_METRIC)
#undef MM_EVENT_METRIC
};

static void mm_add(struct krp_metrics *m, const char *a, const char *b, double v)
{
	char name[KRP_METRIC_NAME_MAX + 1];

	snprintf(name, sizeof(name), "model-stat.%s%s", a, b);
	krp_metric_add(m, name, v, KRP_SET);
}

static void mm_ratio(struct krp_metrics *m, const char *name, const char *mode, double x, double y,
		     double scale)
{
	if (y > 0)
		mm_add(m, name, mode, x / y * scale);
}

/* A profile address: 0x and 1 to 16 lower-case hex digits. */
static int mm_pc_ok(const struct krp_line *t)
{
	if (t->n < 3 || t->n > 18 || t->p[0] != '0' || t->p[1] != 'x')
		return 0;
	for (size_t i = 2; i < t->n; i++)
		if (!((t->p[i] >= '0' && t->p[i] <= '9') || (t->p[i] >= 'a' && t->p[i] <= 'f')))
			return 0;
	return 1;
}

/* The profile's rows as perf-profile's (% of the window's total, at least
 * MM_MIN_PERCENT, clone suffixes stripped), so that they compare between
 * variants whatever the run's length: per function, the sums over its
 * PCs of stall cycles (% of all model cycles), LLC misses (% of all) and
 * coherence transfers (% of all). */
#define MM_MIN_PERCENT 0.05
#define MM_SYM 128
static const char *const mm_prof_what[3] = {"cycles", "cache-misses", "coherence-transfers"};

/* One profile line's function: its name (suffixes stripped), "[unknown]",
 * or its address when the report is unsymbolised ("-" or no name);
 * 0 for a user PC ("[user]": the user row comes from the counters). */
static int mm_function(const struct krp_line *pc, const struct krp_line *fn, char *out)
{
	if (fn && krp_line_is(fn, "[user]"))
		return 0;
	if (!fn || krp_line_is(fn, "-")) {
		memcpy(out, pc->p, pc->n);
		out[pc->n] = '\0';
		return 1;
	}
	if (fn->n == 0 || fn->n >= MM_SYM || memchr(fn->p, '\0', fn->n))
		return 0;
	memcpy(out, fn->p, fn->n);
	out[fn->n] = '\0';
	krp_strip_sym_suffix(out);
	return 1;
}

static void mm_prof_add(struct krp_acc *a, const char *fn, const double v[3])
{
	char key[MM_SYM + 32];

	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s.%s", mm_prof_what[i], fn);
		krp_acc_add(a, key, v[i]);
	}
}

/* model-stat.seconds: the window in model time, the mean cycles of its
 * busy vCPUs (a quarter of an even share of the instructions or more)
 * at the model's clock.  Each vCPU runs on its own clock, side by side;
 * the mean, not the busiest, because how the emulator shared the
 * instructions between vCPUs varies from seed to seed: the busiest would
 * measure that, the mean the cycles an instruction costs. */
static void mm_seconds(struct krp_metrics *m, const double *cycles, const double *insns,
		       double freq)
{
	double total = 0, busy = 0, n = 0;
	int used = 0;

	for (int i = 0; i < MM_MAX_CPUS; i++)
		if (insns[i] > 0) {
			total += insns[i];
			used = i + 1;
		}
	for (int i = 0; i < used; i++)
		if (insns[i] > 0 && insns[i] * 4 * used >= total) {
			busy += cycles[i];
			n++;
		}
	if (n > 0)
		krp_metric_add(m, "model-stat.seconds", busy / n / (freq * 1e6), KRP_SET);
}

/* 1 if buf is a whole report: its header first, "end" last. */
static int mm_complete(const char *buf, size_t len)
{
	size_t hl = strlen(KRP_MODEL_HEADER), end = len;

	if (len < hl + 1 || memcmp(buf, KRP_MODEL_HEADER, hl) != 0 || buf[hl] != '\n')
		return 0;
	while (end > 0 && buf[end - 1] == '\n')
		end--;
	return end >= 4 && memcmp(buf + end - 4, "\nend", 4) == 0;
}

/* The rows: each function's share, and the user/kernel split from the
 * counters (every access, not only the listed PCs). */
/* NAME, a node miss rate: MISSES over XS + MISSES (the two are disjoint:
 * local and remote), no row when XS is 0 (lkp-tests' stats/perf-stat). */
static void mm_node_miss_rate(struct krp_metrics *m, const char *name, double sum[2][MM_NEVENTS],
			      int xs, int misses)
{
	double x = sum[0][xs] + sum[1][xs], mi = sum[0][misses] + sum[1][misses];

	if (x > 0)
		mm_ratio(m, name, "", mi, x + mi, 100);
}

static void mm_profile_rows(struct krp_metrics *m, struct krp_acc *prof, double sum[2][MM_NEVENTS])
{
	static const int ev[3] = {MM_STALL_CYCLES, MM_LLC_MISSES, MM_COHERENCE};
	double total[3] = {sum[0][MM_CYCLES] + sum[1][MM_CYCLES],
			   sum[0][MM_LLC_MISSES] + sum[1][MM_LLC_MISSES],
			   sum[0][MM_COHERENCE] + sum[1][MM_COHERENCE]};
	char name[KRP_METRIC_NAME_MAX + 1];

	for (size_t k = 0; k < prof->n; k++) {
		const char *dot = strchr(prof->names[k], '.');
		int i = 0;

		while (i < 2 && strncmp(prof->names[k], mm_prof_what[i],
					(size_t)(dot - prof->names[k])) != 0)
			i++;
		if (total[i] > 0 && prof->v[k].sum / total[i] * 100 >= MM_MIN_PERCENT)
			krp_metric_add2(m, "model-profile", prof->names[k], strlen(prof->names[k]),
					prof->v[k].sum / total[i] * 100, KRP_SET);
	}
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 2 && total[i] > 0; k++) {
			snprintf(name, sizeof(name), "model-profile.%s.%s", mm_prof_what[i],
				 k ? "[kernel]" : "[user]");
			krp_metric_add(m, name, sum[k][ev[i]] / total[i] * 100, KRP_SET);
		}
}

void krp_parse_memory_model(const char *buf, size_t len, struct krp_metrics *m)
{
	static const char *const mode[2] = {".user", ".kernel"};
	double sum[2][MM_NEVENTS] = {{0}}, cpu_cycles[MM_MAX_CPUS] = {0},
	       cpu_insns[MM_MAX_CPUS] = {0}, freq = 0, windows = 0, forced = 0;
	size_t pos = 0;
	struct krp_line l, t[10];
	struct krp_acc prof = {0};
	char fn[MM_SYM];
	int have_windows = 0, have_forced = 0;

	if (!mm_complete(buf, len))
		return;
	while (krp_next_line(buf, len, &pos, &l)) {
		size_t n = krp_line_tokens(&l, t, 10);
		double v, cpu, pv[3];
		int sym = n == 9; /* "pc 0xADDR FUNCTION cycles ...", else unsymbolised */

		if (n == 5 && krp_line_is(&t[0], "cpu") && krp_line_num(&t[1], &cpu) == 0 &&
		    cpu >= 0 && cpu < MM_MAX_CPUS && cpu == (double)(int)cpu &&
		    (krp_line_is(&t[2], "user") || krp_line_is(&t[2], "kernel")) &&
		    krp_line_num(&t[4], &v) == 0 && v >= 0) {
			int k = krp_line_is(&t[2], "kernel");

			for (int e = 0; e < MM_NEVENTS; e++)
				if (krp_line_is(&t[3], mm_report_name[e])) {
					sum[k][e] += v;
					if (e == MM_CYCLES)
						cpu_cycles[(int)cpu] += v;
					else if (e == MM_INSTRUCTIONS)
						cpu_insns[(int)cpu] += v;
				}
		} else if ((n == 8 || n == 9) && krp_line_is(&t[0], "pc") && mm_pc_ok(&t[1]) &&
			   krp_line_is(&t[2 + sym], "cycles") &&
			   krp_line_num(&t[3 + sym], &pv[0]) == 0 &&
			   krp_line_is(&t[4 + sym], "misses") &&
			   krp_line_num(&t[5 + sym], &pv[1]) == 0 &&
			   krp_line_is(&t[6 + sym], "coherence") &&
			   krp_line_num(&t[7 + sym], &pv[2]) == 0) {
			if (mm_function(&t[1], sym ? &t[2] : NULL, fn))
				mm_prof_add(&prof, fn, pv);
		} else if (n == 7 && krp_line_is(&t[0], "pc-other") &&
			   krp_line_is(&t[1], "cycles") && krp_line_num(&t[2], &pv[0]) == 0 &&
			   krp_line_is(&t[3], "misses") && krp_line_num(&t[4], &pv[1]) == 0 &&
			   krp_line_is(&t[5], "coherence") && krp_line_num(&t[6], &pv[2]) == 0) {
			mm_prof_add(&prof, "[other]", pv);
		} else if (n == 2 && krp_line_is(&t[0], "windows") &&
			   krp_line_num(&t[1], &v) == 0) {
			windows = v;
			have_windows = 1;
		} else if (n == 2 && krp_line_is(&t[0], "forced-merges") &&
			   krp_line_num(&t[1], &v) == 0 && v >= 0) {
			forced = v;
			have_forced = 1;
		} else if (n == 3 && krp_line_is(&t[0], "config") &&
			   krp_line_is(&t[1], "freq-mhz") && krp_line_num(&t[2], &v) == 0 &&
			   v > 0) {
			freq = v;
		}
	}
	if (have_windows)
		krp_metric_add(m, "model-stat.windows", windows, KRP_SET);
	if (have_forced)
		krp_metric_add(m, "model-stat.forced-merges", forced, KRP_SET);
	for (int e = 0; e < MM_NEVENTS; e++) {
		mm_add(m, mm_metric_name[e], "", sum[0][e] + sum[1][e]);
		for (int k = 0; k < 2; k++)
			mm_add(m, mm_metric_name[e], mode[k], sum[k][e]);
	}
	for (int k = 0; k < 3; k++) {
		double ins = k < 2 ? sum[k][MM_INSTRUCTIONS]
				   : sum[0][MM_INSTRUCTIONS] + sum[1][MM_INSTRUCTIONS];
		double cyc = k < 2 ? sum[k][MM_CYCLES] : sum[0][MM_CYCLES] + sum[1][MM_CYCLES];
		const char *md = k < 2 ? mode[k] : "";

		mm_ratio(m, "ipc", md, ins, cyc, 1);
		mm_ratio(m, "cpi", md, cyc, ins, 1);
	}
	/* lkp-tests' stats/perf-stat: X-miss-rate% is X-misses over Xs +
	 * X-misses when Xs is not 0 (the node rows), else over X-references
	 * (cache-misses) */
	mm_ratio(m, "cache-miss-rate%", "", sum[0][MM_LLC_MISSES] + sum[1][MM_LLC_MISSES],
		 sum[0][MM_LLC_REFERENCES] + sum[1][MM_LLC_REFERENCES], 100);
	mm_node_miss_rate(m, "node-load-miss-rate%", sum, MM_NODE_LOADS, MM_NODE_LOAD_MISSES);
	mm_node_miss_rate(m, "node-store-miss-rate%", sum, MM_NODE_STORES, MM_NODE_STORE_MISSES);
	if (freq > 0)
		mm_seconds(m, cpu_cycles, cpu_insns, freq);
	mm_profile_rows(m, &prof, sum);
	krp_acc_clear(&prof);
}
