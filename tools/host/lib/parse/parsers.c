/* Raw-output parsers (see parsers.h). */
#include "dmesg.h"
#include "parsers.h"

#include "parse_bench.h"
#include "parse_monitors.h"
#include "textline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int line_is(const struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n == n && memcmp(l->p, s, n) == 0;
}

static int starts_with(const struct krp_line *l, const char *s)
{
	size_t n = strlen(s);

	return l->n >= n && memcmp(l->p, s, n) == 0;
}

/* ---- will-it-scale ---------------------------------------------------- */

#define WIS_HEADER "tasks,processes,processes_idle,threads,threads_idle,linear"
#define WIS_MAX_TASKS 1000000.0

static int split_csv6(const struct krp_line *l, double v[6])
{
	size_t i = 0, f = 0;

	while (f < 6) {
		size_t s = i;

		while (i < l->n && l->p[i] != ',')
			i++;
		struct krp_line fld = {l->p + s, i - s};
		krp_trim(&fld);
		if (krp_parse_number(fld.p, fld.n, &v[f]) != 0)
			return -1;
		f++;
		if (i == l->n)
			break;
		i++; /* skip ',' */
	}
	return (f == 6 && i == l->n) ? 0 : -1;
}

void krp_parse_will_it_scale(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	size_t pos = 0, rows = 0;
	double sum_pp = 0, sum_pt = 0, workload = 0, scal = 0;
	int header = 0, any_proc = 0, any_thr = 0, have_scal = 0;
	struct krp_line l;
	char key[64];

	while (krp_next_line(buf, len, &pos, &l)) {
		double v[6];

		krp_trim(&l);
		if (line_is(&l, WIS_HEADER)) {
			header = 1;
			continue;
		}
		if (!header || split_csv6(&l, v) != 0)
			continue;
		double tasks = v[0], procs = v[1], threads = v[3], linear = v[5];
		if (tasks <= 0 || tasks > WIS_MAX_TASKS || tasks != floor(tasks))
			continue;
		if (procs == 0 && threads == 0)
			continue;
		/* Integer arithmetic as in LKP's parser: 1200363/104 -> 11541. */
		sum_pp += trunc(procs / tasks);
		sum_pt += trunc(threads / tasks);
		workload += procs + threads;
		rows++;
		if (procs != 0) {
			any_proc = 1;
			snprintf(key, sizeof(key), "%.0f.processes", tasks);
			krp_metric_add2(m, prefix, key, strlen(key), procs, KRP_SET);
			snprintf(key, sizeof(key), "%.0f.processes_idle", tasks);
			krp_metric_add2(m, prefix, key, strlen(key), v[2], KRP_SET);
		}
		if (threads != 0) {
			any_thr = 1;
			snprintf(key, sizeof(key), "%.0f.threads", tasks);
			krp_metric_add2(m, prefix, key, strlen(key), threads, KRP_SET);
			snprintf(key, sizeof(key), "%.0f.threads_idle", tasks);
			krp_metric_add2(m, prefix, key, strlen(key), v[4], KRP_SET);
		}
		if (tasks != 1 && linear != 0) {
			scal = procs / linear;
			have_scal = 1;
		}
	}
	if (rows == 0)
		return;
	if (any_proc)
		krp_metric_add2(m, prefix, "per_process_ops", 15, trunc(sum_pp / (double)rows),
				KRP_SET);
	if (any_thr)
		krp_metric_add2(m, prefix, "per_thread_ops", 14, trunc(sum_pt / (double)rows),
				KRP_SET);
	krp_metric_add2(m, prefix, "workload", 8, workload, KRP_SET);
	if (have_scal)
		krp_metric_add2(m, prefix, "scalability", 11, scal, KRP_SET);
}

/* ---- meminfo ---------------------------------------------------------- */

struct mem_sample {
	int have_total, have_free, have_max;
	double total, free, max_used; /* max_used: over every sample so far */
};

/* LKP's arithmetic: each sample reports the largest Memused seen so far, and
 * like every gauge max_used_kB is the mean over samples (of that running
 * maximum), not the maximum itself. */
static void mem_flush(struct mem_sample *s, struct krp_metrics *m)
{
	if (s->have_total && s->have_free) {
		double used = s->total - s->free;

		if (!s->have_max || used > s->max_used)
			s->max_used = used;
		s->have_max = 1;
		krp_metric_add(m, "meminfo.Memused", used, KRP_MEAN);
		krp_metric_add(m, "meminfo.max_used_kB", s->max_used, KRP_MEAN);
	}
	s->have_total = s->have_free = 0;
}

