/* Matrix pivot (see pivot.h). */
#include "pivot.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jobconf.h"
#include "meaning.h"
#include "metrics.h"
#include "results.h"

void krp_pivot_init(struct krp_pivot *p, const char *const *rows, size_t nrow,
		    const char *const *cols, size_t ncol)
{
	size_t a;

	memset(p, 0, sizeof(*p));
	p->nrow = nrow;
	p->ncol = ncol;
	p->ax = krp_xcalloc(nrow + ncol ? nrow + ncol : 1, sizeof(*p->ax));
	for (a = 0; a < nrow + ncol; a++)
		p->ax[a].key = krp_xstrdup(a < nrow ? rows[a] : cols[a - nrow]);
}

void krp_pivot_free(struct krp_pivot *p)
{
	size_t a, i;

	for (a = 0; a < p->nrow + p->ncol; a++) {
		for (i = 0; i < p->ax[a].n; i++) {
			free(p->ax[a].vals[i]);
			free(p->ax[a].ord[i]);
		}
		free(p->ax[a].vals);
		free(p->ax[a].ord);
		free(p->ax[a].key);
	}
	for (i = 0; i < p->ne; i++)
		free(p->e[i].vi);
	free(p->e);
	free(p->ax);
	memset(p, 0, sizeof(*p));
}

static size_t axis_find(const struct krp_pivot_axis *x, const char *v)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		if (strcmp(x->vals[i], v) == 0)
			return i;
	}
	return KRP_NOT_FOUND;
}

/* ord: the value's sort key (NULL: the value); a value's first key stays. */
static size_t axis_add(struct krp_pivot_axis *x, const char *v, const char *ord)
{
	size_t i = axis_find(x, v);

	if (i != KRP_NOT_FOUND || x->fixed)
		return i;
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 8;
		x->vals = krp_xrealloc(x->vals, x->cap * sizeof(*x->vals));
		x->ord = krp_xrealloc(x->ord, x->cap * sizeof(*x->ord));
	}
	x->vals[x->n] = krp_xstrdup(v);
	x->ord[x->n] = krp_xstrdup(ord ? ord : v);
	return x->n++;
}

int krp_pivot_order(struct krp_pivot *p, const char *key, const char *const *vals, size_t n)
{
	size_t a, i;

	for (a = 0; a < p->nrow + p->ncol; a++) {
		struct krp_pivot_axis *x = &p->ax[a];

		if (strcmp(x->key, key) != 0)
			continue;
		/* Entries refer to value indexes: only before any add. */
		if (p->ne)
			return -1;
		for (i = 0; i < x->n; i++) {
			free(x->vals[i]);
			free(x->ord[i]);
		}
		x->n = 0;
		x->fixed = 0;
		for (i = 0; i < n; i++)
			axis_add(x, vals[i], NULL);
		x->fixed = 1;
		return 0;
	}
	return -1;
}

void krp_pivot_add(struct krp_pivot *p, const char *const *vals, double v)
{
	krp_pivot_add_ordered(p, vals, NULL, v);
}

void krp_pivot_add_ordered(struct krp_pivot *p, const char *const *vals, const char *const *ords,
			   double v)
{
	size_t na = p->nrow + p->ncol, a, i;
	size_t *vi = krp_xcalloc(na ? na : 1, sizeof(*vi));

	for (a = 0; a < na; a++) {
		vi[a] = axis_add(&p->ax[a], vals[a], ords ? ords[a] : NULL);
		if (vi[a] == KRP_NOT_FOUND) { /* not in a fixed order */
			p->skipped++;
			free(vi);
			return;
		}
	}
	for (i = 0; i < p->ne; i++) {
		if (memcmp(p->e[i].vi, vi, na * sizeof(*vi)) == 0)
			break;
	}
	if (i == p->ne) {
		if (p->ne == p->cape) {
			p->cape = p->cape ? p->cape * 2 : 32;
			p->e = krp_xrealloc(p->e, p->cape * sizeof(*p->e));
		}
		p->e[i].vi = vi;
		p->e[i].sum = 0;
		p->e[i].n = 0;
		p->ne++;
	} else {
		free(vi);
	}
	p->e[i].sum += v;
	p->e[i].n++;
}

