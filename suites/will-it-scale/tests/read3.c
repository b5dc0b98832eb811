#include "testcase.h"

/* read3: the task's own 1 MiB file, opened O_DIRECT and written so */
static int read3_setup(struct wis_task *t)
{
	void *buf;

	t->fd = make_tmp_file_in(t, tmp_dir(), O_DIRECT, 0);
	if (t->fd < 0)
		return -1;
	buf = aligned_alloc(t->pagesize, WIS_FILESIZE);
	if (!buf) {
		task_msg(t, "out of memory");
		return -1;
	}
	memset(buf, 0, WIS_FILESIZE);
	if (write(t->fd, buf, WIS_FILESIZE) != (ssize_t)WIS_FILESIZE) {
		task_msg(t, "O_DIRECT write: %s", strerror(errno));
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

WIS_TESTCASE(read3, "Separate file O_DIRECT read", NULL, read3_setup, read_direct_run);
