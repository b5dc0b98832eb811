/* <bench>.time: GNU "/usr/bin/time -v" output, as krepro-time writes it
 * (see parse.h). */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "textline.h"

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
			if (krp_line_is(&label, time_fields[k].label))
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
