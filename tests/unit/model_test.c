/* Unit tests for tools/qemu-plugin/model.c, the memory model of the QEMU
 * plugin, fed by hand as the plugin would feed it (docs/MEMORY-MODEL.md). */
#include "unit.h"

#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../tools/qemu-plugin/latency.h"
#include "../../tools/qemu-plugin/model.h"
#include "../../tools/qemu-plugin/uprogs.h"
#include "../../tools/qemu-plugin/xlat.h"
#include "model_fixture.h"
#include "model_mark.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random cyclic order of n lines (Sattolo), as a pointer chase walks it. */
static size_t *chase_order(size_t n)
{
	size_t *p = malloc(n * sizeof(*p));

	for (size_t i = 0; i < n; i++)
		p[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(next_rand() % i), t = p[i];

		p[i] = p[j];
		p[j] = t;
	}
	return p;
}

/* passes over a chase of `bytes`: one warm-up window, then `passes` counted
 * separately; ratio of the counted window's misses of `level` per
 * `per` (loads or references). */
static double chase_ratio(size_t bytes, int passes, enum krm_event level, enum krm_event per)
{
	struct krm_model *m = model(1, NULL, NULL, "65536");
	size_t n = bytes / 64, *order = chase_order(n);
	uint64_t clock = 0, miss0, per0, cur = 0;
	double r;

	krm_window(m, 1);
	for (size_t i = 0; i < n; i++, cur = order[cur])
		krm_access(m, 0, clock++, 0x10000000 + cur * 64, PC_USER, 0);
	krm_window(m, 0);
	miss0 = sum(m, 0, level);
	per0 = sum(m, 0, per);
	krm_window(m, 1);
	for (int p = 0; p < passes; p++)
		for (size_t i = 0; i < n; i++, cur = order[cur])
			krm_access(m, 0, clock++, 0x10000000 + cur * 64, PC_USER, 0);
	krm_window(m, 0);
	r = (double)(sum(m, 0, level) - miss0) / (double)(sum(m, 0, per) - per0);
	free(order);
	krm_free(m);
	return r;
}

/* Two vCPUs each storing n times to its line (line0, line1), vCPU 0 at
 * even clocks and vCPU 1 at odd ones, fed in slices of `slice` accesses a
 * vCPU as the emulator runs them (slice 1: in clock order). */
static struct krm_model *writers_on(const char *cpunode, uint64_t line0, uint64_t line1, size_t n,
				    size_t slice)
{
	struct krm_model *m =
	    model(2, "0x0-0xffffffff:0+0x100000000-0x1ffffffff:1", cpunode, "4096");

	krm_window(m, 1);
	for (size_t s = 0; s < n; s += slice)
		for (unsigned cpu = 0; cpu < 2; cpu++)
			for (size_t i = s; i < s + slice && i < n; i++) {
				uint64_t clock = 2 * i + cpu;

				krm_tick(m, cpu, clock + 1, 1, 1);
				krm_access(m, cpu, clock, cpu ? line1 : line0, PC_KERNEL + cpu, 1);
			}
	krm_window(m, 0);
	return m;
}

static struct krm_model *two_writers(uint64_t line0, uint64_t line1, size_t n, size_t slice)
{
	return writers_on("0,0", line0, line1, n, slice);
}

/* coherence transfers a store, the two vCPUs together */
static double transfers_per_store(struct krm_model *m)
{
	return (double)(sum(m, 0, KRM_COHERENCE) + sum(m, 1, KRM_COHERENCE)) /
	       (double)(sum(m, 0, KRM_STORES) + sum(m, 1, KRM_STORES));
}

