/* diag: the tools' fatal error messages, "PROG: message\n", in one place. */
#ifndef KREPRO_DIAG_H
#define KREPRO_DIAG_H

#include <stdarg.h>

/* krp_vmessage: print "PROG: " and the message, then a newline, on stderr. */
void krp_vmessage(const char *prog, const char *fmt, va_list ap);

/* krp_die: krp_vmessage, then exit with CODE. */
_Noreturn void krp_die(const char *prog, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* krp_die_usage: "PROG: message (see --help)" on stderr, then exit 2: a
 * command line the tool cannot take. */
_Noreturn void krp_die_usage(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