struct sort_item {
	char *val, *ord;
	size_t old;
};

static int cmp_item(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;
	int c = strverscmp(x->ord, y->ord);

	return c ? c : strverscmp(x->val, y->val);
}

void krp_pivot_sort(struct krp_pivot *p)
{
	size_t na = p->nrow + p->ncol, a, i;

	for (a = 0; a < na; a++) {
		struct krp_pivot_axis *x = &p->ax[a];
		struct sort_item *it;
		size_t *map;

		if (x->fixed || x->n < 2)
			continue;
		it = krp_xmalloc(x->n * sizeof(*it));
		for (i = 0; i < x->n; i++)
			it[i] = (struct sort_item){x->vals[i], x->ord[i], i};
		qsort(it, x->n, sizeof(*it), cmp_item);
		map = krp_xmalloc(x->n * sizeof(*map));
		for (i = 0; i < x->n; i++) {
			x->vals[i] = it[i].val;
			x->ord[i] = it[i].ord;
			map[it[i].old] = i;
		}
		for (i = 0; i < p->ne; i++)
			p->e[i].vi[a] = map[p->e[i].vi[a]];
		free(map);
		free(it);
	}
}

static size_t span(const struct krp_pivot *p, size_t from, size_t to)
{
	size_t a, n = 1;

	for (a = from; a < to; a++)
		n *= p->ax[a].n;
	return n;
}

size_t krp_pivot_nrows(const struct krp_pivot *p)
{
	return span(p, 0, p->nrow);
}

size_t krp_pivot_ncols(const struct krp_pivot *p)
{
	return span(p, p->nrow, p->nrow + p->ncol);
}

/* Value index of axis a for row r / column c (last axis fastest). */
static size_t axis_index(const struct krp_pivot *p, size_t a, size_t rc)
{
	size_t end = a < p->nrow ? p->nrow : p->nrow + p->ncol;

	return (rc / span(p, a + 1, end)) % p->ax[a].n;
}

const char *krp_pivot_label(const struct krp_pivot *p, size_t a, size_t rc)
{
	return p->ax[a].vals[axis_index(p, a, rc)];
}

int krp_pivot_cell(const struct krp_pivot *p, size_t r, size_t c, double *mean)
{
	size_t na = p->nrow + p->ncol, i, a;

	for (i = 0; i < p->ne; i++) {
		for (a = 0; a < na; a++) {
			size_t want = axis_index(p, a, a < p->nrow ? r : c);

			if (p->e[i].vi[a] != want)
				break;
		}
		if (a == na) {
			*mean = p->e[i].sum / (double)p->e[i].n;
			return 0;
		}
	}
	return -1;
}

double krp_pivot_improvement(double v, double base)
{
	return 100.0 * (v - base) / base;
}

void krp_pivot_fmt(char *out, size_t outsz, double v)
{
	if (v == floor(v) || fabs(v) >= 1000)
		snprintf(out, outsz, "%.0f", v);
	else
		snprintf(out, outsz, "%.2f", v);
}

/* A value as the matrix and the result path write it (100%, 64M, 10s):
 * host.conf's "matrix.KEY", else job.conf's KEY (what the guest ran with),
 * else, for "kernel", the variant.  The variant is host.conf's (an older
 * kit's runs have it in job.conf). */
static const char *one_value(const struct krp_jobconf *jc, const struct krp_jobconf *hc,
			     const char *key)
{
	char mk[128]; /* a longer key has no matrix form: it is no key at all */
	const char *v = NULL;

	if (snprintf(mk, sizeof(mk), "matrix.%s", key) < (int)sizeof(mk))
		v = krp_jobconf_get(hc, mk);
	if (strcmp(key, "kernel") == 0)
		key = "variant";
	if (!v && strcmp(key, "variant") == 0)
		v = krp_jobconf_get(hc, key);
	if (!v)
		v = krp_jobconf_get(jc, key);
	return v;
}

