/* The one table of raw files (see parsers.h): file name -> parser.  The
 * parsers live with what they parse, suites/<name>/parse.c and
 * monitors/<name>/parse.c, and each folder's meta lists its own
 * ("parser FILE FUNCTION [named]"); the Makefile makes raw_files.def. */
#include "parsers.h"

#include <string.h>

#include "dmesg.h"

/* kmsg's parser also counts what it found; the table needs none of that. */
static void parse_kmsg(const char *buf, size_t len, struct krp_metrics *m)
{
	krp_parse_dmesg(buf, len, m);
}

/* Each file has one parser: plain, or named (it takes the file's name as its
 * metric prefix). */
typedef void plain_parser(const char *buf, size_t len, struct krp_metrics *m);
typedef void named_parser(const char *buf, size_t len, const char *prefix, struct krp_metrics *m);
static const struct raw_file {
	const char *file;
	plain_parser *parse;
	named_parser *named;
	enum krp_raw_owner owner;
} raw_files[] = {
#define PLAIN_0(fn) fn, NULL
#define PLAIN_1(fn) NULL, fn
#define KRP_RAW_FILE(file, fn, named, owner) {file, PLAIN_##named(fn), owner},
#include "raw_files.def"
#undef KRP_RAW_FILE
    /* the kernel's log */
    {"kmsg", parse_kmsg, NULL, KRP_RAW_MONITOR},
};
#define NRAW (sizeof(raw_files) / sizeof(raw_files[0]))

static const struct raw_file *raw_file(const char *filename)
{
	for (size_t i = 0; i < NRAW; i++)
		if (strcmp(filename, raw_files[i].file) == 0)
			return &raw_files[i];
	return NULL;
}

/* Bench name of "<bench>.time" (monitors/time) into bench (size
 * KRP_METRIC_NAME_MAX+1). */
static int time_bench(const char *filename, char *bench)
{
	size_t n = strlen(filename);

	if (n <= 5 || strcmp(filename + n - 5, ".time") != 0 || n - 5 > KRP_METRIC_NAME_MAX)
		return -1;
	memcpy(bench, filename, n - 5);
	bench[n - 5] = '\0';
	return krp_metric_name_ok(bench) ? 0 : -1;
}

int krp_raw_known(const char *filename)
{
	char bench[KRP_METRIC_NAME_MAX + 1];

	return raw_file(filename) || time_bench(filename, bench) == 0;
}

int krp_parse_raw(const char *filename, const char *buf, size_t len, struct krp_metrics *m)
{
	const struct raw_file *f = raw_file(filename);
	char bench[KRP_METRIC_NAME_MAX + 1];

	if (f && f->parse)
		f->parse(buf, len, m);
	else if (f)
		f->named(buf, len, filename, m);
	else if (time_bench(filename, bench) == 0)
		krp_parse_time(buf, len, bench, m);
	else
		return 0;
	return 1;
}

size_t krp_raw_count(void)
{
	return NRAW;
}

const char *krp_raw_name(size_t i, enum krp_raw_owner *owner)
{
	if (i >= NRAW)
		return NULL;
	*owner = raw_files[i].owner;
	return raw_files[i].file;
}
