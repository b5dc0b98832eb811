/* GNU `/usr/bin/time -v` style report for krepro-time
 * (tools/guest/krepro-time.c).  Header-only (static inline) so that
 * tests/unit/time_format_test.c can test it on the host.
 *
 * Values follow GNU time 1.9: seconds are truncated (not rounded) to
 * centiseconds, percent of CPU is (user+sys ms) * 100 / elapsed ms in integer
 * arithmetic (0 when no time elapsed, where GNU prints "?%"), elapsed is
 * m:ss.cc below one hour and h:mm:ss from one hour on, "Exit status" is
 * WEXITSTATUS (0 when killed by a signal), and a non-zero exit or a signal is
 * announced by GNU's untabbed first line. */
#ifndef KREPRO_TIME_FORMAT_H
#define KREPRO_TIME_FORMAT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

/* snprintf-style append at *pos; keeps counting past the end of out so the
 * caller learns the size it needs. */
static inline void krp_tf_add(char *out, size_t outsz, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static inline void krp_tf_add(char *out, size_t outsz, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (*pos < outsz)
		n = vsnprintf(out + *pos, outsz - *pos, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

/* "m:ss.cc" (below one hour) or "h:mm:ss" into out. */
static inline int krp_time_elapsed(char *out, size_t outsz, const struct timespec *el)
{
	long long s = (long long)el->tv_sec;

	if (s >= 3600)
		return snprintf(out, outsz, "%lld:%02lld:%02lld", s / 3600, (s % 3600) / 60,
				s % 60);
	return snprintf(out, outsz, "%lld:%02lld.%02ld", s / 60, s % 60,
			(long)(el->tv_nsec / 10000000L));
}

static inline unsigned long long krp_tv_ms(const struct timeval *tv)
{
	return (unsigned long long)tv->tv_sec * 1000ULL + (unsigned long long)tv->tv_usec / 1000ULL;
}

/* Formats the whole report.  argv is the NULL-terminated command, ru the
 * child's rusage from wait4, elapsed its wall time, wstatus its wait status.
 * Returns the length of the report (like snprintf: if >= outsz the output
 * was cut and the caller should retry with a larger buffer). */
static inline size_t krp_time_format(char *out, size_t outsz, char *const *argv,
				     const struct rusage *ru, const struct timespec *elapsed,
				     int wstatus)
{
	size_t pos = 0;
	unsigned long long cpu_ms = krp_tv_ms(&ru->ru_utime) + krp_tv_ms(&ru->ru_stime);
	unsigned long long wall_ms = (unsigned long long)elapsed->tv_sec * 1000ULL +
				     (unsigned long long)elapsed->tv_nsec / 1000000ULL;
	char el[64];

	if (outsz)
		out[0] = 0;
	if (WIFSIGNALED(wstatus))
		krp_tf_add(out, outsz, &pos, "Command terminated by signal %d\n",
			   WTERMSIG(wstatus));
	else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus))
		krp_tf_add(out, outsz, &pos, "Command exited with non-zero status %d\n",
			   WEXITSTATUS(wstatus));

	krp_tf_add(out, outsz, &pos, "\tCommand being timed: \"");
	for (int i = 0; argv[i]; i++)
		krp_tf_add(out, outsz, &pos, "%s%s", i ? " " : "", argv[i]);
	krp_tf_add(out, outsz, &pos, "\"\n");
	krp_tf_add(out, outsz, &pos, "\tUser time (seconds): %ld.%02ld\n",
		   (long)ru->ru_utime.tv_sec, (long)(ru->ru_utime.tv_usec / 10000));
	krp_tf_add(out, outsz, &pos, "\tSystem time (seconds): %ld.%02ld\n",
		   (long)ru->ru_stime.tv_sec, (long)(ru->ru_stime.tv_usec / 10000));
	krp_tf_add(out, outsz, &pos, "\tPercent of CPU this job got: %llu%%\n",
		   wall_ms ? cpu_ms * 100ULL / wall_ms : 0ULL);
	krp_time_elapsed(el, sizeof(el), elapsed);
	krp_tf_add(out, outsz, &pos, "\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n", el);
	krp_tf_add(out, outsz, &pos, "\tMaximum resident set size (kbytes): %ld\n", ru->ru_maxrss);
	krp_tf_add(out, outsz, &pos, "\tMajor (requiring I/O) page faults: %ld\n", ru->ru_majflt);
	krp_tf_add(out, outsz, &pos, "\tMinor (reclaiming a frame) page faults: %ld\n",
		   ru->ru_minflt);
	krp_tf_add(out, outsz, &pos, "\tVoluntary context switches: %ld\n", ru->ru_nvcsw);
	krp_tf_add(out, outsz, &pos, "\tInvoluntary context switches: %ld\n", ru->ru_nivcsw);
	krp_tf_add(out, outsz, &pos, "\tFile system inputs: %ld\n", ru->ru_inblock);
	krp_tf_add(out, outsz, &pos, "\tFile system outputs: %ld\n", ru->ru_oublock);
	krp_tf_add(out, outsz, &pos, "\tExit status: %d\n",
		   WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 0);
	return pos;
}

/* Exit code of krepro-time for a child's wait status: its exit status, or
 * 128 + signal if it was killed. */
static inline int krp_time_exit_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

#endif
