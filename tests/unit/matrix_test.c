/* Matrix files: expansion order, multi-part merge, nr_task mapping and
 * errors with their line numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "unit.h"

static long expand(const char *text, struct krp_buf *out, struct krp_matrix_err *err)
{

	memset(out, 0, sizeof(*out));
	return krp_matrix_expand(text, strlen(text), out, err);
}

static void expect_ok(const char *name, const char *text, const char *want)
{
	struct krp_buf out;
	struct krp_matrix_err err;
	long n = expand(text, &out, &err);

	if (n < 0)
		printf("  %s: unexpected error line %lu: %s\n", name, err.line, err.msg);
	CHECK_STR(name, out.data ? out.data : "", want);
	krp_buf_free(&out);
}

static void expect_err(const char *name, const char *text, unsigned long line, const char *msg)
{
	struct krp_buf out;
	struct krp_matrix_err err;
	long n = expand(text, &out, &err);
	int ok = n == -1 && err.line == line && strstr(err.msg, msg) != NULL && out.len == 0;

	CHECK(name, ok);
	if (!ok)
		printf("  got rc %ld line %lu \"%s\"; want line %lu \"%s\"\n", n, err.line, err.msg,
		       line, msg);
	krp_buf_free(&out);
}

static void test_expand(void)
{
	expect_ok("product order",
		  "# will-it-scale page_fault3\n"
		  "\n"
		  "testcase: will-it-scale\n"
		  "mode: [process, thread]   # both modes\n"
		  "nr_task: [1,2]\n"
		  "runtime: 8s\n"
		  "runs: 3\n",
		  "testcase=will-it-scale mode=process nr_task=1 runtime=8s runs=3\n"
		  "testcase=will-it-scale mode=process nr_task=2 runtime=8s runs=3\n"
		  "testcase=will-it-scale mode=thread nr_task=1 runtime=8s runs=3\n"
		  "testcase=will-it-scale mode=thread nr_task=2 runtime=8s runs=3\n");
	expect_ok("scalars only", "a: 1\nb: x/y@z:1+2%\n", "a=1 b=x/y@z:1+2%\n");
	expect_ok("single-item list", "a: [ x ]\r\nb: y  \r\n", "a=x b=y\n");
	/* '#' in a value is the value's; after a space, a comment */
	expect_ok("hash in a value", "r: tarball:/l.tar.xz#0a1b # the sha\nv: [a~2, b^]\n",
		  "r=tarball:/l.tar.xz#0a1b v=a~2\nr=tarball:/l.tar.xz#0a1b v=b^\n");
	expect_ok("three axes", "a: [1, 2]\nb: [x, y]\nc: [p, q]\n",
		  "a=1 b=x c=p\na=1 b=x c=q\na=1 b=y c=p\na=1 b=y c=q\n"
		  "a=2 b=x c=p\na=2 b=x c=q\na=2 b=y c=p\na=2 b=y c=q\n");
	expect_ok("multi-part",
		  "testcase: vm-scalability\n"
		  "size: 1G\n"
		  "runtime: 300s\n"
		  "---\n"
		  "test: [anon-w-seq, anon-r-seq]\n"
		  "---\n"
		  "# override size in place\n"
		  "size: 8T\n"
		  "test: lru-shm\n",
		  "testcase=vm-scalability size=1G runtime=300s test=anon-w-seq\n"
		  "testcase=vm-scalability size=1G runtime=300s test=anon-r-seq\n"
		  "testcase=vm-scalability size=8T runtime=300s test=lru-shm\n");
	expect_ok("leading separator", "---\na: 1\n", "a=1\n");
	/* counts are run-matrix's to resolve, against the cell's board */
	expect_ok("nr_task percent kept as written", "nr_task: [50%, 100%, 3]\n",
		  "nr_task=50%\nnr_task=100%\nnr_task=3\n");
	expect_ok("other keys keep percent", "util: 50%\n", "util=50%\n");
}

