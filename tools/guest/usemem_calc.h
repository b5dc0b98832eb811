/* Pure arithmetic of usemem (suites/vm-scalability/usemem.c), shared with
 * autonuma-benchmark and specjbb, hence in tools/guest: size parsing with
 * K/M/G/T suffixes, the per-task throughput line, the bytes it reports, the
 * chunk and huge page lengths, the random index generator.  Header-only so
 * tests/unit/usemem_calc_test.c tests it on the host. */
#ifndef KREPRO_USEMEM_CALC_H
#define KREPRO_USEMEM_CALC_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "value.h"

/* "123", "4k", "16M", "2g", "1T", "16MB" -> bytes: the kit's size
 * (value.h, as the kernel's memparse), and a B after a suffix as usemem's
 * users write it.  Returns 0, or -1 for junk, an empty number or an
 * overflow. */
static inline int usemem_parse_size(const char *s, unsigned long long *out)
{
	uint64_t v;
	const char *e;

	if (krp_size_prefix(s, 0, &v, &e) != 0)
		return -1;
	if ((*e == 'b' || *e == 'B') && strchr("KMGTkmgt", e[-1])) /* e > s: digits came */
		e++;
	if (*e)
		return -1;
	*out = v;
	return 0;
}

/* usemem's KB/s: ((bytes * 1000000) >> 10) / usecs, in integers; usecs 0
 * counts as 1.  bytes * 1000000 is done in 128 bits where available so a
 * multi-terabyte count does not wrap. */
static inline unsigned long long usemem_kbps(unsigned long long bytes, unsigned long long usecs)
{
	if (usecs == 0)
		usecs = 1;
#ifdef __SIZEOF_INT128__
	unsigned __int128 x = ((unsigned __int128)bytes * 1000000u) >> 10;

	return (unsigned long long)(x / usecs);
#else
	return ((bytes * 1000000ULL) >> 10) / usecs;
#endif
}

/* The per-task line: "N bytes / T usecs = K KB/s\n". */
static inline int usemem_format_result(char *out, size_t outsz, unsigned long long bytes,
				       unsigned long long usecs)
{
	return snprintf(out, outsz, "%llu bytes / %llu usecs = %llu KB/s\n", bytes, usecs,
			usemem_kbps(bytes, usecs));
}

/* "T usecs to free memory\n". */
static inline int usemem_format_free(char *out, size_t outsz, unsigned long long usecs)
{
	return snprintf(out, outsz, "%llu usecs to free memory\n", usecs);
}

/* The bytes usemem reports for a task: upstream's "composite throughput"
 * credits the mapping with 1/8 of its size, then adds 8 bytes per word
 * touched (so a full pass reports 1.125 x size). */
static inline unsigned long long usemem_reported_bytes(unsigned long long size,
						       unsigned long long words)
{
	return size / 8 + words * 8;
}

/* The next chunk of a task that maps SIZE in chunks of UNIT bytes (--unit;
 * 0: one mapping), LEFT bytes still to map: UNIT, or what is left. */
static inline unsigned long long usemem_chunk_len(unsigned long long left, unsigned long long unit)
{
	return unit && unit < left ? unit : left;
}

/* A huge page mapping's length (--hugetlb): LEN rounded up to 2 MiB, as
 * the kernel maps it; munmap must name the same length to free it. */
#define USEMEM_HUGE_PAGE (2ULL << 20)
static inline unsigned long long usemem_huge_len(unsigned long long len)
{
	return (len + USEMEM_HUGE_PAGE - 1) & ~(USEMEM_HUGE_PAGE - 1);
}

/* Random word indexes as upstream draws them: the drand48 generator
 * (48-bit LCG, a = 0x5DEECE66D, c = 11; srand48 puts the seed above
 * 0x330E), 31 bits a draw, scaled as (max * v / 2^31), so index max itself
 * is never drawn.  Upstream seeds with time ^ tid; the kit seeds with the
 * task number so that exact-mode runs repeat. */
static inline uint64_t usemem_seed(unsigned long idx)
{
	return (((uint64_t)(uint32_t)(idx + 1) << 16) | 0x330EU) & 0xFFFFFFFFFFFFULL;
}

static inline long usemem_rand31(uint64_t *state)
{
	*state = (0x5DEECE66DULL * *state + 0xBU) & 0xFFFFFFFFFFFFULL;
	return (long)(*state >> 17);
}

static inline unsigned long long usemem_rand_index(uint64_t *state, unsigned long long max)
{
	return (unsigned long long)((double)max * (double)usemem_rand31(state) / 2147483648.0);
}

/* Split nr_task tasks: processes and threads per process.  -n P -t T gives
 * P x T; only -t T gives 1 x T; only -n P gives P x 1. */
static inline unsigned long usemem_total_tasks(unsigned long nproc, unsigned long nthread)
{
	return (nproc ? nproc : 1) * (nthread ? nthread : 1);
}

#endif
