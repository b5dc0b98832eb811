/* lkp-tests' names krepro-lkpjob knows besides the suites' meta lines
 * (part of lkpjob.c, included once): the kit's keys under lkp's names, the
 * keys of a job file that do not apply and why, lkp's monitors the kit does
 * not have.  Data only: lkpjob.c reads them. */
#ifndef KREPRO_LKPJOB_NAMES_H
#define KREPRO_LKPJOB_NAMES_H

/* lkp parameters the kit's own keys (lib/shared/matrix-keys) take under another
 * name; a suite's parameters have theirs in its meta. */
static const struct {
	const char *lkp, *kit;
} key_renames[] = {
    {"thp_enabled", "thp"},
};

/* Keys that look like the kit's but mean something else in a job file, and
 * keys worth a specific reason; everything else unknown gets the generic one. */
static const struct {
	const char *key, *why;
} not_applicable[] = {
    {"cpufreq_governor", "not applicable under QEMU (the guest has no frequency governor to set)"},
    {"memory", "describes the test machine; the board sets the guest's memory"},
    {"nr_cpu", "describes the test machine; the board sets the guest's CPUs"},
    {"nr_node", "describes the test machine; the board sets the guest's nodes"},
    {"model", "describes the test machine"},
    {"testbox", "names the test machine; the kit boots the board"},
    {"tbox_group", "names the test machine; the kit boots the board"},
    {"kconfig", "the kit builds its own config (configs/)"},
    {"commit", "the kit builds its variants from patches/ on the pinned reference"},
    {"compiler", "the kit builds with the host's gcc (recorded in each manifest)"},
    {"rootfs", "the kit boots its own initramfs"},
    {"thp_defrag", "the kit sets transparent_hugepage/enabled only (thp)"},
    {"iterations", "lkp's repeat count; the kit's is runs"},
};

/* The kit's monitors: krepro-monitor's table, from the monitors' meta files. */
static const char *const kit_monitors[] = {
#define KRP_MONITOR(name, sampler) name,
#include "monitors.def"
#undef KRP_MONITOR
};

/* lkp-tests' other monitors: noted as ones the kit does not have, not as
 * unknown keys.  The kit's list is asked first, so a monitor the kit gains
 * (buddyinfo) may stay here. */
static const char *const lkp_monitors[] = {
    "turbostat",    "perf-c2c",	     "perf-sched", "pmeter",	"numa-numastat", "diskstats",
    "iostat",	    "latency_stats", "lock_stat",  "proc-stat", "buddyinfo",	 "zoneinfo",
    "pagetypeinfo", "kmsg",	     "heartbeat",  "boot-time", "oom-killer",	 "tail",
    "meminfo_lkp",  "ftrace",	     "energy",	   "watchdog",	"cpufreq-stats"};

#endif
