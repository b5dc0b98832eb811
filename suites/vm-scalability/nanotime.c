/* nanotime: the realtime clock as seconds.nanoseconds, what
 * vm-scalability's truncate cases read with `date +%s.%N` (busybox date has
 * no %N). */
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec t;

	if (argc > 1) {
		fprintf(stderr, "usage: nanotime  (prints the realtime clock, "
				"SECONDS.NANOSECONDS)\n");
		return strcmp(argv[1], "--help") == 0 ? 0 : 2;
	}
	clock_gettime(CLOCK_REALTIME, &t);
	printf("%lld.%09ld\n", (long long)t.tv_sec, t.tv_nsec);
	return 0;
}
