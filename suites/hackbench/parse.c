/* hackbench: KB/s of messages passed (see parse.h). */
#include "parse.h"

#include <math.h>
#include <string.h>

#include "textline.h"

/* Beyond these a line is not hackbench's (its own limits are lower). */
#define HB_MAX_TASKS 1e7
#define HB_MAX_COUNT 1e12

/* "Running in ... mode with G groups using F file descriptors each (== T
 * tasks)" -> T. */
static int tasks_of(struct krp_line l, double *t)
{
	if (!krp_line_eat(&l, "Running in "))
		return -1;
	while (l.n && !krp_line_starts(&l, "(== ")) {
		l.p++;
		l.n--;
	}
	if (!krp_line_eat(&l, "(== ") || krp_line_eat_number(&l, t) != 0 ||
	    !krp_line_is(&l, " tasks)"))
		return -1;
	return *t >= 1 && *t <= HB_MAX_TASKS && *t == floor(*t) ? 0 : -1;
}

/* "Each sender will pass L messages of S bytes" (or "passed ... in
 * average") -> L, S. */
static int messages_of(struct krp_line l, double *msgs, double *bytes)
{
	if (!krp_line_eat(&l, "Each sender will pass ") && !krp_line_eat(&l, "Each sender passed "))
		return -1;
	if (krp_line_eat_number(&l, msgs) != 0 || !krp_line_eat(&l, " messages of ") ||
	    krp_line_eat_number(&l, bytes) != 0 || !krp_line_starts(&l, " bytes"))
		return -1;
	return *msgs >= 1 && *msgs <= HB_MAX_COUNT && *bytes >= 1 && *bytes <= HB_MAX_COUNT &&
		       *msgs == floor(*msgs) && *bytes == floor(*bytes)
		   ? 0
		   : -1;
}

void krp_parse_hackbench(const char *buf, size_t len, const char *prefix, struct krp_metrics *m)
{
	struct krp_line l;
	size_t pos = 0, rounds = 0;
	double tasks = 0, msgs = 0, bytes = 0, best = 0, worst = 0, sum = 0, t, a, b;

	while (krp_next_line(buf, len, &pos, &l)) {
		krp_trim(&l);
		if (tasks_of(l, &t) == 0)
			tasks = t;
		else if (messages_of(l, &a, &b) == 0) {
			msgs = a;
			bytes = b;
		} else if (krp_line_key_value(&l, "Time", &t) == 0 && t > 0 && isfinite(t)) {
			best = rounds && best < t ? best : t;
			worst = rounds && worst > t ? worst : t;
			sum += t;
			rounds++;
		}
	}
	if (!rounds || !tasks || !msgs)
		return;
	/* lkp-tests: an integer count of KB, divided by seconds. */
	double kb = floor(tasks * msgs * bytes / 1024);

	krp_metric_add2(m, prefix, "throughput", 10, kb / best, KRP_SET);
	krp_metric_add2(m, prefix, "throughput_best", 15, kb / best, KRP_SET);
	krp_metric_add2(m, prefix, "throughput_avg", 14,
			round(kb / (sum / (double)rounds) * 100) / 100, KRP_SET);
	krp_metric_add2(m, prefix, "throughput_worst", 16, kb / worst, KRP_SET);
}
