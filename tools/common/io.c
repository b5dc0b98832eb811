#include "io.h"

#include <errno.h>
#include <unistd.h>

int krp_write_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) { /* no progress and no error: do not spin */
			errno = EIO;
			return -1;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}
