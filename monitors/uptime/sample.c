/* uptime's guest sampler: /proc/uptime. */
#include "sampler.h"

const struct krp_sampler krp_sampler_uptime = {.file = "/proc/uptime"};
