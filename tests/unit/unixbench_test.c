/* UnixBench index: line parser, formulas, and seed 001 (KAMEZAWA, memcg v4,
 * 2008): its raw numbers must give exactly its printed index values and
 * final scores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unixbench.h"
#include "unit.h"

/* The result lines of seed 001, typed in. */
static const char seed001[] =
    "== 2.6.26-rc2-mm1 + memory resource controller\n"
    "Execl Throughput 2915.4 lps (29.6 secs, 3 samples)\n"
    "C Compiler Throughput 1019.3 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (1 concurrent) 5796.0 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (8 concurrent) 1097.7 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (16 concurrent) 565.3 lpm (60.0 secs, 3 samples)\n"
    "File Read 1024 bufsize 2000 maxblocks 1022128.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 1024 bufsize 2000 maxblocks 544057.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 1024 bufsize 2000 maxblocks 346481.0 KBps (30.0 secs, 3 samples)\n"
    "File Read 256 bufsize 500 maxblocks 319325.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 256 bufsize 500 maxblocks 148788.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 256 bufsize 500 maxblocks 99051.0 KBps (30.0 secs, 3 samples)\n"
    "File Read 4096 bufsize 8000 maxblocks 2058917.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 4096 bufsize 8000 maxblocks 1606109.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 4096 bufsize 8000 maxblocks 854789.0 KBps (30.0 secs, 3 samples)\n"
    "Dc: sqrt(2) to 99 decimal places 126145.2 lpm (30.0 secs, 3 samples)\n"
    "INDEX VALUES\n"
    "TEST BASELINE RESULT INDEX\n"
    "Execl Throughput 43.0 2915.4 678.0\n"
    "== 2.6.26-rc2-mm1 + this set ==\n"
    "Execl Throughput 3012.9 lps (29.9 secs, 3 samples)\n"
    "C Compiler Throughput 981.0 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (1 concurrent) 5872.0 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (8 concurrent) 1120.3 lpm (60.0 secs, 3 samples)\n"
    "Shell Scripts (16 concurrent) 578.0 lpm (60.0 secs, 3 samples)\n"
    "File Read 1024 bufsize 2000 maxblocks 1003993.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 1024 bufsize 2000 maxblocks 550452.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 1024 bufsize 2000 maxblocks 347159.0 KBps (30.0 secs, 3 samples)\n"
    "File Read 256 bufsize 500 maxblocks 314644.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 256 bufsize 500 maxblocks 151852.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 256 bufsize 500 maxblocks 101000.0 KBps (30.0 secs, 3 samples)\n"
    "File Read 4096 bufsize 8000 maxblocks 2033256.0 KBps (30.0 secs, 3 samples)\n"
    "File Write 4096 bufsize 8000 maxblocks 1611814.0 KBps (30.0 secs, 3 samples)\n"
    "File Copy 4096 bufsize 8000 maxblocks 847979.0 KBps (30.0 secs, 3 samples)\n"
    "Dc: sqrt(2) to 99 decimal places 128148.7 lpm (30.0 secs, 3 samples)\n";

/* The INDEX VALUES tables printed in seed 001 (blank runs collapsed). */
static const char *const want1[] = {
    "Execl Throughput 43.0 2915.4 678.0",
    "File Copy 1024 bufsize 2000 maxblocks 3960.0 346481.0 875.0",
    "File Copy 256 bufsize 500 maxblocks 1655.0 99051.0 598.5",
    "File Copy 4096 bufsize 8000 maxblocks 5800.0 854789.0 1473.8",
    "Shell Scripts (8 concurrent) 6.0 1097.7 1829.5",
    "=========",
    "FINAL SCORE 991.3",
};
static const char *const want2[] = {
    "Execl Throughput 43.0 3012.9 700.7",
    "File Copy 1024 bufsize 2000 maxblocks 3960.0 347159.0 876.7",
    "File Copy 256 bufsize 500 maxblocks 1655.0 101000.0 610.3",
    "File Copy 4096 bufsize 8000 maxblocks 5800.0 847979.0 1462.0",
    "Shell Scripts (8 concurrent) 6.0 1120.3 1867.2",
    "=========",
    "FINAL SCORE 1004.6",
};

