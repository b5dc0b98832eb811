/* report_read: which keys of the key table a report may set (the test's,
 * not the host's), read from "KEY CHECK WHERE OWNER TEXT" lines whose
 * CHECK can be longer than any fixed buffer (a suite's list of tests). */
#include <stdlib.h>

#include "report_read.h"
#include "unit.h"

int main(void)
{
	struct krp_buf t = {0};
	char *keys;

	krp_buf_puts(&t, "# a comment\nsuite word job kit - the suite\n"
			 "runs int:1:99 host kit 3 boots\nthp enum:always|never path kit - thp\n"
			 "test enum:");
	for (int i = 0; i < 60; i++) /* 60 names: over 500 bytes of CHECK */
		krp_buf_printf(&t, "%stestname%02d", i ? "|" : "", i);
	krp_buf_puts(&t, " path autonuma-benchmark - the test\n"
			 "interval int:1:9 job monitor:meminfo 1 seconds\n");
	keys = krp_report_test_keys(t.data, t.len);
	CHECK_STR("a suite's key with a long check is the test's; host keys are not", keys,
		  "\nsuite\nthp\ntest\n");
	free(keys);
	/* the suites' parameters whose default is "required", as SUITE/KEY;
	 * a long default (monitors') does not lose its row */
	krp_buf_puts(
	    &t, "mode enum:process|thread path will-it-scale required modes\n"
		"monitors monitors job kit meminfo+proc-vmstat+buddyinfo+slabinfo the monitors\n"
		"nr_task count:4096 path will-it-scale required tasks\n"
		"fit enum:fit|nofit path kit required not a suite's\n");
	keys = krp_report_required_keys(t.data, t.len);
	CHECK_STR("required keys", keys, "\nwill-it-scale/mode\nwill-it-scale/nr_task\n");
	free(keys);
	keys = krp_report_test_keys(t.data, t.len);
	CHECK_STR("... and the test keys still read every row", keys,
		  "\nsuite\nthp\ntest\nmode\nnr_task\nfit\n");
	free(keys);
	krp_buf_free(&t);
	UNIT_EXIT();
}
