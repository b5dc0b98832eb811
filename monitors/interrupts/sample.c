/* interrupts' guest samplers: /proc/interrupts every tick; /proc/softirqs
 * at the start and the stop (its counters only grow: two are enough). */
#include "sampler.h"

const struct krp_sampler krp_sampler_interrupts = {.file = "/proc/interrupts"};
const struct krp_sampler krp_sampler_softirqs = {.when = KRP_SNAPSHOT, .file = "/proc/softirqs"};
