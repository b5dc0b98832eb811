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
 * the first read, CLOCK_MONOTONIC).
 *
 * Under exact mode every instruction is guest time, and dd's loop is ~5%
 * of a block's (a read of a sparse page, a write to /dev/null), so the
 * loop keeps the per-block bookkeeping of dd's copy loop for these
 * operands: its settings (progress, count, conversions, direct and
 * nocache flags, the partial-read warning) tested where dd tests them, a
 * signal check before every read and write, the read through a function
 * pointer, the input offset advanced with its overflow test, and the
 * in/out counts.  None of these settings is an option of ddread: they keep
 * dd's defaults. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DDREAD_BS 4096

/* dd's settings, at their defaults for `bs=4k if=FILE of=/dev/null`
 * (volatile: loaded where dd loads them, not folded away). */
enum { DD_PROGRESS = 3, DD_SYNC = 1, DD_NOERROR = 2, DD_SPARSE = 4 };
static volatile int status_level = 1;
static volatile long long max_records = 0x7fffffffffffffffLL, max_bytes;
static volatile int conversions, input_flags, output_flags, i_nocache, o_nocache;
static volatile int warn_partial_read;
static volatile long long input_offset, output_blocksize = DDREAD_BS;
static volatile long input_blocksize = DDREAD_BS;

static volatile sig_atomic_t interrupted;
static volatile int info_signals;

static unsigned long long r_full, r_partial, w_full, w_partial, w_bytes;
static struct timespec t0;
static int final_was_seek;

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

static void print_summary(void)
{
	static const char *const si[] = {"B", "kB", "MB", "GB", "TB", "PB", NULL};
	static const char *const iec[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", NULL};
	struct timespec t1;
	char h1[32], h2[32], hr[32];
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	human(h1, sizeof(h1), (double)w_bytes, 1000, si);
	human(h2, sizeof(h2), (double)w_bytes, 1024, iec);
	human(hr, sizeof(hr), secs > 0 ? (double)w_bytes / secs : 0, 1000, si);
	printf("%llu+%llu records in\n%llu+%llu records out\n"
	       "%llu bytes (%s, %s) copied, %.6f s, %s/s\n",
	       r_full, r_partial, w_full, w_partial, w_bytes, h1, h2, secs, hr);
	fflush(stdout);
}

/* dd's signal check: on SIGINT the summary, then the end. */
static void check_signals(void)
{
	while (interrupted || info_signals) {
		if (interrupted) {
			print_summary();
			_exit(0);
		}
		info_signals = 0;
	}
}

__attribute__((noinline)) static ssize_t read_block(int fd, char *buf, long size)
{
	static ssize_t prev;
	ssize_t r;

	do {
		check_signals();
		r = read(fd, buf, (size_t)size);
		if (r == -1 && errno == EINVAL && prev > 0 && prev < size &&
		    (input_flags & O_DIRECT)) {
			errno = 0;
			r = 0;
		}
	} while (r < 0 && errno == EINTR);
	if (r > 0 && r < size)
		check_signals();
	if (r > 0 && warn_partial_read && prev > 0 && prev < size)
		warn_partial_read = 0;
	prev = r;
	return r;
}

static ssize_t (*volatile read_fn)(int, char *, long) = read_block;

__attribute__((noinline)) static long write_block(int fd, const char *buf, long size)
{
	long done = 0;

	if ((output_flags & O_DIRECT) && size < output_blocksize)
		return -1; /* never: of=/dev/null has no O_DIRECT */
	while (done < size) {
		ssize_t w = 0;

		check_signals();
		final_was_seek = 0;
		if (conversions & DD_SPARSE)
			return -1; /* never: no conv=sparse */
		w = write(fd, buf + done, (size_t)(size - done));
		if (w < 0) {
			if (errno != EINTR)
				break;
		} else if (w == 0) {
			errno = ENOSPC;
			break;
		} else {
			done += w;
		}
	}
	if (o_nocache && done)
		return -1; /* never: no oflag=nocache */
	return done;
}

int main(int argc, char **argv)
{
	static char buf[DDREAD_BS];
	struct sigaction sa;
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
	for (;;) {
		long n;
		ssize_t r;
		long w;

		if (status_level == DD_PROGRESS)
			return 2; /* never: no status=progress */
		if ((long long)(r_partial + r_full) >= max_records + !!max_bytes)
			break;
		if ((conversions & DD_SYNC) && (conversions & DD_NOERROR))
			memset(buf, 0, (size_t)input_blocksize);
		if ((long long)(r_partial + r_full) >= max_records)
			r = read_fn(fd, buf, (long)max_bytes);
		else
			r = read_fn(fd, buf, input_blocksize);
		if (r > 0) {
			long long o = input_offset;

			if (o >= 0 && __builtin_add_overflow(o, (long long)r, &o))
				o = -1;
			input_offset = o;
			if (i_nocache)
				return 2; /* never: no iflag=nocache */
		} else if (r == 0) {
			break;
		} else {
			fprintf(stderr, "ddread: %s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		n = (long)r;
		if (n < input_blocksize)
			r_partial++;
		else
			r_full++;
		w = write_block(out, buf, n);
		w_bytes += (unsigned long long)w;
		if (w != n) {
			fprintf(stderr, "ddread: /dev/null: %s\n", strerror(errno));
			return 1;
		}
		if (n == input_blocksize)
			w_full++;
		else
			w_partial++;
	}
	print_summary();
	close(out);
	close(fd);
	return 0;
}
