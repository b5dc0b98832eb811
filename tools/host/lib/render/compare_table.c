/* The 0-day comparison table as text (see compare_table.h). */
#include "compare_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_summary.h"
#include "failures.h"
#include "meaning.h"
#include "run_warnings.h"
#include "vstats.h"

/* Group of a monitor metric: "<bench>.time" for rusage keys, else the part
 * before the first '.'. */
static void group_of(const char *name, char *out, size_t outsz)
{
	const char *t = strstr(name, ".time.");
	size_t n;

	if (t && !krp_meaning_monitor(name))
		n = (size_t)(t - name) + 5;
	else {
		const char *dot = strchr(name, '.');
		n = dot ? (size_t)(dot - name) : strlen(name);
	}
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, name, n);
	out[n] = '\0';
}

void krp_fmt_stddev(char *out, size_t outsz, double mean, double sd, size_t n)
{
	double pct = mean != 0 ? 100.0 * sd / mean : 0;

	if (n >= 2 && isfinite(pct) && pct > 2) {
		if (pct > 999999)
			pct = 999999;
		snprintf(out, outsz, " \xc2\xb1%3d%%", (int)pct);
	} else {
		snprintf(out, outsz, "      ");
	}
}

struct row {
	const char *name;
	int bench;
	char group[KRP_METRIC_NAME_MAX + 1];
	size_t group_rows;
	double change0;		/* the first new variant's shown change */
	struct krp_cell *cells; /* one per new variant */
};

/* perf-profile and model-profile: rows of one kind (calltrace, children,
 * cycles, cache-misses...) together. */
static int is_profile(const char *group)
{
	size_t n = strlen(group), k = strlen("-profile");

	return n > k && strcmp(group + n - k, "-profile") == 0;
}

/* Length of NAME's first two components ("model-profile.cycles"). */
static size_t profile_prefix(const char *name)
{
	const char *dot = strchr(name, '.');

	if (dot)
		dot = strchr(dot + 1, '.');
	return dot ? (size_t)(dot - name) : strlen(name);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->bench != y->bench)
		return x->bench ? -1 : 1;
	if (x->bench)
		return strcmp(x->name, y->name);
	if (x->group_rows != y->group_rows)
		return x->group_rows < y->group_rows ? -1 : 1;
	c = strcmp(x->group, y->group);
	if (c)
		return c;
	/* lkp's Compare.sort_stats: a monitor's rows by name (seed 002's
	 * perf-stat rows), a profile's by its first two components, then by
	 * the change, lowest first. */
	if (is_profile(x->group)) {
		size_t nx = profile_prefix(x->name), ny = profile_prefix(y->name);

		c = strncmp(x->name, y->name, nx < ny ? nx : ny);
		if (!c && nx != ny)
			c = nx < ny ? -1 : 1;
		if (c)
			return c;
		if (x->change0 != y->change0)
			return x->change0 < y->change0 ? -1 : 1;
	}
	return strcmp(x->name, y->name);
}

static void put_row(struct krp_buf *out, const struct row *r, size_t nnew)
{
	char avg[64], err[32], chg[64];
	size_t j;

	krp_fmt_avg(avg, sizeof(avg), r->cells[0].mb);
	krp_fmt_stddev(err, sizeof(err), r->cells[0].mb, r->cells[0].sdb, r->cells[0].nb);
	krp_buf_printf(out, "%10s%s", avg, err);
	for (j = 0; j < nnew; j++) {
		const struct krp_cell *c = &r->cells[j];
		int absolute = krp_is_absolute(r->name);

		if (!c->present) {
			krp_buf_printf(out, "%28s", "");
			continue;
		}
		krp_fmt_change(chg, sizeof(chg), c->shown, 0);
		krp_fmt_avg(avg, sizeof(avg), c->mn);
		krp_fmt_stddev(err, sizeof(err), c->mn, c->sdn, c->nn);
		krp_buf_printf(out, "%10s%s %10s%s", chg, absolute || isnan(c->shown) ? " " : "%",
			       avg, err);
	}
	krp_buf_printf(out, "  %s\n", r->name);
}

