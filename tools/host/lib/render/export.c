/* JSON and CSV exports of a comparison (see export.h). */
#include "export.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "failures.h"
#include "meaning.h"
#include "run_warnings.h"
#include "vstats.h"

/* One exported comparison: perf (c set) or failure (counts set). */
struct export_row {
	const char *metric, *newname;
	int failure;
	struct krp_cell c;
	size_t fb, rb, fn, rn;
	double repro;
};

typedef void (*export_fn)(const struct export_row *r, void *ctx);

static void export_rows(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
			export_fn fn, void *ctx)
{
	struct krp_vstats b;
	size_t j, i, nkeys;
	char **keys = krp_failure_keys(vars, nvars, &nkeys);

	krp_vstats_build_in(vars, nvars, 0, &b);
	for (j = 1; j < nvars; j++) {
		struct krp_vstats n;
		size_t *order;
		struct krp_metrics names;

		krp_vstats_build_in(vars, nvars, j, &n);
		/* Sorted by name: build a sorted view of the base names. */
		krp_metrics_init(&names);
		for (i = 0; i < b.n; i++)
			krp_metric_add(&names, b.s[i].name, 0, KRP_SET);
		order = krp_metrics_sorted(&names);
		for (i = 0; i < names.n; i++) {
			const struct krp_series *sb = krp_vstats_find(&b, names.v[order[i]].name);
			const struct krp_series *sn = krp_vstats_find(&n, sb->name);
			struct export_row r;

			if (!sn)
				continue;
			memset(&r, 0, sizeof(r));
			r.metric = sb->name;
			r.newname = vars[j].name;
			krp_cmp_cell(sb->name, sb->x, sb->n, sn->x, sn->n, o, &r.c);
			fn(&r, ctx);
		}
		for (i = 0; i < nkeys; i++) {
			struct export_row r;

			memset(&r, 0, sizeof(r));
			r.metric = keys[i];
			r.newname = vars[j].name;
			r.failure = 1;
			krp_fail_count(&vars[0], keys[i], &r.fb, &r.rb);
			krp_fail_count(&vars[j], keys[i], &r.fn, &r.rn);
			r.repro = krp_reproduction(r.fb, r.rb, r.fn, r.rn);
			fn(&r, ctx);
		}
		free(order);
		krp_metrics_free(&names);
		krp_vstats_free(&n);
	}
	krp_vstats_free(&b);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static void export_json_row(const struct export_row *r, void *ctx)
{
	json_t *arr = ctx, *o = json_object();

	json_object_set_new(o, "metric", json_string(r->metric));
	json_object_set_new(o, "new", json_string(r->newname));
	json_object_set_new(o, "kind", json_string(r->failure ? "failure" : "perf"));
	if (r->failure) {
		json_object_set_new(o, "base_fail", json_integer((json_int_t)r->fb));
		json_object_set_new(o, "base_runs", json_integer((json_int_t)r->rb));
		json_object_set_new(o, "new_fail", json_integer((json_int_t)r->fn));
		json_object_set_new(o, "new_runs", json_integer((json_int_t)r->rn));
		json_object_set_new(o, "reproduction", jnum(r->repro));
		json_object_set_new(o, "significant", json_boolean(r->repro != 0));
	} else {
		json_object_set_new(o, "base_runs", json_integer((json_int_t)r->c.nb));
		json_object_set_new(o, "base_mean", jnum(r->c.mb));
		json_object_set_new(o, "base_stddev", jnum(r->c.sdb));
		json_object_set_new(o, "new_runs", json_integer((json_int_t)r->c.nn));
		json_object_set_new(o, "new_mean", jnum(r->c.mn));
		json_object_set_new(o, "new_stddev", jnum(r->c.sdn));
		json_object_set_new(o, "change_pct", jnum(r->c.pct));
		json_object_set_new(o, "change_abs", jnum(r->c.mn - r->c.mb));
		json_object_set_new(o, "absolute", json_boolean(krp_is_absolute(r->metric)));
		json_object_set_new(o, "p", r->c.have_t ? jnum(r->c.w.p) : json_null());
		json_object_set_new(o, "significant", json_boolean(r->c.significant));
		json_object_set_new(o, "direction", json_integer(krp_direction(r->metric)));
	}
	json_array_append_new(arr, o);
}

/* The summary's disagreement lines (analyze/compare.h), one object a new
 * variant whose headline's plain and model verdicts differ. */
static json_t *disagreements(const struct krp_variant *vars, size_t nvars,
			     const struct krp_cmp_opts *o)
{
	json_t *arr = json_array();
	struct krp_vstats b;
	size_t j;

	krp_vstats_build_in(vars, nvars, 0, &b);
	for (j = 1; j < nvars; j++) {
		struct krp_vstats n;
		const char *h;
		char line[1024], mkey[KRP_METRIC_NAME_MAX + 1];
		int pv, mv;

		krp_vstats_build_in(vars, nvars, j, &n);
		h = krp_headline(&b, &n);
		if (h && krp_model_disagreement(h, &b, &n, o, &pv, &mv, line, sizeof(line))) {
			json_t *d = json_object();

			snprintf(mkey, sizeof(mkey), "%s%s", KRP_MODEL_RATE_PREFIX, h);
			json_object_set_new(d, "new", json_string(vars[j].name));
			json_object_set_new(d, "metric", json_string(h));
			json_object_set_new(d, "model_metric", json_string(mkey));
			json_object_set_new(d, "plain_verdict", json_integer(pv));
			json_object_set_new(d, "model_verdict", json_integer(mv));
			json_object_set_new(d, "text", json_string(line));
			json_array_append_new(arr, d);
		}
		krp_vstats_free(&n);
	}
	krp_vstats_free(&b);
	return arr;
}

void krp_compare_json(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		      struct krp_buf *out)
{
	json_t *root = json_object(), *vl = json_array(), *ml = json_array();
	size_t j, r;
	char *s;

	json_object_set_new(root, "base", json_string(vars[0].name));
	json_object_set_new(root, "alpha", json_real(o->alpha));
	json_object_set_new(root, "clock", json_string(o->exact ? "exact" : "real"));
	for (j = 0; j < nvars; j++) {
		json_t *v = json_object(), *idle = json_array();

		json_object_set_new(v, "name", json_string(vars[j].name));
		json_object_set_new(v, "dir", json_string(vars[j].dir));
		json_object_set_new(v, "runs", json_integer((json_int_t)vars[j].nruns));
		json_object_set_new(v, "failed_runs",
				    json_integer((json_int_t)krp_variant_nfailed(&vars[j])));
		/* BALANCER IDLE: runs too short for NUMA balancing's first scan */
		for (r = 0; r < vars[j].nruns; r++)
			if (krp_run_balancer_idle(&vars[j].runs[r]))
				json_array_append_new(idle, json_string(vars[j].runs[r].name));
		json_object_set_new(v, "balancer_idle_runs", idle);
		json_array_append_new(vl, v);
	}
	json_object_set_new(root, "variants", vl);
	export_rows(vars, nvars, o, export_json_row, ml);
	json_object_set_new(root, "metrics", ml);
	json_object_set_new(root, "disagreements", disagreements(vars, nvars, o));
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (s) {
		krp_buf_puts(out, s);
		krp_buf_puts(out, "\n");
		free(s);
	}
	json_decref(root);
}

/* CSV field: quoted (quotes doubled) when it holds a comma, quote or
 * line break. */
static void csv_field(struct krp_buf *out, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n")) {
		krp_buf_puts(out, s);
		return;
	}
	krp_buf_puts(out, "\"");
	for (p = s; *p; p++)
		krp_buf_puts(out, *p == '"' ? "\"\"" : (char[]){*p, 0});
	krp_buf_puts(out, "\"");
}

