/* lkp-tests job file -> krepro matrix (see lkpjob.h). */
#include "lkpjob.h"
#include "value.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define NAME_MAX_LEN 64
#define PARAMS_MAX 128

/* lkp's names for the kit's suites: every folder under suites/ by its own
 * name and by its meta's "lkp NAME" lines (the Makefile's table,
 * tools/meta-tables.awk). */
static const struct {
	const char *lkp, *kit;
} suite_names[] = {
#define KRP_LKP_SUITE(lkp, kit) {lkp, kit},
#include "lkp_suites.def"
#undef KRP_LKP_SUITE
};

/* What a suite's meta says of lkp-tests' names and semantics: its "lkp key",
 * "lkp value", "lkp default", "lkp refuse", "lkp unset", "lkp needs" and
 * "lkp per" lines (tools/meta-tables.awk says what each means), one table. */
enum lkp_kind { LKP_KEY, LKP_VALUE, LKP_DEFAULT, LKP_REFUSE, LKP_UNSET, LKP_PER };

struct lkp_rule {
	enum lkp_kind kind;
	const char *suite, *key;
	const char *a, *b; /* KEY: the kit's key; VALUE: lkp's value, the kit's;
			      DEFAULT: the value; REFUSE: the globs, why;
			      UNSET: the matrix value or NULL (needs), why;
			      PER: the kit's key, the seconds one counts */
};

static const struct lkp_rule lkp_rules[] = {
#define KRP_LKP_RULES
#define KRP_LKP_KEY(suite, lkp, kit) {LKP_KEY, suite, lkp, kit, NULL},
#define KRP_LKP_VALUE(suite, key, lkp, kit) {LKP_VALUE, suite, key, lkp, kit},
#define KRP_LKP_DEFAULT(suite, key, value) {LKP_DEFAULT, suite, key, value, NULL},
#define KRP_LKP_REFUSE(suite, key, globs, why) {LKP_REFUSE, suite, key, globs, why},
#define KRP_LKP_UNSET(suite, key, value, why) {LKP_UNSET, suite, key, value, why},
#define KRP_LKP_PER(suite, lkp, kit, seconds) {LKP_PER, suite, lkp, kit, seconds},
#include "lkp_suites.def"
#undef KRP_LKP_RULES
#undef KRP_LKP_KEY
#undef KRP_LKP_VALUE
#undef KRP_LKP_DEFAULT
#undef KRP_LKP_REFUSE
#undef KRP_LKP_UNSET
#undef KRP_LKP_PER
    {LKP_KEY, NULL, NULL, NULL, NULL}};

/* lkp-tests' keys and monitors the kit renames or names a reason for */
#include "lkpjob_names.h"

struct param {
	char key[NAME_MAX_LEN + 1];
	char *val; /* "a" or "[a, b]" */
};

struct conv {
	yaml_document_t *doc;
	const struct krp_lkpjob_origin *origin; /* NULL: every line the job's */
	struct krp_buf *notes;
	struct krp_matrix_err *err;
	const char *known; /* the kit's keys: "\nkey\nkey\n" */
	size_t visited;
	char suite[NAME_MAX_LEN + 1];
	char noted[4096];		    /* "\nkey\n..." already noted */
	struct krp_buf unknown, no_monitor; /* noted together, in one line each */
	struct param params[PARAMS_MAX];
	size_t nparams;
	char monitors[1024];
};

