/* Pure arithmetic of the UnixBench subset (suites/unixbench/unixbench.c):
 * combining samples the way UnixBench's Run does, the result line, file
 * test sizes, the Double-Precision Whetstone and the shell tests' input.  Header-only so
 * tests/unit/ub_calc_test.c tests it on the host. */
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

/* One sample of N copies run at once, as UnixBench's Run -c N combines
 * them: the copies' counts summed (its COUNT0), their times averaged; the
 * sample's rate is then ub_rate of the two, so a multi-copy result, and
 * the index made of it, is the sum of the copies' against the baseline. */
static inline void ub_copies(const double *count, const double *secs, size_t n, double *sum,
			     double *mean_secs)
{
	double c = 0, t = 0;

	for (size_t i = 0; i < n; i++) {
		c += count[i];
		t += secs[i];
	}
	*sum = c;
	*mean_secs = n ? t / (double)n : 0;
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

/* ---- Double-Precision Whetstone (Curnow and Wichmann, in the C form
 * UnixBench runs) ----
 * Eight sections, each repeated PASSES times over its loop count times 100:
 * 1 array elements, 2 array as parameter, 3 conditional jumps, 4 integer
 * arithmetic, 5 trigonometric functions, 6 procedure calls, 7 array
 * references, 8 standard functions.  Section 1 runs 10 times its count and
 * its time is divided by 10 (as upstream's); MWIPS = passes * 100 / (10 *
 * the summed section times).  Each section leaves a check value in chk[];
 * tests/unit/ub_calc_test.c compares them with upstream's. */
#define UB_WHET_SECTIONS 8
#define UB_WHET_N1_MULT 10
#define UB_WHET_X100 100

struct ub_whet {
	double e[4];			  /* the array sections 1, 2, 4 and 7 share */
	double chk[UB_WHET_SECTIONS + 1]; /* check value of each section */
};

static inline void ub_whet_init(struct ub_whet *w)
{
	memset(w, 0, sizeof(*w));
}

/* one step of the array recurrence; the last element divided by div
 * (section 1 multiplies by t, section 2's procedure divides by 2) */
static inline void ub_whet_mix(double e[4], double t, double last_mul, double last_div)
{
	e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
	e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
	e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
	e[3] = (-e[0] + e[1] + e[2] + e[3]) * last_mul / last_div;
}

/* Called, not inlined, as gcc -O2 leaves upstream's pa() (an external
 * function, a loop: too big to inline).  noclone as well: otherwise gcc's
 * constant propagation makes a copy for t2 = 2.0 that multiplies by 0.5
 * loaded from memory on every call instead of dividing by t2 in a
 * register. */
#if defined(__GNUC__) && !defined(__clang__)
#define UB_WHET_CALL __attribute__((noinline, noclone))
#else
#define UB_WHET_CALL __attribute__((noinline))
#endif
UB_WHET_CALL static void ub_whet_array_param(double e[4], double t, double t2)
{
	for (int r = 0; r < 6; r++)
		ub_whet_mix(e, t, 1.0, t2);
}

static inline void ub_whet_proc(double *x, double *y, double *z, double t, double t1, double t2)
{
	*x = *y;
	*y = *z;
	*x = t * (*x + *y);
	*y = t1 * (*x + *y);
	*z = (*x + *y) / t2;
}

static inline void ub_whet_assign(double e[4], long j, long k, long l)
{
	e[j] = e[k];
	e[k] = e[l];
	e[l] = e[j];
}

/* Sets the array for section sec, before its clock starts (upstream's
 * whetstones() sets it before reading the time). */
static inline void ub_whet_prepare(struct ub_whet *w, int sec)
{
	if (sec == 1) {
		w->e[0] = 1.0;
		w->e[1] = w->e[2] = w->e[3] = -1.0;
	} else if (sec == 7) {
		w->e[0] = 1.0, w->e[1] = 2.0, w->e[2] = 3.0;
	}
}

/* Runs section sec (1..8), its array set by ub_whet_prepare, for passes
 * passes of its count times x100 (UB_WHET_X100); sets w->chk[sec]. */
static inline void ub_whet_section(struct ub_whet *w, int sec, long passes, long x100)
{
	const double t0 = 0.49999975, t1 = 0.50000025, t2 = 2.0;
	double t = t0, x, y, z;
	double *e = w->e;
	long j, k, l, n;

	switch (sec) {
	case 1:
		n = 12L * x100 * UB_WHET_N1_MULT;
		for (long p = 0; p < passes; p++, t = 1.0 - t)
			for (long i = 0; i < n; i++)
				ub_whet_mix(e, t, t, 1.0);
		w->chk[1] = e[3];
		break;
	case 2:
		n = 14L * x100;
		for (long p = 0; p < passes; p++, t = 1.0 - t)
			for (long i = 0; i < n; i++)
				ub_whet_array_param(e, t, t2);
		w->chk[2] = e[3];
		break;
	case 3:
		j = 1;
		n = 345L * x100;
		for (long p = 0; p < passes; p++)
			for (long i = 0; i < n; i++) {
				if (j == 1)
					j = 2;
				else
					j = 3;
				if (j > 2)
					j = 0;
				else
					j = 1;
				if (j < 1)
					j = 1;
				else
					j = 0;
			}
		w->chk[3] = (double)j;
		break;
	case 4:
		j = 1, k = 2, l = 3;
		n = 210L * x100;
		for (long p = 0; p < passes; p++)
			for (long i = 0; i < n; i++) {
				j = j * (k - j) * (l - k);
				k = l * k - (l - j) * k;
				l = (l - k) * (k + j);
				e[l - 2] = (double)(j + k + l);
				e[k - 2] = (double)(j * k * l);
			}
		w->chk[4] = e[0] + e[1];
		break;
	case 5:
		x = y = 0.5;
		n = 32L * x100;
		for (long p = 0; p < passes; p++, t = 1.0 - t)
			for (long i = 1; i < n; i++) {
				x = t *
				    atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
				y = t *
				    atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
			}
		w->chk[5] = y;
		break;
	case 6:
		x = y = z = 1.0;
		n = 899L * x100;
		for (long p = 0; p < passes; p++)
			for (long i = 0; i < n; i++)
				ub_whet_proc(&x, &y, &z, t, t1, t2);
		w->chk[6] = z;
		break;
	case 7:
		n = 616L * x100;
		for (long p = 0; p < passes; p++)
			for (long i = 0; i < n; i++)
				ub_whet_assign(e, 0, 1, 2);
		w->chk[7] = e[2];
		break;
	default:
		x = 0.75;
		n = 93L * x100;
		for (long p = 0; p < passes; p++)
			for (long i = 0; i < n; i++)
				x = sqrt(exp(log(x) / t1));
		w->chk[8] = x;
		break;
	}
}

/* MWIPS of a run of passes passes whose section times (section 1's
 * divided by 10) sum to secs; 0 if no time passed. */
static inline double ub_whet_mwips(long passes, double secs)
{
	return secs > 0 ? (double)passes * UB_WHET_X100 / (10.0 * secs) : 0;
}

/* Passes for a run of about seconds, from a calibration run of passes
 * that took used seconds (at least 1). */
static inline long ub_whet_passes(double seconds, long passes, double used)
{
	long n = used > 0 ? (long)(seconds * (double)passes / used) : passes;

	return n < 1 ? 1 : n;
}

/* ---- the shell tests' input ----
 * The Shell Scripts tests sort a file, od it and sort that numerically,
 * grep "the" out of it: their work follows the file's bytes, lines and
 * matching lines.  The kit writes its own words in the shape of
 * UnixBench's testdir/sort.src: 362 lines of 8184 characters (8546 bytes),
 * as many lines per 10-character length band, 35 of them holding "the". */
#define UB_SORT_LINES 362
#define UB_SORT_CHARS 8184 /* without the newlines */
#define UB_SORT_THE 35
#define UB_SORT_BYTES (UB_SORT_CHARS + UB_SORT_LINES)

/* ub_sort_words: words from a fixed list in a fixed pseudo-random order,
 * separated by spaces, into out[*pos, end); none holds "the". */
static inline void ub_sort_words(char *out, size_t *pos, size_t end, unsigned *x)
{
	static const char *const words[] = {"quick",  "brown", "fox",	 "jumps", "over",
					    "lazy",   "dog",   "kernel", "page",  "fault",
					    "memory", "cache", "fork",	 "exec",  "pipe"};

	while (*pos < end) { /* cut at end */
		const char *w;

		*x = *x * 1103515245u + 12345u;
		w = words[(*x >> 16) % (sizeof(words) / sizeof(words[0]))];
		while (*w && *pos < end)
			out[(*pos)++] = *w++;
		if (*pos < end)
			out[(*pos)++] = ' ';
	}
}

/* ub_sort_src: writes the file's text (UB_SORT_BYTES bytes and a NUL) into
 * out, cap at least UB_SORT_BYTES + 1.  Returns its length, 0 if cap is
 * too small. */
static inline size_t ub_sort_src(char *out, size_t cap)
{
	/* lines of 0-9, 10-19, ... 80-89 characters */
	static const unsigned short bands[] = {116, 80, 61, 29, 29, 27, 16, 3, 1};
	unsigned short left[sizeof(bands) / sizeof(bands[0])];
	unsigned char len[UB_SORT_LINES], the[UB_SORT_LINES] = {0};
	unsigned x = 12345, remaining = UB_SORT_LINES, sum = 0, eligible = 0, step, marked = 0;
	size_t pos = 0;

	if (cap < UB_SORT_BYTES + 1)
		return 0;
	memcpy(left, bands, sizeof(left));
	for (unsigned i = 0; i < UB_SORT_LINES; i++) { /* a band, then a length in it */
		unsigned r, b = 0;

		x = x * 1103515245u + 12345u;
		r = (x >> 16) % remaining;
		while (r >= left[b]) /* the bands in proportion to what is left */
			r -= left[b++];
		left[b]--;
		remaining--;
		x = x * 1103515245u + 12345u;
		len[i] = (unsigned char)(b * 10 + (x >> 16) % 10);
		sum += len[i];
	}
	for (unsigned i = 0; sum != UB_SORT_CHARS; i = (i + 1) % UB_SORT_LINES) {
		if (sum > UB_SORT_CHARS && len[i] > 0) /* one character at a time */
			len[i]--, sum--;
		else if (sum < UB_SORT_CHARS && len[i] < 89)
			len[i]++, sum++;
	}
	for (unsigned i = 0; i < UB_SORT_LINES; i++)
		eligible += len[i] >= 3;
	step = eligible / UB_SORT_THE;
	for (unsigned i = 0, k = 0; i < UB_SORT_LINES && marked < UB_SORT_THE; i++)
		if (len[i] >= 3 && k++ % step == 0)
			the[i] = 1, marked++;
	for (unsigned i = 0; i < UB_SORT_LINES; i++) {
		size_t end = pos + len[i];
		/* "the" in the middle of its line: grep scans up to it */
		size_t at = the[i] ? pos + (len[i] - 3) / 2 : end;

		ub_sort_words(out, &pos, at, &x);
		if (the[i]) {
			memcpy(out + pos, "the", 3);
			pos += 3;
			ub_sort_words(out, &pos, end, &x);
		}
		out[pos++] = '\n';
	}
	out[pos] = '\0';
	return pos;
}

#endif