static void csv_num(struct krp_buf *out, double v)
{
	if (isfinite(v))
		krp_buf_printf(out, ",%.10g", v);
	else
		krp_buf_puts(out, ",");
}

static void export_csv_row(const struct export_row *r, void *ctx)
{
	struct krp_buf *out = ctx;

	krp_buf_puts(out, r->failure ? "failure," : "perf,");
	csv_field(out, r->metric);
	krp_buf_puts(out, ",");
	csv_field(out, r->newname);
	if (r->failure) {
		krp_buf_printf(out, ",%zu,,,%zu,,,,,,%d,%zu,%zu,%.10g\n", r->rb, r->rn,
			       r->repro != 0, r->fb, r->fn, r->repro);
		return;
	}
	krp_buf_printf(out, ",%zu", r->c.nb);
	csv_num(out, r->c.mb);
	csv_num(out, r->c.sdb);
	krp_buf_printf(out, ",%zu", r->c.nn);
	csv_num(out, r->c.mn);
	csv_num(out, r->c.sdn);
	csv_num(out, r->c.pct);
	csv_num(out, r->c.mn - r->c.mb);
	csv_num(out, r->c.have_t ? r->c.w.p : NAN);
	krp_buf_printf(out, ",%d,,,\n", r->c.significant);
}

void krp_compare_csv(const struct krp_variant *vars, size_t nvars, const struct krp_cmp_opts *o,
		     struct krp_buf *out)
{
	krp_buf_puts(out, "kind,metric,new,base_runs,base_mean,base_stddev,new_runs,new_mean,"
			  "new_stddev,change_pct,change_abs,p,significant,base_fail,new_fail,"
			  "reproduction\n");
	export_rows(vars, nvars, o, export_csv_row, out);
}
