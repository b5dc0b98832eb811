/* Unit tests for suites/membench/membench_calc.h: test names, the chase's
 * permutation (one cycle through every line, the same every run) and the
 * counters' slots. */
#include <stdlib.h>

#include "unit.h"
#include "../../suites/membench/membench_calc.h"

/* 1 if following next from line 0 visits all n lines before returning. */
static int one_cycle(const uint32_t *next, uint32_t n)
{
	uint32_t at = 0, steps = 0;

	do {
		at = next[at];
		steps++;
	} while (at != 0 && steps <= n);
	return steps == n;
}

int main(void)
{
	static const uint32_t sizes[] = {2, 3, 256, 1000, 1u << 20};
	enum mb_test t;

	CHECK("names round-trip", mb_test_parse("numa-remote", &t) == 0 && t == MB_NUMA_REMOTE &&
				      mb_test_parse("numa-migrate", &t) == 0 &&
				      t == MB_NUMA_MIGRATE);
	CHECK("unknown name", mb_test_parse("chase2", &t) < 0 && mb_test_parse("", &t) < 0);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = sizes[i], *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
		char what[64];
		int self = 0;

		if (!a || !b)
			abort();
		mb_cycle(a, n, MB_SEED);
		mb_cycle(b, n, MB_SEED);
		for (uint32_t k = 0; k < n; k++)
			self |= a[k] == k;
		snprintf(what, sizeof(what), "%u lines: one cycle", n);
		CHECK(what, one_cycle(a, n) && !self);
		snprintf(what, sizeof(what), "%u lines: the same permutation twice", n);
		CHECK(what, memcmp(a, b, n * sizeof(*a)) == 0);
		free(a);
		free(b);
	}
	CHECK("shared: both counters in one line",
	      mb_counter_slot(MB_COUNTERS_SHARED, 0) == 0 &&
		  mb_counter_slot(MB_COUNTERS_SHARED, 1) * 8 < MB_LINE);
	CHECK("padded: a line apart", mb_counter_slot(MB_COUNTERS_PADDED, 1) * 8 == MB_LINE);
	UNIT_EXIT();
}
