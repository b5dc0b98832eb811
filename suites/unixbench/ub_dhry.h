/* Dhrystone 2.1 (R. P. Weicker, 1988) as UnixBench's dhry2reg runs it, in
 * the kit's own words: one "run" is Weicker's fixed sequence of calls over
 * records, strings, arrays and enumerations (his Proc_1..Proc_8 and
 * Func_1..Func_3, here ub_dh_p1..ub_dh_p8 and ub_dh_f1..ub_dh_f3), the same
 * types, calls and statements, with his published strings.
 *
 * How it is compiled matters for the rate:
 *  - Weicker's program is two translation units; the calls into the second
 *    one (p6, p7, p8, f1, f2) must stay real calls that the compiler
 *    knows nothing about, so they are noipa (no inlining, no cloning, no
 *    interprocedural register or constant knowledge), as separate
 *    compilation gives; inside that unit the compiler sees everything, and
 *    gcc -O2 inlines f1 into f2 and f3 into p6 there, as here (f1 has a
 *    noipa copy for the first unit's calls).  The first unit's procedures (p1..p5) are in the
 *    loop's unit as upstream's are; p1 is noinline because upstream's p1 has
 *    external linkage and gcc -O2 keeps it a call (p2, p4 and p5 it inlines,
 *    as it does here).
 *  - UnixBench builds dhry2reg with -DREG=register: the loop's counters,
 *    p1's record pointers, p8's indexes and f2's index are declared
 *    register, as here (gcc -O2 allocates registers the same either way).
 *  - The run counter is a global written every run (upstream's Run_Index,
 *    which its alarm handler reads).
 *  - The two arrays (10 KiB) live on the heap, allocated by ub_dhry_init:
 *    as .bss they would move libc's data in the one program and with it
 *    the fork tests' copy-on-write pages (docs/BENCHMARKS.md).
 * Header-only so tests/unit/ub_dhry_test.c checks Weicker's final values on
 * the host. */
#ifndef KREPRO_UB_DHRY_H
#define KREPRO_UB_DHRY_H
#include <stdlib.h>
#include <string.h>

#if defined(__clang__)
#define UB_DH_APART __attribute__((noinline, optnone))
#else
#define UB_DH_APART __attribute__((noipa))
#endif

enum ub_dh_id { UB_DH_ID1, UB_DH_ID2, UB_DH_ID3, UB_DH_ID4, UB_DH_ID5 };

struct ub_dh_rec {
	struct ub_dh_rec *link;
	enum ub_dh_id tag;
	union {
		struct {
			enum ub_dh_id kind;
			int num;
			char text[31];
		} a;
		struct {
			enum ub_dh_id kind2;
			char text2[31];
		} b;
		struct {
			char c1, c2;
		} c;
	} v;
};

struct ub_dh_arrays {
	int one[50];
	int two[50][50];
};

/* Weicker's globals, with external linkage as upstream's: the compiler
 * must store every value the program writes (static, a variable that is
 * only written, like the Boolean, would lose its stores).  One program
 * includes this header. */
extern struct ub_dh_rec *ub_dh_glob, *ub_dh_next;
extern struct ub_dh_arrays *ub_dh_arr;
extern int ub_dh_int, ub_dh_bool;
extern char ub_dh_ch1, ub_dh_ch2;
extern unsigned long ub_dh_runs;
struct ub_dh_rec *ub_dh_glob, *ub_dh_next;
struct ub_dh_arrays *ub_dh_arr;
int ub_dh_int, ub_dh_bool;
char ub_dh_ch1, ub_dh_ch2;
unsigned long ub_dh_runs;

/* ---- the second unit: Weicker's Proc_6, Proc_7, Proc_8, Func_1..3 ---- */

static int ub_dh_f3(enum ub_dh_id e)
{
	enum ub_dh_id here = e;

	if (here == UB_DH_ID3)
		return 1;
	return 0;
}

UB_DH_APART static void ub_dh_p6(enum ub_dh_id val, enum ub_dh_id *out)
{
	*out = val;
	if (!ub_dh_f3(val))
		*out = UB_DH_ID4;
	switch (val) {
	case UB_DH_ID1:
		*out = UB_DH_ID1;
		break;
	case UB_DH_ID2:
		if (ub_dh_int > 100)
			*out = UB_DH_ID1;
		else
			*out = UB_DH_ID4;
		break;
	case UB_DH_ID3:
		*out = UB_DH_ID2;
		break;
	case UB_DH_ID4:
		break;
	case UB_DH_ID5:
		*out = UB_DH_ID3;
		break;
	}
}

UB_DH_APART static void ub_dh_p7(int x, int y, int *out)
{
	int here = x + 2;

	*out = y + here;
}

UB_DH_APART static void ub_dh_p8(int *one, int (*two)[50], int x, int y)
{
	register int i, at;

	at = x + 5;
	one[at] = y;
	one[at + 1] = one[at];
	one[at + 30] = at;
	for (i = at; i <= at + 1; ++i)
		two[at][i] = at;
	two[at][at - 1] += 1;
	two[at + 20][at] = one[at];
	ub_dh_int = 5;
}

static enum ub_dh_id ub_dh_f1(char x, char y)
{
	char first = x, second = first;

	if (second != y)
		return UB_DH_ID1;
	ub_dh_ch1 = first;
	return UB_DH_ID2;
}

/* f1 as the first unit calls it */
UB_DH_APART static enum ub_dh_id ub_dh_f1_apart(char x, char y)
{
	return ub_dh_f1(x, y);
}

