/* will-it-scale's runtest CSV (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "textline.h"

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
	size_t pos = 0, rows = 0, no = 0;
	double sum_pp = 0, sum_pt = 0, workload = 0, scal = 0;
	int header = 0, any_proc = 0, any_thr = 0, have_scal = 0;
	struct krp_line l;
	char key[64];

	while (krp_next_line(buf, len, &pos, &l)) {
		double v[6];

		no++;
		krp_trim(&l);
		if (krp_line_is(&l, WIS_HEADER)) {
			header = 1;
			continue;
		}
		if (!header || split_csv6(&l, v) != 0)
			continue;
		double tasks = v[0], procs = v[1], threads = v[3], linear = v[5];
		/* Operations counted in a second: never below 0 in a real run. */
		if (procs < 0 || threads < 0 || linear < 0) {
			krp_metrics_refuse(m, no,
					   "a negative operation count (processes, threads or "
					   "linear): no real run of will-it-scale writes one");
			return;
		}
		if (tasks <= 0 || tasks > WIS_MAX_TASKS || tasks != floor(tasks))
			continue;
		if (procs == 0 && threads == 0)
			continue;
		/* LKP's parser: the mean of the rows' quotients, truncated
		 * once at the end (printf "%d"): 1200363/104 -> 11541 */
		sum_pp += procs / tasks;
		sum_pt += threads / tasks;
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
		if (linear != 0) { /* a sweep's rows (lkp-tests' runtest.py) */
			snprintf(key, sizeof(key), "%.0f.linear", tasks);
			krp_metric_add2(m, prefix, key, strlen(key), linear, KRP_SET);
		}
		/* the last row past 1 task: processes over linear (0 in thread
		 * mode, which LKP's dump-stat then drops as all zero) */
		if (tasks != 1 && linear != 0 && procs != 0) {
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
