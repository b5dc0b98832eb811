/* UnixBench's arithmetic and recursion tests, part of unixbench.c (one
 * job: these tests; included once, after now(), seconds and
 * sample_timer()).
 *
 * arithoh, short, int, long, float, double: upstream builds one source six
 * times; each call sums i*i/(i*i-1) for i = 2..101 in the test's type (no
 * work at all for arithoh) and the loop feeds the result back in.  Tower
 * of Hanoi moves 10 disks from peg 1 to peg 3 a call.  Each loop counts its
 * calls in a volatile global until an interval timer's SIGALRM ends it, as
 * upstream's alarm() does: no clock read in the loop, whose code is then
 * what upstream's is for the same compiler and flags.  (That code is worth
 * knowing: at -O2 the sum's result is never used, so gcc drops it; arithoh,
 * float and double count loops of four instructions, short, int and long
 * an empty 100-step loop more.  docs/BENCHMARKS.md.) */
#include <setjmp.h>

static sigjmp_buf ub_alarm_jump;
static volatile unsigned long ub_calls;

static void ub_alarm(int sig)
{
	(void)sig;
	siglongjmp(ub_alarm_jump, 1);
}

/* Runs BODY until SECONDS have passed; *count is ub_calls then. */
#define ALARM_LOOP(body)                                                                           \
	do {                                                                                       \
		struct itimerval it_ = sample_timer();                                             \
		double t0_;                                                                        \
		ub_calls = 0;                                                                      \
		signal(SIGALRM, ub_alarm);                                                         \
		t0_ = now();                                                                       \
		if (sigsetjmp(ub_alarm_jump, 1) == 0) {                                            \
			setitimer(ITIMER_REAL, &it_, NULL);                                        \
			for (;;) {                                                                 \
				body;                                                              \
			}                                                                          \
		}                                                                                  \
		*secs = now() - t0_;                                                               \
		*count = (double)ub_calls;                                                         \
		signal(SIGALRM, SIG_DFL);                                                          \
	} while (0)

/* The sum in TYPE; the argument only carries the last result in. */
#define UB_ARITH(type)                                                                             \
	static int ub_sum_##type(int carried)                                                      \
	{                                                                                          \
		type x = 0, y = 0, sum = 0;                                                        \
		for (carried = 2; carried <= 101; carried++) {                                     \
			x = (type)carried;                                                         \
			y = x * x;                                                                 \
			sum += y / (y - 1);                                                        \
		}                                                                                  \
		return (int)(x + y + sum);                                                         \
	}                                                                                          \
	static void sample_arith_##type(const void *arg, double *count, double *secs)              \
	{                                                                                          \
		int carried = 0;                                                                   \
		(void)arg;                                                                         \
		ALARM_LOOP({                                                                       \
			ub_calls++;                                                                \
			carried = ub_sum_##type(carried);                                          \
		});                                                                                \
	}
UB_ARITH(short)
UB_ARITH(int)
UB_ARITH(long)
UB_ARITH(float)
UB_ARITH(double)

/* arithoh: the loop and the call, no arithmetic */
static int ub_sum_none(int carried)
{
	for (carried = 2; carried <= 101; carried++)
		;
	return 0;
}

static void sample_arithoh(const void *arg, double *count, double *secs)
{
	int carried = 0;

	(void)arg;
	ALARM_LOOP({
		ub_calls++;
		carried = ub_sum_none(carried);
	});
}

/* Tower of Hanoi: disks on each peg, moved by recursion */
static int hanoi_pegs[4];

static void hanoi_move(int disks, int from, int to)
{
	int spare;

	if (disks == 1) {
		hanoi_pegs[from]--;
		hanoi_pegs[to]++;
		return;
	}
	spare = 6 - (from + to);
	hanoi_move(disks - 1, from, spare);
	hanoi_move(1, from, to);
	hanoi_move(disks - 1, spare, to);
}

static void sample_hanoi(const void *arg, double *count, double *secs)
{
	static volatile int disks = 10; /* read at run time, as upstream's argument */
	int n = disks;

	(void)arg;
	hanoi_pegs[1] = n;
	ALARM_LOOP({
		ub_calls++;
		hanoi_move(n, 1, 3);
	});
}
