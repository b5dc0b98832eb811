/* sched_debug's guest sampler: the scheduler's debug file (debugfs, or the
 * older /proc/sched_debug), every sched_debug_interval seconds as LKP's. */
#include "sampler.h"

#define SCHED_DEBUG "/sys/kernel/debug/sched/debug"

static int sample_sched_debug(void)
{
	if (krp_sample_add_file(SCHED_DEBUG) < 0 && krp_sample_add_file("/proc/sched_debug") < 0) {
		krp_sample_warn(SCHED_DEBUG);
		return -1;
	}
	return 0;
}

const struct krp_sampler krp_sampler_sched_debug = {
    .when = KRP_SLOW_TICK, .period = "sched_debug_interval", .sample = sample_sched_debug};
