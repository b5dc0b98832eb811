/* Host parsers of /proc/softirqs and /proc/interrupts:
 *
 *   softirqs      softirqs.<TYPE> (all CPUs), softirqs.CPU<n>.<TYPE> delta
 *   interrupts    interrupts.<irq>:<desc> (all CPUs),
 *                 interrupts.CPU<n>.<irq>:<desc>                      delta
 *                 (<desc>: numbered IRQs "IO-APIC.2-edge.timer", named
 *                 ones "Local_timer_interrupts")
 *
 * Samples are separated by "time:" lines; counters are reduced last -
 * first (KRP_DELTA), gauges by mean (KRP_MEAN), as 0-day does.
 */
#ifndef KREPRO_MONITORS_INTERRUPTS_PARSE_H
#define KREPRO_MONITORS_INTERRUPTS_PARSE_H
#include <stddef.h>

#include "metrics.h"

void krp_parse_softirqs(const char *buf, size_t len, struct krp_metrics *m);
void krp_parse_interrupts(const char *buf, size_t len, struct krp_metrics *m);

#endif
