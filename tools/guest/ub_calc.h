/* Pure arithmetic of the UnixBench subset (tools/guest/unixbench.c):
 * combining samples the way UnixBench's Run does, the result line, file
 * test sizes, and the Dc workload (sqrt(2) to 99 decimal places with
 * decimal big integers).  Header-only so tests/unit/test_bench_unixbench.c
 * tests it on the host. */
#ifndef KREPRO_UB_CALC_H
#define KREPRO_UB_CALC_H
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* One pass of a test: what Run sorts by (COUNT0: the count of loops, or
 * the KBps score of the file tests) and its rate. */
struct ub_sample {
	double count, rate;
};

/* Combines passes as UnixBench's Run does: sort by count ascending, drop
 * the worst int(n/3), geometric mean of the rates of the rest.  s is sorted
 * in place.  Returns 0 for n == 0 or a non-positive kept rate.  (Sorting by
 * rate instead differs when the passes' times differ.) */
static inline double ub_combine(struct ub_sample *s, size_t n)
{
	size_t drop, i;
	double logsum = 0;

	if (n == 0)
		return 0;
	for (i = 1; i < n; i++) { /* insertion sort: n is small */
		struct ub_sample v = s[i];
		size_t j = i;

		while (j > 0 && s[j - 1].count > v.count) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = v;
	}
	drop = n / 3;
	for (i = drop; i < n; i++) {
		if (s[i].rate <= 0)
			return 0;
		logsum += log(s[i].rate);
	}
	return exp(logsum / (double)(n - drop));
}

/* Rate of one sample: count per second (lps, KBps) or, with per_minute,
 * per minute (lpm).  0 if no time passed. */
static inline double ub_rate(double count, double secs, int per_minute)
{
	if (secs <= 0)
		return 0;
	return count / secs * (per_minute ? 60.0 : 1.0);
}

/* UnixBench's text line: "<name> <value> <unit> (<secs> secs, <n> samples)". */
static inline int ub_format_line(char *out, size_t outsz, const char *name, double value,
				 const char *unit, double secs, unsigned n)
{
	return snprintf(out, outsz, "%s %.1f %s (%.1f secs, %u samples)\n", name, value, unit, secs,
			n);
}

/* fstime: file of max_blocks KiB in bufsize chunks -> number of buffers. */
static inline unsigned long ub_fs_buffers(unsigned long bufsize, unsigned long max_blocks)
{
	return bufsize ? max_blocks * 1024 / bufsize : 0;
}

/* ---- Dc: sqrt(2) to 99 places, long-hand digit by digit ---- */

#define UB_BIG_LIMBS 16 /* base 1e9: 144 digits, enough for 10^(2*100) roots */
#define UB_BASE 1000000000U

struct ub_big {
	unsigned limb[UB_BIG_LIMBS]; /* little endian, base 1e9 */
};

static inline void ub_big_mul_add(struct ub_big *a, unsigned mul, unsigned add)
{
	unsigned long long carry = add;

	for (int i = 0; i < UB_BIG_LIMBS; i++) {
		unsigned long long v = (unsigned long long)a->limb[i] * mul + carry;

		a->limb[i] = (unsigned)(v % UB_BASE);
		carry = v / UB_BASE;
	}
}

static inline int ub_big_cmp(const struct ub_big *a, const struct ub_big *b)
{
	for (int i = UB_BIG_LIMBS - 1; i >= 0; i--) {
		if (a->limb[i] != b->limb[i])
			return a->limb[i] < b->limb[i] ? -1 : 1;
	}
	return 0;
}

static inline void ub_big_sub(struct ub_big *a, const struct ub_big *b) /* a >= b */
{
	long long borrow = 0;

	for (int i = 0; i < UB_BIG_LIMBS; i++) {
		long long v = (long long)a->limb[i] - b->limb[i] - borrow;

		borrow = v < 0;
		a->limb[i] = (unsigned)(v + (borrow ? UB_BASE : 0));
	}
}

/* Writes "1.41421..." (1 + '.' + places digits + NUL) into out, computing
 * floor(sqrt(2) * 10^places) digit by digit: remainder r and root p start
 * at 0; for each pair of digits of 2.000... r = 100 r + pair, the next
 * digit d is the largest with (20 p + d) d <= r.  places <= 120.
 * Returns 0, or -1 if places or outsz is too large/small. */
static inline int ub_sqrt2(unsigned places, char *out, size_t outsz)
{
	struct ub_big r, p, t;
	size_t k = 0;

	if (places > 120 || outsz < (size_t)places + 3)
		return -1;
	memset(&r, 0, sizeof(r));
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i <= places; i++) {
		unsigned d;

		ub_big_mul_add(&r, 100, i == 0 ? 2 : 0);
		for (d = 9;; d--) {
			t = p;
			ub_big_mul_add(&t, 20, d);
			ub_big_mul_add(&t, d, 0);
			if (ub_big_cmp(&t, &r) <= 0 || d == 0)
				break;
		}
		ub_big_sub(&r, &t);
		ub_big_mul_add(&p, 10, d);
		out[k++] = (char)('0' + d);
		if (i == 0)
			out[k++] = '.';
	}
	out[k] = '\0';
	return 0;
}

#endif
