/* Pure arithmetic of membench (suites/membench/membench.c): its tests'
 * names and the pointer chase's permutation.  Header-only for tests/unit. */
#ifndef KREPRO_MEMBENCH_CALC_H
#define KREPRO_MEMBENCH_CALC_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum mb_test {
	MB_CHASE,
	MB_NUMA_LOCAL,
	MB_NUMA_REMOTE,
	MB_COUNTERS_SHARED,
	MB_COUNTERS_PADDED,
	MB_NUMA_MIGRATE,
	MB_NTESTS
};

static const char *const mb_test_names[MB_NTESTS] = {
    "chase", "numa-local", "numa-remote", "counters-shared", "counters-padded", "numa-migrate"};

/* The cache line the suite lays its data out by (x86-64's). */
#define MB_LINE 64

/* The chase's seed: its permutation is the same on every run and machine. */
#define MB_SEED 0x4b52504d454d4231ULL /* "KRPMEMB1" */

static inline int mb_test_parse(const char *s, enum mb_test *t)
{
	for (int i = 0; i < MB_NTESTS; i++) {
		if (strcmp(s, mb_test_names[i]) == 0) {
			*t = (enum mb_test)i;
			return 0;
		}
	}
	return -1;
}

/* xorshift64* (Vigna): a small deterministic generator; state != 0. */
static inline uint64_t mb_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Sattolo's shuffle: next[i] becomes the line after line i in one cycle
 * through all n lines (a random cyclic permutation, so a chase from any
 * line visits every line before it returns).  n >= 2. */
static inline void mb_cycle(uint32_t *next, uint32_t n, uint64_t seed)
{
	uint64_t st = seed ? seed : 1;

	for (uint32_t i = 0; i < n; i++)
		next[i] = i;
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(mb_rand(&st) % i), t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
}

/* The counters' slots in an array of 64-bit words aligned to a line:
 * shared, words 0 and 1 (one line); padded, words 0 and 8 (a line apart). */
static inline size_t mb_counter_slot(enum mb_test t, int thread)
{
	return thread ? (t == MB_COUNTERS_PADDED ? MB_LINE / sizeof(uint64_t) : 1) : 0;
}

#endif
