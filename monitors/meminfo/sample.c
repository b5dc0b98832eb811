/* meminfo's guest samplers: /proc/meminfo, and every NUMA node's meminfo
 * ("Node N ..." lines). */
#include "sampler.h"

static int sample_numa_meminfo(void)
{
	return krp_sample_nodes("meminfo", 0);
}

const struct krp_sampler krp_sampler_meminfo = {.file = "/proc/meminfo"};
const struct krp_sampler krp_sampler_numa_meminfo = {.sample = sample_numa_meminfo,
						     .unavailable = krp_no_nodes};
