/* Metric accumulator (see metrics.h). */
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void krp_metrics_init(struct krp_metrics *m)
{
	memset(m, 0, sizeof(*m));
}

void krp_metrics_free(struct krp_metrics *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	krp_index_free(&m->ix);
	memset(m, 0, sizeof(*m));
}

void krp_metrics_refuse(struct krp_metrics *m, size_t line, const char *why)
{
	if (m->bad_line == 0 && line > 0) {
		m->bad_line = line;
		m->bad_why = why;
	}
}

int krp_metric_name_ok(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];

		if (i >= KRP_METRIC_NAME_MAX || c <= 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return 0;
	}
	return i > 0;
}

int krp_metric_add(struct krp_metrics *m, const char *name, double value, enum krp_reduce how)
{
	struct krp_metric *mt;
	size_t i;

	if (!krp_value_ok(value) || !krp_metric_name_ok(name))
		return -1;
	i = krp_index_find(&m->ix, name);
	if (i == KRP_NOT_FOUND) {
		if (m->n == m->cap) {
			m->cap = m->cap ? m->cap * 2 : 32;
			m->v = krp_xrealloc(m->v, m->cap * sizeof(*m->v));
		}
		i = m->n++;
		mt = &m->v[i];
		memset(mt, 0, sizeof(*mt));
		mt->name = krp_xstrdup(name);
		mt->how = how;
		mt->first = mt->max = value;
		krp_index_insert(&m->ix, name, i);
	}
	mt = &m->v[i];
	mt->n++;
	mt->sum += value;
	mt->last = value;
	if (value > mt->max)
		mt->max = value;
	return 0;
}

int krp_metric_add2(struct krp_metrics *m, const char *prefix, const char *key, size_t keylen,
		    double value, enum krp_reduce how)
{
	char name[KRP_METRIC_NAME_MAX + 2];
	size_t pl = strlen(prefix);

	if (pl + 1 + keylen > KRP_METRIC_NAME_MAX || keylen == 0)
		return -1;
	if (memchr(key, '\0', keylen))
		return -1;
	memcpy(name, prefix, pl);
	name[pl] = '.';
	memcpy(name + pl + 1, key, keylen);
	name[pl + 1 + keylen] = '\0';
	return krp_metric_add(m, name, value, how);
}

double krp_metric_value(const struct krp_metric *mt)
{
	switch (mt->how) {
	case KRP_MEAN:
		return mt->sum / (double)mt->n;
	case KRP_DELTA:
		return mt->n == 1 ? mt->last : mt->last - mt->first;
	case KRP_MAX:
		return mt->max;
	case KRP_SET:
	default:
		return mt->last;
	}
}

int krp_metrics_get(const struct krp_metrics *m, const char *name, double *out)
{
	size_t i = krp_index_find(&m->ix, name);

	if (i == KRP_NOT_FOUND)
		return -1;
	*out = krp_metric_value(&m->v[i]);
	return 0;
}

static const struct krp_metrics *sort_ctx;

static int cmp_idx(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return strcmp(sort_ctx->v[x].name, sort_ctx->v[y].name);
}

size_t *krp_metrics_sorted(const struct krp_metrics *m)
{
	size_t *idx = krp_xmalloc((m->n ? m->n : 1) * sizeof(*idx));
	size_t i;

	for (i = 0; i < m->n; i++)
		idx[i] = i;
	sort_ctx = m;
	qsort(idx, m->n, sizeof(*idx), cmp_idx);
	sort_ctx = NULL;
	return idx;
}
