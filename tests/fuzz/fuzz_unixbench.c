/* libFuzzer target: UnixBench result-line parser and the index table.
 * The first byte picks the baseline set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unixbench.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum krp_ub_set set = KRP_UB_AUTO;
	struct krp_ub_doc d;
	size_t i, j;

	if (size > 0) {
		set = (enum krp_ub_set)(data[0] % 3);
		data++;
		size--;
	}
	krp_ub_parse((const char *)data, size, &d);
	for (i = 0; i < d.n; i++) {
		struct krp_buf out = {0};
		size_t n;

		if (d.s[i].n == 0)
			abort();
		for (j = 0; j < d.s[i].n; j++) {
			if (d.s[i].r[j].title[0] == '\0' || !(d.s[i].r[j].value >= 0))
				abort();
		}
		n = krp_ub_table(&d.s[i], set, &out);
		if (n > 12 || out.len == 0 || strlen(out.data) != out.len)
			abort();
		krp_buf_free(&out);
	}
	krp_ub_doc_free(&d);
	return 0;
}
