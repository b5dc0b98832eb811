/* The one table of raw files (see parsers.h): file name -> parser.  The
 * parsers live with what they parse, suites/<name>/parse.c and
 * monitors/<name>/parse.c. */
#include "parsers.h"

#include <string.h>

#include "dmesg.h"

/* kmsg's parser also counts what it found; the table needs none of that. */
static void parse_kmsg(const char *buf, size_t len, struct krp_metrics *m)
{
	krp_parse_dmesg(buf, len, m);
}

/* Each file has one parser: plain, or named (it takes the file's name as its
 * metric prefix). */
static const struct raw_file {
	const char *file;
	void (*parse)(const char *buf, size_t len, struct krp_metrics *m);
	void (*named)(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);
} raw_files[] = {
    /* suites/ */
    {"will-it-scale", NULL, krp_parse_will_it_scale},
    {"vm-scalability", NULL, krp_parse_vm_scalability},
    {"unixbench", NULL, krp_parse_unixbench},
    {"autonuma-benchmark", NULL, krp_parse_autonuma},
    {"specjbb", NULL, krp_parse_specjbb},
    {"hackbench", NULL, krp_parse_hackbench},
    /* monitors/ */
    {"meminfo", krp_parse_meminfo, NULL},
    {"numa-meminfo", krp_parse_numa_meminfo, NULL},
    {"proc-vmstat", krp_parse_proc_vmstat, NULL},
    {"numa-vmstat", krp_parse_numa_vmstat, NULL},
    {"vmstat", NULL, krp_parse_kv_mean},
    {"mpstat", NULL, krp_parse_kv_mean},
    {"slabinfo", krp_parse_slabinfo, NULL},
    {"softirqs", krp_parse_softirqs, NULL},
    {"interrupts", krp_parse_interrupts, NULL},
    {"cpuidle", krp_parse_cpuidle, NULL},
    {"uptime", krp_parse_uptime, NULL},
    {"sched_debug", krp_parse_sched_debug, NULL},
    {"perf-stat", krp_parse_perf_stat, NULL},
    {"perf-profile", krp_parse_perf_profile, NULL},
    /* the kernel's log */
    {"kmsg", parse_kmsg, NULL},
};

static const struct raw_file *raw_file(const char *filename)
{
	for (size_t i = 0; i < sizeof(raw_files) / sizeof(raw_files[0]); i++)
		if (strcmp(filename, raw_files[i].file) == 0)
			return &raw_files[i];
	return NULL;
}

/* Bench name of "<bench>.time" (monitors/time) into bench (size
 * KRP_METRIC_NAME_MAX+1). */
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

	return raw_file(filename) || time_bench(filename, bench) == 0;
}

int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m)
{
	const struct raw_file *f = raw_file(filename);
	char bench[KRP_METRIC_NAME_MAX + 1];

	if (f && f->parse)
		f->parse(buf, len, m);
	else if (f)
		f->named(buf, len, filename, m);
	else if (time_bench(filename, bench) == 0)
		krp_parse_time(buf, len, bench, m);
	else
		return 0;
	return 1;
}
