/* krepro-listen: receive one lab board's result stream over TCP.
 *
 *   krepro-listen [-b ADDR] [-a PEER] [-p PORT] [-P PORTFILE] [-t SECONDS] -o FILE
 *
 * Binds ADDR:PORT (default 127.0.0.1, port 0 = any free port), writes the
 * port actually bound to PORTFILE (atomically, so run-matrix can put it in
 * the job before the board boots), accepts one connection and copies what it
 * sends into FILE until the sender closes.  The frames are checked later by
 * krepro-recv, exactly as frames read from a QEMU serial port; this tool only
 * bounds what it accepts (time and size), so a stray or hostile peer cannot
 * fill the disk or hold run-matrix forever. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "io.h"
#include "util.h"

#define PROG "krepro-listen"
#define STREAM_MAX (256L << 20) /* larger than any result set we send */

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [-b ADDR] [-a PEER] [-p PORT] [-P PORTFILE] [-t SECONDS] -o FILE\n"
	      "  -b ADDR      IPv4 address to listen on (default 127.0.0.1)\n"
	      "  -a PEER      accept only connections from this IPv4 address (the\n"
	      "               board's); others are closed and named on stderr\n"
	      "  -p PORT      port (default 0: any free port)\n"
	      "  -P PORTFILE  write the bound port there once listening\n"
	      "  -t SECONDS   give up when nothing has connected and finished by then\n"
	      "               (default 3600); exit 3\n"
	      "  -o FILE      where the received bytes go (written as FILE.part, renamed\n"
	      "               when the sender has closed)\n"
	      "Accepts one connection; exit 0 when its sender closed cleanly, 1 on an\n"
	      "error, 2 on bad usage, 3 on timeout.\n",
	      f);
}

#define fail(code, ...) krp_die(PROG, code, __VA_ARGS__)

static long seconds_left(time_t deadline)
{
	long left = (long)(deadline - time(NULL));

	return left > 0 ? left : 0;
}

/* wait_readable: 1 when fd is readable, 0 on timeout. */
static int wait_readable(int fd, time_t deadline)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	for (;;) {
		int r = poll(&p, 1, (int)(seconds_left(deadline) * 1000));

		if (r > 0)
			return 1;
		if (r == 0)
			return 0;
		if (errno != EINTR)
			fail(1, "poll: %s", strerror(errno));
	}
}

static void write_port_file(const char *path, unsigned port)
{
	char buf[16], err[256];
	int n = snprintf(buf, sizeof(buf), "%u\n", port);

	if (krp_write_atomic(path, buf, (size_t)n, err, sizeof(err)) < 0)
		fail(1, "%s", err);
}

/* parse_long: a whole decimal number within [lo, hi], or -1. */
static int parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return (errno || end == s || *end || *v < lo || *v > hi) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *bind_addr = "127.0.0.1", *port_file = NULL, *out = NULL, *peer = NULL;
	struct in_addr peer_addr = {0};
	long port = 0, timeout = 3600, total = 0;
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t salen = sizeof(sa);
	char part[4096], buf[65536];
	time_t deadline;
	int c, lfd, cfd, ofd, one = 1;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:a:p:P:t:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			bind_addr = optarg;
			break;
		case 'a':
			peer = optarg;
			break;
		case 'p':
			if (parse_long(optarg, 0, 65535, &port) < 0)
				fail(2, "-p: bad port '%s' (see --help)", optarg);
			break;
		case 'P':
			port_file = optarg;
			break;
		case 't':
			if (parse_long(optarg, 1, 7L * 24 * 3600, &timeout) < 0)
				fail(2, "-t: bad seconds '%s' (see --help)", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fail(2, "option '%s' needs an argument (see --help)", argv[optind - 1]);
			break;
		default:
			fail(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (!out || optind != argc)
		fail(2, "usage: " PROG
			" [-b ADDR] [-a PEER] [-p PORT] [-P PORTFILE] [-t SECONDS] -o FILE");
	if (peer && inet_pton(AF_INET, peer, &peer_addr) != 1)
		fail(2, "-a: '%s' is not an IPv4 address", peer);
	if (inet_pton(AF_INET, bind_addr, &sa.sin_addr) != 1)
		fail(2, "-b: '%s' is not an IPv4 address", bind_addr);
	sa.sin_port = htons((uint16_t)port);
	deadline = time(NULL) + timeout;

	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		fail(1, "socket: %s", strerror(errno));
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0)
		fail(1, "listen on %s:%ld: %s", bind_addr, port, strerror(errno));
	if (getsockname(lfd, (struct sockaddr *)&sa, &salen) < 0)
		fail(1, "getsockname: %s", strerror(errno));
	if (port_file)
		write_port_file(port_file, ntohs(sa.sin_port));

	for (;;) {
		unsigned lport = ntohs(sa.sin_port);

		if (!wait_readable(lfd, deadline))
			fail(3, "no connection%s%s on %s:%u within %ld s", peer ? " from " : "",
			     peer ? peer : "", bind_addr, lport, timeout);
		salen = sizeof(sa);
		cfd = accept4(lfd, (struct sockaddr *)&sa, &salen, SOCK_CLOEXEC);
		if (cfd < 0)
			fail(1, "accept: %s", strerror(errno));
		if (!peer || sa.sin_addr.s_addr == peer_addr.s_addr)
			break;
		/* Another process or host: not the board's results. */
		fprintf(stderr, PROG ": refused a connection from %s (only %s may send)\n",
			inet_ntoa(sa.sin_addr), peer);
		close(cfd);
		sa.sin_port = htons((uint16_t)lport);
	}
	close(lfd);

	if (snprintf(part, sizeof(part), "%s.part", out) >= (int)sizeof(part))
		fail(2, "%s: path too long", out);
	ofd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ofd < 0)
		fail(1, "%s: %s", part, strerror(errno));
	for (;;) {
		ssize_t n;

		if (!wait_readable(cfd, deadline))
			fail(3, "sender from %s stopped before closing (%ld bytes in %ld s)",
			     inet_ntoa(sa.sin_addr), total, timeout);
		n = read(cfd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			fail(1, "read: %s", strerror(errno));
		if (n == 0)
			break;
		total += n;
		if (total > STREAM_MAX)
			fail(1, "sender from %s sent more than %ld bytes; dropped",
			     inet_ntoa(sa.sin_addr), STREAM_MAX);
		if (krp_write_all(ofd, buf, (size_t)n) != 0)
			fail(1, "%s: %s", part, strerror(errno));
	}
	if (fsync(ofd) < 0 || close(ofd) < 0 || rename(part, out) < 0)
		fail(1, "%s: %s", out, strerror(errno));
	close(cfd); /* the sender waits for this close before it reboots */
	fprintf(stderr, PROG ": %ld bytes from %s\n", total, inet_ntoa(sa.sin_addr));
	return 0;
}
