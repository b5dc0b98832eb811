/* krepro-knobcheck: one job.conf key's value against the key table the
 * image carries, for initramfs/knobs.sh (the grammar: tools/common/
 * keycheck.c, the one the plan's krepro-keycheck runs on the host).
 *
 *   krepro-knobcheck KEYS SUITE EXTRA KEY VALUE
 *
 * KEYS is the table (/etc/krepro/keys), EXTRA the keys the host adds
 * (contract.h's KRP_JOB_EXTRA_KEYS, space-separated).  Prints what is
 * wrong and exits 1, or prints nothing and exits 0; 2 on a bad command
 * line or an unreadable table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "keycheck.h"

#define PROG "krepro-knobcheck"
#define KEYS_MAX (4u << 20)

int main(int argc, char **argv)
{
	struct krp_keys t;
	char msg[2048], *extra, *buf;
	size_t len = 0, n;
	FILE *f;
	int bad;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs("Usage: " PROG " KEYS SUITE EXTRA KEY VALUE\n"
		      "Prints what is wrong with KEY=VALUE of a job of SUITE by the key table\n"
		      "KEYS (exit 1), or nothing (exit 0).  EXTRA: keys the host adds.\n",
		      stdout);
		return 0;
	}
	if (argc != 6)
		krp_die_usage(PROG, "expected KEYS SUITE EXTRA KEY VALUE");
	f = fopen(argv[1], "r");
	if (!f)
		krp_die(PROG, 2, "%s: cannot open", argv[1]);
	buf = malloc(KEYS_MAX + 1);
	if (!buf)
		krp_die(PROG, 2, "out of memory");
	while ((n = fread(buf + len, 1, KEYS_MAX + 1 - len, f)) > 0)
		len += n;
	if (ferror(f) || len > KEYS_MAX)
		krp_die(PROG, 2, "%s: unreadable or over %u bytes", argv[1], KEYS_MAX);
	fclose(f);
	if (krp_keys_parse(&t, buf, len) != 0)
		krp_die(PROG, 2, "out of memory");
	free(buf);
	extra = malloc(strlen(argv[3]) + 3);
	if (!extra)
		krp_die(PROG, 2, "out of memory");
	sprintf(extra, " %s ", argv[3]);
	bad = krp_check_guest(&t, argv[1], argv[2], extra, argv[4], argv[5], msg, sizeof(msg));
	if (bad)
		printf("%s\n", msg);
	free(extra);
	krp_keys_free(&t);
	return bad;
}
