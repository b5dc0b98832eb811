/* krepro-recv: decode the guest's frame stream (ttyS1 capture) and write
 * the result files into a staging directory. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frame_decode.h"
#include "console_text.h"
#include "recv.h"
#include "util.h"

#define TOOL "krepro-recv"
/* A stream holds at most a few 64 MiB payloads plus console noise. */
#define STREAM_MAX ((size_t)2 << 30)
/* The console taken out of a LAVA log: the guest's own output bound
 * (KREPRO_GUEST_OUTPUT_MAX's default, 256 MiB), which a guest booted by
 * LAVA must meet as one booted here does. */
#define LAVA_CONSOLE_MAX ((size_t)256 << 20)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " TOOL " [--help] [--session N] [--lava-log] -o STAGING_DIR FRAMES_FILE\n"
		"\n"
		"Decode KRP1 frames from FRAMES_FILE ('-' for stdin) and write each file\n"
		"frame to STAGING_DIR/<name> (created if missing; existing files are never\n"
		"overwritten).  Bytes outside frames are skipped and counted.\n"
		"--session N takes only the N-th session (1-based) of a stream that holds\n"
		"several, each closed by its own end frame (one per boot of a kexec chain).\n"
		"\"KRP1 text\" frames (base64 lines, for a console a lab scheduler logs)\n"
		"are decoded wherever they appear.  --lava-log: FRAMES_FILE is a LAVA job\n"
		"log (lava-run's records, the server's output.yaml or lavacli's\n"
		"timestamped lines); the board's console is taken back out of it.\n"
		"\n"
		"Memory: FRAMES_FILE (at most 2 GiB) is mapped, not read; a LAVA log's\n"
		"console is kept in memory up to 256 MiB (the guest output bound; more\n"
		"fails the run), so at most 512 MiB are allocated.\n"
		"\n"
		"Exit status: 0 when every frame is valid and an end frame with status=ok\n"
		"and the right files= count was received; 1 when the stream is bad (the\n"
		"reason is printed); 2 on usage or input errors.\n");
}

/* The stream is mapped, not read: a guest's gigabytes of frames cost page
 * cache, not this process's memory.  Streams above STREAM_MAX are refused. */
static int map_stream(const char *path, char **data, size_t *len, char *err, size_t errsz)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size > STREAM_MAX) {
		snprintf(err, errsz, "%s: not a regular file of at most %zu bytes", path,
			 (size_t)STREAM_MAX);
		close(fd);
		return -1;
	}
	*len = (size_t)st.st_size;
	*data = *len ? mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0) : (char *)"";
	close(fd);
	if (*data == MAP_FAILED) {
		snprintf(err, errsz, "%s: mmap: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"output", required_argument, NULL, 'o'},
	    {"session", required_argument, NULL, 's'},
	    {"lava-log", no_argument, NULL, 'L'},
	    {NULL, 0, NULL, 0},
	};
	const char *outdir = NULL, *path;
	struct krp_decode_result res;
	char err[KRP_ERR_MAX], *data;
	size_t len;
	int c, rc;
	unsigned long session = 0;
	char *end;
	int lava = 0;
	struct krp_buf console = {0};
	size_t records = 0;

	while ((c = getopt_long(argc, argv, "ho:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'o':
			outdir = optarg;
			break;
		case 'L':
			lava = 1;
			break;
		case 's':
			session = strtoul(optarg, &end, 10);
			if (*optarg < '1' || *optarg > '9' || *end || session > 100000) {
				fprintf(stderr, TOOL ": bad --session '%s' (1, 2, ...)\n", optarg);
				return 2;
			}
			break;
		default: /* getopt printed the problem */
			return 2;
		}
	}
	if (!outdir || optind != argc - 1) {
		fprintf(stderr, TOOL ": %s (see --help)\n",
			!outdir ? "missing -o STAGING_DIR" : "expected exactly one FRAMES_FILE");
		return 2;
	}
	path = argv[optind];
	if (map_stream(path, &data, &len, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return 2;
	}
	if (lava) { /* LAVA's records (or timestamped lines) back to console text */
		int over;

		records = krp_console_from_lava_max(data, len, LAVA_CONSOLE_MAX, &console, &over);
		if (over) {
			fprintf(stderr,
				TOOL ": %s: the console in this LAVA log is over %zu bytes, the "
				     "guest output bound\n",
				path, LAVA_CONSOLE_MAX);
			krp_buf_free(&console);
			munmap(data, len);
			return 1;
		}
	}
	rc = lava ? krp_recv_session_to_dir(console.data ? console.data : "", console.len,
					    (unsigned)session, outdir, &res)
		  : krp_recv_session_to_dir(data, len, (unsigned)session, outdir, &res);
	krp_buf_free(&console);
	if (len)
		munmap(data, len);
	if (rc == -2) {
		fprintf(stderr, TOOL ": %s\n", res.err);
		return 2;
	}
	if (rc != 0) {
		fprintf(stderr, TOOL ": %s: %s\n", path, res.err);
		return 1;
	}
	printf("frames: %zu files, end status=%s, %zu stray bytes", res.files, res.end_status,
	       res.stray);
	if (lava)
		printf(" (%zu LAVA log records)", records);
	printf("\n");
	return 0;
}