/* An axis's value and sort key for one run, in out and ord (NULL when a
 * key is missing).  A key "A+B" joins its parts' values as "a+B=b": seed
 * 003's kernel is a variant with NUMA balancing off or on
 * (variant+numa_balancing: base+numa_balancing=0).  Sorted by what the
 * guest ran with (64M by its bytes). */
static void axis_value(const struct krp_jobconf *jc, const struct krp_jobconf *hc, const char *key,
		       struct krp_buf *out, struct krp_buf *ord)
{
	const char *part = key;

	while (part) {
		const char *plus = strchr(part, '+');
		size_t n = plus ? (size_t)(plus - part) : strlen(part);
		char k[128];
		const char *v, *o;

		if (n == 0 || n >= sizeof(k)) {
			out->len = 0;
			return;
		}
		memcpy(k, part, n);
		k[n] = '\0';
		v = one_value(jc, hc, k);
		if (!v) {
			out->len = 0;
			return;
		}
		o = krp_jobconf_get(jc, k);
		if (part != key) {
			krp_buf_printf(out, "+%s=", k);
			krp_buf_printf(ord, "+%s=", k);
		}
		krp_buf_puts(out, v);
		krp_buf_puts(ord, o ? o : v);
		part = plus ? plus + 1 : NULL;
	}
}

/* One run directory: job.conf (and host.conf, when there is one) +
 * stats.json.  With a measure axis, the run adds metric as "plain" and
 * model.<metric> as "model" (when it has one). */
static void add_run(struct krp_pivot *p, const char *dir, const char *metric)
{
	char err[KRP_ERR_MAX], *jp = krp_path_join(dir, "job.conf");
	char *sp = krp_path_join(dir, "stats.json");
	char *hp = krp_path_join(dir, "host.conf");
	size_t na = p->nrow + p->ncol, a;
	struct krp_jobconf jc = {0}, hc = {0};
	struct krp_metrics m;
	const char **vals = krp_xcalloc(na ? na : 1, sizeof(*vals));
	const char **ords = krp_xcalloc(na ? na : 1, sizeof(*ords));
	struct krp_buf *vb = krp_xcalloc(na ? na : 1, sizeof(*vb));
	struct krp_buf *ob = krp_xcalloc(na ? na : 1, sizeof(*ob));
	char *mm = krp_xmalloc(strlen(metric) + sizeof(KRP_MODEL_RATE_PREFIX));
	double v, mv, failed;

	sprintf(mm, "%s%s", KRP_MODEL_RATE_PREFIX, metric);
	krp_metrics_init(&m);
	if (krp_jobconf_load(jp, &jc, err, sizeof(err)) != 0 ||
	    krp_stats_load(sp, &m, err, sizeof(err)) != 0 ||
	    (krp_metrics_get(&m, "last_state.failed", &failed) == 0 && failed != 0) ||
	    krp_metrics_get(&m, metric, &v) != 0) {
		p->skipped++;
		goto out;
	}
	/* a host.conf that is missing or unreadable gives no matrix forms */
	if (krp_jobconf_load(hp, &hc, err, sizeof(err)) != 0)
		krp_jobconf_free(&hc);
	for (a = 0; a < na; a++) {
		if (p->measure && a == p->measure - 1)
			continue;
		axis_value(&jc, &hc, p->ax[a].key, &vb[a], &ob[a]);
		if (vb[a].len == 0) {
			p->skipped++;
			goto out;
		}
		vals[a] = vb[a].data;
		ords[a] = ob[a].data;
	}
	if (strncmp(metric, KRP_MODEL_RATE_PREFIX, strlen(KRP_MODEL_RATE_PREFIX)) != 0 &&
	    krp_metrics_get(&m, mm, &mv) == 0)
		p->model_runs++;
	else
		mm[0] = '\0';
	if (p->measure) {
		vals[p->measure - 1] = "plain";
		ords[p->measure - 1] = "1";
	}
	krp_pivot_add_ordered(p, vals, ords, v);
	if (p->measure && mm[0]) {
		vals[p->measure - 1] = "model";
		ords[p->measure - 1] = "2";
		krp_pivot_add_ordered(p, vals, ords, mv);
	}
out:
	for (a = 0; a < na; a++) {
		krp_buf_free(&vb[a]);
		krp_buf_free(&ob[a]);
	}
	free(vb);
	free(ob);
	free(mm);
	free(vals);
	free(ords);
	krp_jobconf_free(&jc);
	krp_jobconf_free(&hc);
	krp_metrics_free(&m);
	free(jp);
	free(sp);
	free(hp);
}

