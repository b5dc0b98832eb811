/* Per-metric values of a variant over its runs, the input of every comparison. */
#ifndef KREPRO_VSTATS_H
#define KREPRO_VSTATS_H
#include <stddef.h>

#include "results.h"
#include "util.h"

struct krp_series {
	char *name;
	double *x; /* one value per run that has it (missing values skipped) */
	size_t n, cap;
};
struct krp_vstats {
	struct krp_series *s;
	size_t n, cap;
	struct krp_index ix;
};
/* Performance metrics only: failed runs and failure metrics are skipped.
 * A profile's share (meaning "share") is 0 in a run without it. */
void krp_vstats_build(const struct krp_variant *v, struct krp_vstats *vs);
/* Variant j of the nvars compared: as krp_vstats_build, and a share any of
 * them has is 0 in each run of j without it (a row on both sides). */
void krp_vstats_build_in(const struct krp_variant *vars, size_t nvars, size_t j,
			 struct krp_vstats *vs);
const struct krp_series *krp_vstats_find(const struct krp_vstats *vs, const char *name);
void krp_vstats_free(struct krp_vstats *vs);

#endif
