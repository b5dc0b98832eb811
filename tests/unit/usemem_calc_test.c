/* Unit tests for tools/guest/usemem_calc.h (usemem arithmetic). */
#define _DEFAULT_SOURCE /* srand48_r, lrand48_r: the generator upstream uses */
#include <stdlib.h>

#include "unit.h"
#include "../../tools/guest/usemem_calc.h"

int main(void)
{
	unsigned long long v = 0;
	char line[128];

	CHECK("size: plain bytes", usemem_parse_size("4096", &v) == 0 && v == 4096);
	CHECK("size: k", usemem_parse_size("4k", &v) == 0 && v == 4096);
	CHECK("size: K", usemem_parse_size("3K", &v) == 0 && v == 3072);
	CHECK("size: M", usemem_parse_size("128M", &v) == 0 && v == 134217728ULL);
	CHECK("size: g", usemem_parse_size("2g", &v) == 0 && v == 2147483648ULL);
	CHECK("size: T", usemem_parse_size("1T", &v) == 0 && v == 1099511627776ULL);
	CHECK("size: MB accepted", usemem_parse_size("1MB", &v) == 0 && v == 1048576);
	CHECK("size: empty", usemem_parse_size("", &v) < 0);
	CHECK("size: no digits", usemem_parse_size("M", &v) < 0);
	CHECK("size: bad suffix", usemem_parse_size("12x", &v) < 0);
	CHECK("size: trailing junk", usemem_parse_size("12Mx", &v) < 0);
	CHECK("size: negative", usemem_parse_size("-1", &v) < 0);
	CHECK("size: overflow of digits", usemem_parse_size("99999999999999999999", &v) < 0);
	CHECK("size: overflow of the shift", usemem_parse_size("16777216T", &v) < 0);
	CHECK("size: largest T", usemem_parse_size("16777215T", &v) == 0 && v == 16777215ULL << 40);

	/* ((bytes * 1e6) >> 10) / usecs: 1 GiB in 1 s = 1048576 KB/s */
	CHECK("kbps: 1 GiB in 1 s", usemem_kbps(1ULL << 30, 1000000) == 1048576);
	/* from a guest run: 67108864 bytes / 301559 usecs = 217323 KB/s */
	CHECK("kbps: guest line", usemem_kbps(67108864ULL, 301559) == 217323);
	/* 1000 bytes in 3 us: 1e9 >> 10 = 976562; / 3 = 325520 */
	CHECK("kbps: truncation", usemem_kbps(1000, 3) == 325520);
	CHECK("kbps: zero time counts as 1 us", usemem_kbps(1024, 0) == 1000000);
	/* 4 TiB in 300 s: 4398046511104 * 1e6 >> 10 = 4294967296000000, / 3e8 */
	CHECK("kbps: no wrap at 4 TiB", usemem_kbps(4ULL << 40, 300000000) == 14316557);

	usemem_format_result(line, sizeof(line), 67108864ULL, 301559);
	CHECK_STR("format: result line", line, "67108864 bytes / 301559 usecs = 217323 KB/s\n");
	usemem_format_free(line, sizeof(line), 2290);
	CHECK_STR("format: free line", line, "2290 usecs to free memory\n");

	CHECK("tasks: -n 4", usemem_total_tasks(4, 0) == 4);
	CHECK("tasks: -t 3", usemem_total_tasks(0, 3) == 3);
	CHECK("tasks: -n 2 -t 3", usemem_total_tasks(2, 3) == 6);
	CHECK("tasks: none", usemem_total_tasks(0, 0) == 1);

	/* composite throughput: 1/8 of the mapping plus the words touched */
	CHECK("reported: full pass is 1.125 x size",
	      usemem_reported_bytes(8ULL << 20, (8ULL << 20) / 8) == 9ULL << 20);
	CHECK("reported: nothing touched", usemem_reported_bytes(4096, 0) == 512);
	CHECK("reported: stopped early", usemem_reported_bytes(4096, 10) == 592);

	/* --unit: chunks of UNIT, the last one what is left; no unit: one */
	CHECK("chunk: no unit", usemem_chunk_len(1ULL << 30, 0) == 1ULL << 30);
	CHECK("chunk: unit", usemem_chunk_len(1ULL << 30, 40960) == 40960);
	CHECK("chunk: the rest", usemem_chunk_len(4096, 40960) == 4096);
	CHECK("chunk: unit = left", usemem_chunk_len(40960, 40960) == 40960);
	/* a composite count over chunks: each chunk credited 1/8 of itself */
	CHECK("chunk: reported over 3 chunks (40960, 40960, 8192), 100 words",
	      usemem_reported_bytes(40960, 40) + usemem_reported_bytes(40960, 40) +
		      usemem_reported_bytes(8192, 20) ==
		  (40960 + 40960 + 8192) / 8 + 100 * 8);

	/* --hugetlb: lengths in whole 2 MiB pages */
	CHECK("huge: exact", usemem_huge_len(4ULL << 20) == 4ULL << 20);
	CHECK("huge: rounded up", usemem_huge_len((4ULL << 20) + 8) == 6ULL << 20);
	CHECK("huge: small", usemem_huge_len(8) == 2ULL << 20);

	/* the same draws as glibc's srand48_r/lrand48_r, which upstream calls */
	for (unsigned long task = 0; task < 3; task++) {
		struct drand48_data d;
		uint64_t st = usemem_seed(task);
		int same = 1, in_range = 1;

		srand48_r((long)task + 1, &d);
		for (int k = 0; k < 100000; k++) {
			long ref;
			unsigned long long want, got;

			lrand48_r(&d, &ref);
			want = (unsigned long long)((double)999999 * ref / (RAND_MAX + 1.0));
			got = usemem_rand_index(&st, 999999);
			same &= got == want;
			in_range &= got < 999999;
		}
		CHECK("rand: the drand48 sequence, scaled as upstream", same);
		CHECK("rand: below max", in_range);
	}
	{
		uint64_t s1 = usemem_seed(0), s3 = usemem_seed(1);

		CHECK("rand: per-task seeds differ", usemem_rand31(&s1) != usemem_rand31(&s3));
	}
	UNIT_EXIT();
}
