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
	krp_buf_free(&t);
	UNIT_EXIT();
}
