/* job.conf files (see jobconf.h). */
#include "jobconf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

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
		if (kl == 0 || kl > 64) {
			snprintf(err, errsz, "line %zu: key must be 1..64 characters", line);
			goto bad;
		}
		for (i = 0; i < kl; i++) {
			if (!key_char(p[i])) {
				snprintf(err, errsz, "line %zu: bad character in key", line);
				goto bad;
			}
		}
		if (vl > 256) {
			snprintf(err, errsz, "line %zu: value longer than 256", line);
			goto bad;
		}
		for (i = 0; i < vl; i++) {
			unsigned char c = (unsigned char)eq[1 + i];

			if (c < 0x20 || c >= 0x7f) {
				snprintf(err, errsz, "line %zu: control or non-ASCII byte in value",
					 line);
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
