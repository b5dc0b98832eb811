/* The memory model's configuration: its defaults and the plugin's
 * arguments read into it, checked (see model.h and docs/MEMORY-MODEL.md). */
#include "model.h"
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void krm_config_default(struct krm_config *c, unsigned ncpus)
{
	memset(c, 0, sizeof(*c));
	c->line = 64;
	c->l1_size = 32u << 10;
	c->l1_ways = 8;
	c->l2_size = 1u << 20;
	c->l2_ways = 16;
	c->llc_size = 8u << 20;
	c->llc_ways = 16;
	c->ncpus = ncpus;
	c->nnodes = 1;
	c->nranges = 1;
	c->range[0].start = 0;
	c->range[0].end = UINT64_MAX;
	c->buffer = 1u << 22;
	c->profile_size = 1u << 16;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* A size (value.h: decimal or 0x hex, K/M/G/T); *end past it.  A value the
 * suffix shifts past 64 bits is refused, not wrapped (17179869192G was 8G). */
static int parse_size(const char *s, uint64_t *v, const char **end)
{
	return krp_size_prefix(s, KRP_VALUE_HEX, v, end);
}

static int parse_cache(const char *val, uint64_t *size, unsigned *ways)
{
	const char *p;
	uint64_t w;

	if (parse_size(val, size, &p) || *p != '/' || parse_size(p + 1, &w, &p) || *p || w == 0 ||
	    w > 64)
		return -1;
	*ways = (unsigned)w;
	return 0;
}

int krm_config_set(struct krm_config *c, const char *key, const char *val, char *err, size_t errlen)
{
	const char *p = val;
	uint64_t v, w;

	if (!strcmp(key, "l1d") || !strcmp(key, "l2") || !strcmp(key, "llc")) {
		uint64_t *size = key[1] == '1'	 ? &c->l1_size
				 : key[1] == '2' ? &c->l2_size
						 : &c->llc_size;
		unsigned *ways = key[1] == '1'	 ? &c->l1_ways
				 : key[1] == '2' ? &c->l2_ways
						 : &c->llc_ways;
		if (parse_cache(val, size, ways) == 0)
			return 0;
		snprintf(err, errlen, "%s=%s: expected SIZE/WAYS (e.g. 32K/8)", key, val);
		return -1;
	}
	if (!strcmp(key, "line") || !strcmp(key, "buffer") || !strcmp(key, "profile")) {
		if (parse_size(val, &v, &p) || *p || v == 0 || v > (1u << 30)) {
			snprintf(err, errlen, "%s=%s: expected a number", key, val);
			return -1;
		}
		if (key[0] == 'l')
			c->line = (unsigned)v;
		else if (key[0] == 'b')
			c->buffer = (size_t)v;
		else
			c->profile_size = (size_t)v;
		return 0;
	}
	if (!strcmp(key, "window")) {
		if (strcmp(val, "marks") && strcmp(val, "all")) {
			snprintf(err, errlen, "window=%s: marks (the guest's markers) or all", val);
			return -1;
		}
		c->window_all = val[0] == 'a';
		return 0;
	}
	if (!strcmp(key, "cpunode")) {
		unsigned n = 0;

		while (*p) {
			if (n == KRM_MAX_CPUS || parse_size(p, &v, &p) || v >= KRM_MAX_NODES ||
			    (*p && *p != ',' && *p != '+'))
				goto bad_list;
			c->cpu_node[n++] = (unsigned)v;
			if (*p)
				p++;
		}
		if (n != c->ncpus) {
			snprintf(err, errlen, "cpunode=%s: %u nodes for %u vCPUs", val, n,
				 c->ncpus);
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "nodes")) {
		unsigned n = 0, top = 0;

		while (*p) {
			if (n == KRM_MAX_RANGES || parse_size(p, &v, &p) || *p != '-' ||
			    parse_size(p + 1, &w, &p) || *p != ':' || w < v)
				goto bad_list;
			c->range[n].start = v;
			c->range[n].end = w;
			if (parse_size(p + 1, &v, &p) || v >= KRM_MAX_NODES ||
			    (*p && *p != ',' && *p != '+'))
				goto bad_list;
			c->range[n].node = (unsigned)v;
			if (v + 1 > top)
				top = (unsigned)v + 1;
			n++;
			if (*p)
				p++;
		}
		c->nranges = n;
		c->nnodes = top;
		return 0;
	}
	snprintf(err, errlen,
		 "unknown argument '%s' (out, ksyms, l1d, l2, llc, line, nodes, cpunode, "
		 "buffer, profile, window)",
		 key);
	return -1;
bad_list:
	snprintf(err, errlen, "%s=%s: bad list near '%s'", key, val, p);
	return -1;
}

static int cache_ok(uint64_t size, unsigned ways, unsigned line)
{
	return ways && size % ((uint64_t)ways * line) == 0 && is_pow2(size / ways / line) &&
	       size / ways / line <= (1u << 24);
}

int krm_config_check(const struct krm_config *c, char *err, size_t errlen)
{
	if (!is_pow2(c->line) || c->line < 8 || c->line > 4096) {
		snprintf(err, errlen, "line=%u: a power of two from 8 to 4096", c->line);
		return -1;
	}
	if (!cache_ok(c->l1_size, c->l1_ways, c->line) ||
	    !cache_ok(c->l2_size, c->l2_ways, c->line) ||
	    !cache_ok(c->llc_size, c->llc_ways, c->line)) {
		snprintf(err, errlen,
			 "cache sizes: size / ways / line must be a power of two sets");
		return -1;
	}
	if (c->ncpus == 0 || c->ncpus > KRM_MAX_CPUS) {
		snprintf(err, errlen, "%u vCPUs: the model holds 1 to %d", c->ncpus, KRM_MAX_CPUS);
		return -1;
	}
	if (c->nnodes == 0 || c->nranges == 0) {
		snprintf(err, errlen, "nodes: no range");
		return -1;
	}
	for (unsigned i = 0; i < c->ncpus; i++)
		if (c->cpu_node[i] >= c->nnodes) {
			snprintf(err, errlen, "cpunode: vCPU %u on node %u, past the %u nodes", i,
				 c->cpu_node[i], c->nnodes);
			return -1;
		}
	for (unsigned i = 0; i < c->nranges; i++)
		for (unsigned j = i + 1; j < c->nranges; j++)
			if (c->range[i].start <= c->range[j].end &&
			    c->range[j].start <= c->range[i].end) {
				snprintf(err, errlen, "nodes: ranges %u and %u overlap", i, j);
				return -1;
			}
	if (c->buffer < 16 || !is_pow2(c->profile_size) || c->profile_size < 16) {
		snprintf(err, errlen, "buffer at least 16; profile a power of two, at least 16");
		return -1;
	}
	return 0;
}