static void put_header_cols(struct krp_buf *out, size_t nvars)
{
	size_t j;

	krp_buf_puts(out, "         %stddev");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "     %change         %stddev");
	krp_buf_puts(out, "\n             \\");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, "          |                \\");
	krp_buf_puts(out, "\n");
}

/* Names are cut to the column widths, as lkp does with commit ids. */
static void put_dashes(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	size_t j;

	krp_buf_printf(out, "%16.16s", vars[0].name);
	for (j = 1; j < nvars; j++)
		krp_buf_printf(out, " %27.27s", vars[j].name);
	krp_buf_puts(out, "\n----------------");
	for (j = 1; j < nvars; j++)
		krp_buf_puts(out, " ---------------------------");
	krp_buf_puts(out, "\n");
}

static void put_header(struct krp_buf *out, const struct krp_variant *vars, size_t nvars)
{
	put_dashes(out, vars, nvars);
	put_header_cols(out, nvars);
}

/* The seeds of a variant's runs: "1-10" when they are one run of each
 * seed from first to last, else "first..last" with the count; "none"
 * for runs without seeds. */
static void seeds_desc(const struct krp_variant *v, char *out, size_t outsz)
{
	long lo = -1, hi = -1;
	size_t r, n = 0;

	for (r = 0; r < v->nruns; r++) {
		long s = v->runs[r].seed;

		if (s < 0)
			continue;
		lo = n == 0 || s < lo ? s : lo;
		hi = n == 0 || s > hi ? s : hi;
		n++;
	}
	if (n == 0)
		snprintf(out, outsz, "none");
	else if ((size_t)(hi - lo) + 1 == n)
		snprintf(out, outsz, "%ld-%ld", lo, hi);
	else
		snprintf(out, outsz, "%ld..%ld (%zu runs)", lo, hi, n);
}

static int variant_contended(const struct krp_variant *v)
{
	size_t r;

	for (r = 0; r < v->nruns; r++) {
		if (v->runs[r].contended)
			return 1;
	}
	return 0;
}

/* "fail:runs  %reproduction    fail:runs" rows, lkp's column layout. */
static size_t put_failures(struct krp_buf *out, const struct krp_variant *vars, size_t nvars,
			   int all)
{
	size_t nkeys, i, j, shown = 0;
	char **keys = krp_failure_keys(vars, nvars, &nkeys);

	for (i = 0; i < nkeys; i++) {
		size_t fb, rb, fn, rn;
		char fr[48];

		if (!krp_failure_row_shown(vars, nvars, keys[i], all))
			continue;
		if (shown++ == 0) {
			krp_buf_puts(out, "       fail:runs");
			for (j = 1; j < nvars; j++)
				krp_buf_puts(out, "  %reproduction    fail:runs");
			krp_buf_puts(out, "\n");
		}
		krp_fail_count(&vars[0], keys[i], &fb, &rb);
		snprintf(fr, sizeof(fr), "%zu:%zu", fb, rb);
		krp_buf_printf(out, "%13s   ", fr);
		for (j = 1; j < nvars; j++) {
			krp_fail_count(&vars[j], keys[i], &fn, &rn);
			snprintf(fr, sizeof(fr), "%zu:%zu", fn, rn);
			krp_buf_printf(out, "%10.0f%%%14s   ", krp_reproduction(fb, rb, fn, rn),
				       fr);
		}
		krp_buf_printf(out, "  %s\n", keys[i]);
	}
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	return shown;
}

