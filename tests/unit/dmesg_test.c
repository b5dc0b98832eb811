/* Kernel errors in kmsg as 0-day's dmesg.* stats. */
#include <stdio.h>
#include <string.h>

#include "dmesg.h"
#include "metrics.h"
#include "parsers.h"
#include "unit.h"

static int has(const struct krp_metrics *m, const char *name)
{
	double v;

	return krp_metrics_get(m, name, &v) == 0 && v == 1;
}

int main(void)
{
	struct krp_metrics m;
	const char *kmsg =
	    "[    0.000000] Linux version 6.12.117 (krepro@localhost) #1 SMP\n"
	    "[    0.000000] Kernel command line: console=ttyS0 panic=-1 oops=panic\n"
	    "[    2.345678] ------------[ cut here ]------------\n"
	    "[    2.345679] WARNING: CPU: 1 PID: 77 at mm/page_alloc.c:4567 "
	    "__alloc_pages_noprof+0x1d2/0x300\n"
	    "[    2.345690] RIP: 0010:__alloc_pages_noprof+0x1d2/0x300\n"
	    "[   30.123456] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [a.out:123]\n"
	    "[   31.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	    "[   31.000001] Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
	    "[   40.000000] a.out invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0\n"
	    "[   40.100000] Out of memory: Killed process 123 (a.out) total-vm:1000kB\n"
	    "[   50.000000] INFO: task kworker/0:1:12 blocked for more than 120 seconds.\n"
	    "[   60.000000] Kernel panic - not syncing: Fatal exception\n";
	const char *clean = "[    0.000000] Linux version 6.12.117\n"
			    "[    0.100000] Kernel command line: panic=-1\n"
			    "[    1.000000] Freeing unused kernel image memory: 2048K\n";

	krp_metrics_init(&m);
	CHECK("kmsg is a known raw file", krp_raw_known("kmsg"));
	CHECK("kmsg goes to the dmesg parser", krp_parse_raw("kmsg", kmsg, strlen(kmsg), &m) == 1);
	CHECK("WARNING at file:line func",
	      has(&m, "dmesg.WARNING:at_mm/page_alloc.c:#__alloc_pages_noprof"));
	CHECK("RIP symbol", has(&m, "dmesg.RIP:__alloc_pages_noprof"));
	CHECK("soft lockup spelled as 0-day does",
	      has(&m, "dmesg.BUG:soft_lockup-CPU##stuck_for#s![a.out:#]"));
	CHECK("NULL dereference without its address",
	      has(&m, "dmesg.BUG:kernel_NULL_pointer_dereference,address"));
	CHECK("Oops", has(&m, "dmesg.Oops"));
	CHECK("oom-killer", has(&m, "dmesg.invoked_oom-killer"));
	CHECK("Out of memory", has(&m, "dmesg.Out_of_memory:Killed_process"));
	CHECK("hung task", has(&m, "dmesg.INFO:task_blocked_for_more_than#seconds"));
	CHECK("panic", has(&m, "dmesg.Kernel_panic-not_syncing:Fatal_exception"));
	CHECK("boot_failures", has(&m, "dmesg.boot_failures"));
	CHECK("the command line's panic=-1 is no error", m.n == 10);
	krp_metrics_free(&m);

	krp_metrics_init(&m);
	CHECK("a clean boot gives no dmesg stat", krp_parse_dmesg(clean, strlen(clean), &m) == 0);
	CHECK("not even boot_failures", m.n == 0);
	krp_metrics_free(&m);

	/* Ids stay valid metric names whatever the guest wrote. */
	{
		char evil[400];

		krp_metrics_init(&m);
		snprintf(evil, sizeof(evil), "BUG: \"quoted\\ \x01\x7f%0300d\n", 7);
		krp_parse_dmesg(evil, strlen(evil), &m);
		CHECK("a hostile BUG line gives one valid, bounded name",
		      m.n == 2 && krp_metric_name_ok(m.v[0].name) && strlen(m.v[0].name) < 180);
		krp_metrics_free(&m);
	}
	UNIT_EXIT();
}
