/* Unit tests for tools/guest/numa_nodes.h (the sysfs cpulist parser the
 * NUMA suites place their tasks with). */
#include "unit.h"
#include "../../tools/guest/numa_nodes.h"

int main(void)
{
	unsigned long bits[2];

	CHECK("cpulist",
	      krp_cpulist_parse("0-2,5,64-65\n", bits, 2) == 0 && bits[0] == 0x27 && bits[1] == 3);
	CHECK("cpulist: one CPU", krp_cpulist_parse("1", bits, 2) == 0 && bits[0] == 2);
	CHECK("cpulist: empty node", krp_cpulist_parse("\n", bits, 2) == 0 && bits[0] == 0);
	CHECK("cpulist: bad", krp_cpulist_parse("0-", bits, 2) < 0 &&
				  krp_cpulist_parse("3-1", bits, 2) < 0 &&
				  krp_cpulist_parse("a", bits, 2) < 0);
	CHECK("at least one node", krp_count_nodes() >= 1);
	UNIT_EXIT();
}
