/* stat's guest samplers: vmstat(8)'s and mpstat(1)'s figures, computed from
 * /proc/stat, /proc/vmstat and /proc/meminfo as those tools do:
 *   vmstat  "<group>.<field>: <value>": procs.r procs.b memory.{swpd,free,
 *           buff,cache} (kB) and, from the second sample on, per second
 *           swap.si swap.so io.bi io.bo system.in system.cs, and cpu.us
 *           cpu.sy cpu.id cpu.wa cpu.st (% of the interval)
 *   mpstat  "cpu.all.<state>%: <value>" for usr nice sys iowait irq soft
 *           steal guest gnice idle, from the second sample on */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampler.h"

/* /proc/stat's cpu columns, in its order. */
enum {
	ST_USER,
	ST_NICE,
	ST_SYS,
	ST_IDLE,
	ST_IOWAIT,
	ST_IRQ,
	ST_SOFTIRQ,
	ST_STEAL,
	ST_GUEST,
	ST_GNICE,
	ST_NCPU
};

/* The counters vmstat and mpstat need, at one moment. */
struct statsnap {
	int valid;
	long long mono; /* CLOCK_MONOTONIC ns when read */
	unsigned long long cpu[ST_NCPU];
	unsigned long long intr, ctxt, running, blocked;
	unsigned long long pgpgin, pgpgout, pswpin, pswpout;
};

static struct statsnap vm_prev, mp_prev;
static char scratch[256u << 10];

static int read_statsnap(struct statsnap *s)
{
	const char *cpu;

	memset(s, 0, sizeof(*s));
	s->mono = krp_mono_ns();
	if (krp_read_small("/proc/stat", scratch, sizeof(scratch)) < 0)
		return -1;
	cpu = strncmp(scratch, "cpu ", 4) == 0 ? scratch + 4 : NULL;
	if (!cpu) {
		errno = EPROTO;
		return -1;
	}
	for (int i = 0; i < ST_NCPU; i++) {
		char *end;

		s->cpu[i] = strtoull(cpu, &end, 10);
		if (end == cpu)
			break;
		cpu = end;
	}
	s->intr = krp_field_ull(scratch, "intr");
	s->ctxt = krp_field_ull(scratch, "ctxt");
	s->running = krp_field_ull(scratch, "procs_running");
	s->blocked = krp_field_ull(scratch, "procs_blocked");
	if (krp_read_small("/proc/vmstat", scratch, sizeof(scratch)) < 0)
		return -1;
	s->pgpgin = krp_field_ull(scratch, "pgpgin");
	s->pgpgout = krp_field_ull(scratch, "pgpgout");
	s->pswpin = krp_field_ull(scratch, "pswpin");
	s->pswpout = krp_field_ull(scratch, "pswpout");
	s->valid = 1;
	return 0;
}

static unsigned long long dsub(unsigned long long a, unsigned long long b)
{
	return a > b ? a - b : 0;
}

/* The interval's cpu deltas into d; their total without guest time (which
 * user and nice already count), at least 1. */
static unsigned long long cpu_deltas(const struct statsnap *cur, const struct statsnap *prev,
				     unsigned long long *d)
{
	unsigned long long tot = 0;

	for (int i = 0; i < ST_NCPU; i++) {
		d[i] = dsub(cur->cpu[i], prev->cpu[i]);
		if (i != ST_GUEST && i != ST_GNICE)
			tot += d[i];
	}
	return tot ? tot : 1;
}

