/* The machine's NUMA nodes as sysfs shows them, for the guest programs
 * that place tasks and memory by node (autonuma-benchmark, membench).
 * krp_cpulist_parse is pure (tests/unit/numa_nodes_test.c); the others
 * read /sys/devices/system/node.  Header-only. */
#ifndef KREPRO_NUMA_NODES_H
#define KREPRO_NUMA_NODES_H
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

/* A sysfs cpulist ("0-3,8,10-11") into a bit mask of CPUs below
 * 64 * words; -1 if malformed. */
static inline int krp_cpulist_parse(const char *s, unsigned long *mask, size_t words)
{
	memset(mask, 0, words * sizeof(*mask));
	while (*s && *s != '\n') {
		unsigned long a = 0, b;
		int digits = 0;

		for (; *s >= '0' && *s <= '9' && digits < 7; s++, digits++)
			a = a * 10 + (unsigned long)(*s - '0');
		if (!digits)
			return -1;
		b = a;
		if (*s == '-') {
			s++;
			b = 0;
			for (digits = 0; *s >= '0' && *s <= '9' && digits < 7; s++, digits++)
				b = b * 10 + (unsigned long)(*s - '0');
			if (!digits || b < a)
				return -1;
		}
		for (unsigned long c = a; c <= b && c < 64 * words; c++)
			mask[c / 64] |= 1UL << (c % 64);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return 0;
}

/* The number of nodeN folders in /sys/devices/system/node; 1 when there
 * are none (a kernel without NUMA). */
static inline unsigned long krp_count_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	unsigned long n = 0;

	if (!d)
		return 1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' &&
		    e->d_name[4] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

/* Adds node's CPUs to set; -1 if its cpulist cannot be read or parsed,
 * with the file's path in path (at least 64 bytes). */
static inline int krp_node_cpus(unsigned long node, cpu_set_t *set, char *path, size_t pathsz)
{
	char list[4096];
	unsigned long bits[16];
	FILE *f;
	int ok;

	snprintf(path, pathsz, "/sys/devices/system/node/node%lu/cpulist", node);
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fgets(list, sizeof(list), f) && krp_cpulist_parse(list, bits, 16) == 0;
	fclose(f);
	if (!ok)
		return -1;
	for (unsigned c = 0; c < 64 * 16 && c < CPU_SETSIZE; c++)
		if (bits[c / 64] & (1UL << (c % 64)))
			CPU_SET(c, set);
	return 0;
}

#endif
