/* buddyinfo's guest sampler: /proc/buddyinfo, the buddy allocator's free
 * blocks of each order in each zone. */
#include "sampler.h"

const struct krp_sampler krp_sampler_buddyinfo = {.file = "/proc/buddyinfo"};
