/* Unit tests for tools/host/lib/core/util.c's writers: krp_write_atomic_all
 * writes every file or none (issue 35 row 8). */
#include "unit.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

int main(void)
{
	char dir[] = "/tmp/krepro-util-test.XXXXXX", a[128], b[128], c[128], t[140], err[512];
	const char *paths[3];
	struct krp_buf x[3] = {{0}};
	char *got = NULL;
	size_t len = 0;

	if (!mkdtemp(dir))
		return 2;
	snprintf(a, sizeof(a), "%s/a.json", dir);
	snprintf(b, sizeof(b), "%s/b.csv", dir);
	snprintf(c, sizeof(c), "%s/sub", dir);
	krp_buf_puts(&x[0], "{}\n");
	krp_buf_puts(&x[1], "m,v\n");
	paths[0] = a;
	paths[1] = b;
	CHECK("two files written together",
	      krp_write_atomic_all(2, paths, x, err, sizeof(err)) == 0);
	CHECK("the first there", krp_read_file(a, 64, &got, &len, err, sizeof(err)) == 0 &&
				     len == 3 && memcmp(got, "{}\n", 3) == 0);
	free(got);
	got = NULL;
	CHECK("the second there", exists(b));
	unlink(a);
	unlink(b);
	/* the second cannot be renamed into place (a folder with a file in it
	 * stands there): neither is left, nor any temporary */
	CHECK("a folder where the second goes", mkdir(b, 0755) == 0);
	snprintf(t, sizeof(t), "%s/keep", b);
	fclose(fopen(t, "w"));
	CHECK("a failed rename fails the set",
	      krp_write_atomic_all(2, paths, x, err, sizeof(err)) != 0);
	CHECK("saying which", strstr(err, "b.csv") != NULL);
	CHECK("the first is not left alone", !exists(a));
	snprintf(t, sizeof(t), "%s.tmp", a);
	CHECK("no temporary of the first", !exists(t));
	snprintf(t, sizeof(t), "%s.tmp", b);
	CHECK("no temporary of the second", !exists(t));
	/* the third cannot be created (its folder is missing): nothing written */
	snprintf(t, sizeof(t), "%s/keep", b);
	unlink(t);
	rmdir(b);
	snprintf(c, sizeof(c), "%s/missing/c", dir);
	paths[2] = c;
	krp_buf_puts(&x[2], "x");
	CHECK("an uncreatable third fails the set",
	      krp_write_atomic_all(3, paths, x, err, sizeof(err)) != 0);
	CHECK("and nothing of the others is there", !exists(a) && !exists(b));
	snprintf(t, sizeof(t), "%s.tmp", a);
	CHECK("not even a temporary", !exists(t));
	CHECK("one file alone (krp_write_atomic)",
	      krp_write_atomic(a, "1\n", 2, err, sizeof(err)) == 0 && exists(a));
	unlink(a);
	rmdir(dir);
	krp_buf_free(&x[0]);
	krp_buf_free(&x[1]);
	krp_buf_free(&x[2]);
	UNIT_EXIT();
}
