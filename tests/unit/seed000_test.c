/* Seed 000's 0-day table: the %change column must come out of its printed
 * means with the kit's own arithmetic and formatting (rows whose means are
 * large enough that rounding of the printed means cannot move the change),
 * and the mean and %stddev columns must print as the seed prints them. */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_table.h"
#include "kstats.h"
#include "unit.h"

struct row {
	const char *metric;
	double base, new;
	const char *change; /* as printed in seed 000 */
};

static const struct row rows[] = {
    {"vm-scalability.throughput", 1282439, 2947754, "+129.9%"},
    {"numa-vmstat.node0.nr_active_file", 24056, 413661, "+1619.6%"},
    {"numa-vmstat.node3.nr_mapped", 374762, 1886450, "+403.4%"},
    {"meminfo.Active(file)", 441937, 7344724, "+1561.9%"},
    {"softirqs.TIMER", 25777315, 18834186, "-26.9%"},
    {"meminfo.Committed_AS", 2014435, 1542102, "-23.4%"},
    {"time.involuntary_context_switches", 208054, 167943, "-19.3%"},
    {"time.minor_page_faults", 4428414, 96008011, "+2068.0%"},
    {"time.percent_of_cpu_this_job_got", 11277, 9191, "-18.5%"},
    {"meminfo.Shmem", 914728, 628385, "-31.3%"},
};

int main(void)
{
	const struct krp_cmp_opts a05 = {0, 0.05, 0, {NULL}, 0};
	char got[64], name[160];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct krp_cell c;
		const char *s;

		krp_cmp_cell(r->metric, &r->base, 1, &r->new, 1, &a05, &c);
		krp_fmt_change(got, sizeof(got), c.pct, 1);
		for (s = got; *s == ' '; s++)
			;
		snprintf(name, sizeof(name), "seed 000 %%change of %s", r->metric);
		CHECK_STR(name, s, r->change);
	}
	/* Means: %d below 1e8, %.4g above, %.2f below 1000. */
	krp_fmt_avg(got, sizeof(got), 101668000.0);
	CHECK_STR("seed 000 prints 1.017e+08 for a mean above 1e8", got + strspn(got, " "),
		  "1.017e+08");
	krp_fmt_avg(got, sizeof(got), 1282439.0);
	CHECK_STR("seed 000 prints 1282439", got + strspn(got, " "), "1282439");
	krp_fmt_avg(got, sizeof(got), 94.57);
	CHECK_STR("seed 000 prints 94.57", got + strspn(got, " "), "94.57");
	/* %stddev: 10% of the mean prints as in "1282439 ±10%". */
	krp_fmt_stddev(got, sizeof(got), 1000.0, 100.0, 3);
	CHECK("seed 000 %stddev ±10%", strstr(got, "10%") != NULL);
	krp_fmt_stddev(got, sizeof(got), 1000.0, 15.0, 3);
	CHECK("1.5% stddev is not shown (only above 2)", strstr(got, "%") == NULL);
	UNIT_EXIT();
}
