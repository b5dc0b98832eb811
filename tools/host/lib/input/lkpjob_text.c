/* What krepro-lkpjob reads of a job's text and the kit's key table before
 * libyaml parses anything (see lkpjob.h): the nesting bound of flow
 * collections, and the keys the kit knows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkpjob.h"

/* The deepest flow nesting ([ and {) of buf, outside quoted scalars and
 * comments, checked in one pass before libyaml sees it: libyaml's scanner
 * walks its stack of possible keys, one per flow level, at every token, so
 * deep nesting cost time quadratic in the depth (20k levels: 2 s, 200k:
 * minutes).  A quote opens a scalar only where one can start (after
 * whitespace, '[', '{' or ',' that follow a line start or an indicator),
 * as in YAML; "it's" stays plain.  Returns 0, or -1 with err set. */
int krp_lkpjob_flow_depth(const char *buf, size_t len, struct krp_matrix_err *err)
{
	unsigned long line = 1;
	size_t i, depth = 0;
	char quote = 0, prev = '\n', prev_ns = '\n';

	for (i = 0; i < len; i++) {
		char ch = buf[i];

		if (ch == '\n')
			line++;
		if (quote) {
			if (quote == '"' && ch == '\\' && i + 1 < len)
				i++;
			else if (ch == quote)
				quote = 0;
			prev = prev_ns = ch;
			continue;
		}
		if (ch == '#' && (prev == ' ' || prev == '\t' || prev == '\n')) {
			while (i + 1 < len && buf[i + 1] != '\n')
				i++;
			continue;
		}
		if ((ch == '\'' || ch == '"') && (prev == '[' || prev == '{' || prev == ',' ||
						  ((prev == ' ' || prev == '\t' || prev == '\n') &&
						   strchr("\n:-?[{,", prev_ns) != NULL))) {
			quote = ch;
		} else if (ch == '[' || ch == '{') {
			if (++depth > KRP_LKPJOB_MAX_DEPTH) {
				err->line = line;
				snprintf(err->msg, sizeof(err->msg), "nested more than %d deep",
					 KRP_LKPJOB_MAX_DEPTH);
				return -1;
			}
		} else if ((ch == ']' || ch == '}') && depth > 0) {
			depth--;
		}
		prev = ch;
		if (ch != ' ' && ch != '\t')
			prev_ns = ch;
	}
	return 0;
}

char *krp_lkpjob_keys(const char *data, size_t len)
{
	struct krp_buf keys = {0};
	size_t pos = 0;

	krp_buf_puts(&keys, "\n");
	while (pos < len) {
		size_t e = pos, k;

		while (e < len && data[e] != '\n')
			e++;
		for (k = pos; k < e && data[k] != ' ' && data[k] != '#'; k++)
			;
		if (k > pos) {
			size_t w[4][2], nw = 0, p = pos;

			krp_buf_add(&keys, data + pos, k - pos);
			krp_buf_puts(&keys, "\n");
			/* "KEY CHECK WHERE SUITE ...": a suite's own key also as SUITE/KEY */
			while (nw < 4 && p < e) {
				while (p < e && data[p] == ' ')
					p++;
				w[nw][0] = p;
				while (p < e && data[p] != ' ')
					p++;
				w[nw][1] = p - w[nw][0];
				nw++;
			}
			if (nw == 4 && w[3][1] > 0 &&
			    !(w[3][1] == 3 && memcmp(data + w[3][0], "kit", 3) == 0)) {
				krp_buf_add(&keys, data + w[3][0], w[3][1]);
				krp_buf_puts(&keys, "/");
				krp_buf_add(&keys, data + pos, k - pos);
				krp_buf_puts(&keys, "\n");
			}
		}
		pos = e + 1;
	}
	krp_buf_add(&keys, "", 1);
	return keys.data;
}

char *krp_lkpjob_read_keys(const char *path, char *err, size_t errsz)
{
	char *data, *keys;
	size_t len;

	if (krp_read_file(path, (size_t)64 << 10, &data, &len, err, errsz) != 0)
		return NULL;
	keys = krp_lkpjob_keys(data, len);
	free(data);
	return keys;
}