static int fail(struct conv *c, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct conv *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	c->err->line = n ? (unsigned long)n->start_mark.line + 1 : 0;
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

static int kit_key(const struct conv *c, const char *k)
{
	char pat[NAME_MAX_LEN + 3];

	snprintf(pat, sizeof(pat), "\n%s\n", k);
	return strstr(c->known, pat) != NULL;
}

static const char *kit_suite(const char *lkp);

/* The next of the job's suite's lkp rules of KIND for KEY (any key if NULL),
 * from *at on; NULL when there is none. */
static const struct lkp_rule *suite_rule(const struct conv *c, enum lkp_kind kind, const char *key,
					 size_t *at)
{
	const char *suite = kit_suite(c->suite);

	for (; lkp_rules[*at].suite; (*at)++) {
		const struct lkp_rule *r = &lkp_rules[*at];

		if (r->kind == kind && strcmp(r->suite, suite) == 0 &&
		    (!key || strcmp(r->key, key) == 0)) {
			(*at)++;
			return r;
		}
	}
	return NULL;
}

/* A key the job's suite declares itself (its meta's param lines): the
 * program's own, before lkp's renames and the keys that do not apply. */
static int suite_key(const struct conv *c, const char *k)
{
	char pat[2 * NAME_MAX_LEN + 4];

	if (!c->suite[0])
		return 0;
	snprintf(pat, sizeof(pat), "\n%s/%s\n", kit_suite(c->suite), k);
	return strstr(c->known, pat) != NULL;
}

static const char no_such_monitor[] = "monitors the kit does not have";

/* why NULL: a key the kit does not know (lkp's bookkeeping, mostly). */
static void note(struct conv *c, const char *key, const char *why)
{
	char pat[NAME_MAX_LEN + 3];

	snprintf(pat, sizeof(pat), "\n%s\n", key);
	if (strstr(c->noted, pat))
		return;
	if (strlen(c->noted) + strlen(pat) < sizeof(c->noted)) {
		if (!c->noted[0])
			strcpy(c->noted, "\n");
		strcat(c->noted, key);
		strcat(c->noted, "\n");
	}
	if (why == NULL || why == no_such_monitor) {
		struct krp_buf *b = why ? &c->no_monitor : &c->unknown;

		krp_buf_printf(b, "%s%s", b->len ? ", " : "", key);
		return;
	}
	krp_buf_printf(c->notes, "%s: %s, ignored\n", key, why);
}

/* A scalar as the kit's matrix takes it. */
static int scalar_value(struct conv *c, yaml_node_t *n, const char *key, const char **out)
{
	const char *v = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;

	if (len == 0 || len > KRP_VALUE_MAX || strlen(v) != len)
		return fail(c, n, "%s: empty or overlong value", key);
	for (size_t i = 0; i < len; i++) {
		char ch = v[i];

		if (!krp_value_char(ch))
			return fail(c, n,
				    "%s: value '%.*s' has a character the kit refuses in a path",
				    key, (int)(len > 40 ? 40 : len), v);
	}
	*out = v;
	return 0;
}

static int visit(struct conv *c, yaml_node_t *n)
{
	if (++c->visited > KRP_LKPJOB_MAX_NODES)
		return fail(c, n, "more than %d nodes (aliases?)", KRP_LKPJOB_MAX_NODES);
	return 0;
}

static const char *kit_value(const struct conv *c, const char *key, const char *v)
{
	const struct lkp_rule *r;
	size_t at = 0;

	while ((r = suite_rule(c, LKP_VALUE, key, &at)))
		if (strcmp(v, r->a) == 0)
			return r->b;
	return v;
}

/* Does V match one of PATTERNS, globs joined by '|'? */
static int matches_one(const char *patterns, const char *v)
{
	char pat[KRP_VALUE_MAX + 1];

	for (const char *p = patterns; *p;) {
		size_t n = strcspn(p, "|");

		if (n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			if (fnmatch(pat, v, 0) == 0)
				return 1;
		}
		p += n + (p[n] == '|');
	}
	return 0;
}

/* A value the suite's meta says the kit cannot run ("lkp refuse"): refused
 * in one line naming the value's line and why, with no "did you mean". */
static int refuse_unrunnable(struct conv *c, yaml_node_t *n, const char *key, const char *v)
{
	const struct lkp_rule *r;
	size_t at = 0;

	while ((r = suite_rule(c, LKP_REFUSE, key, &at)))
		if (matches_one(r->a, v))
			return fail(c, n, "%s: %s: %s", key, v, r->b);
	return 0;
}

static int set_param(struct conv *c, yaml_node_t *n, const char *key, yaml_node_t *v)
{
	struct krp_buf val = {0};
	const char *s;
	size_t i;

	if (v->type == YAML_SCALAR_NODE && v->data.scalar.length == 0) {
		/* "size:" in lkp: the program's default, whatever came before */
		for (i = 0; i < c->nparams; i++)
			if (strcmp(c->params[i].key, key) == 0) {
				free(c->params[i].val);
				c->params[i] = c->params[--c->nparams];
				break;
			}
		return 0;
	}
	if (v->type == YAML_SCALAR_NODE) {
		if (scalar_value(c, v, key, &s) != 0 || refuse_unrunnable(c, v, key, s) != 0)
			return -1;
		krp_buf_puts(&val, kit_value(c, key, s));
	} else if (v->type == YAML_SEQUENCE_NODE) {
		yaml_node_item_t *it;

		krp_buf_puts(&val, "[");
		for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = yaml_document_get_node(c->doc, *it);

			if (!e || visit(c, e) != 0) {
				krp_buf_free(&val);
				return e ? -1 : fail(c, v, "broken document");
			}
			if (e->type != YAML_SCALAR_NODE) {
				krp_buf_free(&val);
				return fail(c, e, "%s: a list of plain values, please", key);
			}
			if (scalar_value(c, e, key, &s) != 0 ||
			    refuse_unrunnable(c, e, key, s) != 0) {
				krp_buf_free(&val);
				return -1;
			}
			krp_buf_printf(&val, "%s%s", it == v->data.sequence.items.start ? "" : ", ",
				       kit_value(c, key, s));
		}
		krp_buf_puts(&val, "]");
		if (val.len == 2) {
			krp_buf_free(&val);
			return fail(c, v, "%s: empty list", key);
		}
	} else {
		return fail(c, n, "%s: a value or a list of values, please", key);
	}
	for (i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].key, key) == 0)
			break;
	if (i == c->nparams) {
		if (c->nparams == PARAMS_MAX) {
			krp_buf_free(&val);
			return fail(c, n, "more than %d parameters", PARAMS_MAX);
		}
		snprintf(c->params[i].key, sizeof(c->params[i].key), "%s", key);
		c->nparams++;
	} else {
		free(c->params[i].val); /* later keys override, as in lkp */
	}
	c->params[i].val = val.data;
	return 0;
}

