/* krepro-keycheck: every cell of a plan against the key table's value
 * grammar (tools/common/keycheck.c, the one the guest's krepro-knobcheck
 * runs), in one process for the whole plan (lib/shared/cells.sh runs it once,
 * lib/shared/cells.awk reads its answer: a process a cell is slow here).
 *
 *   krepro-keycheck --keys FILE [--monitors '|a|b'] <CELLS
 *
 * CELLS are krepro-matrix's lines ("key=value ..."), cell N on line N.
 * For each cell with a value the grammar refuses, one line, the first
 * such value's: "N<TAB>KEY=VALUE<TAB>MESSAGE", MESSAGE worded as
 * lib/shared/cells.awk prints it after "FILE:LINE: ".  Keys without a check (not
 * in the table for the cell's suite) are lib/shared/cells.awk's to refuse.
 * And the numbers of the durations and sizes the plan computes with (value.h
 * is the kit's one reader of them; lib/shared/cells.awk looks them up):
 * "=<TAB>duration|size<TAB>VALUE<TAB>SECONDS|BYTES" for every such value
 * of a cell that passes and every such default of the table.  Exit 0
 * whatever the cells hold; 2 on a bad command line or table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "diag.h"
#include "keycheck.h"
#include "value.h"

#define TOOL "krepro-keycheck"
#define KEYS_MAX (4u << 20)

static char *read_table(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		krp_die(TOOL, 2, "%s: cannot open", path);
	buf = malloc(KEYS_MAX + 1);
	if (!buf)
		krp_die(TOOL, 2, "out of memory");
	*len = 0;
	while ((n = fread(buf + *len, 1, KEYS_MAX + 1 - *len, f)) > 0)
		*len += n;
	if (ferror(f) || *len > KEYS_MAX)
		krp_die(TOOL, 2, "%s: unreadable or over %u bytes", path, KEYS_MAX);
	fclose(f);
	return buf;
}

/* VAL's number when CHECK is duration or size and VAL is one, as a line
 * of the value map (see above) */
static void print_number(const char *check, const char *val)
{
	uint64_t v;

	if (krp_value_of(check, val, &v) == 0)
		printf("=\t%s\t%s\t%llu\n", check, val, (unsigned long long)v);
}

/* word W of a line as a string in OUT (empty when it does not fit) */
static void take_word(const char *w, size_t wl, char *out, size_t outsz)
{
	out[0] = '\0';
	if (wl < outsz) {
		memcpy(out, w, wl);
		out[wl] = '\0';
	}
}

/* the table's defaults (its lines: KEY CHECK WHERE OWNER DEFAULT TEXT) of
 * durations and sizes, as value-map lines: the second and fifth words of
 * each line, however long its text */
static void print_defaults(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		char check[64] = "", def[KRP_VALUE_MAX + 1] = "";
		int nw = 0;

		while (p < end && *p != '\n') {
			const char *w = p;

			if (*p == ' ' || *p == '\t') {
				p++;
				continue;
			}
			while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
				p++;
			if (++nw == 2)
				take_word(w, (size_t)(p - w), check, sizeof(check));
			else if (nw == 5)
				take_word(w, (size_t)(p - w), def, sizeof(def));
		}
		if (nw >= 5 && check[0] && def[0])
			print_number(check, def);
		p++;
	}
}

/* the first error of one cell (LINE, cut in place), printed as cell K's;
 * its words as awk's split(line, tok, " ") cuts them */
static void check_cell(const struct krp_keys *t, const char *monitors, unsigned long k, char *line)
{
	char msg[4096], **tok = NULL, *save = NULL;
	const char *suite = "";
	size_t n = 0, cap = 0;

	for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == cap) {
			char **nt;

			cap = cap ? cap * 2 : 32;
			nt = realloc(tok, cap * sizeof(*nt));
			if (!nt)
				krp_die(TOOL, 2, "out of memory");
			tok = nt;
		}
		tok[n++] = w;
	}
	/* its suite: the first suite= word's (a key is up to its first '=') */
	for (size_t i = 0; i < n; i++)
		if (strncmp(tok[i], "suite=", 6) == 0) {
			suite = tok[i] + 6;
			break;
		}
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		const char *check, *val = "";

		if (eq) {
			*eq = '\0';
			val = eq + 1;
		}
		check = krp_keys_check(t, tok[i], suite);
		if (!check)
			continue;
		if (krp_check_plan(check, tok[i], val, suite, monitors, msg, sizeof(msg))) {
			printf("%lu\t%s=%s\t%s\n", k, tok[i], val, msg);
			break;
		}
		print_number(check, val);
	}
	free(tok);
}

int main(int argc, char **argv)
{
	const char *keys = NULL, *monitors = "";
	struct krp_keys t;
	char *buf, *line = NULL;
	size_t len, cap = 0;
	ssize_t n;
	unsigned long k = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs("usage: " TOOL " --keys FILE [--monitors '|a|b'] <CELLS\n"
			      "Prints, for each cell (krepro-matrix's lines) with a value the key\n"
			      "table's grammar refuses, \"N<TAB>KEY=VALUE<TAB>MESSAGE\" for its "
			      "first;\nand \"=<TAB>duration|size<TAB>VALUE<TAB>NUMBER\" for every "
			      "duration and size\nof the cells and the table's defaults.\n",
			      stdout);
			return 0;
		} else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc)
			keys = argv[++i];
		else if (strcmp(argv[i], "--monitors") == 0 && i + 1 < argc)
			monitors = argv[++i];
		else
			krp_die_usage(TOOL, "unknown argument '%s'", argv[i]);
	}
	if (!keys)
		krp_die_usage(TOOL, "--keys FILE is required");
	buf = read_table(keys, &len);
	if (krp_keys_parse(&t, buf, len) != 0)
		krp_die(TOOL, 2, "out of memory");
	print_defaults(buf, len);
	free(buf);
	while ((n = getline(&line, &cap, stdin)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		check_cell(&t, monitors, ++k, line);
	}
	free(line);
	krp_keys_free(&t);
	return ferror(stdin) ? 2 : 0;
}