static char *report(struct krm_model *m, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || krm_write(m, f) != 0) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static void test_config(void)
{
	struct krm_config c;
	char err[256] = "";

	krm_config_default(&c, 2);
	CHECK("config: defaults check", krm_config_check(&c, err, sizeof(err)) == 0);
	CHECK("config: l1d 48K/12", krm_config_set(&c, "l1d", "48K/12", err, sizeof(err)) == 0 &&
					c.l1_size == 48 << 10 && c.l1_ways == 12 &&
					krm_config_check(&c, err, sizeof(err)) == 0);
	CHECK("config: l2 without ways",
	      krm_config_set(&c, "l2", "1M", err, sizeof(err)) < 0 && strstr(err, "SIZE/WAYS"));
	CHECK("config: sets not a power of two",
	      krm_config_set(&c, "llc", "6M/16", err, sizeof(err)) == 0 &&
		  krm_config_check(&c, err, sizeof(err)) < 0);
	krm_config_default(&c, 2);
	CHECK("config: nodes",
	      krm_config_set(&c, "nodes", "0x0-0x3fffffff:0+0x40000000-0x7fffffff:1", err,
			     sizeof(err)) == 0 &&
		  c.nranges == 2 && c.nnodes == 2 && c.range[1].start == 0x40000000 &&
		  c.range[1].end == 0x7fffffff && c.range[1].node == 1);
	/* issue 46 row 16: 17179869192G is 2^64 + 8G: refused, not wrapped to 8G */
	CHECK("config: a size past 64 bits is refused",
	      krm_config_set(&c, "llc", "17179869192G/16", err, sizeof(err)) < 0 &&
		  krm_config_set(&c, "l2", "18014398509481984K/16", err, sizeof(err)) < 0 &&
		  krm_config_set(&c, "buffer", "17179869184G", err, sizeof(err)) < 0);
	CHECK("config: cpunode", krm_config_set(&c, "cpunode", "0+1", err, sizeof(err)) == 0 &&
				     c.cpu_node[1] == 1 &&
				     krm_config_check(&c, err, sizeof(err)) == 0);
	CHECK("config: cpunode one short",
	      krm_config_set(&c, "cpunode", "0", err, sizeof(err)) < 0);
	CHECK("config: cpunode past the nodes",
	      krm_config_set(&c, "cpunode", "0,2", err, sizeof(err)) == 0 &&
		  krm_config_check(&c, err, sizeof(err)) < 0 && strstr(err, "past the"));
	krm_config_default(&c, 2);
	CHECK("config: overlapping ranges",
	      krm_config_set(&c, "nodes", "0-0x1000:0,0x1000-0x2000:1", err, sizeof(err)) == 0 &&
		  krm_config_check(&c, err, sizeof(err)) < 0 && strstr(err, "overlap"));
	CHECK("config: a range backwards",
	      krm_config_set(&c, "nodes", "0x2000-0x1000:0", err, sizeof(err)) < 0);
	CHECK("config: unknown key",
	      krm_config_set(&c, "l3", "1M/8", err, sizeof(err)) < 0 && strstr(err, "unknown"));
	CHECK("config: window=all",
	      krm_config_set(&c, "window", "all", err, sizeof(err)) == 0 && c.window_all == 1);
	CHECK("config: window=some", krm_config_set(&c, "window", "some", err, sizeof(err)) < 0);
	CHECK("config: line 48", krm_config_set(&c, "line", "48", err, sizeof(err)) == 0 &&
				     krm_config_check(&c, err, sizeof(err)) < 0);
}

static void test_numa(void)
{
	const char *nodes = "0x0-0x3fffffff:0,0x40000000-0x7fffffff:1";
	struct krm_model *m = model(2, nodes, "0,1", NULL);
	uint64_t clock = 0;

	/* 64 MiB a page apart: every access misses the LLC */
	krm_window(m, 1);
	for (uint64_t a = 0; a < (64u << 20); a += 4096)
		krm_access(m, 0, clock++, 0x40000000 + a, PC_USER, 0);
	for (uint64_t a = 0; a < (64u << 20); a += 4096)
		krm_access(m, 0, clock++, 0x10000000 + a, PC_USER, 1);
	krm_window(m, 0);
	CHECK("numa: loads of the other node's pages are remote",
	      sum(m, 0, KRM_NODE_LOADS) + sum(m, 0, KRM_NODE_LOAD_MISSES) == 16384 &&
		  (double)sum(m, 0, KRM_NODE_LOAD_MISSES) / 16384 > 0.99);
	CHECK("numa: stores to the own node's pages are local",
	      sum(m, 0, KRM_NODE_STORES) == 16384 && sum(m, 0, KRM_NODE_STORE_MISSES) == 0);
	CHECK("numa: vCPU 1 did nothing", sum(m, 1, KRM_LOADS) + sum(m, 1, KRM_STORES) == 0);
	CHECK("numa: cycles are base CPI plus the DRAM latencies",
	      sum(m, 0, KRM_CYCLES) == sum(m, 0, KRM_STALL_CYCLES) && sum(m, 0, KRM_CYCLES) > 0);
	krm_free(m);
}

