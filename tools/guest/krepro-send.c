/* krepro-send: send result files to the host as KRP1 frames
 * (docs/ARCHITECTURE.md, "Guest to host protocol").
 *
 *   krepro-send [-d DEVICE|tcp:ADDR:PORT] [--status WORD] FILE...
 *
 * One "file" frame per FILE, named by its basename, then an "end" frame
 * "files=<n> status=<word>".  A file whose basename is not a valid frame
 * name, that cannot be read, is larger than KRP_LEN_MAX or repeats an
 * earlier basename is skipped with a warning; the status is then "partial"
 * (if it was "ok") and the exit code 1.  DEVICE defaults to /dev/ttyS1 and is
 * put in raw mode if it is a tty; "-" is stdout (never switched to raw).
 * "tcp:ADDR:PORT" (IPv4) sends to run-matrix's listener on a lab board's
 * controller, retrying the connection for up to 60 s while the network comes
 * up, and waits for the listener to close before exiting, so that a reboot
 * right after cannot cut the results short. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>

#include "diag.h"
#include "io.h"
#include "frame.h"

#define PROG "krepro-send"
#define STATUS_MAX 31

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [-d DEVICE|tcp:ADDR:PORT] [--status WORD] [--step N] FILE...\n"
	      "  -d DEVICE      where to write frames (default /dev/ttyS1; '-' = stdout);\n"
	      "                 a tty is switched to raw mode, keeping its speed;\n"
	      "                 tcp:ADDR:PORT connects to an IPv4 listener (lab boards)\n"
	      "  --status WORD  status in the final end frame (default ok; [A-Za-z0-9._-]);\n"
	      "                 ok becomes partial if a file had to be skipped\n"
	      "  --step N       kexec chain step N (1, 2, ...) in the end frame: the host\n"
	      "                 takes each step's results by its number, not its position\n"
	      "  --text         files as \"KRP1 text\" frames, the content in base64 lines\n"
	      "                 of 76: for a console a lab scheduler logs and rewrites\n"
	      "Each FILE is sent as \"KRP1 file <len> <crc32> <basename>\\n<content>\\n\",\n"
	      "then \"KRP1 end <len> <crc32> end\\nfiles=<n> status=<word>[ step=<n>]\\n\".\n"
	      "Exit 0 if every file was sent, 1 if some were skipped or the device failed.\n",
	      f);
}

#define die_usage(...) krp_die_usage(PROG, __VA_ARGS__)
#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static int out_fd = -1;
static int out_tty;
static int out_sock; /* a TCP connection (tcp:ADDR:PORT) */
static const char *out_name;

static void write_all(const void *p, size_t len)
{
	if (krp_write_all(out_fd, p, len) < 0)
		die("write %s: %s", out_name, strerror(errno));
}

static int text_frames; /* --text: "text" frames, base64 lines */

static void send_frame(const char *kind, const char *name, const void *data, size_t len)
{
	char hdr[KRP_HEADER_MAX], line[KRP_B64_LINE + 1];
	uint32_t crc = krp_crc32_update(0, data, len);
	int text = text_frames && strcmp(kind, "file") == 0;
	int n = krp_format_header(hdr, sizeof(hdr), text ? "text" : kind, len, crc, name);

	if (n < 0)
		die("cannot format %s frame header for '%s'", kind, name);
	write_all(hdr, (size_t)n);
	if (!text) {
		write_all(data, len);
		write_all("\n", 1);
		return;
	}
	for (size_t i = 0; i < len; i += KRP_B64_LINE / 4 * 3) {
		size_t chunk = len - i < KRP_B64_LINE / 4 * 3 ? len - i : KRP_B64_LINE / 4 * 3;
		size_t out = 4 * ((chunk + 2) / 3);

		krp_b64_encode((const unsigned char *)data + i, chunk, line);
		line[out] = '\n';
		write_all(line, out + 1);
	}
}

/* Reads a whole file into *data (malloc'd); -1 with errno on failure,
 * EFBIG if it is larger than KRP_LEN_MAX. */
static int read_file(const char *path, char **data, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *p;
	int e, fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (st.st_size > (off_t)KRP_LEN_MAX) {
		errno = EFBIG;
		goto fail;
	}
	/* st_size is only a hint: /proc files say 0, files may grow */
	cap = (size_t)st.st_size + 1;
	if (cap < 4096)
		cap = 4096;
	p = malloc(cap);
	if (!p)
		goto fail;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *q;

			if (cap > KRP_LEN_MAX) {
				free(p);
				errno = EFBIG;
				goto fail;
			}
			cap = cap * 2 > (size_t)KRP_LEN_MAX + 1 ? (size_t)KRP_LEN_MAX + 1 : cap * 2;
			q = realloc(p, cap);
			if (!q) {
				free(p);
				goto fail;
			}
			p = q;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			free(p);
			errno = e;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > KRP_LEN_MAX) {
		free(p);
		errno = EFBIG;
		return -1;
	}
	*data = p;
	*len = n;
	return 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

static int status_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > STATUS_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

