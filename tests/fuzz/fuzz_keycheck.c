/* libFuzzer target: the key table's value grammar (tools/common/
 * keycheck.c) over arbitrary bytes: the first line is a check, the second
 * a value; the whole input is also read as a key table and the value
 * checked against it as the guest does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keycheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *check, *val, *nl, msg[512];
	struct krp_keys t;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (krp_keys_parse(&t, s, size) == 0) {
		check = s;
		nl = strchr(s, '\n');
		val = "";
		if (nl) {
			*nl = '\0';
			val = nl + 1;
			if ((nl = strchr(val, '\n')) != NULL)
				*nl = '\0';
		}
		(void)krp_check_plan(check, "key", val, "suite", "|meminfo|uptime", msg,
				     sizeof(msg));
		(void)krp_check_guest(&t, "keys", "suite", " clock ", check, val, msg, sizeof(msg));
		(void)krp_keys_check(&t, check, "suite");
		krp_keys_free(&t);
	}
	free(s);
	return 0;
}