static void test_coherence(void)
{
	struct krm_model *m;
	char *a, *b;
	size_t la, lb;
	double r;

	m = two_writers(0x1000, 0x1000, 20000, 1000);
	r = transfers_per_store(m);
	printf("# shared line, slices of 1000: %.4f coherence transfers per store\n", r);
	CHECK("coherence: one line, two writers in long slices: ~1 transfer a store", r >= 0.9);
	CHECK("coherence: counted as the kernel's",
	      krm_count(m, 0, 1, KRM_STORES) == 20000 && krm_count(m, 0, 0, KRM_STORES) == 0);
	a = report(m, &la);
	krm_free(m);
	m = two_writers(0x1000, 0x1000, 20000, 1);
	b = report(m, &lb);
	CHECK("coherence: slices merged by clock = fed in clock order",
	      a && b && la == lb && memcmp(a, b, la) == 0);
	free(a);
	free(b);
	krm_free(m);

	/* the same writers on two nodes: each transfer crosses the sockets */
	m = writers_on("0,1", 0x1000, 0x1000, 20000, 1000);
	r = (double)(sum(m, 0, KRM_STALL_CYCLES) + sum(m, 1, KRM_STALL_CYCLES)) /
	    (double)(sum(m, 0, KRM_COHERENCE) + sum(m, 1, KRM_COHERENCE));
	printf("# shared line across nodes: %.1f stall cycles a transfer\n", r);
	CHECK("coherence across nodes costs the remote latency",
	      r > KRM_LAT_COHERENCE_REMOTE - 1 && r < KRM_LAT_COHERENCE_REMOTE + 1);
	krm_free(m);
	m = two_writers(0x1000, 0x1000, 20000, 1000);
	r = (double)(sum(m, 0, KRM_STALL_CYCLES) + sum(m, 1, KRM_STALL_CYCLES)) /
	    (double)(sum(m, 0, KRM_COHERENCE) + sum(m, 1, KRM_COHERENCE));
	CHECK("... and within a node the local one",
	      r > KRM_LAT_COHERENCE - 1 && r < KRM_LAT_COHERENCE + 1);
	krm_free(m);

	m = two_writers(0x1000, 0x1040, 20000, 1000);
	r = transfers_per_store(m);
	printf("# padded lines: %.4f coherence transfers per store\n", r);
	CHECK("coherence: padded lines: ~0 transfers", r <= 0.01);
	krm_free(m);
}

/* vCPU 1 idle while vCPU 0 fills its buffer many times over, then back
 * with an old clock: the buffer stays bounded and vCPU 1 moves forward. */
static void test_idle(void)
{
	struct krm_model *m = model(2, NULL, "0,0", "64");
	uint64_t c;

	krm_window(m, 1);
	krm_access(m, 1, 0, 0x2000, PC_USER, 1);
	for (c = 0; c < 10000; c++)
		krm_access(m, 0, c, 0x1000 + (c % 64) * 64, PC_USER, 0);
	krm_access(m, 1, 1, 0x2000, PC_USER, 1);
	krm_access(m, 0, c, 0x2000, PC_USER, 0);
	krm_window(m, 0);
	CHECK("idle: every access simulated",
	      sum(m, 0, KRM_LOADS) == 10001 && sum(m, 1, KRM_STORES) == 2);
	CHECK("idle: vCPU 0's buffer stayed bounded", sum(m, 0, KRM_L1D_MISSES) == 65);
	krm_free(m);
}

/* A woken vCPU: vCPU 1 halts at clock 100 (its count stands still), vCPU 0
 * runs a slice of 1000 stores to one line from clock 1000, then the
 * emulator switches to vCPU 1, woken in that slice, which stores 1000
 * times to the same line from its own clock.  Side by side, the two
 * slices overlap: about one transfer a store.  Without the halt (a busy
 * vCPU whose count is its own) vCPU 1's stores come before vCPU 0's. */
static double woken_writers(int halted)
{
	struct krm_model *m = model(2, NULL, "0,0", "4096");
	double r;

	krm_window(m, 1);
	krm_tick(m, 0, 1, 1, 1);   /* vCPU 0 opens the window */
	krm_tick(m, 1, 100, 1, 1); /* vCPU 1 enters beside it */
	if (halted)
		krm_idle(m, 1);
	for (uint64_t i = 0; i < 1000; i++) {
		krm_tick(m, 0, 1000 + 2 * i + 1, 1, 1);
		krm_access(m, 0, 1000 + 2 * i, 0x1000, PC_KERNEL, 1);
	}
	for (uint64_t i = 0; i < 1000; i++) {
		krm_tick(m, 1, 101 + 2 * i + 1, 1, 1);
		krm_access(m, 1, 101 + 2 * i, 0x1000, PC_KERNEL + 1, 1);
	}
	krm_window(m, 0);
	r = transfers_per_store(m);
	krm_free(m);
	return r;
}