/* "Key:   123 kB" or "Key: 123" -> key, value. */
static int split_meminfo(const struct krp_line *l, struct krp_line *key, double *v)
{
	const char *colon = memchr(l->p, ':', l->n);
	struct krp_line val;

	if (!colon)
		return -1;
	key->p = l->p;
	key->n = (size_t)(colon - l->p);
	if (key->n == 0)
		return -1;
	for (size_t i = 0; i < key->n; i++) {
		if (krp_is_space(key->p[i]))
			return -1;
	}
	val.p = colon + 1;
	val.n = l->n - key->n - 1;
	krp_trim(&val);
	if (val.n > 2 && memcmp(val.p + val.n - 2, "kB", 2) == 0 &&
	    krp_is_space(val.p[val.n - 3])) {
		val.n -= 2;
		krp_trim(&val);
	}
	return krp_parse_number(val.p, val.n, v);
}

void krp_parse_meminfo(const char *buf, size_t len, struct krp_metrics *m)
{
	struct mem_sample s = {0};
	size_t pos = 0;
	struct krp_line l, key;
	double v;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		if (starts_with(&l, "time:")) {
			mem_flush(&s, m);
			continue;
		}
		if (split_meminfo(&l, &key, &v) != 0)
			continue;
		if (krp_metric_add2(m, "meminfo", key.p, key.n, v, KRP_MEAN) != 0)
			continue;
		if (key.n == 8 && memcmp(key.p, "MemTotal", 8) == 0) {
			s.have_total = 1;
			s.total = v;
		} else if (key.n == 7 && memcmp(key.p, "MemFree", 7) == 0) {
			s.have_free = 1;
			s.free = v;
		}
	}
	mem_flush(&s, m);
}

/* ---- proc-vmstat ------------------------------------------------------ */

/* Cumulative event counters in /proc/vmstat (reduced last - first); every
 * other field is a gauge (reduced by mean).  The one place this list lives. */
static const char *const vmstat_counter_prefixes[] = {
    "pg",      "numa_",		"thp_",	   "compact_",	       "allocstall", "pgsteal",
    "pgscan",  "slabs_scanned", "kswapd",  "unevictable_pgs_", "htlb_",	     "balloon_",
    "swap_ra", "workingset_",	"nr_tlb_", "oom_kill",	       "drop_",	     "zone_reclaim",
};
static const char *const vmstat_counter_suffixes[] = {"_fault", "_faults"};