static int walk(struct krp_pivot *p, const char *dir, const char *metric, int depth, char *err,
		size_t errsz)
{
	DIR *d;
	struct dirent *de;
	struct stat st;
	char *jp = krp_path_join(dir, "job.conf");
	int is_run = lstat(jp, &st) == 0 && S_ISREG(st.st_mode);

	free(jp);
	if (is_run) {
		add_run(p, dir, metric);
		return 0;
	}
	if (depth > 16)
		return 0;
	d = opendir(dir);
	if (!d) {
		snprintf(err, errsz, "%s: cannot open directory: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t nl = strlen(de->d_name);
		char *sub;

		if (de->d_name[0] == '.' || (nl > 4 && strcmp(de->d_name + nl - 4, ".tmp") == 0))
			continue;
		sub = krp_path_join(dir, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			walk(p, sub, metric, depth + 1, err, errsz);
		free(sub);
	}
	closedir(d);
	return 0;
}

int krp_pivot_collect(struct krp_pivot *p, const char *root, const char *metric, char *err,
		      size_t errsz)
{
	struct stat st;
	char *data, *line, *save = NULL;
	size_t len;

	if (stat(root, &st) != 0) {
		snprintf(err, errsz, "%s: %s", root, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return walk(p, root, metric, 0, err, errsz);
	if (krp_read_file(root, KRP_JOBCONF_MAX, &data, &len, err, errsz) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		while (n && (line[n - 1] == ' ' || line[n - 1] == '\r' || line[n - 1] == '\t'))
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		if (stat(line, &st) != 0 || !S_ISDIR(st.st_mode)) {
			snprintf(err, errsz, "%s: listed \"%s\" is not a directory", root, line);
			free(data);
			return -1;
		}
		if (walk(p, line, metric, 0, err, errsz) != 0) {
			free(data);
			return -1;
		}
	}
	free(data);
	return 0;
}

/* Text layout: "|" then fields " %*s|". */
struct layout {
	size_t *aw; /* row axis widths */
	size_t w;   /* data column width */
	size_t linew;
};

static void rule(struct krp_buf *out, const struct layout *l)
{
	size_t i;

	for (i = 0; i < l->linew; i++)
		krp_buf_puts(out, "-");
	krp_buf_puts(out, "\n");
}

static void field(struct krp_buf *out, size_t w, const char *s)
{
	krp_buf_printf(out, " %*s|", (int)w, s);
}

int krp_pivot_text(const struct krp_pivot *p, const char *base, struct krp_buf *out, char *err,
		   size_t errsz)
{
	size_t nr = krp_pivot_nrows(p), nc = krp_pivot_ncols(p), a, r, c, L, b0 = 0;
	size_t sub = span(p, 1, p->nrow); /* rows per first-axis value */
	struct layout l;
	char s[64];
	double v, bv;

	if (p->nrow == 0 || nr == 0 || nc == 0) {
		snprintf(err, errsz, "no cells: no run had the metric and every key");
		return -1;
	}
	if (base) {
		b0 = axis_find(&p->ax[0], base);
		if (b0 == KRP_NOT_FOUND) {
			snprintf(err, errsz, "--base %s: not a value of %s", base, p->ax[0].key);
			return -1;
		}
	} else if ((b0 = axis_find(&p->ax[0], "base")) == KRP_NOT_FOUND) {
		b0 = 0; /* the kit's base kernel when there is one, else the first value */
	}
	l.aw = krp_xcalloc(p->nrow, sizeof(*l.aw));
	for (a = 0; a < p->nrow; a++) {
		l.aw[a] = strlen(p->ax[a].key);
		for (r = 0; r < p->ax[a].n; r++)
			if (strlen(p->ax[a].vals[r]) > l.aw[a])
				l.aw[a] = strlen(p->ax[a].vals[r]);
	}
	if (p->ax[0].n > 1 && l.aw[0] < strlen("improvement"))
		l.aw[0] = strlen("improvement");
	l.w = 6;
	for (r = 0; r < nr; r++) {
		for (c = 0; c < nc; c++) {
			if (krp_pivot_cell(p, r, c, &v) == 0) {
				krp_pivot_fmt(s, sizeof(s), v);
				if (strlen(s) > l.w)
					l.w = strlen(s);
				if (krp_pivot_cell(p, b0 * sub + r % sub, c, &bv) == 0) {
					snprintf(s, sizeof(s), "%.2f%%",
						 krp_pivot_improvement(v, bv));
					if (strlen(s) > l.w)
						l.w = strlen(s);
				}
			}
		}
	}
	for (a = p->nrow; a < p->nrow + p->ncol; a++) {
		size_t sp = span(p, a + 1, p->nrow + p->ncol);

		for (c = 0; c < p->ax[a].n; c++) {
			size_t need = strlen(p->ax[a].vals[c]);

			/* a label over sp columns has sp*(w+2)-2 characters */
			while (sp * (l.w + 2) - 2 < need)
				l.w++;
		}
	}
	l.linew = 1;
	for (a = 0; a < p->nrow; a++)
		l.linew += l.aw[a] + 2;
	l.linew += nc * (l.w + 2);

	rule(out, &l);
	for (L = p->nrow; L < p->nrow + p->ncol; L++) {
		size_t sp = span(p, L + 1, p->nrow + p->ncol), groups = nc / sp;

		krp_buf_puts(out, "|");
		for (a = 0; a < p->nrow; a++)
			field(out, l.aw[a], L == p->nrow ? p->ax[a].key : "");
		for (c = 0; c < groups; c++)
			field(out, sp * (l.w + 2) - 2, p->ax[L].vals[c % p->ax[L].n]);
		krp_buf_puts(out, "\n");
	}
	rule(out, &l);
	for (r = 0; r < nr; r++) {
		krp_buf_puts(out, "|");
		for (a = 0; a < p->nrow; a++) {
			/* a label is shown when it or an outer one changed */
			size_t outer = span(p, a + 1, p->nrow);

			field(out, l.aw[a], r % outer == 0 ? krp_pivot_label(p, a, r) : "");
		}
		for (c = 0; c < nc; c++) {
			if (krp_pivot_cell(p, r, c, &v) == 0)
				krp_pivot_fmt(s, sizeof(s), v);
			else
				snprintf(s, sizeof(s), "na");
			field(out, l.w, s);
		}
		krp_buf_puts(out, "\n");
		if ((r + 1) % sub == 0)
			rule(out, &l);
	}
	for (a = 0; a < p->ax[0].n; a++) {
		static const char *const words[] = {"improvement", "from"};
		size_t k;

		if (a == b0)
			continue;
		for (k = 0; k < sub; k++) {
			size_t rr = a * sub + k, rb = b0 * sub + k, a2;
			const char *w0;

			if (k < 2)
				w0 = p->ax[0].n > 2 && k == 0 ? p->ax[0].vals[a] : words[k];
			else
				w0 = k == 2 ? p->ax[0].vals[b0] : "";
			if (p->ax[0].n > 2 && k == 1)
				w0 = "vs";
			krp_buf_puts(out, "|");
			field(out, l.aw[0], w0);
			for (a2 = 1; a2 < p->nrow; a2++) {
				size_t outer = span(p, a2 + 1, p->nrow);

				field(out, l.aw[a2],
				      rr % outer == 0 ? krp_pivot_label(p, a2, rr) : "");
			}
			for (c = 0; c < nc; c++) {
				if (krp_pivot_cell(p, rr, c, &v) == 0 &&
				    krp_pivot_cell(p, rb, c, &bv) == 0)
					snprintf(s, sizeof(s), "%.2f%%",
						 krp_pivot_improvement(v, bv));
				else
					snprintf(s, sizeof(s), "na");
				field(out, l.w, s);
			}
			krp_buf_puts(out, "\n");
		}
		if (sub < 3) /* too few lines for the stacked label */
			krp_buf_printf(out, "(improvement of %s from %s)\n", p->ax[0].vals[a],
				       p->ax[0].vals[b0]);
		rule(out, &l);
	}
	free(l.aw);
	return 0;
}

/* Split "a,b,c" into at most max parts (pointers into s, modified); max + 1
 * when there are more. */
static size_t split_list(char *s, char **parts, size_t max)
{
	size_t n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save))
		parts[n++] = t;
	return t ? max + 1 : n;
}

int krp_pivot_build(struct krp_pivot *p, char *rows_s, char *cols_s, char **orders, size_t norders,
		    const char *root, const char *metric, char *err, size_t errsz)
{
	char *rows[KRP_PIVOT_MAX_KEYS], *cols[KRP_PIVOT_MAX_KEYS];
	size_t nr = split_list(rows_s, rows, KRP_PIVOT_MAX_KEYS);
	size_t nc = split_list(cols_s, cols, KRP_PIVOT_MAX_KEYS);
	size_t i;

	memset(p, 0, sizeof(*p));
	if (nr == 0 || nc == 0 || nr > KRP_PIVOT_MAX_KEYS || nc > KRP_PIVOT_MAX_KEYS) {
		snprintf(err, errsz, "--rows and --cols take 1..%d keys", KRP_PIVOT_MAX_KEYS);
		return -1;
	}
	krp_pivot_init(p, (const char *const *)rows, nr, (const char *const *)cols, nc);
	for (i = 0; i < norders; i++) {
		char *eq = strchr(orders[i], '='), *vals[64];
		size_t nv;

		if (!eq) {
			snprintf(err, errsz, "--order: expected KEY=V1,V2,..., got \"%s\"",
				 orders[i]);
			return -1;
		}
		*eq = '\0';
		nv = split_list(eq + 1, vals, 64);
		if (nv == 0 || nv > 64 ||
		    krp_pivot_order(p, orders[i], (const char *const *)vals, nv) != 0) {
			snprintf(err, errsz, "--order %s: not a --rows/--cols key or no values",
				 orders[i]);
			return -1;
		}
	}
	if (krp_pivot_collect(p, root, metric, err, errsz) != 0)
		return -1;
	if (p->model_runs && nr < KRP_PIVOT_MAX_KEYS) {
		/* runs with the memory model: again, each row beside its
		 * model.<metric> row (a last row key, "measure") */
		struct krp_pivot q;

		rows[nr] = "measure";
		krp_pivot_init(&q, (const char *const *)rows, nr + 1, (const char *const *)cols,
			       nc);
		q.measure = nr + 1;
		for (i = 0; i < p->ncol + p->nrow; i++) {
			size_t qa = i < nr ? i : i + 1;

			if (p->ax[i].fixed)
				krp_pivot_order(&q, q.ax[qa].key,
						(const char *const *)p->ax[i].vals, p->ax[i].n);
		}
		if (krp_pivot_collect(&q, root, metric, err, errsz) != 0) {
			krp_pivot_free(&q);
			return -1;
		}
		q.skipped = p->skipped;
		krp_pivot_free(p);
		*p = q;
	}
	krp_pivot_sort(p);
	return 0;
}
