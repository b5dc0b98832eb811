/* job.conf, the host-written description of one run ("key=value" lines),
 * read by the report tools. */
#ifndef KREPRO_JOBCONF_H
#define KREPRO_JOBCONF_H
#include <stddef.h>

#define KRP_JOBCONF_MAX ((size_t)1 << 20)

/* job.conf: "key=value" lines, keys and values as contract.h says (the
 * host writes them, the guest reads them); blank lines and '#' comments
 * skipped; a repeated key is an error.  err: "line N: problem". */
struct krp_kv {
	char *key, *val;
};
struct krp_jobconf {
	struct krp_kv *kv;
	size_t n, cap;
};
int krp_jobconf_parse(const char *text, size_t len, struct krp_jobconf *jc, char *err,
		      size_t errsz);
const char *krp_jobconf_get(const struct krp_jobconf *jc, const char *key);
void krp_jobconf_free(struct krp_jobconf *jc);
/* Read and parse the file at path (at most KRP_JOBCONF_MAX bytes).
 * err: "path:N: problem" or "path: problem". */
int krp_jobconf_load(const char *path, struct krp_jobconf *jc, char *err, size_t errsz);

#endif
