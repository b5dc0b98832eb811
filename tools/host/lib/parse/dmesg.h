/* Kernel errors in a run's kmsg (the guest's dmesg) as lkp-tests names
 * them: "dmesg.<error id>: 1" per error seen, and "dmesg.boot_failures: 1"
 * when there is any.  Error ids follow 0-day's spelling: numbers become
 * '#', blanks '_', e.g. dmesg.WARNING:at_mm/page_alloc.c:#__alloc_pages,
 * dmesg.BUG:soft_lockup-CPU##stuck_for#s![a.out:#],
 * dmesg.Kernel_panic-not_syncing:Fatal_exception.  Input is untrusted. */
#ifndef KREPRO_DMESG_H
#define KREPRO_DMESG_H
#include <stddef.h>

#include "metrics.h"

/* Returns the number of error ids added to m. */
size_t krp_parse_dmesg(const char *buf, size_t len, struct krp_metrics *m);

#endif