static void test_errors(void)
{
	char big[1200];
	size_t o = 0;
	int i;

	expect_err("duplicate key", "a: 1\nb: 2\na: 3\n", 3, "duplicate key a (first on line 1)");
	expect_err("missing colon", "a: 1\nfoo bar\n", 2, "missing colon");
	expect_err("empty list", "# x\na: []\n", 2, "empty list");
	expect_err("empty list item", "a: [x,,y]\n", 1, "empty list item");
	expect_err("trailing comma", "a: [x, y,]\n", 1, "empty list item");
	expect_err("unterminated [", "a: 1\n\nb: [x, y\n", 3, "unterminated [");
	expect_err("bad character in value", "a: x;y\n", 1, "bad character ';' in value");
	expect_err("quote in value", "a: \"x\"\n", 1, "bad character '\"' in value");
	expect_err("space in value", "a: x y\n", 1, "values cannot contain spaces");
	expect_err("bad character in list", "a: [x y]\n", 1, "bad character");
	expect_err("text after ]", "a: [x]y\n", 1, "after ]");
	expect_err("nested list", "a: [[x]]\n", 1, "nested lists");
	expect_err("tab indentation", "a: 1\n\tb: 2\n", 2, "tab indentation");
	expect_err("space indentation", "a: 1\n  b: 2\n", 2, "indented line");
	expect_err("upper-case key", "Foo: 1\n", 1, "bad character 'F' at the start of a key");
	expect_err("hyphen in key", "will-it-scale: 1\n", 1, "bad character '-' in key");
	expect_err("missing value", "a: 1\nb:\n", 2, "missing value for key b");
	expect_err("missing value comment", "b: # x\n", 1, "missing value for key b");
	expect_err("no space after colon", "a:b\n", 1, "expected a space after \"a:\"");
	expect_err("runs list", "runs: [1, 2]\n", 1, "runs must be a single number");
	expect_err("runs zero", "runs: 0\n", 1, "runs must be a positive integer");
	expect_err("runs word", "a: 1\nruns: many\n", 2, "runs must be a positive integer");
	expect_err("empty trailing part", "a: 1\n---\nb: 2\n---\n# nothing\n", 4,
		   "empty part after ---");
	expect_err("empty middle part", "a: 1\n---\n---\nb: 2\n", 2, "empty part after ---");
	expect_err("no keys", "# only a comment\n\n", 0, "no keys");
	expect_err("duplicate within part", "a: 1\n---\nb: 1\nb: 2\n", 4, "duplicate key b");

	/* 101 x 100 = 10100 cells: the second axis is too many. */
	o += (size_t)snprintf(big + o, sizeof(big) - o, "a: [");
	for (i = 0; i < 101; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o, i ? ",%d" : "%d", i);
	o += (size_t)snprintf(big + o, sizeof(big) - o, "]\n# c\nb: [");
	for (i = 0; i < 100; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o, i ? ",%d" : "%d", i);
	snprintf(big + o, sizeof(big) - o, "]\n");
	expect_err("too many cells", big, 3, "more than 10000 cells");

	/* 100 x 60 per part, two parts: 12000 in total. */
	o = 0;
	o += (size_t)snprintf(big + o, sizeof(big) - o, "a: [");
	for (i = 0; i < 100; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o, i ? ",%d" : "%d", i);
	o += (size_t)snprintf(big + o, sizeof(big) - o, "]\n---\nb: [");
	for (i = 0; i < 60; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o, i ? ",%d" : "%d", i);
	o += (size_t)snprintf(big + o, sizeof(big) - o, "]\n---\nc: [");
	for (i = 0; i < 60; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o, i ? ",%d" : "%d", i);
	snprintf(big + o, sizeof(big) - o, "]\n");
	expect_err("too many cells in total", big, 4, "more than 10000 cells in total");

	{
		struct krp_buf out;
		struct krp_matrix_err err;

		CHECK("a count is not checked here (lib/shared/cells.awk's key checks do)",
		      expand("nr_task: x%\n", &out, &err) == 1 && out.len == 11);
		krp_buf_free(&out);
		CHECK("NUL inside a line",
		      krp_matrix_expand("a: 1\nb: x\0y\n", 12, &out, &err) == -1 && err.line == 2);
		krp_buf_free(&out);
	}
}

int main(void)
{
	test_expand();
	test_errors();
	UNIT_EXIT();
}
