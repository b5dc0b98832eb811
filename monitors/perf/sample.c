/* perf's monitors are not sampled by krepro-monitor: it runs krepro-perf
 * (tools/guest/krepro-perf.c) in these modes and stops it when it stops. */
#include "sampler.h"

const struct krp_sampler krp_sampler_perf_stat = {.perf_mode = "stat"};
const struct krp_sampler krp_sampler_perf_profile = {.perf_mode = "profile"};