UB_DH_APART static int ub_dh_f2(char *s, char *t)
{
	register int at = 2;
	char c = 'A';

	while (at <= 2)
		if (ub_dh_f1(s[at], t[at + 1]) == UB_DH_ID1) {
			c = 'A';
			at += 1;
		}
	if (c >= 'W' && c < 'Z')
		at = 7;
	if (c == 'R')
		return 1;
	if (strcmp(s, t) > 0) {
		at += 7;
		ub_dh_int = at;
		return 1;
	}
	return 0;
}

/* ---- the first unit: Weicker's Proc_1..Proc_5 ---- */

static void ub_dh_p3(struct ub_dh_rec **ref)
{
	if (ub_dh_glob != NULL)
		*ref = ub_dh_glob->link;
	ub_dh_p7(10, ub_dh_int, &ub_dh_glob->v.a.num);
}

__attribute__((noinline)) static void ub_dh_p1(register struct ub_dh_rec *r)
{
	register struct ub_dh_rec *nx = r->link;

	*r->link = *ub_dh_glob;
	r->v.a.num = 5;
	nx->v.a.num = r->v.a.num;
	nx->link = r->link;
	ub_dh_p3(&nx->link);
	if (nx->tag == UB_DH_ID1) {
		nx->v.a.num = 6;
		ub_dh_p6(r->v.a.kind, &nx->v.a.kind);
		nx->link = ub_dh_glob->link;
		ub_dh_p7(nx->v.a.num, 10, &nx->v.a.num);
	} else {
		*r = *r->link;
	}
}

static void ub_dh_p2(int *ref)
{
	int here = *ref + 10;
	enum ub_dh_id e = 0;

	do
		if (ub_dh_ch1 == 'A') {
			here -= 1;
			*ref = here - ub_dh_int;
			e = UB_DH_ID1;
		}
	while (e != UB_DH_ID1);
}

static void ub_dh_p4(void)
{
	int b = ub_dh_ch1 == 'A';

	ub_dh_bool = b | ub_dh_bool;
	ub_dh_ch2 = 'B';
}

static void ub_dh_p5(void)
{
	ub_dh_ch1 = 'A';
	ub_dh_bool = 0;
}

/* The initial state (Weicker's "Initializations"); 0, or -1 out of memory. */
static inline int ub_dhry_init(void)
{
	ub_dh_next = calloc(1, sizeof(*ub_dh_next));
	ub_dh_glob = calloc(1, sizeof(*ub_dh_glob));
	ub_dh_arr = calloc(1, sizeof(*ub_dh_arr));
	if (!ub_dh_next || !ub_dh_glob || !ub_dh_arr)
		return -1;
	ub_dh_glob->link = ub_dh_next;
	ub_dh_glob->tag = UB_DH_ID1;
	ub_dh_glob->v.a.kind = UB_DH_ID3;
	ub_dh_glob->v.a.num = 40;
	strcpy(ub_dh_glob->v.a.text, "DHRYSTONE PROGRAM, SOME STRING");
	ub_dh_arr->two[8][7] = 10;
	ub_dh_runs = 0;
	return 0;
}

static inline void ub_dhry_free(void)
{
	free(ub_dh_next);
	free(ub_dh_glob);
	free(ub_dh_arr);
	ub_dh_next = ub_dh_glob = NULL;
	ub_dh_arr = NULL;
}

/* The loop's locals after the last run, for the unit test. */
struct ub_dhry_locals {
	int i1, i2, i3;
	enum ub_dh_id e;
	char s1[31], s2[31];
};

/* Runs Dhrystone n more times (n >= 1); ub_dh_runs counts them all.  If
 * out is not NULL it gets the loop's locals after the last run. */
static inline void ub_dhry_runs(unsigned long n, struct ub_dhry_locals *out)
{
	int i1, i3;
	register int i2;
	register char ch;
	enum ub_dh_id e;
	char s1[31], s2[31];
	unsigned long stop = ub_dh_runs + n;

	strcpy(s1, "DHRYSTONE PROGRAM, 1'ST STRING");
	do {
		++ub_dh_runs;
		ub_dh_p5();
		ub_dh_p4();
		i1 = 2;
		i2 = 3;
		strcpy(s2, "DHRYSTONE PROGRAM, 2'ND STRING");
		e = UB_DH_ID2;
		ub_dh_bool = !ub_dh_f2(s1, s2);
		while (i1 < i2) {
			i3 = 5 * i1 - i2;
			ub_dh_p7(i1, i2, &i3);
			i1 += 1;
		}
		ub_dh_p8(ub_dh_arr->one, ub_dh_arr->two, i1, i3);
		ub_dh_p1(ub_dh_glob);
		for (ch = 'A'; ch <= ub_dh_ch2; ++ch) {
			if (e == ub_dh_f1_apart(ch, 'C')) {
				ub_dh_p6(UB_DH_ID1, &e);
				strcpy(s2, "DHRYSTONE PROGRAM, 3'RD STRING");
				i2 = (int)ub_dh_runs;
				ub_dh_int = (int)ub_dh_runs;
			}
		}
		i2 = i2 * i1;
		i1 = i2 / i3;
		i2 = 7 * (i2 - i3) - i1;
		ub_dh_p2(&i1);
	} while (ub_dh_runs != stop);
	if (out) {
		out->i1 = i1;
		out->i2 = i2;
		out->i3 = i3;
		out->e = e;
		memcpy(out->s1, s1, sizeof(s1));
		memcpy(out->s2, s2, sizeof(s2));
	}
}
#endif
