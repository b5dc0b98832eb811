/* proc-vmstat's guest samplers: /proc/vmstat, and every NUMA node's vmstat
 * after a "node: N" line. */
#include "sampler.h"

static int sample_numa_vmstat(void)
{
	return krp_sample_nodes("vmstat", 1);
}

const struct krp_sampler krp_sampler_proc_vmstat = {.file = "/proc/vmstat"};
const struct krp_sampler krp_sampler_numa_vmstat = {.sample = sample_numa_vmstat,
						    .unavailable = krp_no_nodes};
