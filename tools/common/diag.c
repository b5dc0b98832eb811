#include "diag.h"

#include <stdio.h>
#include <stdlib.h>

void krp_vmessage(const char *prog, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void krp_die(const char *prog, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	krp_vmessage(prog, fmt, ap);
	va_end(ap);
	exit(code);
}

void krp_die_usage(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	exit(2);
}
