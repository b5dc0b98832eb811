/* slabinfo's guest sampler: /proc/slabinfo. */
#include "sampler.h"

const struct krp_sampler krp_sampler_slabinfo = {.file = "/proc/slabinfo"};
