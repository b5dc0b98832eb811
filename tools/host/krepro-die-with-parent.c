/* krepro-die-with-parent: run a command that the kernel kills (SIGKILL)
 * the moment the process that started it dies, even by SIGKILL, where no
 * trap can run.  run-matrix.sh starts timeout(1) and QEMU through it, so a
 * killed run-matrix leaves no guest running beside the next one. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define TOOL "krepro-die-with-parent"

static void usage(FILE *f)
{
	fprintf(f, "usage: " TOOL " [--help] [-p PID] COMMAND [ARG...]\n"
		   "\n"
		   "Executes COMMAND so that it gets SIGKILL when its parent process dies\n"
		   "(prctl PR_SET_PDEATHSIG, kept across exec).  -p PID: the parent must be\n"
		   "PID; if it is already gone, COMMAND is not run (exit 125).\n");
}

int main(int argc, char **argv)
{
	int i = 1;
	long want = 0;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "-p") == 0) {
		char *end;

		want = strtol(argv[2], &end, 10);
		if (*end || want <= 1) {
			fprintf(stderr, TOOL ": -p: expected a process id, got \"%s\"\n", argv[2]);
			return 125;
		}
		i = 3;
	}
	if (i >= argc) {
		usage(stderr);
		return 125;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
		fprintf(stderr, TOOL ": prctl: %s\n", strerror(errno));
		return 125;
	}
	/* The parent may have died before the prctl: then nothing will
	 * signal us, so do not start. */
	if ((want && getppid() != (pid_t)want) || getppid() == 1) {
		fprintf(stderr, TOOL ": parent already gone\n");
		return 125;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, TOOL ": %s: %s\n", argv[i], strerror(errno));
	return 127;
}
