/* cpuidle's guest sampler: "cpu<N> state<M> <name> <time-us> <usage>" for
 * every /sys/devices/system/cpu/cpu<N>/cpuidle/state<M>, at the start and
 * the stop (the counters only grow). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sampler.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* One small sysfs value into dst, cut at the first white space. */
static int read_word(const char *dir, unsigned cpu, unsigned state, const char *file, char *dst,
		     size_t cap)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/%s", dir, cpu, state, file);
	if (krp_read_small(path, dst, cap) < 0)
		return -1;
	dst[strcspn(dst, " \t\n")] = '\0';
	return 0;
}

static int sample_cpuidle(void)
{
	static unsigned cpus[4096], states[64];
	size_t ncpu = krp_list_numbered(CPU_DIR, "cpu", cpus, 4096), lines = 0;
	char path[256], name[64], tbuf[64], ubuf[64];

	for (size_t i = 0; i < ncpu; i++) {
		size_t nst;

		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpuidle", cpus[i]);
		nst = krp_list_numbered(path, "state", states, 64);
		for (size_t j = 0; j < nst; j++) {
			if (read_word(CPU_DIR, cpus[i], states[j], "name", name, sizeof(name)) <
				0 ||
			    read_word(CPU_DIR, cpus[i], states[j], "time", tbuf, sizeof(tbuf)) <
				0 ||
			    read_word(CPU_DIR, cpus[i], states[j], "usage", ubuf, sizeof(ubuf)) <
				0 ||
			    !name[0])
				continue;
			if (krp_sample_printf("cpu%u state%u %s %s %s\n", cpus[i], states[j], name,
					      tbuf, ubuf) < 0) {
				krp_sample_warn(CPU_DIR);
				return -1;
			}
			lines++;
		}
	}
	if (!lines) {
		errno = ENOENT;
		krp_sample_warn(CPU_DIR);
		return -1;
	}
	return 0;
}

const struct krp_sampler krp_sampler_cpuidle = {.when = KRP_SNAPSHOT, .sample = sample_cpuidle};
