/* job.conf's grammar (tools/common/contract.h), as the report tools read
 * it: the same keys and values the matrix parser and the guest accept. */
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "jobconf.h"
#include "unit.h"
#include "util.h"

static int parses(const char *text)
{
	struct krp_jobconf jc;
	char err[KRP_ERR_MAX];
	int rc = krp_jobconf_parse(text, strlen(text), &jc, err, sizeof(err));

	if (rc == 0)
		krp_jobconf_free(&jc);
	return rc == 0;
}

static void test_read(void)
{
	const char ok[] = "# job\nsuite=will-it-scale\r\n\nnr_task=2\nvariant=base\nempty=\n";
	struct krp_jobconf jc;
	char err[KRP_ERR_MAX];

	CHECK("jobconf ok", krp_jobconf_parse(ok, strlen(ok), &jc, err, sizeof(err)) == 0);
	CHECK("jobconf 4 keys", jc.n == 4);
	CHECK_STR("jobconf suite (CR dropped)", krp_jobconf_get(&jc, "suite"), "will-it-scale");
	CHECK_STR("jobconf empty value", krp_jobconf_get(&jc, "empty"), "");
	CHECK("jobconf missing", krp_jobconf_get(&jc, "nope") == NULL);
	krp_jobconf_free(&jc);
	CHECK("jobconf repeated", krp_jobconf_parse("a=1\na=2\n", 8, &jc, err, sizeof(err)) == -1 &&
				      strcmp(err, "line 2: key repeated") == 0);
	CHECK("jobconf no =", krp_jobconf_parse("a\n", 2, &jc, err, sizeof(err)) == -1);
	CHECK("jobconf bad key", krp_jobconf_parse("a b=1\n", 6, &jc, err, sizeof(err)) == -1);
	CHECK("jobconf control byte",
	      krp_jobconf_parse("a=\x1b[1m\n", 7, &jc, err, sizeof(err)) == -1);
	CHECK_STR("jobconf: the refusal names the characters", err,
		  "line 1: bad character in value (letters, digits, ._%+@:/=,~^-)");
}

/* What the kit writes reads back; what it never writes is refused. */
static void test_contract(void)
{
	char k64[80], v256[300];

	CHECK("kit values", parses("kernel_cmdline=numa_balancing=1+quiet\nnr_task=100%\n"
				   "variant=memcg-lru@2\nmonitors=meminfo+proc-vmstat\n"
				   "sysctl.vm.overcommit_memory=1\ntenant=vm_2\n"
				   "net=10.0.2.15/24,10.0.2.2\nresult_port=tcp:10.0.2.2:4000\n"));
	CHECK("a space in a value is refused", !parses("test=page fault\n"));
	CHECK("a quote in a value is refused", !parses("test=a'b\n"));
	CHECK("an upper-case key is refused", !parses("Suite=x\n"));
	CHECK("a key starting with a digit is refused", !parses("1a=x\n"));
	CHECK("a key with '-' is refused", !parses("nr-task=1\n"));
	memset(k64, 'k', 64);
	strcpy(k64 + 64, "=1\n");
	CHECK("a 64-byte key", parses(k64));
	memmove(k64 + 1, k64, strlen(k64) + 1);
	CHECK("a 65-byte key is refused", !parses(k64));
	strcpy(v256, "v=");
	memset(v256 + 2, 'x', 256);
	strcpy(v256 + 258, "\n");
	CHECK("a 256-byte value", parses(v256));
	memmove(v256 + 3, v256 + 2, strlen(v256 + 2) + 1);
	CHECK("a 257-byte value is refused", !parses(v256));
	CHECK("the tenant prefix", strcmp(KRP_TENANT_PREFIX, "vm_") == 0);
}

int main(void)
{
	test_read();
	test_contract();
	UNIT_EXIT();
}