static int sample_vmstat(void)
{
	struct statsnap cur;
	unsigned long long mf, buff, cached, srec, st, sf;

	if (read_statsnap(&cur) < 0 ||
	    krp_read_small("/proc/meminfo", scratch, sizeof(scratch)) < 0) {
		krp_sample_warn("/proc/stat");
		return -1;
	}
	mf = krp_field_ull(scratch, "MemFree");
	buff = krp_field_ull(scratch, "Buffers");
	cached = krp_field_ull(scratch, "Cached");
	srec = krp_field_ull(scratch, "SReclaimable");
	st = krp_field_ull(scratch, "SwapTotal");
	sf = krp_field_ull(scratch, "SwapFree");
	/* procs_running counts this monitor, which is running while it reads. */
	if (krp_sample_printf("procs.r: %llu\nprocs.b: %llu\n", cur.running ? cur.running - 1 : 0,
			      cur.blocked) < 0 ||
	    krp_sample_printf("memory.swpd: %llu\nmemory.free: %llu\nmemory.buff: %llu\n"
			      "memory.cache: %llu\n",
			      dsub(st, sf), mf, buff, cached + srec) < 0)
		goto fail;
	if (vm_prev.valid && cur.mono > vm_prev.mono) {
		double secs = (double)(cur.mono - vm_prev.mono) / 1e9;
		double kb_page = (double)sysconf(_SC_PAGESIZE) / 1024.0;
		unsigned long long d[ST_NCPU], tot = cpu_deltas(&cur, &vm_prev, d);

		if (krp_sample_printf("swap.si: %.0f\nswap.so: %.0f\nio.bi: %.0f\nio.bo: %.0f\n",
				      (double)dsub(cur.pswpin, vm_prev.pswpin) * kb_page / secs,
				      (double)dsub(cur.pswpout, vm_prev.pswpout) * kb_page / secs,
				      (double)dsub(cur.pgpgin, vm_prev.pgpgin) / secs,
				      (double)dsub(cur.pgpgout, vm_prev.pgpgout) / secs) < 0 ||
		    krp_sample_printf("system.in: %.0f\nsystem.cs: %.0f\n",
				      (double)dsub(cur.intr, vm_prev.intr) / secs,
				      (double)dsub(cur.ctxt, vm_prev.ctxt) / secs) < 0 ||
		    krp_sample_printf("cpu.us: %.0f\ncpu.sy: %.0f\ncpu.id: %.0f\ncpu.wa: %.0f\n"
				      "cpu.st: %.0f\n",
				      100.0 * (double)(d[ST_USER] + d[ST_NICE]) / (double)tot,
				      100.0 * (double)(d[ST_SYS] + d[ST_IRQ] + d[ST_SOFTIRQ]) /
					  (double)tot,
				      100.0 * (double)d[ST_IDLE] / (double)tot,
				      100.0 * (double)d[ST_IOWAIT] / (double)tot,
				      100.0 * (double)d[ST_STEAL] / (double)tot) < 0)
			goto fail;
	}
	vm_prev = cur;
	return 0;
fail:
	krp_sample_warn("/proc/stat");
	return -1;
}

static int sample_mpstat(void)
{
	static const char *const names[] = {"usr",  "nice",  "sys",   "iowait", "irq",
					    "soft", "steal", "guest", "gnice",	"idle"};
	struct statsnap cur;

	if (read_statsnap(&cur) < 0) {
		krp_sample_warn("/proc/stat");
		return -1;
	}
	if (mp_prev.valid) {
		unsigned long long d[ST_NCPU], tot = cpu_deltas(&cur, &mp_prev, d);
		/* user and nice include guest and guest_nice time */
		double v[10] = {(double)dsub(d[ST_USER], d[ST_GUEST]),
				(double)dsub(d[ST_NICE], d[ST_GNICE]),
				(double)d[ST_SYS],
				(double)d[ST_IOWAIT],
				(double)d[ST_IRQ],
				(double)d[ST_SOFTIRQ],
				(double)d[ST_STEAL],
				(double)d[ST_GUEST],
				(double)d[ST_GNICE],
				(double)d[ST_IDLE]};

		for (int i = 0; i < 10; i++)
			if (krp_sample_printf("cpu.all.%s%%: %.2f\n", names[i],
					      100.0 * v[i] / (double)tot) < 0) {
				krp_sample_warn("/proc/stat");
				return -1;
			}
	}
	mp_prev = cur;
	return 0;
}

const struct krp_sampler krp_sampler_vmstat = {.sample = sample_vmstat};
const struct krp_sampler krp_sampler_mpstat = {.sample = sample_mpstat};