static void open_device(const char *dev)
{
	struct termios tio;
	speed_t ispeed, ospeed;
	int fl;

	if (strcmp(dev, "-") == 0) {
		out_fd = STDOUT_FILENO;
		out_name = "stdout";
		out_tty = isatty(out_fd);
	} else {
		out_name = dev;
		/* O_NONBLOCK: do not wait for carrier before CLOCAL is set */
		out_fd = open(dev, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (out_fd < 0)
			die("%s: %s", dev, strerror(errno));
		out_tty = isatty(out_fd);
	}
	if (out_tty && out_fd != STDOUT_FILENO) { /* leave a terminal on stdout alone */
		if (tcgetattr(out_fd, &tio) < 0)
			die("tcgetattr %s: %s", out_name, strerror(errno));
		ispeed = cfgetispeed(&tio);
		ospeed = cfgetospeed(&tio);
		cfmakeraw(&tio);
		tio.c_cflag |= CLOCAL | CREAD;
#ifdef CRTSCTS
		tio.c_cflag &= ~(tcflag_t)CRTSCTS;
#endif
		cfsetispeed(&tio, ispeed);
		cfsetospeed(&tio, ospeed);
		if (tcsetattr(out_fd, TCSANOW, &tio) < 0)
			die("tcsetattr %s: %s", out_name, strerror(errno));
	}
	if (out_fd != STDOUT_FILENO) {
		fl = fcntl(out_fd, F_GETFL);
		if (fl < 0 || fcntl(out_fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
			die("fcntl %s: %s", out_name, strerror(errno));
	}
}

/* open_tcp "ADDR:PORT": connect, retrying while the network comes up. */
static void open_tcp(const char *spec)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	char addr[64];
	const char *colon = strrchr(spec, ':');
	char *end;
	unsigned long port;

	if (!colon || (size_t)(colon - spec) >= sizeof(addr))
		die_usage("-d tcp:%s: expected tcp:ADDR:PORT", spec);
	memcpy(addr, spec, (size_t)(colon - spec));
	addr[colon - spec] = '\0';
	port = strtoul(colon + 1, &end, 10);
	if (*end || port == 0 || port > 65535 || inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die_usage("-d tcp:%s: expected an IPv4 address and a port", spec);
	sa.sin_port = htons((uint16_t)port);
	out_name = spec;
	for (int tries = 0;; tries++) {
		out_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (out_fd < 0)
			die("socket: %s", strerror(errno));
		if (connect(out_fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			out_sock = 1;
			return;
		}
		if (tries >= 60)
			die("connect %s: %s", spec, strerror(errno));
		close(out_fd);
		sleep(1);
	}
}

/* Half-close and wait for the listener's close: it has every byte then. */
static void finish_tcp(void)
{
	char buf[64];

	if (shutdown(out_fd, SHUT_WR) < 0)
		die("shutdown %s: %s", out_name, strerror(errno));
	while (read(out_fd, buf, sizeof(buf)) > 0)
		;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"status", required_argument, NULL, 'S'},
	    {"step", required_argument, NULL, 'T'},
	    {"text", no_argument, NULL, 'X'},
	    {NULL, 0, NULL, 0},
	};
	const char *dev = "/dev/ttyS1", *status = "ok";
	unsigned long step = 0;
	char *endp;
	const char **sent;
	unsigned nsent = 0, skipped = 0;
	char end[96];
	int c, n;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'S':
			if (!status_ok(optarg))
				die_usage("--status: bad word '%s'", optarg);
			status = optarg;
			break;
		case 'T':
			step = strtoul(optarg, &endp, 10);
			if (*optarg < '1' || *optarg > '9' || *endp || step > 999999)
				die_usage("--step: bad number '%s' (1, 2, ...)", optarg);
			break;
		case 'X':
			text_frames = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			if (optopt)
				die_usage("option '-%c' needs an argument", optopt);
			die_usage("option '%s' needs an argument", argv[optind - 1]);
			break;
		default:
			if (optopt)
				die_usage("unknown option '-%c'", optopt);
			die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		die_usage("no FILE given");
	sent = calloc((size_t)(argc - optind), sizeof(*sent));
	if (!sent)
		die("out of memory");

	if (strncmp(dev, "tcp:", 4) == 0)
		open_tcp(dev + 4);
	else
		open_device(dev);
	/* Frames are recognised at line starts: end any partial line of noise
	 * (a shared console, say) before the first header. */
	write_all("\n", 1);
	for (int i = optind; i < argc; i++) {
		const char *name = base_name(argv[i]);
		char *data = NULL;
		size_t len = 0;
		int dup = 0;

		if (!krp_name_ok(name)) {
			fprintf(stderr,
				PROG ": warning: %s: '%s' is not a valid frame name; skipped\n",
				argv[i], name);
			skipped++;
			continue;
		}
		for (unsigned j = 0; j < nsent; j++)
			if (strcmp(sent[j], name) == 0)
				dup = 1;
		if (dup) {
			fprintf(stderr, PROG ": warning: %s: name '%s' already sent; skipped\n",
				argv[i], name);
			skipped++;
			continue;
		}
		if (read_file(argv[i], &data, &len) < 0) {
			fprintf(stderr, PROG ": warning: %s: %s; skipped\n", argv[i],
				errno == EFBIG ? "larger than KRP_LEN_MAX" : strerror(errno));
			skipped++;
			continue;
		}
		send_frame("file", name, data, len);
		free(data);
		sent[nsent++] = name;
	}
	if (skipped && strcmp(status, "ok") == 0)
		status = "partial";
	n = snprintf(end, sizeof(end), "files=%u status=%s", nsent, status);
	if (step)
		n += snprintf(end + n, sizeof(end) - (size_t)n, " step=%lu", step);
	send_frame("end", "end", end, (size_t)n);

	if (out_sock) {
		finish_tcp();
	} else if (out_tty) {
		while (tcdrain(out_fd) < 0) {
			if (errno != EINTR)
				die("tcdrain %s: %s", out_name, strerror(errno));
		}
	} else if (fsync(out_fd) < 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP) {
		die("fsync %s: %s", out_name, strerror(errno));
	}
	if (out_fd != STDOUT_FILENO && close(out_fd) < 0)
		die("close %s: %s", out_name, strerror(errno));
	free(sent);
	return skipped ? 1 : 0;
}
