/* Result directories read back: a run's clock and seed (job.conf), its
 * NOT-DETERMINISTIC mark and the host's contention (host.conf). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "unit.h"

static void put(const char *dir, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f) {
		perror(p);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char top[] = "/tmp/krepro-results-test.XXXXXX", r1[600], r2[600], err[256];
	struct krp_variant v;

	if (!mkdtemp(top))
		return 2;
	snprintf(r1, sizeof(r1), "%s/1", top);
	snprintf(r2, sizeof(r2), "%s/2", top);
	mkdir(r1, 0755);
	mkdir(r2, 0755);
	put(r1, "stats.json", "{\"will-it-scale.per_process_ops\": 53923}\n");
	put(r2, "stats.json", "{\"will-it-scale.per_process_ops\": 53780}\n");
	put(r1, "job.conf", "suite=will-it-scale\nclock=exact\nseed=7\n");
	put(r2, "job.conf", "suite=will-it-scale\nclock=exact\nseed=8\n");
	put(r2, "NOT-DETERMINISTIC", "booted again ...\n");
	put(r1, "host.conf",
	    "cpu_pressure_permille=415\nsteal_permille=0\nload1=3.1\ncontended=1\n");
	CHECK("a variant loads", krp_variant_load(top, &v, err, sizeof(err)) == 0 && v.nruns == 2);
	CHECK_STR("its clock is job.conf's", v.clock, "exact");
	CHECK("each run's seed", v.runs[0].seed == 7 && v.runs[1].seed == 8);
	CHECK("the mark of a run that did not repeat", !v.runs[0].nondet && v.runs[1].nondet);
	CHECK_NEAR("host contention read", v.runs[0].cpu_pressure, 41.5, 1e-9);
	CHECK("contended flag", v.runs[0].contended && !v.runs[1].contended);
	CHECK("no host.conf: no pressure", isnan(v.runs[1].cpu_pressure));
	krp_variant_free(&v);
	put(r2, "job.conf", "suite=will-it-scale\nclock=real\nseed=x\n");
	CHECK("two clocks are mixed", krp_variant_load(top, &v, err, sizeof(err)) == 0 &&
					  strcmp(v.clock, "mixed") == 0 && v.runs[1].seed == -1);
	krp_variant_free(&v);
	{
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		if (system(cmd) != 0)
			return 2;
	}
	return unit_failed;
}
