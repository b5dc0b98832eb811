/* Frame protocol: CRC-32, names, header formatting, the stream decoder and
 * the receiver writing into a staging directory. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frame.h"
#include "frame_decode.h"
#include "recv.h"
#include "unit.h"
#include "util.h"

/* Append one well-formed frame to b. */
static void add_frame(struct krp_buf *b, const char *kind, const char *name, const char *data,
		      size_t len)
{
	char hdr[KRP_HEADER_MAX];
	int n =
	    krp_format_header(hdr, sizeof(hdr), kind, len, krp_crc32_update(0, data, len), name);

	if (n < 0) {
		printf("FAIL add_frame: cannot format header for %s\n", name);
		unit_failed = 1;
		return;
	}
	krp_buf_add(b, hdr, (size_t)n);
	krp_buf_add(b, data, len);
	krp_buf_add(b, "\n", 1);
}

static void add_str(struct krp_buf *b, const char *s)
{
	krp_buf_add(b, s, strlen(s));
}

struct seen {
	int n;
	char names[8][KRP_NAME_MAX + 1];
	char data[8][256];
	size_t len[8];
};

static int collect(void *ctx, const char *name, const unsigned char *data, size_t len, char *err,
		   size_t errsz)
{
	struct seen *s = ctx;

	(void)err;
	(void)errsz;
	if (s->n < 8) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
		s->len[s->n] = len;
		memcpy(s->data[s->n], data, len < 255 ? len : 255);
		s->data[s->n][len < 255 ? len : 255] = '\0';
	}
	s->n++;
	return 0;
}

static int decode(struct krp_buf *b, struct seen *s, struct krp_decode_result *r)
{
	memset(s, 0, sizeof(*s));
	return krp_decode(b->data, b->len, collect, s, r);
}

static void test_crc(void)
{
	CHECK("crc32 123456789", krp_crc32_update(0, "123456789", 9) == 0xcbf43926u);
	CHECK("crc32 empty", krp_crc32_update(0, "", 0) == 0);
	CHECK("crc32 chained",
	      krp_crc32_update(krp_crc32_update(0, "1234", 4), "56789", 5) == 0xcbf43926u);
	/* "The quick brown fox jumps over the lazy dog" = 0x414fa339 */
	CHECK("crc32 fox", krp_crc32_update(0, "The quick brown fox jumps over the lazy dog", 43) ==
			       0x414fa339u);
}

static void test_names(void)
{
	char longname[KRP_NAME_MAX + 2];

	CHECK("name meminfo", krp_name_ok("meminfo"));
	CHECK("name will-it-scale.time", krp_name_ok("will-it-scale.time"));
	CHECK("name a+b_c-1.x", krp_name_ok("a+b_c-1.x"));
	CHECK("name 0", krp_name_ok("0"));
	CHECK("name empty", !krp_name_ok(""));
	CHECK("name .", !krp_name_ok("."));
	CHECK("name ..", !krp_name_ok(".."));
	CHECK("name ../x", !krp_name_ok("../x"));
	CHECK("name a/b", !krp_name_ok("a/b"));
	CHECK("name .hidden", !krp_name_ok(".hidden"));
	CHECK("name -x", !krp_name_ok("-x"));
	CHECK("name space", !krp_name_ok("a b"));
	CHECK("name newline", !krp_name_ok("a\n"));
	CHECK("name high byte", !krp_name_ok("caf\xc3\xa9"));
	memset(longname, 'a', KRP_NAME_MAX);
	longname[KRP_NAME_MAX] = '\0';
	CHECK("name 128 bytes", krp_name_ok(longname));
	longname[KRP_NAME_MAX] = 'a';
	longname[KRP_NAME_MAX + 1] = '\0';
	CHECK("name 129 bytes", !krp_name_ok(longname));
}

