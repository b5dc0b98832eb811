/* Result directories: stats.json reading/writing, run directories of a
 * variant, "krepro-stats run" and "krepro-stats unite". */
#ifndef KREPRO_RESULTS_H
#define KREPRO_RESULTS_H
#include <stddef.h>

#include "metrics.h"

/* A raw result file is a guest frame: at most KRP_LEN_MAX (64 MiB). */
#define KRP_RAW_MAX ((size_t)64 << 20)
#define KRP_JSON_MAX ((size_t)256 << 20)

/* Load a flat stats.json (metric -> number) into m (KRP_SET values).
 * err: "path:line: problem" or "path: problem". */
int krp_stats_load(const char *path, struct krp_metrics *m, char *err, size_t errsz);

/* Write metrics (reduced values) as a sorted flat JSON object, atomically. */
int krp_stats_save(const char *path, const struct krp_metrics *m, char *err, size_t errsz);

struct krp_run {
	char *name; /* run directory name, e.g. "3" */
	long num;
	struct krp_metrics m;
	/* Exact mode: the layout seed (job.conf "seed="), -1 without one (a
	 * real-mode run, or an exact run made before seeds). */
	long seed;
	/* job.conf "numa_balancing=" (the sysctl the guest set), -1 without. */
	long numa_balancing;
	/* A NOT-DETERMINISTIC file: booted again with the same seed and
	 * images, the run gave other digits (run-matrix --rerun checks). */
	int nondet;
	/* Real mode: the host's CPU pressure over the boot, % of its wall time
	 * with a runnable task waiting (host.conf "cpu_pressure="), NAN when
	 * not recorded; contended: host.conf "contended=1". */
	double cpu_pressure;
	int contended;
};

struct krp_variant {
	char *dir;  /* as given */
	char *name; /* basename */
	struct krp_run *runs;
	size_t nruns;
	/* Measuring mode of its runs (job.conf "clock="): "exact", "real"
	 * (also for runs without the key, made before exact mode existed), or
	 * "mixed" when runs disagree. */
	char clock[8];
};

/* Load dir/<n>/stats.json for every numeric run directory <n> (sorted
 * numerically; "*.tmp" and other names are ignored), the clock and seed
 * of dir/<n>/job.conf and the host's contention of dir/<n>/host.conf
 * where there are such files.  A run directory
 * without a readable stats.json is an error.  0 runs is not an error here. */
int krp_variant_load(const char *dir, struct krp_variant *v, char *err, size_t errsz);
void krp_variant_free(struct krp_variant *v);

/* krepro-stats run: parse the raw files in run_dir, write stats.json.
 * Returns the number of metrics written, or -1 with err (a file a parser
 * refused: "FILE:LINE: why", and no stats.json). */
long krp_stats_run(const char *run_dir, char *err, size_t errsz);

/* krepro-stats unite: write matrix.json, avg.json, stddev.json in
 * variant_dir.  Returns the number of runs, or -1 with err. */
long krp_stats_unite(const char *variant_dir, char *err, size_t errsz);

#endif
