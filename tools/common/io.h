/* io: writes that survive short writes and signals, once for every tool. */
#ifndef KREPRO_IO_H
#define KREPRO_IO_H
#include <stddef.h>

/* krp_write_all: all len bytes of p to fd, retrying short writes and EINTR;
 * 0, or -1 with errno set. */
int krp_write_all(int fd, const void *p, size_t len);

#endif
