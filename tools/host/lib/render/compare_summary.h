/* One summary line per new variant: the headline metric's change, CI and verdict. */
#ifndef KREPRO_COMPARE_SUMMARY_H
#define KREPRO_COMPARE_SUMMARY_H
#include "compare.h"
#include "util.h"

/* "summary (<nname> vs <bname>):" and the headline's line; contended: some
 * run of either side was timed under host contention (one more line). */
void krp_compare_summary(struct krp_buf *out, const char *bname, const char *nname,
			 const struct krp_vstats *b, const struct krp_vstats *n,
			 const struct krp_cmp_opts *o, int contended);

#endif
