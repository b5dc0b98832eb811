/* musl's brk() always fails and its sbrk() only reads the break: upstream
 * will-it-scale's brk1/brk2 call both, so the side-by-side build maps them
 * to the system call, as the kit's brk1 does. */
#ifndef KREPRO_MUSL_BRK_H
#define KREPRO_MUSL_BRK_H
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int krp_brk(void *addr)
{
	return syscall(SYS_brk, addr) == (long)addr ? 0 : -1;
}

static inline void *krp_sbrk(intptr_t inc)
{
	char *cur = (char *)syscall(SYS_brk, 0);

	if (inc && syscall(SYS_brk, cur + inc) != (long)(cur + inc))
		return (void *)-1;
	return cur;
}
#define brk krp_brk
#define sbrk krp_sbrk
#endif