static int add_monitor(struct conv *c, const char *name)
{
	char pat[NAME_MAX_LEN + 3];

	snprintf(pat, sizeof(pat), "+%s+", name);
	if (c->monitors[0] && strstr(c->monitors, pat))
		return 0;
	if (strlen(c->monitors) + strlen(name) + 2 >= sizeof(c->monitors))
		return -1;
	if (!c->monitors[0])
		strcpy(c->monitors, "+");
	strcat(c->monitors, name);
	strcat(c->monitors, "+");
	return 0;
}

static int walk_map(struct conv *c, yaml_node_t *map, const char *parent, int depth);

/* lkp-tests' keys are names (nr_task, perf-profile, LKP_SERVER, _id); a
 * line of another kind of file (user:hash, a=b) is not one. */
static int key_name(const char *k)
{
	if (!(isalnum((unsigned char)k[0]) || k[0] == '_'))
		return 0;
	for (; *k; k++)
		if (!isalnum((unsigned char)*k) && !strchr("_.+/-", *k))
			return 0;
	return 1;
}

static int walk_pair(struct conv *c, yaml_node_t *kn, yaml_node_t *vn, const char *parent,
		     int depth)
{
	const char *k = (const char *)kn->data.scalar.value;
	char full[2 * NAME_MAX_LEN + 2];
	const struct lkp_rule *rule;
	size_t i;

	if (k[0] == ':' || k[0] == '#') /* lkp's ":#! jobs/x.yaml:" comment keys */
		return 0;
	if (strlen(k) > NAME_MAX_LEN || strlen(k) != kn->data.scalar.length)
		return fail(c, kn, "key too long or holding a NUL");
	if (!key_name(k)) /* e.g. a user:hash line: its text is not quoted */
		return fail(c, kn, "a key that is not a name: not a YAML job of lkp-tests");
	snprintf(full, sizeof(full), "%s%s%s", parent ? parent : "", parent ? "." : "", k);
	if (!parent &&
	    (strcmp(k, "suite") == 0 || strcmp(k, "testcase") == 0 || strcmp(k, "category") == 0))
		return 0; /* read before the walk */
	if (!parent && strcmp(k, c->suite) == 0) {
		if (vn->type == YAML_MAPPING_NODE)
			return walk_map(c, vn, NULL, depth + 1); /* the program's own parameters */
		if (vn->type == YAML_SCALAR_NODE && vn->data.scalar.length == 0)
			return 0;
		return fail(c, vn, "%s: expected the program's parameters (a map)", k);
	}
	if (!parent && (in_list(k, kit_monitors, sizeof(kit_monitors) / sizeof(kit_monitors[0])))) {
		if (add_monitor(c, k) != 0)
			return fail(c, kn, "too many monitors");
		if (vn->type != YAML_SCALAR_NODE || vn->data.scalar.length != 0)
			note(c, full, "monitor settings (the kit's monitor runs with its own)");
		return 0;
	}
	if (!parent && in_list(k, lkp_monitors, sizeof(lkp_monitors) / sizeof(lkp_monitors[0]))) {
		note(c, full, no_such_monitor);
		return 0;
	}
	if (!parent && vn->type != YAML_MAPPING_NODE && suite_key(c, k))
		return set_param(c, kn, k, vn); /* e.g. hackbench's nr_threads, iterations */
	i = 0;
	if ((rule = suite_rule(c, LKP_KEY, k, &i)))
		return set_param(c, kn, rule->a, vn); /* e.g. specjbb's nr_threads */
	for (i = 0; i < sizeof(not_applicable) / sizeof(not_applicable[0]); i++)
		if (strcmp(k, not_applicable[i].key) == 0) {
			note(c, full, not_applicable[i].why);
			return 0;
		}
	for (i = 0; i < sizeof(key_renames) / sizeof(key_renames[0]); i++)
		if (strcmp(k, key_renames[i].lkp) == 0)
			return set_param(c, kn, key_renames[i].kit, vn);
	if (vn->type == YAML_MAPPING_NODE)
		return walk_map(c, vn, full, depth + 1); /* e.g. transparent_hugepage: {...} */
	if (kit_key(c, k) && strcmp(k, "suite") != 0)
		return set_param(c, kn, k, vn);
	note(c, full, NULL);
	return 0;
}