static void test_header(void)
{
	char h[KRP_HEADER_MAX];
	int n;

	n = krp_format_header(h, sizeof(h), "file", 9, 0xcbf43926u, "meminfo");
	CHECK_STR("header text", h, "KRP1 file 9 cbf43926 meminfo\n");
	CHECK("header length", n == 29);
	n = krp_format_header(h, sizeof(h), "end", 17, 0x1u, "end");
	CHECK_STR("header end", h, "KRP1 end 17 00000001 end\n");
	CHECK("header bad kind", krp_format_header(h, sizeof(h), "blob", 1, 0, "x") == -1);
	CHECK("header bad name", krp_format_header(h, sizeof(h), "file", 1, 0, "../x") == -1);
	CHECK("header end name", krp_format_header(h, sizeof(h), "end", 1, 0, "x") == -1);
	CHECK("header too long len",
	      krp_format_header(h, sizeof(h), "file", (size_t)KRP_LEN_MAX + 1, 0, "x") == -1);
	CHECK("header max len", krp_format_header(h, sizeof(h), "file", KRP_LEN_MAX, 0, "x") > 0);
	CHECK("header small buffer", krp_format_header(h, 10, "file", 1, 0, "meminfo") == -1);
}

static void test_decode_ok(void)
{
	struct krp_buf b = {0};
	struct krp_decode_result r;
	struct seen s;
	int rc;

	/* 23 bytes of console noise before (and the sender's empty line), 6
	 * between (one partial "KRP1" line), 4 after; none of them is a frame. */
	add_str(&b, "[    0.000000] Linux v\n");
	add_str(&b, "\n"); /* krepro-send's separator: not stray */
	add_frame(&b, "file", "meminfo", "MemTotal: 1 kB\n", 15);
	add_str(&b, "KRP1x\n");
	add_frame(&b, "file", "empty", "", 0);
	add_frame(&b, "file", "bin", "a\nKRP1 file 1 00000000 x\n\0b", 27);
	add_frame(&b, "end", "end", "files=3 status=ok", 17);
	add_str(&b, "tail");
	rc = decode(&b, &s, &r);
	CHECK("decode ok rc", rc == 0);
	CHECK("decode ok files", r.files == 3 && s.n == 3);
	CHECK("decode ok frames", r.frames == 4);
	CHECK("decode ok stray", r.stray == 23 + 6 + 4);
	CHECK("decode ok end", r.have_end && r.end_files == 3);
	CHECK_STR("decode ok status", r.end_status, "ok");
	CHECK_STR("decode name 1", s.names[0], "meminfo");
	CHECK_STR("decode data 1", s.data[0], "MemTotal: 1 kB\n");
	CHECK("decode empty payload", s.len[1] == 0);
	CHECK("decode binary payload", s.len[2] == 27 && memcmp(s.data[2], "a\nKRP1", 6) == 0);
	krp_buf_free(&b);

	/* Upper-case CRC digits are accepted. */
	{
		char h[128];
		uint32_t c = krp_crc32_update(0, "hello", 5);

		snprintf(h, sizeof(h), "KRP1 file 5 %08X x\nhello\n", (unsigned)c);
		add_str(&b, h);
		add_frame(&b, "end", "end", "files=1 status=ok", 17);
		rc = decode(&b, &s, &r);
		CHECK("decode upper-case crc", rc == 0 && s.n == 1);
		krp_buf_free(&b);
	}
}

static void expect_fail(const char *name, struct krp_buf *b, const char *want)
{
	struct krp_decode_result r;
	struct seen s;
	int rc = decode(b, &s, &r);

	CHECK(name, rc == -1 && strstr(r.err, want) != NULL);
	if (rc != -1 || !strstr(r.err, want))
		printf("  got \"%s\", want \"%s\"\n", r.err, want);
	krp_buf_free(b);
}

