/* report_read's reading of the key table (./run-matrix.sh --keys): the
 * keys an email may set, the suites' required ones (see report_read.h). */
#include <stdio.h>
#include <string.h>

#include "report_keys.h"
#include "report_read.h"

int rr_has_key(const char *keys, const char *k)
{
	char pat[68]; /* a key of up to 64 bytes between newlines */

	snprintf(pat, sizeof(pat), "\n%s\n", k);
	return strstr(keys, pat) != NULL;
}

/* The key table's next row, "KEY CHECK WHERE OWNER DEFAULT ...", from
 * *pos: its words but CHECK, which may be any length (a suite's list of
 * tests), so the words are read in place.  0 for a row, 1 for a line to
 * skip (a comment, a short or overlong word), -1 at the end. */
struct key_row {
	char key[65], where[16], owner[65], dflt[16];
};

static int next_row(const char *table, size_t len, size_t *pos, struct key_row *row)
{
	char *const into[] = {row->key, NULL, row->where, row->owner, row->dflt};
	const size_t room[] = {sizeof(row->key), 0, sizeof(row->where), sizeof(row->owner),
			       sizeof(row->dflt)};
	size_t e = *pos, p = *pos;

	if (*pos >= len)
		return -1;
	while (e < len && table[e] != '\n')
		e++;
	*pos = e + 1;
	for (int w = 0; w < 5; w++) {
		size_t s;

		while (p < e && table[p] == ' ')
			p++;
		for (s = p; p < e && table[p] != ' '; p++)
			;
		if (p == s || (into[w] && p - s >= room[w] && w < 4))
			return 1;
		if (into[w] && p - s >= room[w]) {
			into[w][0] = 0; /* a long default: not "required" */
		} else if (into[w]) {
			memcpy(into[w], table + s, p - s);
			into[w][p - s] = 0;
		}
	}
	return row->key[0] == '#';
}

char *krp_report_test_keys(const char *table, size_t len)
{
	static const char *const host_side[] = {"fault", "kernel_cmdline", "monitor_ab"};
	struct krp_buf keys = {0};
	struct key_row row;
	size_t pos = 0;
	int rc;

	krp_buf_puts(&keys, "\n");
	while ((rc = next_row(table, len, &pos, &row)) >= 0) {
		if (rc)
			continue;
		if (strcmp(row.owner, "kit") == 0) {
			int host = strcmp(row.where, "path") != 0 && strcmp(row.key, "suite") != 0;

			for (size_t i = 0; i < sizeof(host_side) / sizeof(host_side[0]); i++)
				host |= strcmp(row.key, host_side[i]) == 0;
			if (host)
				continue;
		} else if (strncmp(row.owner, "monitor:", 8) == 0) {
			continue;
		}
		if (!rr_has_key(keys.data, row.key)) {
			krp_buf_puts(&keys, row.key);
			krp_buf_puts(&keys, "\n");
		}
	}
	krp_buf_add(&keys, "", 1);
	return keys.data;
}

char *krp_report_required_keys(const char *table, size_t len)
{
	struct krp_buf keys = {0};
	struct key_row row;
	size_t pos = 0;
	int rc;

	krp_buf_puts(&keys, "\n");
	while ((rc = next_row(table, len, &pos, &row)) >= 0)
		if (rc == 0 && strcmp(row.dflt, "required") == 0 && strcmp(row.owner, "kit") != 0 &&
		    strchr(row.owner, ':') == NULL)
			krp_buf_printf(&keys, "%s/%s\n", row.owner, row.key);
	krp_buf_add(&keys, "", 1);
	return keys.data;
}

/* The suite's required parameters the part's body (matrix lines, "suite:
 * S" first) does not set, into missing as "'a', 'b'"; 0 when none. */
int rr_missing_required(const char *body, const char *required, char *missing, size_t sz)
{
	const char *nl = strchr(body, '\n'), *at;
	char suite[65];
	size_t o = 0;

	missing[0] = 0;
	if (strncmp(body, "suite: ", 7) != 0 || !nl || (size_t)(nl - body - 7) >= sizeof(suite))
		return 0;
	memcpy(suite, body + 7, (size_t)(nl - body - 7));
	suite[nl - body - 7] = 0;
	for (at = required; (at = strchr(at, '\n')) && at[1]; at++) {
		const char *slash = strchr(at + 1, '/'), *end = strchr(at + 1, '\n');
		char pat[80];
		size_t kn;

		if (!slash || !end || slash > end || (size_t)(slash - at - 1) != strlen(suite) ||
		    memcmp(at + 1, suite, strlen(suite)) != 0)
			continue;
		kn = (size_t)(end - slash - 1);
		if (kn + 4 > sizeof(pat))
			continue;
		snprintf(pat, sizeof(pat), "\n%.*s: ", (int)kn, slash + 1);
		if (strstr(nl, pat))
			continue;
		if (o + kn + 5 < sz)
			o += (size_t)snprintf(missing + o, sz - o, "%s'%.*s'", o ? ", " : "",
					      (int)kn, slash + 1);
	}
	return missing[0] != 0;
}