int krp_vmstat_is_counter(const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i < sizeof(vmstat_counter_prefixes) / sizeof(vmstat_counter_prefixes[0]); i++) {
		const char *p = vmstat_counter_prefixes[i];

		if (strncmp(name, p, strlen(p)) == 0)
			return 1;
	}
	for (i = 0; i < sizeof(vmstat_counter_suffixes) / sizeof(vmstat_counter_suffixes[0]); i++) {
		size_t sl = strlen(vmstat_counter_suffixes[i]);

		if (n > sl && strcmp(name + n - sl, vmstat_counter_suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

void krp_parse_proc_vmstat(const char *buf, size_t len, struct krp_metrics *m)
{
	size_t pos = 0;
	struct krp_line l;

	while (krp_next_line(buf, len, &pos, &l)) {
		size_t i = 0;
		char name[KRP_METRIC_NAME_MAX + 1];
		double v;

		krp_trim(&l);
		if (starts_with(&l, "time:"))
			continue;
		while (i < l.n && !krp_is_space(l.p[i]))
			i++;
		if (i == 0 || i == l.n || i > KRP_METRIC_NAME_MAX)
			continue;
		struct krp_line val = {l.p + i, l.n - i};
		krp_trim(&val);
		if (krp_parse_number(val.p, val.n, &v) != 0)
			continue;
		if (memchr(l.p, '\0', i))
			continue;
		memcpy(name, l.p, i);
		name[i] = '\0';
		krp_metric_add2(m, "proc-vmstat", name, i, v,
				krp_vmstat_is_counter(name) ? KRP_DELTA : KRP_MEAN);
	}
}

/* ---- /usr/bin/time -v ------------------------------------------------- */

/* Metric names are lkp-tests' (programs/time/parse): GNU time's labels in
 * lower case with '_', Maximum resident set size as
 * maximum_resident_set_size, and elapsed_time.max beside elapsed_time. */

enum time_kind { TV_NUM, TV_PERCENT, TV_CLOCK };

static const struct {
	const char *label;
	const char *metric;
	enum time_kind kind;
} time_fields[] = {
    {"User time (seconds)", "user_time", TV_NUM},
    {"System time (seconds)", "system_time", TV_NUM},
    {"Percent of CPU this job got", "percent_of_cpu_this_job_got", TV_PERCENT},
    {"Elapsed (wall clock) time (h:mm:ss or m:ss)", "elapsed_time", TV_CLOCK},
    {"Maximum resident set size (kbytes)", "maximum_resident_set_size", TV_NUM},
    {"Major (requiring I/O) page faults", "major_page_faults", TV_NUM},
    {"Minor (reclaiming a frame) page faults", "minor_page_faults", TV_NUM},
    {"Voluntary context switches", "voluntary_context_switches", TV_NUM},
    {"Involuntary context switches", "involuntary_context_switches", TV_NUM},
    {"File system inputs", "file_system_inputs", TV_NUM},
    {"File system outputs", "file_system_outputs", TV_NUM},
    {"Exit status", "exit_status", TV_NUM},
};

/* "h:mm:ss", "m:ss" or "m:ss.frac" (or plain seconds) -> seconds. */
static int parse_clock(const char *p, size_t n, double *out)
{
	double parts[3], total = 0;
	size_t np = 0, i = 0;

	while (np < 3) {
		size_t s = i;

		while (i < n && p[i] != ':')
			i++;
		if (krp_parse_number(p + s, i - s, &parts[np]) != 0 || parts[np] < 0)
			return -1;
		np++;
		if (i == n)
			break;
		i++;
	}
	if (i != n)
		return -1;
	for (i = 0; i < np; i++) {
		if (i + 1 < np && parts[i] != floor(parts[i]))
			return -1;
		total = total * 60 + parts[i];
	}
	*out = total;
	return 0;
}

void krp_parse_time(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	char pfx[KRP_METRIC_NAME_MAX + 1];
	size_t pos = 0;
	struct krp_line l;

	if (snprintf(pfx, sizeof(pfx), "%s.time", prefix) >= (int)sizeof(pfx))
		return;
	while (krp_next_line(buf, len, &pos, &l)) {
		const char *sep = NULL;
		size_t i, k;
		double v;

		krp_trim(&l);
		for (i = 0; i + 1 < l.n; i++) {
			if (l.p[i] == ':' && l.p[i + 1] == ' ')
				sep = l.p + i;
		}
		if (!sep)
			continue;
		struct krp_line label = {l.p, (size_t)(sep - l.p)};
		struct krp_line val = {sep + 2, l.n - label.n - 2};
		krp_trim(&val);
		for (k = 0; k < sizeof(time_fields) / sizeof(time_fields[0]); k++) {
			if (line_is(&label, time_fields[k].label))
				break;
		}
		if (k == sizeof(time_fields) / sizeof(time_fields[0]))
			continue;
		switch (time_fields[k].kind) {
		case TV_PERCENT:
			if (val.n == 0 || val.p[val.n - 1] != '%')
				continue;
			if (krp_parse_number(val.p, val.n - 1, &v) != 0)
				continue;
			break;
		case TV_CLOCK:
			if (parse_clock(val.p, val.n, &v) != 0)
				continue;
			break;
		case TV_NUM:
		default:
			if (krp_parse_number(val.p, val.n, &v) != 0)
				continue;
			break;
		}
		krp_metric_add2(m, pfx, time_fields[k].metric, strlen(time_fields[k].metric), v,
				KRP_SET);
		/* lkp-tests' time parser also reports the longest elapsed
		 * time (one command here: the same value). */
		if (time_fields[k].kind == TV_CLOCK)
			krp_metric_add2(m, pfx, "elapsed_time.max", 16, v, KRP_MAX);
	}
}

/* ---- dispatch --------------------------------------------------------- */

/* Bench name of "<bench>.time" into bench (size KRP_METRIC_NAME_MAX+1). */
static int time_bench(const char *filename, char *bench)
{
	size_t n = strlen(filename);

	if (n <= 5 || strcmp(filename + n - 5, ".time") != 0 || n - 5 > KRP_METRIC_NAME_MAX)
		return -1;
	memcpy(bench, filename, n - 5);
	bench[n - 5] = '\0';
	return krp_metric_name_ok(bench) ? 0 : -1;
}

int krp_raw_known(const char *filename)
{
	char bench[KRP_METRIC_NAME_MAX + 1];

	return strcmp(filename, "will-it-scale") == 0 || strcmp(filename, "meminfo") == 0 ||
	       strcmp(filename, "kmsg") == 0 || strcmp(filename, "proc-vmstat") == 0 ||
	       krp_monitor_known(filename) || krp_bench_known(filename) ||
	       time_bench(filename, bench) == 0;
}

int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m)
{
	char bench[KRP_METRIC_NAME_MAX + 1];

	if (strcmp(filename, "will-it-scale") == 0)
		krp_parse_will_it_scale(buf, len, filename, m);
	else if (strcmp(filename, "meminfo") == 0)
		krp_parse_meminfo(buf, len, m);
	else if (strcmp(filename, "proc-vmstat") == 0)
		krp_parse_proc_vmstat(buf, len, m);
	else if (strcmp(filename, "kmsg") == 0)
		krp_parse_dmesg(buf, len, m);
	else if (krp_parse_monitor(filename, buf, len, m))
		;
	else if (krp_parse_bench(filename, buf, len, m))
		;
	else if (time_bench(filename, bench) == 0)
		krp_parse_time(buf, len, bench, m);
	else
		return 0;
	return 1;
}