/* A key of a map, where it is: its text line and, through the origin,
 * its file (0: the job, N: the Nth include read) and line there. */
struct key_at {
	const char *k;
	size_t n;
	unsigned file;
	unsigned long line, text_line;
};

static int cmp_key_at(const void *pa, const void *pb)
{
	const struct key_at *a = pa, *b = pb;
	int d = memcmp(a->k, b->k, a->n < b->n ? a->n : b->n);

	if (d)
		return d;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->text_line < b->text_line ? -1 : a->text_line > b->text_line;
}

/* "FILE:LINE" of a key; a long path by its end, which names the file. */
static void key_where(const struct conv *c, const struct key_at *k, char *buf, size_t n)
{
	const char *f = c->origin && k->file	      ? c->origin->files[k->file - 1]
			: c->origin && c->origin->job ? c->origin->job
						      : "the job";
	size_t fl = strlen(f);

	snprintf(buf, n, "%s%s:%lu", fl > 48 ? "..." : "", fl > 48 ? f + fl - 45 : f, k->line);
}

/* A key the map gives twice from one file: libyaml keeps both and the walk
 * would take the last without a word.  A key over another file's (the job's
 * after an include's) is lkp-tests' override and stays.  Sorted, so a map
 * of many keys costs n log n; the first repeat in the text is named. */
static int repeated_keys(struct conv *c, yaml_node_t *map)
{
	size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start), m = 0;
	struct key_at *ka, *a = NULL, *b = NULL;
	yaml_node_pair_t *p;

	if (n < 2)
		return 0;
	ka = krp_xcalloc(n, sizeof(*ka));
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, p->key);
		struct key_at *k = &ka[m];
		const char *v;

		/* what the walk refuses or skips is its to say, unquoted */
		if (!kn || kn->type != YAML_SCALAR_NODE)
			continue;
		v = (const char *)kn->data.scalar.value;
		if (v[0] == ':' || v[0] == '#' || kn->data.scalar.length > NAME_MAX_LEN ||
		    strlen(v) != kn->data.scalar.length || !key_name(v))
			continue;
		k->k = v;
		k->n = kn->data.scalar.length;
		k->text_line = (unsigned long)kn->start_mark.line + 1;
		k->line = k->text_line;
		if (c->origin && k->text_line <= c->origin->n) {
			k->file = c->origin->at[k->text_line - 1].file;
			k->line = c->origin->at[k->text_line - 1].line;
		}
		m++;
	}
	qsort(ka, m, sizeof(*ka), cmp_key_at);
	for (size_t i = 1; i < m; i++)
		if (ka[i - 1].n == ka[i].n && memcmp(ka[i - 1].k, ka[i].k, ka[i].n) == 0 &&
		    ka[i - 1].file == ka[i].file && (!b || ka[i].text_line < b->text_line)) {
			a = &ka[i - 1];
			b = &ka[i];
		}
	if (b) {
		char wa[80], wb[80];

		key_where(c, a, wa, sizeof(wa));
		key_where(c, b, wb, sizeof(wb));
		c->err->line = b->text_line;
		snprintf(c->err->msg, sizeof(c->err->msg),
			 "%.*s: twice in one map, at %.68s and %.68s: a file sets a key once",
			 (int)b->n, b->k, wa, wb);
	}
	free(ka);
	return b ? -1 : 0;
}

