/* glibc's reentrant drand48 calls, which musl lacks and upstream
 * vm-scalability's usemem uses for its random indexes: the same 48-bit
 * generator as the kit's usemem (usemem_calc.h), behind glibc's names, so
 * the side-by-side build (bench/upstream-vms.sh) compiles with musl. */
#ifndef KREPRO_DRAND48_R_H
#define KREPRO_DRAND48_R_H
#include <stdint.h>

#include "usemem_calc.h"

struct drand48_data {
	uint64_t state;
};

static inline int srand48_r(long seed, struct drand48_data *d)
{
	d->state = (((uint64_t)(uint32_t)seed << 16) | 0x330EU) & 0xFFFFFFFFFFFFULL;
	return 0;
}

static inline int lrand48_r(struct drand48_data *d, long *out)
{
	*out = usemem_rand31(&d->state);
	return 0;
}
#endif
