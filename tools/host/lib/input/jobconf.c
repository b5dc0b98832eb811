/* job.conf files (see jobconf.h). */
#include "jobconf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "util.h"

int krp_jobconf_parse(const char *text, size_t len, struct krp_jobconf *jc, char *err, size_t errsz)
{
	const char *p = text, *end = text + len;
	size_t line = 0, i;

	memset(jc, 0, sizeof(*jc));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *eq;
		size_t kl, vl;

		line++;
		if (ll && p[ll - 1] == '\r')
			ll--;
		if (ll == 0 || p[0] == '#') {
			if (!nl)
				break;
			p = nl + 1;
			continue;
		}
		eq = memchr(p, '=', ll);
		if (!eq) {
			snprintf(err, errsz, "line %zu: expected key=value", line);
			goto bad;
		}
		kl = (size_t)(eq - p);
		vl = ll - kl - 1;
		if (kl == 0 || kl > KRP_KEY_MAX) {
			snprintf(err, errsz, "line %zu: key must be 1..%d characters", line,
				 KRP_KEY_MAX);
			goto bad;
		}
		for (i = 0; i < kl; i++) {
			if (!krp_key_char(p[i], i == 0)) {
				snprintf(err, errsz, "line %zu: bad character in key", line);
				goto bad;
			}
		}
		if (vl > KRP_VALUE_MAX) {
			snprintf(err, errsz, "line %zu: value longer than %d", line, KRP_VALUE_MAX);
			goto bad;
		}
		for (i = 0; i < vl; i++) {
			if (!krp_value_char(eq[1 + i])) {
				snprintf(err, errsz,
					 "line %zu: bad character in value (letters, digits, %s)",
					 line, KRP_VALUE_PUNCT);
				goto bad;
			}
		}
		for (i = 0; i < jc->n; i++) {
			if (strlen(jc->kv[i].key) == kl && memcmp(jc->kv[i].key, p, kl) == 0) {
				snprintf(err, errsz, "line %zu: key repeated", line);
				goto bad;
			}
		}
		if (jc->n == jc->cap) {
			jc->cap = jc->cap ? jc->cap * 2 : 16;
			jc->kv = krp_xrealloc(jc->kv, jc->cap * sizeof(*jc->kv));
		}
		jc->kv[jc->n].key = krp_xstrndup(p, kl);
		jc->kv[jc->n].val = krp_xstrndup(eq + 1, vl);
		jc->n++;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
bad:
	krp_jobconf_free(jc);
	return -1;
}

const char *krp_jobconf_get(const struct krp_jobconf *jc, const char *key)
{
	size_t i;

	for (i = 0; i < jc->n; i++) {
		if (strcmp(jc->kv[i].key, key) == 0)
			return jc->kv[i].val;
	}
	return NULL;
}

void krp_jobconf_free(struct krp_jobconf *jc)
{
	size_t i;

	for (i = 0; i < jc->n; i++) {
		free(jc->kv[i].key);
		free(jc->kv[i].val);
	}
	free(jc->kv);
	memset(jc, 0, sizeof(*jc));
}

int krp_jobconf_load(const char *path, struct krp_jobconf *jc, char *err, size_t errsz)
{
	char *data = NULL, perr[KRP_ERR_MAX];
	size_t len;
	int rc;

	memset(jc, 0, sizeof(*jc));
	if (krp_read_file(path, KRP_JOBCONF_MAX, &data, &len, err, errsz) != 0)
		return -1;
	rc = krp_jobconf_parse(data, len, jc, perr, sizeof(perr));
	/* "line N: problem" becomes "path:N: problem". */
	if (rc != 0)
		snprintf(err, errsz, "%s:%s", path,
			 strncmp(perr, "line ", 5) == 0 ? perr + 5 : perr);
	free(data);
	return rc;
}