/* Collapse blank runs, trim; in place. */
static void squeeze(char *s)
{
	char *o = s, *p;

	for (p = s; *p; p++) {
		if (*p == ' ' && (o == s || o[-1] == ' '))
			continue;
		*o++ = *p;
	}
	if (o > s && o[-1] == ' ')
		o--;
	*o = '\0';
}

/* The lines from "TEST ..." (exclusive, blank skipped) to "FINAL SCORE". */
static void check_table(const char *name, const char *text, const char *const *want, size_t nw)
{
	char *copy = krp_xstrdup(text), *save = NULL, *l;
	size_t k = 0;
	int in = 0, ok = 1;

	for (l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		squeeze(l);
		if (strcmp(l, "TEST BASELINE RESULT INDEX") == 0) {
			in = 1;
			continue;
		}
		if (!in || !*l)
			continue;
		if (k >= nw || strcmp(l, want[k]) != 0) {
			printf("  %s: line %zu \"%s\" want \"%s\"\n", name, k, l,
			       k < nw ? want[k] : "(end)");
			ok = 0;
		}
		if (++k == nw)
			break;
	}
	CHECK(name, ok && k == nw);
	free(copy);
}

static void test_formulas(void)
{
	const double g[] = {2, 8}, g3[] = {1, 10, 100}, bad[] = {1, 0};

	CHECK_NEAR("index 2915.4/43*10", krp_ub_index(2915.4, 43.0), 29154.0 / 43.0, 1e-9);
	CHECK_NEAR("index baseline = 10", krp_ub_index(116700, 116700), 10, 0);
	CHECK_NEAR("geomean 2 8", krp_ub_geomean(g, 2), 4, 1e-12);
	CHECK_NEAR("geomean 1 10 100", krp_ub_geomean(g3, 3), 10, 1e-12);
	CHECK("geomean zero", krp_ub_geomean(bad, 2) == 0);
	CHECK("geomean empty", krp_ub_geomean(g, 0) == 0);
	CHECK("baseline execl 43", krp_ub_by_key("execl")->baseline == 43.0);
	CHECK("baseline shell1 since 5", krp_ub_by_key("shell1")->since5);
	CHECK("dc no baseline", krp_ub_by_title("Dc: sqrt(2) to 99 decimal places")->baseline == 0);
}

static void test_parse_line(void)
{
	char t[KRP_UB_TITLE_MAX], u[16];
	double v = 0;
	int secs = -1;
	const char *l1 =
	    "Execl Throughput                               2915.4 lps   (29.6 secs, 3 "
	    "samples)";
	const char *l2 = "File Copy 1024 bufsize 2000 maxblocks        842802.6 KBps  (30.0 s, 2 "
			 "samples)\r";

	CHECK("line 4.1", krp_ub_parse_line(l1, strlen(l1), t, &v, u, sizeof(u), &secs) == 0);
	CHECK_STR("line 4.1 title", t, "Execl Throughput");
	CHECK_NEAR("line 4.1 value", v, 2915.4, 1e-9);
	CHECK_STR("line 4.1 unit", u, "lps");
	CHECK("line 4.1 secs", secs == 1);
	CHECK("line 5", krp_ub_parse_line(l2, strlen(l2), t, &v, u, sizeof(u), &secs) == 0);
	CHECK_STR("line 5 title", t, "File Copy 1024 bufsize 2000 maxblocks");
	CHECK("line 5 s", secs == 0 && v == 842802.6);
	CHECK("index table line rejected", krp_ub_parse_line("Execl Throughput 43.0 2915.4 678.0",
							     34, t, &v, u, sizeof(u), &secs) != 0);
	CHECK("no title rejected", krp_ub_parse_line("2915.4 lps (29.6 secs, 3 samples)", 33, t, &v,
						     u, sizeof(u), &secs) != 0);
	CHECK("negative rejected", krp_ub_parse_line("X -1.0 lps (29.6 secs, 3 samples)", 33, t, &v,
						     u, sizeof(u), &secs) != 0);
}

