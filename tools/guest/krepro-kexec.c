/* krepro-kexec: load a kernel with kexec_file_load(2) and jump to it.
 *
 * Debian's kexec binary is dynamically linked; this is the few lines the
 * guest needs for A/B chains, static with musl.  The kernel must be built
 * with CONFIG_KEXEC_FILE and CONFIG_RELOCATABLE. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PROG "krepro-kexec"

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " [--load-only] KERNEL INITRD CMDLINE\n"
		   "Loads KERNEL (a bzImage) with INITRD and the command line CMDLINE via\n"
		   "kexec_file_load(2), syncs, and reboots into it (LINUX_REBOOT_CMD_KEXEC).\n"
		   "--load-only stops after loading (for tests).\n");
}

static int open_ro(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	int load_only = 0;
	int i = 1;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--load-only")) {
		load_only = 1;
		i++;
	}
	if (argc - i != 3) {
		usage(stderr);
		return 2;
	}
	int kfd = open_ro(argv[i]);
	int ifd = open_ro(argv[i + 1]);
	const char *cmdline = argv[i + 2];
	/* The length passed includes the terminating NUL. */
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline, 0UL) != 0) {
		fprintf(stderr, PROG ": kexec_file_load %s: %s\n", argv[i], strerror(errno));
		return 1;
	}
	if (load_only)
		return 0;
	sync();
	if (reboot(RB_KEXEC) != 0) {
		fprintf(stderr, PROG ": reboot(KEXEC): %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
