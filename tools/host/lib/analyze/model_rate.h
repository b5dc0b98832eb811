/* A benchmark's headline in the memory model's time (docs/MEMORY-MODEL.md).
 *
 * In exact mode guest time is the count of executed instructions, all
 * vCPUs' together, 2^shift ns each (KRP_EXACT_ICOUNT_SHIFT): the vCPUs run
 * one after another.  The model runs them side by side, each on its own
 * clock of model cycles: the window lasts as long as its busy vCPUs
 * (model-stat.seconds).  The same work in model time: a rate (higher is
 * better) times guest seconds / model seconds, a time (lower is better)
 * divided by it.  Written as model.<headline> beside the headline itself,
 * which stays what the guest measured. */
#ifndef KREPRO_MODEL_RATE_H
#define KREPRO_MODEL_RATE_H

#include "metrics.h"

/* Adds model.<headline> for every headline metric of m with a direction,
 * when m holds the model's window (model-stat.instructions and
 * model-stat.seconds, both above 0).  Returns the number added. */
size_t krp_model_rates(struct krp_metrics *m);

/* Guest seconds of n instructions in exact mode. */
double krp_exact_guest_seconds(double instructions);

#endif