static void test_seed001(void)
{
	struct krp_ub_doc d;
	struct krp_buf out = {0};

	krp_ub_parse(seed001, strlen(seed001), &d);
	CHECK("seed001 two sections", d.n == 2);
	if (d.n != 2)
		return;
	CHECK_STR("seed001 label 1", d.s[0].label, "2.6.26-rc2-mm1 + memory resource controller");
	CHECK_STR("seed001 label 2", d.s[1].label, "2.6.26-rc2-mm1 + this set");
	CHECK("seed001 15 results", d.s[0].n == 15 && d.s[1].n == 15);
	CHECK("seed001 table 1 tests", krp_ub_table(&d.s[0], KRP_UB_AUTO, &out) == 5);
	check_table("seed001 table 1 exact", out.data, want1, 7);
	krp_buf_free(&out);
	krp_ub_table(&d.s[1], KRP_UB_AUTO, &out);
	check_table("seed001 table 2 exact", out.data, want2, 7);
	CHECK("seed001 partial note", strstr(out.data, "(partial: 5 of 11 index tests)") != NULL);
	krp_buf_free(&out);
	/* The 5.0+ set adds shell1: 5796.0/42.4*10 = 1367.0. */
	krp_ub_table(&d.s[0], KRP_UB_V5, &out);
	CHECK("seed001 v5 shell1",
	      strstr(out.data, "Shell Scripts (1 concurrent)                  42.4      "
			       "5796.0    1367.0\n") != NULL);
	krp_buf_free(&out);
	krp_ub_doc_free(&d);
}

static void test_metrics(void)
{
	struct krp_metrics m;
	struct krp_ub_section s;
	struct krp_buf out = {0};

	krp_metrics_init(&m);
	krp_metric_add(&m, "unixbench.execl", 430, KRP_SET);  /* index 100 */
	krp_metric_add(&m, "unixbench.shell8", 600, KRP_SET); /* index 1000 */
	krp_metric_add(&m, "unixbench.dc", 5, KRP_SET);
	krp_ub_from_metrics(&m, &s);
	CHECK("metrics 3 results", s.n == 3);
	CHECK("metrics 2 index tests", krp_ub_table(&s, KRP_UB_V5, &out) == 2);
	/* sqrt(100 * 1000) = 316.2 */
	CHECK("metrics final score", strstr(out.data, "316.2\n") != NULL);
	CHECK("metrics partial", strstr(out.data, "(partial: 2 of 12 index tests)") != NULL);
	krp_buf_free(&out);
	krp_ub_section_free(&s);
	krp_metrics_free(&m);
}

/* The kit's "all" run (suites/unixbench/fixtures/all-1s-1sample, the
 * program's own lines): every test of the 5.0+ index set, Dhrystone 2
 * included, so the table has 12 rows and no "partial" note. */
static void test_kit_all(void)
{
	FILE *f = fopen("suites/unixbench/fixtures/all-1s-1sample", "r");
	char text[8192];
	size_t n = 0;
	struct krp_ub_doc d;
	struct krp_buf out = {0};

	CHECK("kit all: fixture", f != NULL);
	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	krp_ub_parse(text, n, &d);
	CHECK("kit all: one section of 20", d.n == 1 && d.s[0].n == 20);
	if (d.n == 1) {
		CHECK("kit all: 12 index tests", krp_ub_table(&d.s[0], KRP_UB_V5, &out) == 12);
		CHECK("kit all: Dhrystone 2 row (15770602.2 / 116700 x 10)",
		      strstr(out.data, "Dhrystone 2 using register variables      116700.0  "
				       "15770602.2    1351.4\n") != NULL);
		CHECK("kit all: not partial", strstr(out.data, "partial") == NULL);
	}
	krp_buf_free(&out);
	krp_ub_doc_free(&d);
}

int main(void)
{
	test_formulas();
	test_parse_line();
	test_seed001();
	test_metrics();
	test_kit_all();
	UNIT_EXIT();
}