static int walk_map(struct conv *c, yaml_node_t *map, const char *parent, int depth)
{
	yaml_node_pair_t *p;

	if (depth > KRP_LKPJOB_MAX_DEPTH)
		return fail(c, map, "nested more than %d deep", KRP_LKPJOB_MAX_DEPTH);
	if (repeated_keys(c, map) != 0)
		return -1;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, p->value);

		if (!kn || !vn)
			return fail(c, map, "broken document");
		if (visit(c, kn) != 0 || visit(c, vn) != 0)
			return -1;
		if (kn->type != YAML_SCALAR_NODE)
			return fail(c, kn, "keys are names");
		if (walk_pair(c, kn, vn, parent, depth) != 0)
			return -1;
	}
	return 0;
}

/* suite from "suite:" or "testcase:" (they agree in 0-day's files). */
static int find_suite(struct conv *c, yaml_node_t *root)
{
	yaml_node_pair_t *p;
	const char *found = NULL;
	yaml_node_t *at = root;

	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *vn = yaml_document_get_node(c->doc, p->value);

		if (!kn || !vn || kn->type != YAML_SCALAR_NODE)
			continue;
		if (strcmp((const char *)kn->data.scalar.value, "testcase") != 0 &&
		    strcmp((const char *)kn->data.scalar.value, "suite") != 0)
			continue;
		if (vn->type != YAML_SCALAR_NODE)
			return fail(c, vn, "%s: expected a name", kn->data.scalar.value);
		found = (const char *)vn->data.scalar.value;
		at = vn;
		if (strcmp((const char *)kn->data.scalar.value, "testcase") == 0)
			break;
	}
	if (!found && c->suite[0])
		return 0; /* a later document: the first one's, as lkp inherits it */
	if (!found)
		return fail(c, root, "no testcase: or suite: key (is this an lkp-tests job file?)");
	for (size_t i = 0; i < sizeof(suite_names) / sizeof(suite_names[0]); i++)
		if (strcmp(found, suite_names[i].lkp) == 0) {
			snprintf(c->suite, sizeof(c->suite), "%s", found);
			return 0;
		}
	{
		struct krp_buf names = {0};

		for (size_t i = 0; i < sizeof(suite_names) / sizeof(suite_names[0]); i++)
			if (strcmp(suite_names[i].lkp, suite_names[i].kit) == 0)
				krp_buf_printf(&names, "%s%s", names.len ? ", " : "",
					       suite_names[i].kit);
		fail(c, at, "testcase '%.64s': the kit has no such suite (it has %.*s)", found,
		     (int)names.len, names.data ? names.data : "");
		krp_buf_free(&names);
		return -1;
	}
}

static const char *kit_suite(const char *lkp)
{
	for (size_t i = 0; i < sizeof(suite_names) / sizeof(suite_names[0]); i++)
		if (strcmp(lkp, suite_names[i].lkp) == 0)
			return suite_names[i].kit;
	return lkp;
}

/* lkp values that are the suite's default ("lkp default" in its meta, e.g.
 * unixbench's nr_task: 1, one copy) are left out, so the result path is a
 * kit matrix's. */
