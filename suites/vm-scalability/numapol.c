/* numapol: the two numactl programs vm-scalability's migrate case runs
 * (numactl and migratepages are libnuma programs, dynamic in Debian):
 *
 *   numapol interleave CMD [ARG...]   numactl --interleave=all CMD: memory
 *                                     interleaved over the online nodes
 *   numapol migrate PID FROM TO       migratepages PID FROM TO: move PID's
 *                                     pages on the nodes FROM to the nodes TO
 *
 * Node lists as numactl writes them: "all", or numbers and ranges joined by
 * commas ("0", "0-1,3").  The case execs one `numapol migrate` a step, as
 * upstream execs migratepages, so each step costs a process as there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "diag.h"

#define PROG "numapol"
#define MAX_NODES 64	       /* one word of mask: the guest machines have 1-8 nodes */
#define MPOL_INTERLEAVE_MODE 3 /* <linux/mempolicy.h> MPOL_INTERLEAVE */

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " interleave CMD [ARG...]   (numactl --interleave=all CMD)\n"
		   "       " PROG " migrate PID FROM TO       (migratepages PID FROM TO)\n"
		   "FROM, TO: node lists, \"all\" or numbers and ranges joined by commas\n");
}

/* parse_nodes: a node list into a mask; -1 if it is not one.  "all" is
 * ALL, the online nodes. */
static int parse_nodes(const char *s, unsigned long all, unsigned long *mask)
{
	*mask = 0;
	if (strcmp(s, "all") == 0) {
		*mask = all;
		return 0;
	}
	for (;;) {
		char *end;
		unsigned long lo, hi;

		if (*s < '0' || *s > '9')
			return -1;
		lo = hi = strtoul(s, &end, 10);
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -1;
			hi = strtoul(s, &end, 10);
		}
		if (lo > hi || hi >= MAX_NODES)
			return -1;
		for (unsigned long n = lo; n <= hi; n++)
			*mask |= 1UL << n;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

/* online_nodes: the kernel's online node list; node 0 alone without NUMA. */
static unsigned long online_nodes(void)
{
	char buf[256];
	unsigned long mask;
	FILE *f = fopen("/sys/devices/system/node/online", "r");

	if (!f)
		return 1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_nodes(buf, 0, &mask) != 0)
		die("/sys/devices/system/node/online: '%s' is not a node list", buf);
	return mask;
}

static unsigned long nodes_arg(const char *s, unsigned long all)
{
	unsigned long mask;

	if (parse_nodes(s, all, &mask) != 0 || mask == 0)
		die("'%s' is not a node list (\"all\", or numbers and ranges under %d joined by "
		    "commas)",
		    s, MAX_NODES);
	if (mask & ~all)
		die("'%s' names a node that is not online", s);
	return mask;
}

int main(int argc, char **argv)
{
	unsigned long all, from, to;

	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "interleave") == 0) {
		all = online_nodes();
		if (syscall(SYS_set_mempolicy, MPOL_INTERLEAVE_MODE, &all,
			    (unsigned long)MAX_NODES + 1) != 0)
			die("set_mempolicy(MPOL_INTERLEAVE): %s", strerror(errno));
		execvp(argv[2], argv + 2);
		die("%s: %s", argv[2], strerror(errno));
	}
	if (argc == 5 && strcmp(argv[1], "migrate") == 0) {
		char *end;
		long pid;

		errno = 0;
		pid = strtol(argv[2], &end, 10);
		if (errno || *end || end == argv[2] || pid <= 0)
			die("'%s' is not a process id", argv[2]);
		all = online_nodes();
		from = nodes_arg(argv[3], all);
		to = nodes_arg(argv[4], all);
		if (syscall(SYS_migrate_pages, (int)pid, (unsigned long)MAX_NODES + 1, &from, &to) <
		    0)
			die("migrate_pages %ld: %s", pid, strerror(errno));
		return 0;
	}
	usage(stderr);
	return 2;
}