void krp_compare_report(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			struct krp_buf *out)
{
	struct krp_vstats *vs = krp_xcalloc(nvars, sizeof(*vs));
	struct row *rows;
	size_t nrows = 0, nnew = nvars - 1, i, j, k;

	for (j = 0; j < nvars; j++)
		krp_vstats_build_in(vars, nvars, j, &vs[j]);
	for (j = 0; j < nvars; j++) {
		size_t nf = krp_variant_nfailed(&vars[j]);

		krp_buf_printf(out, "%s%s %zu", j ? ", " : "runs: ", vars[j].name, vars[j].nruns);
		if (nf)
			krp_buf_printf(out, " (%zu failed)", nf);
	}
	krp_buf_printf(out, "; clock %s", o->exact ? "exact" : "real");
	for (j = 0; o->exact && j < nvars; j++) {
		char sd[96];

		seeds_desc(&vars[j], sd, sizeof(sd));
		krp_buf_printf(out, "%s%s %s", j ? ", " : "; seeds: ", vars[j].name, sd);
	}
	krp_buf_puts(out, "\n\n");
	if (o->exact && krp_put_nondeterminism(out, vars, nvars))
		krp_buf_puts(out, "\n");
	if (krp_put_contention(out, vars, nvars))
		krp_buf_puts(out, "\n");
	if (krp_put_balancer_idle(out, vars, nvars))
		krp_buf_puts(out, "\n");
	for (i = 0; i < o->nnotes; i++)
		krp_buf_printf(out, "%s\n%s", o->notes[i], i + 1 == o->nnotes ? "\n" : "");

	rows = krp_xcalloc(vs[0].n ? vs[0].n : 1, sizeof(*rows));
	for (i = 0; i < vs[0].n; i++) {
		const struct krp_series *sb = &vs[0].s[i];
		struct row *r = &rows[nrows];
		int any_present = 0, any_sig = 0;

		r->cells = krp_xcalloc(nnew ? nnew : 1, sizeof(*r->cells));
		r->name = sb->name;
		r->bench = !krp_is_monitor(sb->name);
		for (j = 0; j < nnew; j++) {
			const struct krp_series *sn = krp_vstats_find(&vs[j + 1], sb->name);

			if (!sn)
				continue;
			krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o, &r->cells[j]);
			any_present = 1;
			any_sig |= r->cells[j].significant;
			if (j == 0 && isfinite(r->cells[0].shown))
				r->change0 = r->cells[0].shown;
		}
		if (any_present && (o->all || any_sig)) {
			if (!r->bench)
				group_of(r->name, r->group, sizeof(r->group));
			nrows++;
		} else {
			free(r->cells);
		}
	}
	/* Monitor groups with fewer shown rows come first (as in lkp). */
	for (i = 0; i < nrows; i++) {
		if (rows[i].bench)
			continue;
		for (k = 0; k < nrows; k++) {
			if (!rows[k].bench && strcmp(rows[k].group, rows[i].group) == 0)
				rows[i].group_rows++;
		}
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	{
		struct krp_buf fails = {0};
		size_t nfail = put_failures(&fails, vars, nvars, o->all);

		if (nrows == 0 && nfail == 0) {
			krp_buf_puts(out,
				     "no significant changes (use --all to show every metric)\n");
		} else if (nfail == 0) {
			put_header(out, vars, nvars);
		} else {
			put_dashes(out, vars, nvars);
			krp_buf_add(out, fails.data, fails.len);
			if (nrows)
				put_header_cols(out, nvars);
		}
		krp_buf_free(&fails);
	}
	for (i = 0; i < nrows; i++)
		put_row(out, &rows[i], nnew);
	for (j = 1; j < nvars; j++) {
		krp_buf_puts(out, "\n");
		krp_compare_summary(out, vars[0].name, vars[j].name, &vs[0], &vs[j], o,
				    variant_contended(&vars[0]) || variant_contended(&vars[j]));
	}
	for (i = 0; i < nrows; i++)
		free(rows[i].cells);
	free(rows);
	for (j = 0; j < nvars; j++)
		krp_vstats_free(&vs[j]);
	free(vs);
}
