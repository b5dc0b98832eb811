/* Unit tests for tools/guest/time_format.h (krepro-time's GNU time -v text). */
#include "unit.h"
#include "../../tools/guest/time_format.h"

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_elapsed(void)
{
	struct timespec t;
	char s[64];

	t = (struct timespec){10, 30000000};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: 0:10.03", s, "0:10.03");
	t = (struct timespec){3723, 0};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: 1:02:03", s, "1:02:03");
	t = (struct timespec){59, 999999999};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: truncated not rounded", s, "0:59.99");
	t = (struct timespec){60, 5000000};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: one minute", s, "1:00.00");
	t = (struct timespec){3599, 990000000};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: just below an hour", s, "59:59.99");
	t = (struct timespec){3600, 500000000};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: one hour drops fraction", s, "1:00:00");
	t = (struct timespec){36000 + 59 * 60 + 9, 0};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: ten hours", s, "10:59:09");
	t = (struct timespec){0, 0};
	krp_time_elapsed(s, sizeof(s), &t);
	CHECK_STR("elapsed: zero", s, "0:00.00");
}

static struct rusage sample_rusage(void)
{
	struct rusage ru;

	memset(&ru, 0, sizeof(ru));
	ru.ru_utime.tv_sec = 1;
	ru.ru_utime.tv_usec = 234567; /* 1.23 */
	ru.ru_stime.tv_sec = 0;
	ru.ru_stime.tv_usec = 999999; /* 0.99: truncated like GNU time */
	ru.ru_maxrss = 5120;
	ru.ru_majflt = 1;
	ru.ru_minflt = 32768;
	ru.ru_nvcsw = 7;
	ru.ru_nivcsw = 3;
	ru.ru_inblock = 8;
	ru.ru_oublock = 16;
	return ru;
}

static void test_format(void)
{
	char *argv[] = {"sleep", "1", NULL};
	char *argv_wis[] = {"will-it-scale", "-t", "page_fault3", "-m", "process", NULL};
	struct rusage ru = sample_rusage();
	struct timespec el = {10, 30000000}; /* 10.03 s */
	char out[2048];
	size_t n;
	/* cpu = 1234 + 999 ms = 2233 ms; wall 10030 ms; 223300 / 10030 = 22 */
	const char *want = "\tCommand being timed: \"sleep 1\"\n"
			   "\tUser time (seconds): 1.23\n"
			   "\tSystem time (seconds): 0.99\n"
			   "\tPercent of CPU this job got: 22%\n"
			   "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:10.03\n"
			   "\tMaximum resident set size (kbytes): 5120\n"
			   "\tMajor (requiring I/O) page faults: 1\n"
			   "\tMinor (reclaiming a frame) page faults: 32768\n"
			   "\tVoluntary context switches: 7\n"
			   "\tInvoluntary context switches: 3\n"
			   "\tFile system inputs: 8\n"
			   "\tFile system outputs: 16\n"
			   "\tExit status: 0\n";

	n = krp_time_format(out, sizeof(out), argv, &ru, &el, 0);
	CHECK_STR("format: full report", out, want);
	CHECK("format: returned length", n == strlen(want));

	/* exit 3: GNU's announcement line, exit status 3 */
	krp_time_format(out, sizeof(out), argv, &ru, &el, 3 << 8);
	CHECK("format: non-zero exit line",
	      starts_with(out, "Command exited with non-zero status 3\n\tCommand being timed:"));
	CHECK("format: exit status 3", strstr(out, "\tExit status: 3\n") != NULL);
	CHECK("exit code: 3", krp_time_exit_code(3 << 8) == 3);

	/* killed by SIGKILL: announcement, exit status 0 as GNU, exit code 137 */
	krp_time_format(out, sizeof(out), argv, &ru, &el, 9);
	CHECK("format: signal line",
	      starts_with(out, "Command terminated by signal 9\n\tCommand being timed:"));
	CHECK("format: signal exit status", strstr(out, "\tExit status: 0\n") != NULL);
	CHECK("exit code: 128+9", krp_time_exit_code(9) == 137);
	CHECK("exit code: 0", krp_time_exit_code(0) == 0);

	/* hours, zero cpu, multi-argument command */
	memset(&ru, 0, sizeof(ru));
	el = (struct timespec){3723, 450000000};
	krp_time_format(out, sizeof(out), argv_wis, &ru, &el, 0);
	CHECK("format: command joined",
	      strstr(out, "\tCommand being timed: \"will-it-scale -t page_fault3 -m process\"\n") !=
		  NULL);
	CHECK("format: hours elapsed",
	      strstr(out, "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03\n") != NULL);
	CHECK("format: zero cpu percent",
	      strstr(out, "\tPercent of CPU this job got: 0%\n") != NULL);
	CHECK("format: zero user time", strstr(out, "\tUser time (seconds): 0.00\n") != NULL);

	/* more cpu than wall (2 threads): 200% */
	ru.ru_utime.tv_sec = 3;
	ru.ru_stime.tv_sec = 1;
	el = (struct timespec){2, 0};
	krp_time_format(out, sizeof(out), argv, &ru, &el, 0);
	CHECK("format: 200%", strstr(out, "\tPercent of CPU this job got: 200%\n") != NULL);

	/* zero elapsed: no division by zero */
	el = (struct timespec){0, 0};
	krp_time_format(out, sizeof(out), argv, &ru, &el, 0);
	CHECK("format: zero elapsed", strstr(out, "\tPercent of CPU this job got: 0%\n") != NULL);
}

static void test_short_buffer(void)
{
	char *argv[] = {"true", NULL};
	struct rusage ru = sample_rusage();
	struct timespec el = {1, 0};
	char big[2048], small[16];
	size_t full = krp_time_format(big, sizeof(big), argv, &ru, &el, 0);
	size_t n = krp_time_format(small, sizeof(small), argv, &ru, &el, 0);

	CHECK("short buffer: same length reported", n == full && n == strlen(big));
	CHECK("short buffer: terminated prefix",
	      strlen(small) < sizeof(small) && strncmp(small, big, strlen(small)) == 0);
	CHECK("zero-size buffer: length", krp_time_format(NULL, 0, argv, &ru, &el, 0) == full);
}

int main(void)
{
	test_elapsed();
	test_format();
	test_short_buffer();
	UNIT_EXIT();
}