static int drop_lkp_defaults(struct conv *c)
{
	char one[KRP_VALUE_MAX + 3];

	for (size_t i = 0; i < c->nparams; i++) {
		const char *v = c->params[i].val;
		const struct lkp_rule *r;
		size_t at = 0;

		while ((r = suite_rule(c, LKP_DEFAULT, c->params[i].key, &at))) {
			snprintf(one, sizeof(one), "[%s]", r->a);
			if (strcmp(v, r->a) != 0 && strcmp(v, one) != 0)
				continue;
			free(c->params[i].val);
			c->params[i] = c->params[--c->nparams];
			i--;
			break;
		}
	}
	return 0;
}

/* A duration lkp-tests' program divides into counts ("lkp per" in the
 * suite's meta): unixbench's runtime is runtime/10 iterations of each test
 * (lkp's xinitrc: Run -i), so the kit's samples of its 10 s.  A list's
 * values each. */
static int apply_lkp_per(struct conv *c, yaml_node_t *root)
{
	const struct lkp_rule *r;
	size_t at = 0;

	while ((r = suite_rule(c, LKP_PER, NULL, &at))) {
		unsigned long per = strtoul(r->b, NULL, 10);

		for (size_t i = 0; i < c->nparams; i++) {
			struct krp_buf out = {0};
			const char *v = c->params[i].val, *p;
			int list = v[0] == '[';

			if (strcmp(c->params[i].key, r->key) != 0)
				continue;
			if (list)
				krp_buf_printf(&out, "[");
			for (p = v + list; *p && *p != ']';) {
				const char *end = p;
				uint64_t secs = 0, n;

				if (krp_seconds_prefix(p, &secs, &end) != 0 ||
				    (*end && *end != ',' && *end != ']') || per == 0) {
					krp_buf_free(&out);
					return fail(c, root,
						    "%s: '%s' is not a duration, N, Ns, Nm or Nh "
						    "(lkp-tests "
						    "counts %s of %lu s in it)",
						    r->key, v, r->a, per);
				}
				n = secs / per ? secs / per : 1;
				krp_buf_printf(&out, "%s%llu", out.len > (size_t)list ? ", " : "",
					       (unsigned long long)n);
				p = end;
				while (*p == ',' || *p == ' ')
					p++;
			}
			if (list)
				krp_buf_printf(&out, "]");
			{ /* said once, though each document converts it again */
				char line[512];

				snprintf(
				    line, sizeof(line),
				    "%s: %s is what lkp-tests divides into %s of %lu s: %s: %s\n",
				    r->key, v, r->a, per, r->a, out.data);
				if (!c->notes->data || !strstr(c->notes->data, line))
					krp_buf_printf(c->notes, "%s", line);
			}
			snprintf(c->params[i].key, sizeof(c->params[i].key), "%s", r->a);
			free(c->params[i].val);
			c->params[i].val = out.data;
		}
	}
	return 0;
}

/* A parameter the document leaves out that lkp-tests' program gives a
 * meaning of its own ("lkp unset", "lkp needs" in the suite's meta): set
 * as lkp runs it (will-it-scale's mode: both builds), or refused saying
 * what lkp does then (a sweep the kit does not run). */
static int apply_lkp_unset(struct conv *c, yaml_node_t *root)
{
	const struct lkp_rule *r;
	size_t at = 0;

	while ((r = suite_rule(c, LKP_UNSET, NULL, &at))) {
		size_t i;

		for (i = 0; i < c->nparams; i++)
			if (strcmp(c->params[i].key, r->key) == 0)
				break;
		if (i < c->nparams)
			continue;
		if (!r->a)
			return fail(c, root, "%s: not given: %s", r->key, r->b);
		if (c->nparams == PARAMS_MAX)
			return fail(c, root, "more than %d parameters", PARAMS_MAX);
		snprintf(c->params[i].key, sizeof(c->params[i].key), "%s", r->key);
		c->params[i].val = krp_xstrdup(r->a); /* the matrix's form: "[process, thread]" */
		c->nparams++;
	}
	return 0;
}