static void test_decode_errors(void)
{
	struct krp_buf b = {0};
	char h[256];

	/* Truncated payload: header says 100 bytes, 10 follow. */
	snprintf(h, sizeof(h), "KRP1 file 100 %08x meminfo\n0123456789", 0u);
	add_str(&b, h);
	expect_fail("truncated payload", &b,
		    "frame 1 (meminfo): truncated payload: expected 100 bytes, got 10");

	/* Corrupt payload: one byte changed after the CRC was computed. */
	add_frame(&b, "file", "one", "x", 1);
	add_frame(&b, "file", "meminfo", "MemTotal: 1 kB\n", 15);
	b.data[b.len - 3] = 'X';
	add_frame(&b, "end", "end", "files=2 status=ok", 17);
	snprintf(h, sizeof(h), "frame 2 (meminfo): crc mismatch: header %08x, payload %08x",
		 (unsigned)krp_crc32_update(0, "MemTotal: 1 kB\n", 15),
		 (unsigned)krp_crc32_update(0, "MemTotal: 1 kX\n", 15));
	expect_fail("crc mismatch", &b, h);

	/* Misnamed frames. */
	snprintf(h, sizeof(h), "KRP1 file 1 %08x ../x\nA\n", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("name ../x", &b, "frame 1: bad name \"../x\"");
	snprintf(h, sizeof(h), "KRP1 file 1 %08x a/b\nA\n", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("name a/b", &b, "bad name \"a/b\"");
	snprintf(h, sizeof(h), "KRP1 file 1 %08x .\nA\n", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("name .", &b, "bad name \".\"");
	snprintf(h, sizeof(h), "KRP1 file 1 %08x \nA\n", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("name empty", &b, "bad name \"\"");

	add_frame(&b, "file", "a", "1", 1);
	expect_fail("no end", &b, "no end frame: guest did not finish");

	add_frame(&b, "file", "a", "1", 1);
	add_frame(&b, "end", "end", "files=2 status=ok", 17);
	expect_fail("files count", &b, "end frame says files=2 but 1 file frames were received");

	add_frame(&b, "file", "a", "1", 1);
	add_frame(&b, "end", "end", "files=1 status=fail", 19);
	expect_fail("status fail", &b, "guest reported status=fail");

	add_frame(&b, "file", "a", "1", 1);
	add_frame(&b, "file", "a", "2", 1);
	add_frame(&b, "end", "end", "files=2 status=ok", 17);
	expect_fail("duplicate", &b, "frame 2 (a): duplicate file name");

	add_frame(&b, "end", "end", "files=0 status=ok", 17);
	add_frame(&b, "file", "a", "1", 1);
	expect_fail("after end", &b, "frame 2 (a): frame after the end frame");

	add_frame(&b, "end", "end", "files=0 status=ok", 17);
	add_frame(&b, "end", "end", "files=0 status=ok", 17);
	expect_fail("two ends", &b, "frame 2 (end): frame after the end frame");

	add_frame(&b, "end", "end", "status=ok", 9);
	expect_fail("end payload", &b, "bad end payload");

	snprintf(h, sizeof(h), "KRP1 file 1 %08xx\nAX", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("bad header fields", &b, "frame 1: bad header: expected 5 fields");

	snprintf(h, sizeof(h), "KRP1 file 1 %08x a\nAX", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("missing newline", &b, "frame 1 (a): missing newline after payload");

	snprintf(h, sizeof(h), "KRP1 file 1 %08x a\nA", (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	expect_fail("eof before newline", &b, "frame 1 (a): truncated frame");

	add_str(&b, "KRP1 file 1 zzzzzzzz a\nA\n");
	expect_fail("bad crc hex", &b, "frame 1 (a): bad crc field \"zzzzzzzz\"");

	add_str(&b, "KRP1 file 1 1234567 a\nA\n");
	expect_fail("short crc", &b, "bad crc field");

	add_str(&b, "KRP1 file -1 00000000 a\nA\n");
	expect_fail("negative length", &b, "frame 1 (a): bad length \"-1\"");

	add_str(&b, "KRP1 file 67108865 00000000 a\nA\n");
	expect_fail("length over max", &b, "length 67108865 exceeds the maximum 67108864");

	add_str(&b, "KRP1 blob 1 00000000 a\nA\n");
	expect_fail("unknown kind", &b, "frame 1 (a): unknown kind \"blob\"");

	add_str(&b, "KRP1 end 1 00000000 x\nA\n");
	expect_fail("end name", &b, "bad name for an end frame");

	add_str(&b, "KRP1 file 1 00000000 a");
	expect_fail("truncated header", &b, "frame 1: truncated header");

	{
		char big[400];

		memset(big, 'a', sizeof(big));
		memcpy(big, "KRP1 file 1 00000000 ", 21);
		krp_buf_add(&b, big, sizeof(big));
		add_str(&b, "\n");
		expect_fail("header too long", &b, "frame 1: header line too long");
	}
}

static int file_exists(const char *dir, const char *name)
{
	char *p = krp_path_join(dir, name);
	struct stat st;
	int ok = lstat(p, &st) == 0;

	free(p);
	return ok;
}

static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = krp_path_join(dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

static void test_recv_dir(void)
{
	char tmpl[] = "/tmp/krepro-test-frame.XXXXXX";
	char *root = mkdtemp(tmpl), *stage, *data;
	struct krp_buf b = {0};
	struct krp_decode_result r;
	char h[128];
	size_t len;
	int rc;

	CHECK("mkdtemp", root != NULL);
	if (!root)
		return;
	stage = krp_path_join(root, "1.tmp");
	add_frame(&b, "file", "meminfo", "MemTotal: 1 kB\n", 15);
	add_frame(&b, "file", "will-it-scale", "x\n", 2);
	add_frame(&b, "end", "end", "files=2 status=ok", 17);
	rc = krp_recv_to_dir(b.data, b.len, stage, &r);
	CHECK("recv ok", rc == 0);
	CHECK("recv wrote meminfo", file_exists(stage, "meminfo"));
	{
		char err[KRP_ERR_MAX];
		char *p = krp_path_join(stage, "meminfo");

		CHECK("recv content", krp_read_file(p, 1000, &data, &len, err, sizeof(err)) == 0 &&
					  len == 15 && memcmp(data, "MemTotal: 1 kB\n", 15) == 0);
		free(data);
		free(p);
	}
	/* Second delivery into the same directory: never overwrite. */
	rc = krp_recv_to_dir(b.data, b.len, stage, &r);
	CHECK("recv no overwrite", rc == -1 && strstr(r.err, "File exists") != NULL);
	krp_buf_free(&b);

	/* A hostile name writes nothing, inside or outside. */
	snprintf(h, sizeof(h), "KRP1 file 1 %08x ../escape\nA\n",
		 (unsigned)krp_crc32_update(0, "A", 1));
	add_str(&b, h);
	add_frame(&b, "end", "end", "files=1 status=ok", 17);
	rc = krp_recv_to_dir(b.data, b.len, stage, &r);
	CHECK("recv hostile name rejected", rc == -1 && strstr(r.err, "bad name") != NULL);
	CHECK("recv nothing outside", !file_exists(root, "escape"));
	krp_buf_free(&b);

	/* Files the host writes cannot come from a guest, not even behind a
	 * tenant prefix (issue 12: a guest's FAILED or job.conf.new). */
	{
		/* Issue 35, row 3: the images booted, the host's load, where LAVA
		 * ran it, the repeat check's mark, and every one behind a prefix. */
		static const char *const forged[] = {"FAILED",
						     "job.conf.new",
						     "stats.json",
						     "vm_2.job.conf.new",
						     "vm_13.FAILED",
						     "images",
						     "vm_1.images",
						     "vm_2.images",
						     "host.conf",
						     "vm_2.host.conf",
						     "lava.conf",
						     "vm_1.lava.conf",
						     "NOT-DETERMINISTIC",
						     "vm_1.NOT-DETERMINISTIC",
						     "vm_1.vm_2.images"};
		size_t k;

		for (k = 0; k < sizeof(forged) / sizeof(forged[0]); k++) {
			char name[96];

			add_frame(&b, "file", forged[k], "x", 1);
			add_frame(&b, "end", "end", "files=1 status=ok", 17);
			rc = krp_recv_to_dir(b.data, b.len, stage, &r);
			snprintf(name, sizeof(name), "recv refuses host-owned %s", forged[k]);
			CHECK(name, rc == -1 && strstr(r.err, "a file only the host writes") &&
					!file_exists(stage, forged[k]));
			krp_buf_free(&b);
		}
		CHECK("host-owned: vm_1.meminfo is the guest's",
		      !krp_host_owned_name("vm_1.meminfo"));
		CHECK("host-owned: vm_x.FAILED is not a tenant prefix",
		      !krp_host_owned_name("vm_x.FAILED"));
		/* "vm_2..." would be renamed ".." in tenant 2's run directory. */
		add_frame(&b, "file", "vm_2...", "x", 1);
		add_frame(&b, "end", "end", "files=1 status=ok", 17);
		rc = krp_recv_to_dir(b.data, b.len, stage, &r);
		CHECK("recv refuses tenant file vm_2...",
		      rc == -1 && strstr(r.err, "a tenant's file name") &&
			  !file_exists(stage, "vm_2..."));
		krp_buf_free(&b);
		CHECK("tenant name: vm_2.meminfo", krp_tenant_name_ok("vm_2.meminfo"));
		CHECK("tenant name: vm_2..x", !krp_tenant_name_ok("vm_2..x"));
		CHECK("tenant name: vm_2.-x", !krp_tenant_name_ok("vm_2.-x"));
		CHECK("tenant name: vm_x..y is no tenant's", krp_tenant_name_ok("vm_x..y"));
	}

	/* A guest cannot fill the run folder with files. */
	{
		char *many = krp_path_join(root, "many.tmp");
		char name[32];
		int k;

		for (k = 0; k <= KRP_RECV_MAX_FILES; k++) {
			snprintf(name, sizeof(name), "f%d", k);
			add_frame(&b, "file", name, "x", 1);
		}
		add_frame(&b, "end", "end", "files=4097 status=ok", 20);
		rc = krp_recv_to_dir(b.data, b.len, many, &r);
		CHECK("recv refuses more than KRP_RECV_MAX_FILES files",
		      rc == -1 && strstr(r.err, "more than 4096 files"));
		CHECK("recv stopped at the limit", !file_exists(many, "f4096"));
		krp_buf_free(&b);
		rm_tree(many);
		free(many);
	}

	/* A symlink planted in the staging dir is not followed. */
	{
		char *link = krp_path_join(stage, "proc-vmstat");
		char *target = krp_path_join(root, "target");

		CHECK("symlink planted", symlink(target, link) == 0);
		add_frame(&b, "file", "proc-vmstat", "pgfault 1\n", 10);
		add_frame(&b, "end", "end", "files=1 status=ok", 17);
		rc = krp_recv_to_dir(b.data, b.len, stage, &r);
		CHECK("recv symlink refused", rc == -1);
		CHECK("recv symlink target untouched", !file_exists(root, "target"));
		krp_buf_free(&b);
		free(link);
		free(target);
	}
	{
		char *missing = krp_path_join(root, "no/such/dir");

		rc = krp_recv_to_dir("", 0, missing, &r);
		CHECK("recv bad staging dir", rc == -2);
		free(missing);
	}
	rm_tree(root);
	free(stage);
}

/* A kexec chain sends one session per boot into one stream. */
static void test_sessions(void)
{
	struct krp_buf b = {0};
	struct seen s;
	struct krp_decode_result r;

	add_str(&b, "console noise\n");
	add_frame(&b, "file", "meminfo", "a1", 2);
	add_frame(&b, "end", "end", "files=1 status=ok", 17);
	add_str(&b, "[    1.0] kexec: starting new kernel\n");
	/* "KRP1 " inside noise that is no whole frame starts no session */
	add_str(&b, "noise naming KRP1 file 3 00000000 x\n");
	add_frame(&b, "file", "meminfo", "b22", 3);
	add_frame(&b, "file", "will-it-scale", "x", 1);
	add_frame(&b, "end", "end", "files=2 status=ok", 17);
	add_frame(&b, "file", "meminfo", "c", 1);

	memset(&s, 0, sizeof(s));
	CHECK("session 1 decodes", krp_decode_session(b.data, b.len, 1, collect, &s, &r) == 0);
	CHECK("session 1 has its own file only", s.n == 1 && s.len[0] == 2);
	memset(&s, 0, sizeof(s));
	CHECK("session 2 decodes", krp_decode_session(b.data, b.len, 2, collect, &s, &r) == 0);
	CHECK("session 2 has two files", s.n == 2 && r.files == 2);
	CHECK_STR("session 2 first payload", s.data[0], "b22");
	CHECK("session 2 reuses a name of session 1 without a duplicate error", r.err[0] == 0);
	memset(&s, 0, sizeof(s));
	CHECK("session 3 without end fails",
	      krp_decode_session(b.data, b.len, 3, collect, &s, &r) != 0);
	CHECK("session 3 says the guest did not finish", strstr(r.err, "no end frame") != NULL);
	CHECK("session 4 does not exist",
	      krp_decode_session(b.data, b.len, 4, collect, &s, &r) != 0);
	CHECK("missing session is named", strstr(r.err, "session 4 missing: 3 sessions") != NULL);
	CHECK("whole-stream decode still rejects frames after the end",
	      krp_decode(b.data, b.len, NULL, NULL, &r) != 0 && strstr(r.err, "after the end"));
	free(b.data);
}

/* Sessions bound to their kexec chain step (issue 12): a step that sends
 * twice or sends garbage costs only itself. */
static void test_stepped_sessions(void)
{
	struct krp_buf b = {0};
	struct seen s;
	struct krp_decode_result r;

	add_frame(&b, "file", "meminfo", "s1", 2);
	add_frame(&b, "end", "end", "files=1 status=ok step=1", 24);
	/* step 2 sends its session twice */
	add_frame(&b, "file", "meminfo", "s2", 2);
	add_frame(&b, "end", "end", "files=1 status=ok step=2", 24);
	add_frame(&b, "file", "meminfo", "s2", 2);
	add_frame(&b, "end", "end", "files=1 status=ok step=2", 24);
	/* step 3 is corrupted mid-stream (crc), its end frame survives */
	add_str(&b, "KRP1 file 3 00000000 meminfo\nbad\n");
	add_frame(&b, "file", "kmsg", "k", 1);
	add_frame(&b, "end", "end", "files=2 status=ok step=3", 24);
	add_frame(&b, "file", "meminfo", "s4", 2);
	add_frame(&b, "end", "end", "files=1 status=ok step=4", 24);
	/* step 5 dies before its end frame */
	add_frame(&b, "file", "meminfo", "s5", 2);

	memset(&s, 0, sizeof(s));
	CHECK("step 1 decodes", krp_decode_session(b.data, b.len, 1, collect, &s, &r) == 0);
	CHECK_STR("step 1 has its own payload", s.data[0], "s1");
	CHECK("step 2 sent twice is refused",
	      krp_decode_session(b.data, b.len, 2, collect, &s, &r) != 0 &&
		  strstr(r.err, "step 2 sent 2 sessions"));
	CHECK("corrupted step 3 fails naming the frame",
	      krp_decode_session(b.data, b.len, 3, collect, &s, &r) != 0 &&
		  strstr(r.err, "step 3: frame 1 (meminfo): crc mismatch"));
	memset(&s, 0, sizeof(s));
	CHECK("step 4 after a duplicate and a corrupted step still decodes",
	      krp_decode_session(b.data, b.len, 4, collect, &s, &r) == 0);
	CHECK("step 4 gets step 4's results", s.n == 1 && strcmp(s.data[0], "s4") == 0);
	CHECK("step 5 without end says the guest did not finish",
	      krp_decode_session(b.data, b.len, 5, collect, &s, &r) != 0 &&
		  strstr(r.err, "step 5: no end frame"));
	free(b.data);

	/* A broken step costs only itself (issue 27, row 5): step 2 cut in the
	 * middle of a frame, then step 3 intact; step 2 a garbage header and
	 * no end frame, then step 3. */
	static const char *const broken[] = {
	    "KRP1 file 4000 0badc0de meminfo\npartial payload, the guest died here\n",
	    "KRP1 file zz garbage header\n",
	    "KRP1 file 2000 01234567 will-it-scale\n",
	    /* issue 35, row 7: step 2 cut inside a header line, or short
	     * garbage without a newline before step 3 */
	    "KRP1 file 12 0bad",
	    "KRP1 fi",
	    "KRP1 end 17 ",
	    "KRP",
	    "x7#",
	    "\x01\xff",
	    "KRP1 file 4000 0badc0de meminfo\npartial payload, no newline",
	};
	for (size_t k = 0; k < sizeof(broken) / sizeof(broken[0]); k++) {
		char what[96];

		b = (struct krp_buf){0};
		add_frame(&b, "file", "meminfo", "s1", 2);
		add_frame(&b, "end", "end", "files=1 status=ok step=1", 24);
		add_frame(&b, "file", "kmsg", "k2", 2);
		add_str(&b, broken[k]);
		add_frame(&b, "file", "meminfo", "s3", 2);
		add_frame(&b, "file", "kmsg", "k3", 2);
		add_frame(&b, "end", "end", "files=2 status=ok step=3", 24);
		add_frame(&b, "file", "meminfo", "s4", 2);
		add_frame(&b, "end", "end", "files=1 status=ok step=4", 24);
		memset(&s, 0, sizeof(s));
		snprintf(what, sizeof(what), "broken step 2 (%zu): step 3 decodes", k);
		CHECK(what, krp_decode_session(b.data, b.len, 3, collect, &s, &r) == 0);
		snprintf(what, sizeof(what), "broken step 2 (%zu): step 3 gets its own files", k);
		CHECK(what,
		      s.n == 2 && strcmp(s.data[0], "s3") == 0 && strcmp(s.data[1], "k3") == 0);
		snprintf(what, sizeof(what), "broken step 2 (%zu): step 2 fails", k);
		CHECK(what, krp_decode_session(b.data, b.len, 2, collect, &s, &r) != 0 &&
				strstr(r.err, "step 2"));
		memset(&s, 0, sizeof(s));
		snprintf(what, sizeof(what), "broken step 2 (%zu): step 4 decodes", k);
		CHECK(what, krp_decode_session(b.data, b.len, 4, collect, &s, &r) == 0 &&
				strcmp(s.data[0], "s4") == 0);
		free(b.data);
	}
	/* Step 2 whole, then short garbage without a newline on the line of
	 * step 3's first header (issue 35, row 7). */
	b = (struct krp_buf){0};
	add_frame(&b, "file", "meminfo", "s2", 2);
	add_frame(&b, "end", "end", "files=1 status=ok step=2", 24);
	add_str(&b, "\r\x1b[0m");
	add_frame(&b, "file", "meminfo", "s3", 2);
	add_frame(&b, "file", "kmsg", "k3", 2);
	add_frame(&b, "end", "end", "files=2 status=ok step=3", 24);
	memset(&s, 0, sizeof(s));
	CHECK("garbage without a newline before step 3: step 3 decodes",
	      krp_decode_session(b.data, b.len, 3, collect, &s, &r) == 0 && s.n == 2 &&
		  strcmp(s.data[0], "s3") == 0);
	memset(&s, 0, sizeof(s));
	CHECK("garbage without a newline after step 2: step 2 decodes",
	      krp_decode_session(b.data, b.len, 2, collect, &s, &r) == 0 && s.n == 1);
	free(b.data);
	/* The same without step= (sessions counted in order). */
	b = (struct krp_buf){0};
	add_frame(&b, "file", "meminfo", "s1", 2);
	add_frame(&b, "end", "end", "files=1 status=ok", 17);
	add_str(&b, "KRP1 file 9 ab");
	add_frame(&b, "file", "meminfo", "s3", 2);
	add_frame(&b, "end", "end", "files=1 status=ok", 17);
	memset(&s, 0, sizeof(s));
	CHECK("a header cut before session 3: session 3 decodes",
	      krp_decode_session(b.data, b.len, 3, collect, &s, &r) == 0 && s.n == 1 &&
		  strcmp(s.data[0], "s3") == 0);
	CHECK("and session 2, the cut one, fails",
	      krp_decode_session(b.data, b.len, 2, collect, &s, &r) != 0);
	free(b.data);
	b = (struct krp_buf){0};
	add_frame(&b, "end", "end", "files=0 status=ok step=0", 24);
	CHECK("step 0 in an end frame is refused",
	      krp_decode(b.data, b.len, NULL, NULL, &r) != 0 && strstr(r.err, "bad end payload"));
	free(b.data);
}

int main(void)
{
	test_sessions();
	test_stepped_sessions();
	test_crc();
	test_names();
	test_header();
	test_decode_ok();
	test_decode_errors();
	test_recv_dir();
	UNIT_EXIT();
}
