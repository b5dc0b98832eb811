/* krepro-value: sizes or durations to their numbers, with value.h (the
 * kit's one reader of them: the plan's value map is krepro-keycheck's, the
 * guest's and the QEMU plugin's are the same header), for the shell's
 * tables: one process for all the words of a table (a board's memory and
 * its NUMA nodes'), never one a value.
 *
 *   krepro-value size|duration [WORD...]
 *
 * Prints each WORD's bytes or seconds, a line each; without WORDs, the
 * words of standard input.  A word the grammar refuses stops it: exit 2,
 * naming the word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "value.h"

#define TOOL "krepro-value"
#define WORD_MAX 64

static void one(const char *kind, const char *w)
{
	uint64_t v;

	if (strlen(w) > WORD_MAX || krp_value_of(kind, w, &v) != 0)
		krp_die(TOOL, 2, "bad %s '%.*s' (%s)", kind, WORD_MAX, w,
			kind[0] == 'd' ? "digits, then s, m or h" : "digits, then K, M, G or T");
	printf("%llu\n", (unsigned long long)v);
}

int main(int argc, char **argv)
{
	char w[WORD_MAX + 2];
	const char *kind;
	int c;
	size_t n = 0;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs("usage: " TOOL " size|duration [WORD...]\n"
		      "Prints each WORD's bytes (size: digits, then K, M, G or T) or seconds\n"
		      "(duration: digits, then s, m or h), a line each; without WORDs, the\n"
		      "words of standard input.  A bad word: exit 2.\n",
		      stdout);
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "size") != 0 && strcmp(argv[1], "duration") != 0))
		krp_die_usage(TOOL, "the first argument is size or duration");
	kind = argv[1];
	if (argc > 2) {
		for (int i = 2; i < argc; i++)
			one(kind, argv[i]);
		return 0;
	}
	/* words of stdin: a word longer than WORD_MAX is refused, not cut */
	while ((c = getchar()) != EOF) {
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (n) {
				w[n] = '\0';
				one(kind, w);
				n = 0;
			}
			continue;
		}
		if (n <= WORD_MAX)
			w[n++] = (char)c;
	}
	if (n) {
		w[n] = '\0';
		one(kind, w);
	}
	return ferror(stdin) ? 2 : 0;
}