static void test_woken(void)
{
	double woken = woken_writers(1), busy = woken_writers(0);

	printf("# woken vCPU: %.4f transfers a store (busy: %.4f)\n", woken, busy);
	CHECK("woken: a halted vCPU resumes beside the slice that woke it", woken >= 0.9);
	CHECK("woken: a busy vCPU keeps its own clock", busy <= 0.7);
}

/* The window opens with the vCPUs' counts far apart, as on qemu-2node where
 * vCPU 0 booted the machine while vCPU 1 slept (414M and 74M instructions):
 * two threads then store to one line in alternating slices of 1000.  Each
 * vCPU enters the window where the slice before it started, so they run
 * side by side: about one transfer a store (before, 0: the counts decided
 * that vCPU 1's stores all came first). */
static double apart_writers(int halted)
{
	struct krm_model *m = model(2, NULL, "0,0", "4096");
	uint64_t base[2] = {414000000, 74000000};
	double r;

	if (halted) {
		krm_idle(m, 0);
		krm_idle(m, 1);
	}
	krm_window(m, 1);
	for (uint64_t s = 0; s < 20000; s += 1000)
		for (unsigned k = 0; k < 2; k++) {
			unsigned cpu = 1 - k; /* vCPU 1 opens, as in the trace */

			for (uint64_t i = s; i < s + 1000; i++) {
				krm_tick(m, cpu, base[cpu] + 2 * i + 1, 1, 1);
				krm_access(m, cpu, base[cpu] + 2 * i, 0x1000, PC_USER + cpu, 1);
			}
		}
	krm_window(m, 0);
	r = transfers_per_store(m);
	krm_free(m);
	return r;
}

static void test_window_entry(void)
{
	double halted = apart_writers(1), busy = apart_writers(0);

	printf("# counts 340M apart at the window: %.4f transfers a store (halted before), %.4f "
	       "(busy)\n",
	       halted, busy);
	CHECK("window entry: vCPUs whose counts were apart run side by side (halted before)",
	      halted >= 0.9);
	CHECK("window entry: ... and busy before", busy >= 0.9);
}

/* Two busy vCPUs storing to one line, the emulator running 1000 stores of
 * one before the same clocks of the other: a buffer that holds the lead
 * interleaves them (about one transfer a store, no forced merge); one that
 * does not must simulate before the laggard comes, says so in
 * forced-merges, and interleaves less. */
static double lead_writers(const char *buffer, uint64_t *forced)
{
	struct krm_model *m = model(2, NULL, "0,0", buffer);
	double r;

	krm_window(m, 1);
	for (unsigned cpu = 0; cpu < 2; cpu++)
		for (uint64_t i = 0; i < 1000; i++) {
			krm_tick(m, cpu, 2 * i + 1, 1, 1);
			krm_access(m, cpu, 2 * i, 0x1000, PC_KERNEL + cpu, 1);
		}
	krm_window(m, 0);
	r = transfers_per_store(m);
	*forced = krm_forced_merges(m);
	krm_free(m);
	return r;
}

static void test_lead(void)
{
	uint64_t f_big, f_small;
	double big = lead_writers("4096", &f_big), small = lead_writers("64", &f_small);

	printf("# a lead of 1000 stores: buffer 4096 %.4f transfers a store (%llu forced), "
	       "buffer 64 %.4f (%llu forced)\n",
	       big, (unsigned long long)f_big, small, (unsigned long long)f_small);
	CHECK("lead: a buffer that holds it interleaves, no forced merge",
	      big >= 0.9 && f_big == 0);
	CHECK("lead: one that does not says so in forced-merges", f_small > 0 && small < 0.5);
}

/* Clocks that step back now and then (QEMU 7.2 can report an interrupt's
 * accesses with an older instruction's data), three vCPUs in uneven slices,
 * a small buffer: every access simulated, no write past the buffer (ASan). */
