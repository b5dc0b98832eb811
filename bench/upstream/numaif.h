/* Stand-in for libnuma's <numaif.h> in static musl builds of upstream
 * programs (bench/upstream-autonuma.sh): the memory-policy calls as raw
 * system calls, which is all libnuma's wrappers are, and the MPOL_*
 * constants from the kernel's UAPI <linux/mempolicy.h>. */
#ifndef KREPRO_BENCH_NUMAIF_H
#define KREPRO_BENCH_NUMAIF_H
#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long set_mempolicy(int mode, const unsigned long *nodemask, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, nodemask, maxnode);
}

static inline long mbind(void *addr, unsigned long len, int mode, const unsigned long *nodemask,
			 unsigned long maxnode, unsigned int flags)
{
	return syscall(SYS_mbind, addr, len, mode, nodemask, maxnode, flags);
}
#endif
