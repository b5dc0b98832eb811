/* krepro-time: run a command and write its resource usage in GNU
 * `/usr/bin/time -v` format (the subset LKP's time parser uses).
 *
 *   krepro-time -o FILE CMD [ARGS...]
 *
 * Exits with the command's exit status, 128+signal if it was killed, 127/126
 * if it could not be run, 125 if krepro-time itself failed, 2 on bad usage. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "io.h"
#include "time_format.h"

#define PROG "krepro-time"
#define EXIT_INTERNAL 125

static void usage(FILE *f)
{
	fputs("Usage: " PROG " -o FILE CMD [ARGS...]\n"
	      "Runs CMD, waits for it and writes its user/system time, elapsed time,\n"
	      "maximum RSS, page faults, context switches, block I/O and exit status to\n"
	      "FILE in GNU `time -v` format.  Exits with CMD's exit status (128+N if\n"
	      "CMD was killed by signal N).\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *outpath = NULL;
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	struct timespec t0, t1, el;
	struct rusage ru;
	char **cmd;
	char *buf;
	size_t need, cap;
	int c, fd, st;
	pid_t pid;

	opterr = 0;
	/* '+': stop at CMD so its own options are left alone */
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':': {
			char o[3] = {'-', (char)optopt, 0};

			krp_die_usage(PROG, "option needs an argument: %s", o);
			break;
		}
		default:
			if (optopt) {
				char o[3] = {'-', (char)optopt, 0};

				krp_die_usage(PROG, "unknown option: %s", o);
			}
			krp_die_usage(PROG, "unknown option: %s", argv[optind - 1]);
		}
	}
	if (!outpath)
		krp_die_usage(PROG, "missing -o FILE");
	if (optind >= argc)
		krp_die_usage(PROG, "missing CMD");
	cmd = argv + optind;

	fd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", outpath, strerror(errno));
		return EXIT_INTERNAL;
	}

	/* Like GNU time: the wrapper ignores keyboard interrupts meant for CMD. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(stdout);
	fflush(stderr);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		return EXIT_INTERNAL;
	}
	if (pid == 0) {
		int err;

		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execvp(cmd[0], cmd);
		err = errno;
		fprintf(stderr, PROG ": cannot run %s: %s\n", cmd[0], strerror(err));
		_exit(err == ENOENT ? 127 : 126);
	}
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, PROG ": wait4: %s\n", strerror(errno));
			return EXIT_INTERNAL;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	el.tv_sec = t1.tv_sec - t0.tv_sec;
	el.tv_nsec = t1.tv_nsec - t0.tv_nsec;
	if (el.tv_nsec < 0) {
		el.tv_sec--;
		el.tv_nsec += 1000000000L;
	}

	cap = 2048;
	for (int i = 0; cmd[i]; i++)
		cap += strlen(cmd[i]) + 1;
	buf = malloc(cap);
	if (!buf) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_INTERNAL;
	}
	need = krp_time_format(buf, cap, cmd, &ru, &el, st);
	if (need >= cap) {
		free(buf);
		cap = need + 1;
		buf = malloc(cap);
		if (!buf) {
			fprintf(stderr, PROG ": out of memory\n");
			return EXIT_INTERNAL;
		}
		need = krp_time_format(buf, cap, cmd, &ru, &el, st);
	}
	if (krp_write_all(fd, buf, need) < 0 || close(fd) < 0) {
		fprintf(stderr, PROG ": %s: %s\n", outpath, strerror(errno));
		return EXIT_INTERNAL;
	}
	free(buf);
	return krp_time_exit_code(st);
}
