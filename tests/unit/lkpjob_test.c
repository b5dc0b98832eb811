/* lkp-tests job files -> matrix: nested maps, lists, documents, notes, and
 * the bounds that keep a hostile file small. */
#include <stdlib.h>

#include "lkpjob.h"
#include "unit.h"

static const char keys[] =
    "\nsuite\nvariants\nruns\nboard\nclock\ntest\nmode\nnr_task\nruntime\nsize\n"
    "thp\nthreads\nmonitors\nfs\n";

static int conv(const char *y, struct krp_buf *out, struct krp_buf *notes, struct krp_matrix_err *e)
{
	memset(out, 0, sizeof(*out));
	memset(notes, 0, sizeof(*notes));
	return krp_lkpjob_to_matrix(y, strlen(y), NULL, keys, out, notes, e);
}

static int has(const struct krp_buf *b, const char *s)
{
	return b->data && memmem(b->data, b->len, s, strlen(s)) != NULL;
}

int main(void)
{
	struct krp_buf out, notes;
	struct krp_matrix_err e;
	int rc;

	rc = conv(
	    "---\n:#! jobs/will-it-scale.yaml:\nsuite: will-it-scale\ntestcase: will-it-scale\n"
	    "category: benchmark\nnr_task: 50%\nwill-it-scale:\n  mode: process\n  test: "
	    "page_fault3\n"
	    "testbox: lkp-bdw-ep3d\ncpufreq_governor: "
	    "performance\nmeminfo:\nturbostat:\nbuddyinfo:\n"
	    "perf-profile:\n  delay: 40\nqueue: bisect\n",
	    &out, &notes, &e);
	CHECK("0-day job converts", rc == 0);
	CHECK("suite", has(&out, "suite: will-it-scale\n"));
	CHECK("nested program map flattened", has(&out, "mode: process\ntest: page_fault3\n"));
	CHECK("nr_task kept", has(&out, "nr_task: 50%\n"));
	/* buddyinfo: a monitor folder added with no edit to the kit's list */
	CHECK("the kit's monitors", has(&out, "monitors: meminfo+buddyinfo+perf-profile\n"));
	CHECK("testbox not in the matrix", !has(&out, "testbox") && !has(&out, "lkp-bdw"));
	CHECK("cpufreq_governor noted as not applicable",
	      has(&notes, "cpufreq_governor: not applicable under QEMU"));
	CHECK("cpufreq_governor not in the matrix", !has(&out, "performance"));
	CHECK("a monitor the kit lacks noted",
	      has(&notes, "monitors the kit does not have: turbostat"));
	CHECK("bookkeeping noted together",
	      has(&notes, "not parameters of the kit: queue, ignored"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("testcase: vm-scalability\nruntime: 300s\nvm-scalability:\n  test:\n  - lru-shm\n"
		  "  - lru-file-mmap-read\ntransparent_hugepage:\n  thp_enabled: never\n  "
		  "thp_defrag: never\n"
		  "nr_task: [1, 50%]\n",
		  &out, &notes, &e);
	CHECK("block list and flow list", rc == 0 &&
					      has(&out, "test: [lru-shm, lru-file-mmap-read]\n") &&
					      has(&out, "nr_task: [1, 50%]\n"));
	CHECK("thp_enabled is thp", has(&out, "thp: never\n"));
	CHECK("thp_defrag noted with its parent", has(&notes, "transparent_hugepage.thp_defrag:"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("---\ntestcase: unixbench\nunixbench: {test: shell8}\n---\ntestcase: unixbench\n"
		  "unixbench: {test: execl}\n",
		  &out, &notes, &e);
	CHECK("two documents are two parts",
	      rc == 0 && has(&out, "---\nsuite: unixbench\ntest: shell8\n---\n"
				   "suite: unixbench\ntest: execl\n"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("testcase: specjbb2015\ntestbox: x\n---\ntestbox: y\n", &out, &notes, &e);
	CHECK("specjbb2015 is the kit's specjbb", rc == 0 && has(&out, "suite: specjbb\n"));
	CHECK("a key is noted once", has(&notes, "testbox: names") &&
					 !memmem(strstr(notes.data, "testbox: names") + 1,
						 strlen(notes.data) - 1, "testbox: names", 14));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("testcase: will-it-scale\nwill-it-scale:\n  test: \"page fault\"\n", &out, &notes,
		  &e);
	CHECK("a value that cannot be a path is refused at its line",
	      rc == -1 && e.line == 3 && strstr(e.msg, "test: value 'page fault'") && out.len == 0);
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("testcase: netperf\n", &out, &notes, &e);
	CHECK("an unknown testcase names the kit's suites, every folder's (the Makefile's table)",
	      rc == -1 && e.line == 1 && strstr(e.msg, "'netperf': the kit has no such suite") &&
		  strstr(e.msg,
			 "(it has autonuma-benchmark, hackbench, membench, specjbb, unixbench,"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	/* hackbench by its lkp-tests name, as lkp's jobs/hackbench.yaml: its own
	 * keys (nr_threads, iterations) before lkp's renames and the keys that
	 * do not apply elsewhere; lkp's "threads" is the kit's thread mode */
	{
		static const char hb_keys[] =
		    "\nsuite\nmode\nnr_threads\nipc\niterations\nthreads\n"
		    "hackbench/mode\nhackbench/nr_threads\nhackbench/ipc\n"
		    "hackbench/iterations\nspecjbb/threads\n";
		static const char hb[] =
		    "suite: hackbench\ntestcase: hackbench\ncategory: benchmark\n"
		    "nr_threads:\n  - 100%\n  - 1600%\niterations: 8\n"
		    "hackbench:\n  mode:\n    - process\n    - threads\n"
		    "  ipc:\n    - pipe\n    - socket\n";

		memset(&out, 0, sizeof(out));
		memset(&notes, 0, sizeof(notes));
		rc = krp_lkpjob_to_matrix(hb, strlen(hb), NULL, hb_keys, &out, &notes, &e);
		CHECK("an lkp hackbench job expands to the hackbench suite",
		      rc == 0 &&
			  has(&out,
			      "suite: hackbench\nnr_threads: [100%, 1600%]\n"
			      "iterations: 8\nmode: [process, thread]\nipc: [pipe, socket]\n"));
		CHECK("... nr_threads is hackbench's own, not specjbb's threads",
		      !has(&out, "\nthreads:"));
		CHECK("... iterations is not noted as lkp's repeat count",
		      !has(&notes, "iterations"));
		krp_buf_free(&out);
		krp_buf_free(&notes);
	}
	{
		static const char table[] =
		    "suite word job kit - x\nmode enum:a|b path hackbench - y\n"
		    "# c\n";
		char *k = krp_lkpjob_keys(table, strlen(table));

		CHECK_STR("the key table: every key, a suite's own also as SUITE/KEY", k,
			  "\nsuite\nmode\nhackbench/mode\n");
		free(k);
	}

	rc = conv("runtime: 300s\n", &out, &notes, &e);
	CHECK("no testcase", rc == -1 && strstr(e.msg, "no testcase"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	rc = conv("testcase: will-it-scale\nwill-it-scale:\n  mode: [process\n", &out, &notes, &e);
	CHECK("YAML syntax error names the line",
	      rc == -1 && e.line >= 3 && strstr(e.msg, "YAML:"));
	krp_buf_free(&out);
	krp_buf_free(&notes);

	/* Billion laughs: aliases are followed, the walk is bounded. */
	{
		struct krp_buf y = {0};

		krp_buf_puts(&y,
			     "testcase: will-it-scale\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
		for (int i = 1; i < 9; i++)
			krp_buf_printf(&y,
				       "a%d: &a%d {k0: *a%d, k1: *a%d, k2: *a%d, k3: *a%d, k4: "
				       "*a%d, k5: *a%d, "
				       "k6: *a%d, k7: *a%d, k8: *a%d, k9: *a%d}\n",
				       i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1,
				       i - 1, i - 1);
		krp_buf_add(&y, "", 1);
		rc = conv(y.data, &out, &notes, &e);
		CHECK("alias expansion is bounded", rc == -1 && strstr(e.msg, "nodes"));
		krp_buf_free(&out);
		krp_buf_free(&notes);
		krp_buf_free(&y);
	}
	{
		struct krp_buf y = {0};

		krp_buf_puts(&y, "testcase: will-it-scale\n");
		for (int i = 0; i < 40; i++)
			krp_buf_printf(&y, "%*sk%d:\n", 2 * i, "", i);
		krp_buf_printf(&y, "%*sk: v\n", 80, "");
		krp_buf_add(&y, "", 1);
		rc = conv(y.data, &out, &notes, &e);
		CHECK("nesting is bounded", rc == -1 && strstr(e.msg, "deep"));
		krp_buf_free(&out);
		krp_buf_free(&notes);
		krp_buf_free(&y);
	}
	/* Flow nesting (issue 27, row 9) is refused before libyaml, whose
	 * scanner was quadratic in it, naming the line. */
	{
		struct krp_buf y = {0};

		krp_buf_puts(&y, "testcase: will-it-scale\nx:\n  ");
		for (int i = 0; i < 2000; i++)
			krp_buf_puts(&y, i % 2 ? "{a: " : "[");
		krp_buf_add(&y, "", 1);
		rc = conv(y.data, &out, &notes, &e);
		CHECK("flow nesting is bounded",
		      rc == -1 && strstr(e.msg, "nested more than 16 deep"));
		CHECK("naming its line", e.line == 3);
		krp_buf_free(&out);
		krp_buf_free(&notes);
		krp_buf_free(&y);
	}
	/* Brackets in quoted scalars and comments are not nesting; an
	 * apostrophe in a plain scalar opens no quote. */
	{
		struct krp_buf y = {0};

		krp_buf_puts(
		    &y, "testcase: will-it-scale\n# [[[[[[[[[[[[[[[[[[[[\n"
			"commit: 'a [[[[[[[[[[[[[[[[[[[[ b'\nnote: \"x\\\" [[[[[[[[[[[[[[[[[[[[\"\n"
			"rootfs: it's\nmode: [process]\nnr_task: 1\n");
		krp_buf_add(&y, "", 1);
		rc = conv(y.data, &out, &notes, &e);
		CHECK("quoted and commented brackets are not nesting", rc == 0);
		krp_buf_free(&out);
		krp_buf_free(&notes);
		krp_buf_free(&y);
		y = (struct krp_buf){0};
		krp_buf_puts(&y, "testcase: will-it-scale\nrootfs: it's\nx: ");
		for (int i = 0; i < 40; i++)
			krp_buf_puts(&y, "[");
		krp_buf_add(&y, "", 1);
		rc = conv(y.data, &out, &notes, &e);
		CHECK("an apostrophe in a plain scalar hides no nesting",
		      rc == -1 && strstr(e.msg, "deep") && e.line == 3);
		krp_buf_free(&out);
		krp_buf_free(&notes);
		krp_buf_free(&y);
	}
	/* lkp's semantics (issue 28): a later document inherits the first */
	rc = conv(
	    "testcase: unixbench\nruntime: 300s\nnr_task: 1\nunixbench:\n  test: [pipe, spawn]\n"
	    "---\nperf-profile:\n  duration: 2\nunixbench:\n  test: execl\n",
	    &out, &notes, &e);
	CHECK("a later document without testcase inherits the first",
	      rc == 0 &&
		  has(&out,
		      "---\nsuite: unixbench\nsamples: 30\ntest: [pipe, spawn]\n---\n"
		      "suite: unixbench\nsamples: 30\ntest: execl\nmonitors: perf-profile\n"));
	CHECK("unixbench nr_task: 1 is the kit's one copy", !has(&out, "nr_task"));
	/* lkp's unixbench runs runtime/10 iterations of each test (lkp per) */
	CHECK("unixbench's runtime: lkp's iterations, the kit's samples, said once",
	      notes.data &&
		  strstr(notes.data, "runtime: 300s is what lkp-tests divides into samples of 10 "
				     "s: samples: 30\n") &&
		  !strstr(strstr(notes.data, "divides into") + 1, "divides into"));
	krp_buf_free(&out);
	krp_buf_free(&notes);
	/* the kit's duration grammar (value.h): 5m was refused as "not a
	 * number of seconds" while the kit's runtime: takes it */
	rc = conv("testcase: unixbench\nruntime: 5m\nunixbench:\n  test: pipe\n", &out, &notes, &e);
	CHECK("unixbench's runtime: 5m is 300 s, samples: 30",
	      rc == 0 && has(&out, "samples: 30\n"));
	krp_buf_free(&out);
	krp_buf_free(&notes);
	rc = conv("testcase: unixbench\nruntime: 5x\nunixbench:\n  test: pipe\n", &out, &notes, &e);
	CHECK("... and 5x is refused, naming the grammar",
	      rc == -1 && strstr(e.msg, "'5x' is not a duration, N, Ns, Nm or Nh"));
	krp_buf_free(&out);
	krp_buf_free(&notes);
	rc = conv(
	    "testcase: vm-scalability\nsize:\nruntime: 300s\nvm-scalability:\n  test: lru-shm\n"
	    "---\nruntime:\nsize: 1G\n",
	    &out, &notes, &e);
	CHECK("an empty value is the program's default, in any document",
	      rc == 0 && has(&out, "---\nsuite: vm-scalability\nruntime: 300s\ntest: lru-shm\n---\n"
				   "suite: vm-scalability\ntest: lru-shm\nsize: 1G\n"));
	krp_buf_free(&out);
	krp_buf_free(&notes);
	rc = conv("testcase: unixbench\nnr_task: [100%]\nunixbench:\n  test: pipe\n", &out, &notes,
		  &e);
	CHECK("unixbench nr_task: N copies is the kit's nr_task (Run -c N)",
	      rc == 0 && has(&out, "suite: unixbench\nnr_task: [100%]\ntest: pipe\n"));
	krp_buf_free(&out);
	krp_buf_free(&notes);
	rc = conv(
	    "testcase: unixbench\nnr_task: 1\nunixbench:\n  test:\n  - pipe\n  - 2d-aashapes\n",
	    &out, &notes, &e);
	CHECK("unixbench's X11 tests refused at the value's line, saying why, no guess",
	      rc == -1 && e.line == 6 &&
		  strcmp(e.msg,
			 "test: 2d-aashapes: UnixBench's X11 graphics tests (2d-*, 3d-*, "
			 "ubgears) need an X server, which the kit's guest does not have") == 0 &&
		  out.len == 0);
	krp_buf_free(&out);
	krp_buf_free(&notes);
	/* A key one map gives twice from one file is refused naming both
	 * lines (issue 46, row 16: the last was kept without a word); over an
	 * include's key it is lkp-tests' override. */
	rc = conv("testcase: will-it-scale\nnr_task: 1\nmode: process\nnr_task: 2\n", &out, &notes,
		  &e);
	CHECK("a key twice in one map is refused at its second line, naming both",
	      rc == -1 && e.line == 4 && out.len == 0 &&
		  strcmp(e.msg,
			 "nr_task: twice in one map, at the job:2 and the job:4: a file sets "
			 "a key once") == 0);
	krp_buf_free(&notes);
	rc = conv("testcase: will-it-scale\nwill-it-scale: {test: a, mode: process, test: b}\n",
		  &out, &notes, &e);
	CHECK("a key twice in a program's flow map is refused", rc == -1 && e.line == 2);
	krp_buf_free(&notes);
	rc = conv("testcase: unixbench\na:\n  x: 1\nb:\n  x: 2\n---\ntestcase: unixbench\n", &out,
		  &notes, &e);
	CHECK("one key in two maps or two documents is no repeat", rc == 0);
	krp_buf_free(&out);
	krp_buf_free(&notes);
	{
		/* text lines 2 and 3 came from an include (file 1), 1 and 4 from
		 * the job, as krp_lkpjob_includes records them */
		static const char y[] = "testcase: will-it-scale\nnr_task: 1\nmode: process\n"
					"nr_task: 2\ntest: page_fault3\n";
		struct krp_lkpjob_at at[] = {{0, 1}, {1, 1}, {1, 2}, {0, 3}, {0, 4}};
		char *files[] = {"jobs/inc.yaml"};
		struct krp_lkpjob_origin o = {at, 5, 5, files, 1, "job.yaml"};

		memset(&out, 0, sizeof(out));
		memset(&notes, 0, sizeof(notes));
		rc = krp_lkpjob_to_matrix(y, strlen(y), &o, keys, &out, &notes, &e);
		CHECK("the job's key over its include's overrides it",
		      rc == 0 && has(&out, "nr_task: 2\n") && !has(&out, "nr_task: 1\n"));
		krp_buf_free(&out);
		krp_buf_free(&notes);
		at[3].file = 1;
		rc = krp_lkpjob_to_matrix(y, strlen(y), &o, keys, &out, &notes, &e);
		CHECK("a key twice in one include is refused naming the include's lines",
		      rc == -1 && e.line == 4 &&
			  strstr(e.msg, "at jobs/inc.yaml:1 and jobs/inc.yaml:3:"));
		krp_buf_free(&notes);
		at[1].file = 0;
		at[1].line = 2;
		at[3].file = 0;
		rc = krp_lkpjob_to_matrix(y, strlen(y), &o, keys, &out, &notes, &e);
		CHECK("a key twice in the job names the job's lines",
		      rc == -1 && strstr(e.msg, "at job.yaml:2 and job.yaml:3:"));
		krp_buf_free(&notes);
	}
	{
		static const char inc[] = "testcase: will-it-scale\n  <<: part.yaml\n";

		memset(&out, 0, sizeof(out));
		rc = krp_lkpjob_includes(inc, strlen(inc), "/nonexistent", NULL, &out, NULL, &e);
		CHECK("an include without a checkout is refused naming it, its line and the option",
		      rc == -1 && e.line == 2 && strstr(e.msg, "part.yaml") &&
			  strstr(e.msg, "--lkp-tests DIR") && out.len == 0);
		rc = krp_lkpjob_includes(inc, strlen(inc) - 16, "/nonexistent", NULL, &out, NULL,
					 &e);
		CHECK("no include: the text as it is", rc == 0 && out.len == strlen(inc) - 16 &&
							   memcmp(out.data, inc, out.len) == 0);
		krp_buf_free(&out);
		rc = krp_lkpjob_includes("<<: /etc/passwd\n", 16, ".", "/", &out, NULL, &e);
		CHECK("an absolute include is refused", rc == -1 && strstr(e.msg, "an include is"));
		rc = krp_lkpjob_includes("x: 1\n<<: *anchor\n", 17, ".", NULL, &out, NULL, &e);
		CHECK("a YAML merge is libyaml's", rc == 0 && has(&out, "<<: *anchor\n"));
		krp_buf_free(&out);
	}
	return unit_failed;
}