static void test_clock_back(void)
{
	struct krm_model *m = model(3, NULL, "0+0+0", "16");
	uint64_t clk[3] = {0, 0, 0}, n = 0;

	krm_window(m, 1);
	for (uint64_t i = 0; i < 200000; i++) {
		unsigned cpu = (unsigned)((i / (1 + next_rand() % 50)) % 3);

		if (next_rand() % 100 == 0)
			clk[cpu] += next_rand() % 100000;
		clk[cpu] += 2;
		krm_tick(m, cpu, clk[cpu], 2, 1);
		krm_access(m, cpu, clk[cpu] - next_rand() % 600, (next_rand() % 100000) * 64,
			   PC_KERNEL, (int)(next_rand() % 2));
		n++;
	}
	krm_window(m, 0);
	CHECK("clock back: every access simulated",
	      sum(m, 0, KRM_LOADS) + sum(m, 0, KRM_STORES) + sum(m, 1, KRM_LOADS) +
		      sum(m, 1, KRM_STORES) + sum(m, 2, KRM_LOADS) + sum(m, 2, KRM_STORES) ==
		  n);
	krm_free(m);
}

static void test_profile_and_windows(void)
{
	struct krm_model *m = model(1, NULL, NULL, NULL);
	char *a, *b;
	size_t la, lb;

	krm_access(m, 0, 0, 0x5000, PC_USER, 0); /* outside any window: not counted */
	krm_window(m, 1);
	krm_window(m, 1); /* nested */
	krm_tick(m, 0, 10, 10, 0);
	for (uint64_t i = 0; i < 300; i++)
		krm_access(m, 0, 10 + i, 0x100000 + i * 4096, PC_USER + (i % 250) * 4, 0);
	krm_window(m, 0);
	krm_window(m, 0);
	krm_window(m, 0); /* one stop too many: ignored */
	krm_window(m, 1);
	krm_tick(m, 0, 20, 5, 1);
	krm_tick(m, 0, 20, -2, 1);
	krm_window(m, 0);
	CHECK("windows: nested counts once, two in all", krm_windows(m) == 2);
	CHECK("windows: nothing outside", sum(m, 0, KRM_LOADS) == 300);
	CHECK("windows: instructions by mode, corrected",
	      krm_count(m, 0, 0, KRM_INSTRUCTIONS) == 10 &&
		  krm_count(m, 0, 1, KRM_INSTRUCTIONS) == 3);
	a = report(m, &la);
	b = report(m, &lb);
	CHECK("report: twice the same bytes", a && b && la == lb && memcmp(a, b, la) == 0);
	if (a) {
		size_t pcs = 0;
		char *p = a;

		while ((p = strstr(p, "\npc 0x")) != NULL) {
			pcs++;
			p++;
		}
		CHECK("report: every PC under the top bound", pcs == 250);
		/* the 50 PCs with two misses lead, in address order */
		CHECK("report: sorted by cycles, then address; user PCs [user]",
		      strstr(a,
			     "\npc 0x401000 [user] cycles 424 misses 2 coherence 0\npc 0x401004 "));
		CHECK("report: header and end", strncmp(a, "# krepro-model 1\n", 17) == 0 &&
						    la > 4 && strcmp(a + la - 4, "end\n") == 0);
	}
	free(a);
	free(b);
	krm_free(m);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/krepro-model-test-%ld-%s",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(), name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void refused(const char *what, const char *text, const char *why)
{
	char err[512] = "", name[64], want[600];
	const char *path;
	struct krm_ksyms *k;

	snprintf(name, sizeof(name), "bad%zu", strlen(what));
	path = write_file(name, text);
	k = krm_ksyms_load(path, err, sizeof(err));
	snprintf(want, sizeof(want), "%s:%s", path, why);
	if (strncmp(err, want, strlen(want)) != 0)
		printf("# got '%s' want '%s'\n", err, want);
	CHECK(what, !k && strncmp(err, want, strlen(want)) == 0);
	krm_ksyms_free(k);
	remove(path);
}

/* ksyms=System.map: text symbols by address, the rest only ends them. */
static void test_ksyms(void)
{
	const char *path = write_file("map", "ffffffff81000000 T _stext\n"
					     "ffffffff81000000 T _text\n"
					     "ffffffff81000100 t do_fault.isra.0\n"
					     "ffffffff81000040 T clear_page\n"
					     "ffffffff81000200 W weak_fn\n"
					     "ffffffff81000300 T _etext\n"
					     "ffffffff81000380 D data_start\n"
					     "0000000000000000 A __per_cpu_start\n");
	char err[512] = "", *a;
	struct krm_ksyms *k = krm_ksyms_load(path, err, sizeof(err));
	struct krm_model *m;
	size_t la;

	remove(path);
	CHECK("ksyms: a System.map loads", k && krm_ksyms_count(k) == 8);
	if (!k) {
		printf("# %s\n", err);
		return;
	}
	CHECK("ksyms: below the first text symbol: none",
	      !krm_ksyms_find(k, 0xffff800000000000ull));
	CHECK("ksyms: two names at one address: the last by name",
	      !strcmp(krm_ksyms_find(k, 0xffffffff81000010ull), "_text"));
	CHECK("ksyms: the function holding a PC",
	      !strcmp(krm_ksyms_find(k, 0xffffffff81000040ull), "clear_page") &&
		  !strcmp(krm_ksyms_find(k, 0xffffffff810000ffull), "clear_page") &&
		  !strcmp(krm_ksyms_find(k, 0xffffffff81000123ull), "do_fault.isra.0") &&
		  !strcmp(krm_ksyms_find(k, 0xffffffff81000234ull), "weak_fn"));
	CHECK("ksyms: a data symbol ends the text before it",
	      !krm_ksyms_find(k, 0xffffffff81000380ull) && !krm_ksyms_find(k, UINT64_MAX));
	m = model(1, NULL, NULL, NULL);
	krm_window(m, 1);
	krm_tick(m, 0, 10, 10, 1);
	krm_access(m, 0, 1, 0x100000, 0xffffffff81000050ull, 0);
	krm_access(m, 0, 2, 0x200000, 0xffffffff81000060ull, 0);
	krm_access(m, 0, 3, 0x300000, 0xffffffff81000400ull, 0);
	krm_access(m, 0, 4, 0x400000, 0x401000, 0);
	krm_window(m, 0);
	a = report(m, &la);
	CHECK("profile: unsymbolised kernel PCs '-'",
	      a && strstr(a, "\npc 0xffffffff81000050 - cycles 212 misses 1 coherence 0\n"));
	free(a);
	krm_set_ksyms(m, k);
	a = report(m, &la);
	CHECK("profile: kernel PCs name their function",
	      a && strstr(a, "\npc 0xffffffff81000050 clear_page cycles 212 ") &&
		  strstr(a, "\npc 0xffffffff81000060 clear_page cycles 212 "));
	CHECK("profile: a kernel PC in no function [unknown], a user PC [user]",
	      a && strstr(a, "\npc 0xffffffff81000400 [unknown] cycles ") &&
		  strstr(a, "\npc 0x401000 [user] cycles "));
	free(a);
	krm_free(m);
	krm_ksyms_free(k);
	refused("ksyms: a line without a type is refused at its line",
		"ffffffff81000000 T a\nffffffff81000040 b\n", "2: expected a one-letter");
	refused("ksyms: a name with a quote is refused", "ffffffff81000000 T a\"b\n",
		"1: a symbol name holds a byte");
	refused("ksyms: a 17-digit address is refused", "1ffffffff81000000 T a\n",
		"1: address over 16");
	refused("ksyms: a cut last line is refused", "ffffffff81000000 T a\nffffffff8100",
		"2: no newline");
	refused("ksyms: no text symbol: not a System.map", "ffffffff81000000 D a\n",
		"1: no text symbol");
	CHECK("ksyms: a missing file is refused",
	      !krm_ksyms_load("/nonexistent/System.map", err, sizeof(err)) &&
		  strstr(err, "/nonexistent/System.map: cannot open"));
}

/* Guest code calling the markers: its bytes must hold the plugin's patterns. */
__attribute__((noinline)) static void marked(void)
{
	krp_model_mark(1);
	krp_model_mark(0);
}

static int code_has(const unsigned char *code, size_t n, const unsigned char *pat)
{
	for (size_t i = 0; i + KRP_MODEL_MARK_LEN <= n; i++)
		if (memcmp(code + i, pat, KRP_MODEL_MARK_LEN) == 0)
			return 1;
	return 0;
}

static void test_marks(void)
{
	static const unsigned char start[] = KRP_MODEL_MARK_BYTES(KRP_MODEL_MARK_START);
	static const unsigned char stop[] = KRP_MODEL_MARK_BYTES(KRP_MODEL_MARK_STOP);
	void (*volatile call)(void) = marked;
	void (*f)(void) = call;
	const unsigned char *code;

	f();
	memcpy(&code, &f, sizeof(code));
	CHECK("marks: krp_model_mark(1) emits the start pattern", code_has(code, 64, start));
	CHECK("marks: krp_model_mark(0) emits the stop pattern", code_has(code, 64, stop));
	CHECK("marks: 7 bytes", sizeof(start) == KRP_MODEL_MARK_LEN);
}

/* The translation record (xlat.h): what it keeps, and the instructions
 * that empty it, by their bytes as the kernel's code has them. */
static void test_xlat(void)
{
	static struct krm_xlat x;
	static const struct {
		const char *name;
		unsigned char b[8];
		size_t n;
		int drops;
	} insn[] = {
	    {"mov %rax,%cr3", {0x0f, 0x22, 0xd8}, 3, 1},
	    {"mov %rdi,%cr4", {0x0f, 0x22, 0xe7}, 3, 1},
	    {"mov %r8,%cr3 (REX)", {0x41, 0x0f, 0x22, 0xd8}, 4, 1},
	    {"invlpg (%rdi)", {0x0f, 0x01, 0x3f}, 3, 1},
	    {"invlpg 0x8(%rax)", {0x0f, 0x01, 0x78, 0x08}, 4, 1},
	    {"invpcid (%rax),%rcx", {0x66, 0x0f, 0x38, 0x82, 0x08}, 5, 1},
	    {"wrmsr", {0x0f, 0x30}, 2, 1},
	    {"lmsw %ax", {0x0f, 0x01, 0xf0}, 3, 1},
	    {"invlpga", {0x0f, 0x01, 0xdf}, 3, 1},
	    {"rsm", {0x0f, 0xaa}, 2, 1},
	    {"swapgs", {0x0f, 0x01, 0xf8}, 3, 0},
	    {"rdtscp", {0x0f, 0x01, 0xf9}, 3, 0},
	    {"lgdt (%rax)", {0x0f, 0x01, 0x10}, 3, 0},
	    {"mov %cr3,%rax (a read)", {0x0f, 0x20, 0xd8}, 3, 0},
	    {"rdmsr", {0x0f, 0x32}, 2, 0},
	    {"nopw %cs:0x0(%rax,%rax,1)", {0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0}, 8, 0},
	    {"a lone 0f", {0x0f}, 1, 0},
	    {"a cut invpcid", {0x66, 0x0f, 0x38}, 3, 0},
	};
	uint64_t pa = 0;
	char name[96];

	for (size_t i = 0; i < sizeof(insn) / sizeof(insn[0]); i++) {
		snprintf(name, sizeof(name), "xlat: %s %s translations", insn[i].name,
			 insn[i].drops ? "drops" : "keeps");
		CHECK(name, krm_insn_drops_xlat(insn[i].b, insn[i].n) == insn[i].drops);
	}
	krm_xlat_clear(&x);
	CHECK("xlat: an empty record finds nothing", !krm_xlat_find(&x, 0x7f0000001234, &pa));
	krm_xlat_put(&x, 0x7f0000001234, 0x5678000 + 0x234);
	CHECK("xlat: a recorded page gives its frame and the access's offset",
	      krm_xlat_find(&x, 0x7f0000001ff8, &pa) && pa == 0x5678ff8);
	CHECK("xlat: a page in the same slot is another page",
	      !krm_xlat_find(&x, 0x7f0000001234 + ((uint64_t)KRM_XLAT_SLOTS << 12), &pa));
	CHECK("xlat: kernel addresses keep their top bits",
	      !krm_xlat_find(&x, 0xffff7f0000001234, &pa));
	krm_xlat_clear(&x);
	CHECK("xlat: emptied, it finds nothing", !krm_xlat_find(&x, 0x7f0000001234, &pa));
}

/* The guest's programs (uprogs.h), on the kit's own static guest builds
 * with their symbols (out/syms/guest, make guest-syms, built before the
 * unit tests): a block's bytes name its program when one program holds
 * them, a PC its function; bytes two programs hold at one address name
 * none; a PIE is refused. */
static const unsigned char *text_at(const char *path, uint64_t vaddr, size_t len,
				    unsigned char *out)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	const unsigned char *r = NULL;

	if (!f)
		return NULL;
	if (fread(&eh, sizeof(eh), 1, f) == 1)
		for (unsigned i = 0; i < eh.e_phnum && !r; i++) {
			Elf64_Phdr ph;

			if (fseek(f, (long)(eh.e_phoff + i * sizeof(ph)), SEEK_SET) != 0 ||
			    fread(&ph, sizeof(ph), 1, f) != 1)
				break;
			if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && vaddr >= ph.p_vaddr &&
			    vaddr + len <= ph.p_vaddr + ph.p_filesz &&
			    fseek(f, (long)(ph.p_offset + (vaddr - ph.p_vaddr)), SEEK_SET) == 0 &&
			    fread(out, 1, len, f) == len)
				r = out;
		}
	fclose(f);
	return r;
}

