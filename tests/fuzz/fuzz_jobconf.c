/* libFuzzer target: the job.conf reader used by krepro-pivot. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pivot.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct krp_jobconf jc;
	char err[KRP_ERR_MAX];
	size_t i;

	err[0] = '\0';
	if (krp_jobconf_parse((const char *)data, size, &jc, err, sizeof(err)) != 0) {
		if (err[0] == '\0' || jc.n != 0)
			abort();
		return 0;
	}
	for (i = 0; i < jc.n; i++) {
		if (jc.kv[i].key[0] == '\0' || strlen(jc.kv[i].key) > 64 ||
		    strlen(jc.kv[i].val) > 256 ||
		    krp_jobconf_get(&jc, jc.kv[i].key) != jc.kv[i].val)
			abort();
	}
	krp_jobconf_free(&jc);
	return 0;
}
