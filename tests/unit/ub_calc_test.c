/* Unit tests for suites/unixbench/ub_calc.h (UnixBench subset arithmetic). */
#include "unit.h"
#include "../../suites/unixbench/ub_calc.h"

int main(void)
{
	char out[256];

	{
		/* 3 samples: drop int(3/3) = 1 worst; geometric mean of 20 and 40 */
		struct ub_sample r[] = {{40, 40}, {10, 10}, {20, 20}};

		CHECK_NEAR("combine: drop worst third", ub_combine(r, 3), 28.2842712474619, 1e-9);
		CHECK("combine: sorted in place",
		      r[0].count == 10 && r[1].count == 20 && r[2].count == 40);
	}
	{
		/* 6 samples: drop 2 (5 and 7); exp(mean(log(9, 11, 13, 100))) */
		struct ub_sample r[] = {{100, 100}, {5, 5}, {13, 13}, {7, 7}, {11, 11}, {9, 9}};

		CHECK_NEAR("combine: six samples", ub_combine(r, 6), 18.940639437279884, 1e-9);
	}
	{
		/* Run sorts by count, not rate: 100 loops in 2 s, 90 in 1 s, 110
		 * in 2.5 s drop the 90-loop pass (rate 90): sqrt(50 x 44); by
		 * rate it would drop the 44 and give sqrt(50 x 90) = 67.08 */
		struct ub_sample r[] = {{100, 50}, {90, 90}, {110, 44}};

		CHECK_NEAR("combine: the lowest count is dropped, not the lowest rate",
			   ub_combine(r, 3), 46.9041575982343, 1e-9);
	}
	{
		struct ub_sample one[] = {{123.5, 123.5}}, two[] = {{4, 4}, {9, 9}},
				 zero[] = {{0, 0}, {5, 5}, {5, 5}};

		CHECK_NEAR("combine: one sample", ub_combine(one, 1), 123.5, 1e-12);
		CHECK_NEAR("combine: two samples keep both", ub_combine(two, 2), 6, 1e-12);
		CHECK_NEAR("combine: dropped zero is fine", ub_combine(zero, 3), 5, 1e-12);
		CHECK_NEAR("combine: none", ub_combine(one, 0), 0, 0);
	}
	CHECK_NEAR("rate: lps", ub_rate(300, 2, 0), 150, 1e-12);
	CHECK_NEAR("rate: lpm", ub_rate(30, 20, 1), 90, 1e-12);
	CHECK_NEAR("rate: no time", ub_rate(30, 0, 1), 0, 0);

	ub_format_line(out, sizeof(out), "Execl Throughput", 2915.44, "lps", 29.63, 3);
	CHECK_STR("format: execl as in 001", out,
		  "Execl Throughput 2915.4 lps (29.6 secs, 3 samples)\n");
	ub_format_line(out, sizeof(out), "File Copy 256 bufsize 500 maxblocks", 99051.0, "KBps",
		       30.0, 3);
	CHECK_STR("format: file copy", out,
		  "File Copy 256 bufsize 500 maxblocks 99051.0 KBps (30.0 secs, 3 samples)\n");

	CHECK("fs: 1024/2000 -> 2000 buffers", ub_fs_buffers(1024, 2000) == 2000);
	CHECK("fs: 256/500 -> 2000 buffers", ub_fs_buffers(256, 500) == 2000);
	CHECK("fs: 4096/8000 -> 2000 buffers", ub_fs_buffers(4096, 8000) == 2000);
	CHECK("fs: zero bufsize", ub_fs_buffers(0, 8000) == 0);

	/* Whetstone: the check values upstream's whets.c (byte-unixbench
	 * 986b674, -DDP, gcc -O2, x100 = 100) leaves in results[] after 1 and
	 * after 3 passes; the kit's sections must compute the same numbers. */
	{
		static const double up1[] = {0,
					     -1.123982556673919,
					     -1.1218707988928442,
					     1,
					     12,
					     0.49902937281518261,
					     0.99999987890802811,
					     3,
					     0.75100163018458665};
		static const double up3[] = {0,
					     -1.1239825526856013,
					     -1.1218707938749395,
					     1,
					     12,
					     0.4990293723767793,
					     0.99999985894622145,
					     3,
					     0.75299494026090452};
		struct ub_whet w;
		char name[64];

		for (long passes = 1; passes <= 3; passes += 2) {
			const double *up = passes == 1 ? up1 : up3;

			ub_whet_init(&w);
			for (int sec = 1; sec <= UB_WHET_SECTIONS; sec++) {
				ub_whet_prepare(&w, sec);
				ub_whet_section(&w, sec, passes, UB_WHET_X100);
				snprintf(name, sizeof(name), "whetstone: section %d, %ld passes",
					 sec, passes);
				CHECK_NEAR(name, w.chk[sec], up[sec], 1e-12);
			}
		}
		CHECK_NEAR("whetstone: MWIPS = passes x 100 / (10 x seconds)",
			   ub_whet_mwips(500, 10), 500, 1e-9);
		CHECK_NEAR("whetstone: no time", ub_whet_mwips(500, 0), 0, 0);
		CHECK("whetstone: passes for 10 s from 25 in 0.6 s",
		      ub_whet_passes(10, 25, 0.6) == 416);
		CHECK("whetstone: at least one pass", ub_whet_passes(0.001, 1, 5) == 1);
	}
	{ /* the shell tests' input: the shape of UnixBench's sort.src */
		static char src[UB_SORT_BYTES + 1];
		size_t n = ub_sort_src(src, sizeof(src)), lines = 0, the = 0, band[10] = {0};
		const char *p = src;

		CHECK("sort.src: 8546 bytes", n == 8546 && strlen(src) == 8546);
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			char line[128];

			if (!nl || len >= sizeof(line))
				break;
			memcpy(line, p, len);
			line[len] = '\0';
			lines++;
			the += strstr(line, "the") != NULL;
			band[len / 10 < 9 ? len / 10 : 9]++;
			p = nl + 1;
		}
		CHECK("sort.src: 362 lines, each ending in a newline", lines == 362 && !*p);
		CHECK("sort.src: 35 lines hold \"the\"", the == 35);
		CHECK("sort.src: none of 90 characters or more", band[9] == 0);
		CHECK("sort.src: most lines under 20 characters", band[0] + band[1] > 181);
		CHECK("sort.src: no room, nothing written", ub_sort_src(src, 100) == 0);
	}
	{ /* Run -c 2: counts summed, times averaged; the rate and so the index
	   * are the sum of the copies' against the baseline */
		const double cnt[] = {1000, 1200}, sec[] = {10, 12};
		double sum, mean;

		ub_copies(cnt, sec, 2, &sum, &mean);
		CHECK("copies: counts summed", sum == 2200);
		CHECK("copies: times averaged", mean == 11);
		CHECK_NEAR("copies: the rate is the sum's", ub_rate(sum, mean, 0), 200, 1e-9);
		ub_copies(cnt, sec, 1, &sum, &mean);
		CHECK("one copy: its own", sum == 1000 && mean == 10);
	}
	UNIT_EXIT();
}
