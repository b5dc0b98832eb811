/* unixbench's Shell Scripts and Dc tests (UnixBench's "looper" over
 * multi.sh and dc): one part of unixbench.c, included by it after its
 * die(), fork_loop() and the options' globals (dir), and by nothing else. */
#ifndef KREPRO_UB_SHELL_H
#define KREPRO_UB_SHELL_H

/* ---- shell scripts: looper over "sh multi.sh N" ---- */

/* write_file: IN/NAME holding TEXT; its path goes to PATH (4096 bytes). */
static void write_file(char *path, const char *in, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, 4096, "%s/%s", in, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		die("write %s: %s", path, strerror(errno));
}

/* The shell tests' scripts, the kit's own; as long as UnixBench's multi.sh
 * and tst.sh, so busybox sh parses as much on each run (natively, callgrind:
 * 224328 instructions for "multi.sh 0" against upstream's 225777, 147254 to
 * parse tst.sh against 145176; the short scripts before were 111 K and 34 K
 * instructions a run lighter) */
static const char shell_multi_sh[] =
    "#!/bin/sh\n"
    "# krepro unixbench: the Shell Scripts workload (the kit's own script).\n"
    "#\n"
    "# usage: multi.sh N\n"
    "#   Starts N copies of tst.sh in the background, each over sort.src in\n"
    "#   this directory, and waits until every copy is done.  The looper runs\n"
    "#   this script over and over and counts the runs (loops per minute).\n"
    "#   MULTI_SH_WORK_FACTOR=K (default 1) gives each copy K copies of\n"
    "#   sort.src, concatenated into one file for this run.\n"
    "#\n"
    "# The shell reads and parses every line of this file on each run, these\n"
    "# comments too, and its time is part of the result: the script is about\n"
    "# as long as UnixBench's multi.sh, so that each run parses about as much\n"
    "# (docs/BENCHMARKS.md, \"Against upstream, side by side\").\n"
    "#\n"
    "what=\"krepro multi.sh: N copies of tst.sh, then wait\"\n"
    "copy=1\n"
    "input=sort.src\n"
    "factor=${MULTI_SH_WORK_FACTOR:-1}\n"
    "if [ $factor -gt 1 ]; then\n"
    "\tlist=\n"
    "\tfor k in $(seq $factor); do list=\"$list $input\"; done\n"
    "\tcat $list >sort.src-x$factor.$$\n"
    "\tinput=sort.src-x$factor.$$\n"
    "fi\n"
    "\n"
    "while [ $copy -le $1 ]; do\n"
    "\t/bin/sh ./tst.sh $input &\n"
    "\tcopy=$(($copy + 1))\n"
    "done\n"
    "wait\n"
    "\n"
    "if [ $factor -gt 1 ]; then\n"
    "\trm $input\n"
    "fi\n";

static const char shell_tst_sh[] =
    "#!/bin/sh\n"
    "# krepro unixbench: one copy of the Shell Scripts work (the kit's own).\n"
    "#\n"
    "# usage: tst.sh FILE\n"
    "#   Sorts FILE, dumps the sorted text in octal and sorts the dump by its\n"
    "#   offsets, keeps the lines that hold \"the\" (and counts their lines,\n"
    "#   words and bytes), then removes the four files it wrote, which carry\n"
    "#   this shell's process id so that parallel copies do not collide.\n"
    "#\n"
    "# The shell reads and parses every line of this file on each run, these\n"
    "# comments too, and its time is part of the result: the script is about\n"
    "# as long as UnixBench's tst.sh, so each copy parses about as much\n"
    "# (docs/BENCHMARKS.md).\n"
    "#\n"
    "#\n"
    "what=\"krepro tst.sh: sort, od, sort -n, grep, tee, wc\"\n"
    "sort >sort.$$ <\"$1\"\n"
    "od sort.$$ | sort -n -k 1 >od.$$\n"
    "grep the sort.$$ | tee grep.$$ | wc >wc.$$\n"
    "rm sort.$$ od.$$ grep.$$ wc.$$\n";

static const char *shell_dir(void)
{
	/* on the heap: 4 KiB more of .bss put libc's data on one page more,
	 * which every fork then made the parent fault on, while the fork loops
	 * ran in this program (Process Creation read 0.91 of upstream's in
	 * exact mode; they run in unixbench-loop now) */
	static char *d;
	char *src, path[4096];

	if (d)
		return d;
	if (asprintf(&d, "%s/unixbench-shell.%d", dir, (int)getpid()) < 0)
		die("out of memory");
	if (mkdir(d, 0700) < 0 && errno != EEXIST)
		die("mkdir %s: %s", d, strerror(errno));
	src = malloc(UB_SORT_BYTES + 1);
	if (!src || ub_sort_src(src, UB_SORT_BYTES + 1) != UB_SORT_BYTES)
		die("out of memory");
	/* the kit's words in the shape of UnixBench's sort.src (ub_calc.h) */
	write_file(path, d, "sort.src", src);
	write_file(path, d, "tst.sh", shell_tst_sh);
	/* run as upstream's: the looper executes the script itself (its
	 * first line names /bin/sh), which starts each copy as /bin/sh, a
	 * path: busybox runs a bare "sh" as its own applet, another way */
	write_file(path, d, "multi.sh", shell_multi_sh);
	if (chmod(path, 0755) < 0)
		die("chmod %s: %s", path, strerror(errno));
	free(src);
	return d;
}

static void sample_shell(const void *arg, double *count, double *secs)
{
	char *args[] = {"run", "./multi.sh", (char *)arg, NULL};

	fork_loop("shell scripts: multi.sh", args, shell_dir(), -1, count, secs);
}

/* Dc as UnixBench runs it: "looper 30 dc" with dc.dat ("99 k 2 v p q")
 * as looper's standard input.  The children share that one open file: the
 * first dc reads it and prints sqrt(2) to 99 places, the ones after it
 * find the end of the file and exit, so most loops time a dc start-up. */
static void sample_dc(const void *arg, double *count, double *secs)
{
	static const char dc_dat[] = "99\nk\n2\nv\np\nq\n";
	char path[4096], *args[] = {"run", "dc", NULL};
	int fd;

	(void)arg;
	write_file(path, dir, "dc.dat", dc_dat);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	fork_loop("dc", args, NULL, fd, count, secs);
	close(fd);
}

#endif
