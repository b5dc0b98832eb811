/* ddread: what vm-scalability's lru-file-readonce/readtwice cases run as
 * `dd bs=4k if=FILE of=/dev/null`, with GNU dd's summary, which lkp-tests
 * parses (busybox dd prints no byte count or time).
 *
 * ddread FILE
 *
 * Reads FILE in 4096-byte reads to its end, or until SIGINT (the case runs
 * it under `timeout -s INT RUNTIME`, as upstream runs dd), writing each
 * block to /dev/null as dd's of=/dev/null does (opened write-only, created,
 * truncated; one write(2) a block: part of what dd's time counts), then
 * prints
 *   "N+P records in", "N+P records out",
 *   "B bytes (X MB, Y MiB) copied, S s, R MB/s"
 * (N full blocks, P partial; B the bytes written; a SIGINT between a read
 * and its write, as dd's, counts the block in but not out; S from before
 * the first read, CLOCK_MONOTONIC). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DDREAD_BS 4096

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* GNU dd's human size: one decimal below 10, whole units above. */
static void human(char *buf, size_t n, double v, double base, const char *const *units)
{
	int u = 0;

	while (v >= base && units[u + 1]) {
		v /= base;
		u++;
	}
	snprintf(buf, n, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
}

int main(int argc, char **argv)
{
	static const char *const si[] = {"B", "kB", "MB", "GB", "TB", "PB", NULL};
	static const char *const iec[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
	static char buf[DDREAD_BS];
	unsigned long long bytes = 0, full = 0, part = 0, wfull = 0, wpart = 0;
	struct sigaction sa;
	struct timespec t0, t1;
	char h1[32], h2[32], hr[32];
	double secs;
	int fd, out;

	if (argc != 2 || strcmp(argv[1], "--help") == 0) {
		fprintf(stderr, "usage: ddread FILE  (dd bs=4k if=FILE of=/dev/null, GNU "
				"dd's summary; stops at the end or on SIGINT)\n");
		return argc == 2 ? 0 : 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint; /* no SA_RESTART: read() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ddread: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	out = open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (out < 0) {
		fprintf(stderr, "ddread: /dev/null: %s\n", strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!interrupted) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "ddread: %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		if (r == 0)
			break;
		if (r == DDREAD_BS)
			full++;
		else
			part++;
		if (interrupted)
			break;
		if (write(out, buf, (size_t)r) != r) {
			fprintf(stderr, "ddread: /dev/null: %s\n", strerror(errno));
			return 1;
		}
		bytes += (unsigned long long)r;
		if (r == DDREAD_BS)
			wfull++;
		else
			wpart++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	human(h1, sizeof(h1), (double)bytes, 1000, si);
	human(h2, sizeof(h2), (double)bytes, 1024, iec);
	human(hr, sizeof(hr), secs > 0 ? (double)bytes / secs : 0, 1000, si);
	printf("%llu+%llu records in\n%llu+%llu records out\n"
	       "%llu bytes (%s, %s) copied, %.6f s, %s/s\n",
	       full, part, wfull, wpart, bytes, h1, h2, secs, hr);
	close(out);
	close(fd);
	return 0;
}