static void test_uprogs(void)
{
	struct krm_uprogs *u = krm_uprogs_new();
	char err[256];
	unsigned char main_bytes[48], entry_bytes[16];
	uint64_t main_at = 0, entry = 0;
	FILE *f;
	Elf64_Ehdr eh;

	CHECK("uprogs: membench loads",
	      krm_uprogs_add(u, "out/syms/guest/membench", err, sizeof(err)) == 0);
	CHECK("uprogs: will-it-scale loads",
	      krm_uprogs_add(u, "out/syms/guest/will-it-scale", err, sizeof(err)) == 0);
	CHECK("uprogs: a PIE is refused, named",
	      krm_uprogs_add(u, "out/unit/model_test", err, sizeof(err)) != 0 &&
		  strstr(err, "out/unit/model_test: not a static") != NULL);
	CHECK("uprogs: a missing file is refused, named",
	      krm_uprogs_add(u, "out/syms/guest/no-such-program", err, sizeof(err)) != 0 &&
		  strstr(err, "out/syms/guest/no-such-program: cannot open") != NULL);
	CHECK("uprogs: two programs", krm_uprogs_count(u) == 2);
	for (uint64_t a = 0x401000; a < 0x480000 && !main_at; a++) {
		const char *fn = krm_uprogs_function(u, 1, a);

		if (fn && strcmp(fn, "main") == 0)
			main_at = a;
	}
	CHECK("uprogs: membench's main found", main_at != 0);
	CHECK("uprogs: membench's main named by its bytes",
	      text_at("out/syms/guest/membench", main_at, sizeof(main_bytes), main_bytes) &&
		  krm_uprogs_match(u, main_at, main_bytes, sizeof(main_bytes)) == 1);
	CHECK("uprogs: the program's name",
	      krm_uprogs_name(u, 1) && !strcmp(krm_uprogs_name(u, 1), "membench"));
	main_bytes[sizeof(main_bytes) - 1] ^= 0xff;
	CHECK("uprogs: other bytes at that address: no program",
	      krm_uprogs_match(u, main_at, main_bytes, sizeof(main_bytes)) == 0);
	/* the image's stripped membench: the same text at the same addresses */
	CHECK("uprogs: the stripped build loads too",
	      krm_uprogs_add(u, "out/guest/membench", err, sizeof(err)) == 0);
	f = fopen("out/guest/membench", "rb");
	if (f && fread(&eh, sizeof(eh), 1, f) == 1)
		entry = eh.e_entry;
	if (f)
		fclose(f);
	CHECK("uprogs: bytes two programs hold at one address: no program",
	      entry && text_at("out/guest/membench", entry, sizeof(entry_bytes), entry_bytes) &&
		  krm_uprogs_match(u, entry, entry_bytes, sizeof(entry_bytes)) == 0);
	CHECK("uprogs: an address past every function is none",
	      krm_uprogs_function(u, 1, 0x7fff0000) == NULL);
	krm_uprogs_free(u);
}

int main(void)
{
	double r;

	test_config();
	test_marks();
	test_xlat();
	test_uprogs();
	r = chase_ratio(16u << 10, 100, KRM_L1D_MISSES, KRM_LOADS);
	printf("# chase 16 KiB: L1d miss ratio %.5f\n", r);
	CHECK("chase 16 KiB: L1d miss ratio < 1% after warm-up", r < 0.01);
	r = chase_ratio(64u << 20, 1, KRM_LLC_MISSES, KRM_LLC_REFERENCES);
	printf("# chase 64 MiB: LLC miss ratio %.5f\n", r);
	CHECK("chase 64 MiB: LLC miss ratio > 90%", r > 0.9);
	test_numa();
	test_coherence();
	test_idle();
	test_woken();
	test_window_entry();
	test_lead();
	test_clock_back();
	test_profile_and_windows();
	test_ksyms();
	return unit_failed;
}
