/* sampler: what a monitor family's guest sampler (monitors/<family>/sample.c)
 * declares, and what krepro-monitor lends it: the one sample buffer and
 * readers of small /proc and /sys files.  A family's meta names each of its
 * monitors and sampler ("monitor NAME SAMPLER"); the Makefile makes the
 * table krepro-monitor runs from those lines. */
#ifndef KREPRO_SAMPLER_H
#define KREPRO_SAMPLER_H
#include <stddef.h>

enum krp_sample_when {
	KRP_EVERY_TICK, /* every -i seconds */
	KRP_SNAPSHOT,	/* at the start and at the stop only (as LKP's) */
	KRP_SLOW_TICK,	/* every .period seconds (LKP's sched_debug interval) */
};

struct krp_sampler {
	enum krp_sample_when when;
	/* A file copied whole into each sample, if sample is NULL. */
	const char *file;
	/* Appends one sample's lines after its time line; 0 to write the
	 * sample, -1 to drop it (after krp_sample_warn: nothing half written). */
	int (*sample)(void);
	/* Why the monitor cannot run on this guest, or NULL (optional; asked
	 * once, before the first sample). */
	const char *(*unavailable)(void);
	/* Instead of sampling: krepro-monitor runs "krepro-perf MODE -o FILE"
	 * and stops it when it stops. */
	const char *perf_mode;
	/* KRP_SLOW_TICK: the monitor parameter (a "param" line of its meta)
	 * that gives its period in seconds. */
	const char *period;
};

/* The sample being built (krepro-monitor's loop calls begin and write). */
int krp_sample_begin(const char *name, int *warned);
int krp_sample_write(int fd);

/* For samplers: append to the sample; 0, or -1 (errno set, the sample as
 * it was before the call). */
int krp_sample_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int krp_sample_add_file(const char *path);
size_t krp_sample_len(void);
void krp_sample_cut(size_t len);
/* The current monitor's first failure, with errno's text; later ones are
 * not reported. */
void krp_sample_warn(const char *path);

/* Readers.  krp_read_small: a small file into dst (NUL-terminated), 0 or
 * -1.  krp_field_ull: "NAME<sep>VALUE" at a line start of text, 0 if
 * absent.  krp_list_numbered: the numbers N of DIR/<prefix>N, sorted (at
 * most cap).  krp_numa_nodes: /sys/devices/system/node's node numbers,
 * read once. */
int krp_read_small(const char *path, char *dst, size_t cap);
unsigned long long krp_field_ull(const char *text, const char *name);
size_t krp_list_numbered(const char *dir, const char *prefix, unsigned *out, size_t cap);
const unsigned *krp_numa_nodes(size_t *n);
long long krp_mono_ns(void);

#define KRP_NODE_DIR "/sys/devices/system/node"

/* For the per-node monitors: every node's FILE ("node: N" first if
 * node_line); a node that fails is warned about and left out.  And their
 * unavailable(): no node directory. */
int krp_sample_nodes(const char *file, int node_line);
const char *krp_no_nodes(void);

#endif
