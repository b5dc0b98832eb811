/* The metric rules (see meaning.h), read once from the built-in text. */
#include "meaning.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEANING_MAX_RULES 512
#define MEANING_MAX_WORD 128

enum {
	F_HEADLINE = 1,
	F_MONITOR = 2,
	F_RUSAGE = 4,
	F_COUNTER = 8,
	F_ABSOLUTE = 16,
	F_FAILURE = 32,
	F_SHARE = 64
};

struct rule {
	char pattern[MEANING_MAX_WORD];
	int dir, has_dir, flags;
};

static struct rule rules[MEANING_MAX_RULES];
static size_t nrules;
static int loaded;

static _Noreturn void bad(const char *file, int line, const char *what, const char *word)
{
	fprintf(stderr, "krepro: %s:%d: %s '%s' (rules: tools/host/lib/core/meaning.h)\n", file,
		line, what, word);
	exit(2);
}

/* One line's words into a rule; 0 if the line has none. */
static int parse_line(char *s, const char *file, int line, struct rule *r)
{
	char *save = NULL, *w = strtok_r(s, " \t", &save);

	/* parameters: lib/shared/cells.sh; monitors, parsers, docs, lkp names, tests,
	 * metric prefixes, sizes on a board, sweeps, times, report rules:
	 * tools/meta-tables.awk */
	if (!w || w[0] == '#' || !strcmp(w, "param") || !strcmp(w, "monitor") ||
	    !strcmp(w, "parser") || !strcmp(w, "doc") || !strcmp(w, "lkp") || !strcmp(w, "tests") ||
	    !strcmp(w, "metrics") || !strcmp(w, "size") || !strcmp(w, "sweep") ||
	    !strcmp(w, "time") || !strcmp(w, "report"))
		return 0;
	if (strlen(w) >= sizeof(r->pattern))
		bad(file, line, "pattern too long", w);
	memset(r, 0, sizeof(*r));
	strcpy(r->pattern, w);
	while ((w = strtok_r(NULL, " \t", &save))) {
		int d = 2;

		if (!strcmp(w, "higher"))
			d = 1;
		else if (!strcmp(w, "lower"))
			d = -1;
		else if (!strcmp(w, "none"))
			d = 0;
		else if (!strcmp(w, "headline"))
			r->flags |= F_HEADLINE;
		else if (!strcmp(w, "monitor"))
			r->flags |= F_MONITOR;
		else if (!strcmp(w, "rusage"))
			r->flags |= F_RUSAGE;
		else if (!strcmp(w, "counter"))
			r->flags |= F_COUNTER;
		else if (!strcmp(w, "absolute"))
			r->flags |= F_ABSOLUTE;
		else if (!strcmp(w, "failure"))
			r->flags |= F_FAILURE;
		else if (!strcmp(w, "share"))
			r->flags |= F_SHARE;
		else
			bad(file, line, "unknown word", w);
		if (d != 2) {
			if (r->has_dir)
				bad(file, line, "a second direction", w);
			r->dir = d;
			r->has_dir = 1;
		}
	}
	/* a headline pattern names its suite (autonuma-benchmark.*.seconds):
	 * one that starts with '*' would take other suites' metrics */
	if ((r->flags & F_HEADLINE) && r->pattern[0] == '*')
		bad(file, line, "a headline pattern starts with its suite's name, not '*'",
		    r->pattern);
	return 1;
}

/* The generated text marks each file with "# file: PATH". */
static void load(void)
{
	const char *p = krp_meaning_text;
	char file[512] = "(built-in)", buf[4096]; /* a suite's test list is one line */
	int line = 0;

	loaded = 1;
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n >= sizeof(buf))
			bad(file, line + 1, "line too long", "");
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (p[n] == '\n');
		line++;
		if (!strncmp(buf, "# file: ", 8)) {
			snprintf(file, sizeof(file), "%.400s", buf + 8);
			line = 0;
			continue;
		}
		if (nrules == MEANING_MAX_RULES)
			bad(file, line, "too many rules", "");
		nrules += (size_t)parse_line(buf, file, line, &rules[nrules]);
	}
}

static const struct rule *first(const char *name, int want_dir, int dir, int flags)
{
	if (!loaded)
		load();
	for (size_t i = 0; i < nrules; i++) {
		const struct rule *r = &rules[i];

		if (want_dir && (!r->has_dir || (dir && r->dir != dir)))
			continue;
		if (flags && !(r->flags & flags))
			continue;
		if (fnmatch(r->pattern, name, 0) == 0)
			return r;
	}
	return NULL;
}

int krp_meaning_direction(const char *name)
{
	const struct rule *r = first(name, 1, -1, 0);

	if (!r)
		r = first(name, 1, 0, 0);
	/* a benchmark's metric in model time (analyze/model_rate.c) means
	 * what the metric means */
	if (!r && strncmp(name, KRP_MODEL_RATE_PREFIX, strlen(KRP_MODEL_RATE_PREFIX)) == 0)
		return krp_meaning_direction(name + strlen(KRP_MODEL_RATE_PREFIX));
	return r ? r->dir : 0;
}

int krp_meaning_monitor(const char *name)
{
	return first(name, 0, 0, F_MONITOR) != NULL;
}

int krp_meaning_rusage(const char *name)
{
	return first(name, 0, 0, F_RUSAGE) != NULL;
}

int krp_meaning_counter(const char *name)
{
	return first(name, 0, 0, F_COUNTER) != NULL;
}

int krp_meaning_absolute(const char *name)
{
	return first(name, 0, 0, F_ABSOLUTE) != NULL;
}

int krp_meaning_failure(const char *name)
{
	return first(name, 0, 0, F_FAILURE) != NULL;
}

int krp_meaning_share(const char *name)
{
	return first(name, 0, 0, F_SHARE) != NULL;
}

const char *krp_meaning_headline(size_t i)
{
	if (!loaded)
		load();
	for (size_t k = 0; k < nrules; k++)
		if ((rules[k].flags & F_HEADLINE) && i-- == 0)
			return rules[k].pattern;
	return NULL;
}

long krp_meaning_headline_rank(const char *name)
{
	const char *h;
	size_t i;

	if (!strncmp(name, KRP_MODEL_RATE_PREFIX, strlen(KRP_MODEL_RATE_PREFIX)) ||
	    krp_meaning_direction(name) == 0)
		return -1;
	for (i = 0; (h = krp_meaning_headline(i)); i++)
		if (fnmatch(h, name, 0) == 0)
			return (long)i;
	return -1;
}

size_t krp_meaning_rules(void)
{
	if (!loaded)
		load();
	return nrules;
}