static int convert_doc(struct conv *c, yaml_node_t *root, struct krp_buf *out,
		       const struct conv *base)
{
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root, "a job file is a map of keys");
	c->nparams = 0;
	c->monitors[0] = 0;
	if (base) { /* lkp: a later document inherits the first, overriding it */
		for (size_t i = 0; i < base->nparams; i++) {
			c->params[i] = base->params[i];
			c->params[i].val = krp_xstrdup(base->params[i].val);
		}
		c->nparams = base->nparams;
		memcpy(c->monitors, base->monitors, sizeof(c->monitors));
	}
	if (find_suite(c, root) != 0 || walk_map(c, root, NULL, 0) != 0 ||
	    drop_lkp_defaults(c) != 0 || apply_lkp_per(c, root) != 0 ||
	    apply_lkp_unset(c, root) != 0)
		return -1;
	krp_buf_printf(out, "suite: %s\n", kit_suite(c->suite));
	for (size_t i = 0; i < c->nparams; i++)
		krp_buf_printf(out, "%s: %s\n", c->params[i].key, c->params[i].val);
	if (c->monitors[0]) /* "+a+b+" */
		krp_buf_printf(out, "monitors: %.*s\n", (int)strlen(c->monitors) - 2,
			       c->monitors + 1);
	return 0;
}

static void free_params(struct conv *c)
{
	for (size_t i = 0; i < c->nparams; i++)
		free(c->params[i].val);
	c->nparams = 0;
}

int krp_lkpjob_to_matrix(const char *buf, size_t len, const struct krp_lkpjob_origin *origin,
			 const char *known_keys, struct krp_buf *out, struct krp_buf *notes,
			 struct krp_matrix_err *err)
{
	yaml_parser_t parser;
	struct conv c, *first;
	struct krp_buf parts = {0};
	int ndocs = 0, rc = 0;

	memset(&c, 0, sizeof(c));
	memset(err, 0, sizeof(*err));
	c.notes = notes;
	c.err = err;
	c.known = known_keys;
	c.origin = origin;
	if (krp_lkpjob_flow_depth(buf, len, err) != 0)
		return -1;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(err->msg, sizeof(err->msg), "libyaml: out of memory");
		return -1;
	}
	first = krp_xcalloc(1, sizeof(*first));
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	for (;;) {
		yaml_document_t doc;
		yaml_node_t *root;

		if (!yaml_parser_load(&parser, &doc)) {
			err->line = (unsigned long)parser.problem_mark.line + 1;
			snprintf(err->msg, sizeof(err->msg), "YAML: %s%s%s",
				 parser.problem ? parser.problem : "syntax error",
				 parser.context ? " " : "", parser.context ? parser.context : "");
			rc = -1;
			break;
		}
		root = yaml_document_get_root_node(&doc);
		if (!root) {
			yaml_document_delete(&doc);
			break;
		}
		c.doc = &doc;
		if (ndocs > 0)
			krp_buf_puts(&parts, "---\n");
		rc = convert_doc(&c, root, &parts, ndocs ? first : NULL);
		if (rc == 0 && ndocs == 0) { /* what the later documents inherit */
			first->nparams = c.nparams;
			memcpy(first->params, c.params, sizeof(c.params));
			memcpy(first->monitors, c.monitors, sizeof(c.monitors));
			c.nparams = 0; /* the values are first's now */
		}
		free_params(&c);
		yaml_document_delete(&doc);
		if (rc != 0)
			break;
		ndocs++;
	}
	yaml_parser_delete(&parser);
	free_params(first);
	free(first);
	if (rc == 0 && c.no_monitor.len)
		krp_buf_printf(notes, "%s: %.*s, ignored\n", no_such_monitor, (int)c.no_monitor.len,
			       c.no_monitor.data);
	if (rc == 0 && c.unknown.len)
		krp_buf_printf(notes, "not parameters of the kit: %.*s, ignored\n",
			       (int)c.unknown.len, c.unknown.data);
	krp_buf_free(&c.no_monitor);
	krp_buf_free(&c.unknown);
	if (rc == 0 && ndocs == 0) {
		snprintf(err->msg, sizeof(err->msg), "empty job file");
		rc = -1;
	}
	if (rc == 0) {
		krp_buf_puts(out, "# from an lkp-tests job file\n");
		if (ndocs > 1)
			krp_buf_puts(out, "---\n"); /* nothing shared: every document is a part */
		krp_buf_add(out, parts.data, parts.len);
	}
	krp_buf_free(&parts);
	return rc;
}
