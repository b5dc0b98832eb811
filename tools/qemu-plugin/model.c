/* The memory model (see model.h and docs/MEMORY-MODEL.md). */
#include "model.h"
#include "uprogs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"

/* A cache entry: the line number above 3 flag bits, 0 when empty.  A tag
 * that is present but not valid is a line another vCPU's store took away
 * (it keeps its place in the LRU order: "would it have hit?").  EXCL (in a
 * vCPU's L1d and L2 alike): the vCPU holds the line modified or exclusive,
 * no other vCPU's cache nor another node's LLC holds it valid, so a store
 * needs no ownership request (RFO). */
#define E_PRESENT 1u
#define E_VALID 2u
#define E_EXCL 4u
#define E_LINE(e) ((e) >> 3)

struct cache {
	uint64_t *e; /* sets x ways, most recently used first */
	unsigned ways, set_mask;
};

/* A buffered access: its vCPU's clock, the physical address with the
 * store flag in bit 63, the instruction's address. */
#define EV_STORE (1ull << 63)
struct event {
	uint64_t clock, paddr, pc;
};

struct cpu {
	struct cache l1, l2;
	struct event *buf;
	size_t head, n;		  /* pending: buf[head .. n) */
	uint64_t now, skew, last; /* last: the newest buffered access's clock */
	uint64_t slice_start;	  /* its clock when the emulator last switched to it */
	int ran, idle;		  /* idle: halted since it last ran (krm_idle) */
	int active;		  /* ran in this window */
	unsigned node;
	uint64_t count[2][KRM_NEVENTS];
};

struct pc_slot {
	uint64_t pc, cycles, misses, coherence;
};

struct krm_model {
	struct krm_config c;
	unsigned line_shift;
	struct cpu cpu[KRM_MAX_CPUS];
	struct cache llc[KRM_MAX_NODES];
	uint64_t merged; /* clock of the last simulated access */
	unsigned cur;	 /* the vCPU the emulator runs now (KRM_MAX_CPUS: none yet) */
	int depth;
	uint64_t windows, unknown_node;
	uint64_t forced; /* merges that could not wait for a lagging vCPU */
	struct pc_slot *prof;
	size_t prof_used;
	struct pc_slot prof_other; /* PCs past the table's bound */
	const struct krm_ksyms *ksyms;
	const struct krm_uprogs *uprogs;
};

#define KRM_EVENT_NAME(e, name, metric) name,
static const char *const event_names[KRM_NEVENTS] = {KRP_MODEL_EVENTS(KRM_EVENT_NAME)};
#undef KRM_EVENT_NAME

const char *krm_event_name(enum krm_event e)
{
	return e < KRM_NEVENTS ? event_names[e] : "?";
}

static int cache_init(struct cache *k, uint64_t size, unsigned ways, unsigned line)
{
	uint64_t sets = size / ways / line;

	k->ways = ways;
	k->set_mask = (unsigned)(sets - 1);
	k->e = calloc(sets * ways, sizeof(*k->e));
	return k->e ? 0 : -1;
}

struct krm_model *krm_new(const struct krm_config *c)
{
	struct krm_model *m = calloc(1, sizeof(*m));
	int bad = 0;

	if (!m)
		return NULL;
	m->c = *c;
	m->cur = KRM_MAX_CPUS;
	while ((1u << m->line_shift) < c->line)
		m->line_shift++;
	for (unsigned i = 0; i < c->ncpus; i++) {
		struct cpu *p = &m->cpu[i];

		p->node = c->cpu_node[i];
		bad |= cache_init(&p->l1, c->l1_size, c->l1_ways, c->line);
		bad |= cache_init(&p->l2, c->l2_size, c->l2_ways, c->line);
		p->buf = malloc(c->buffer * sizeof(*p->buf));
		bad |= !p->buf;
	}
	for (unsigned i = 0; i < c->nnodes; i++)
		bad |= cache_init(&m->llc[i], c->llc_size, c->llc_ways, c->line);
	m->prof = calloc(c->profile_size, sizeof(*m->prof));
	if (bad || !m->prof) {
		krm_free(m);
		return NULL;
	}
	if (c->window_all)
		krm_window(m, 1);
	return m;
}

void krm_free(struct krm_model *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < KRM_MAX_CPUS; i++) {
		free(m->cpu[i].l1.e);
		free(m->cpu[i].l2.e);
		free(m->cpu[i].buf);
	}
	for (unsigned i = 0; i < KRM_MAX_NODES; i++)
		free(m->llc[i].e);
	free(m->prof);
	free(m);
}

/* ---- caches ---- */

static uint64_t *set_of(const struct cache *k, uint64_t line)
{
	return k->e + (size_t)(line & k->set_mask) * k->ways;
}

/* The entry holding line (valid or not) in its set, or NULL. */
static uint64_t *find(const struct cache *k, uint64_t line)
{
	uint64_t *s = set_of(k, line);

	for (unsigned i = 0; i < k->ways; i++)
		if ((s[i] & E_PRESENT) && E_LINE(s[i]) == line)
			return &s[i];
	return NULL;
}

/* Make entry e (in line's set) the most recently used; returns its new place. */
static uint64_t *touch(const struct cache *k, uint64_t line, uint64_t *e)
{
	uint64_t *s = set_of(k, line), v = *e;

	if (e != s) {
		memmove(s + 1, s, (size_t)(e - s) * sizeof(*s));
		*s = v;
	}
	return s;
}

/* line as the most recently used valid entry (refreshing its tag if
 * present); returns the entry evicted (0 if none). */
static uint64_t fill(const struct cache *k, uint64_t line, uint64_t *e)
{
	uint64_t *s = set_of(k, line), out = 0;

	if (!e) {
		out = s[k->ways - 1];
		e = &s[k->ways - 1];
	}
	*e = line << 3 | E_PRESENT | E_VALID;
	touch(k, line, e);
	return out;
}

/* Drop line from a cache (inclusion), the set's order kept. */
static void drop(const struct cache *k, uint64_t line)
{
	uint64_t *s = set_of(k, line), *e = find(k, line);

	if (e) {
		size_t i = (size_t)(e - s);

		memmove(e, e + 1, (k->ways - 1 - i) * sizeof(*s));
		s[k->ways - 1] = 0;
	}
}

static void invalidate(const struct cache *k, uint64_t line)
{
	uint64_t *e = find(k, line);

	if (e)
		*e &= ~(uint64_t)(E_VALID | E_EXCL);
}

/* A store by vCPU v: every other copy loses the line. */
static void invalidate_others(struct krm_model *m, unsigned v, uint64_t line)
{
	for (unsigned i = 0; i < m->c.ncpus; i++) {
		uint64_t *e;

		if (i == v)
			continue;
		e = find(&m->cpu[i].l2, line);
		if (e && (*e & E_VALID)) {
			*e &= ~(uint64_t)(E_VALID | E_EXCL);
			invalidate(&m->cpu[i].l1, line);
		}
	}
	for (unsigned n = 0; n < m->c.nnodes; n++)
		if (n != m->cpu[v].node)
			invalidate(&m->llc[n], line);
}

/* Who else holds line, as holders() finds it for vCPU v. */
#define H_VALID 1u	/* another vCPU's cache or another node's LLC, valid */
#define H_NODE_VALID 2u /* a vCPU or the LLC of another node, valid */
#define H_NODE_EXCL 4u	/* a vCPU of another node, modified or exclusive */
#define H_OWN_VALID 8u	/* another vCPU of v's node, valid */

/* The other holders of line; with take (v fetches the line from outside
 * its private caches), every other vCPU's exclusive copy is shared now. */
static unsigned holders(struct krm_model *m, unsigned v, uint64_t line, int take)
{
	unsigned h = 0, node = m->cpu[v].node;

	for (unsigned i = 0; i < m->c.ncpus; i++) {
		uint64_t *e;

		if (i == v || (e = find(&m->cpu[i].l2, line)) == NULL || !(*e & E_VALID))
			continue;
		h |= H_VALID;
		if (m->cpu[i].node != node)
			h |= H_NODE_VALID | (*e & E_EXCL ? H_NODE_EXCL : 0);
		else
			h |= H_OWN_VALID;
		if (take && (*e & E_EXCL)) {
			uint64_t *e1 = find(&m->cpu[i].l1, line);

			*e &= ~(uint64_t)E_EXCL;
			if (e1)
				*e1 &= ~(uint64_t)E_EXCL;
		}
	}
	for (unsigned n = 0; n < m->c.nnodes; n++) {
		uint64_t *e;

		if (n != node && (e = find(&m->llc[n], line)) != NULL && (*e & E_VALID))
			h |= H_VALID | H_NODE_VALID;
	}
	return h;
}

/* vCPU v now holds line modified: EXCL in its L1d (where the line is) and
 * L2 (inclusive). */
static void own(struct cpu *p, uint64_t line)
{
	uint64_t *e = find(&p->l2, line);

	if (e)
		*e |= E_EXCL;
	if ((e = find(&p->l1, line)) != NULL)
		*e |= E_EXCL;
}

/* A store by vCPU v to a line it holds valid but shared: an RFO that
 * finds the data in hand.  It reaches the LLC; another node holding a
 * copy makes it an LLC miss served by that node (its copy invalidated),
 * else the node's LLC grants it.  No stall beyond the hit's: the model
 * does not time ownership.  1 if it missed. */
static int upgrade(struct krm_model *m, unsigned v, uint64_t line, uint64_t *cnt)
{
	int miss = (holders(m, v, line, 0) & H_NODE_VALID) != 0;

	cnt[KRM_RFOS]++;
	cnt[KRM_LLC_REFERENCES]++;
	if (miss) {
		cnt[KRM_LLC_MISSES]++;
		cnt[KRM_REMOTE_CACHE]++;
		cnt[KRM_NODE_STORE_MISSES]++;
	}
	invalidate_others(m, v, line);
	own(&m->cpu[v], line);
	return miss;
}

static int node_of(struct krm_model *m, uint64_t paddr)
{
	for (unsigned i = 0; i < m->c.nranges; i++)
		if (paddr >= m->c.range[i].start && paddr <= m->c.range[i].end)
			return (int)m->c.range[i].node;
	m->unknown_node++;
	return -1;
}

static void profile(struct krm_model *m, uint64_t pc, uint64_t cycles, int miss, int coh)
{
	size_t mask = m->c.profile_size - 1,
	       i = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 20) & mask;
	struct pc_slot *s;

	for (;;) {
		s = &m->prof[i];
		if (s->cycles && s->pc == pc)
			break;
		if (!s->cycles) {
			/* a new PC: at most 3/4 of the table, then "other" */
			if (m->prof_used >= m->c.profile_size / 4 * 3) {
				s = &m->prof_other;
				break;
			}
			m->prof_used++;
			s->pc = pc;
			break;
		}
		i = (i + 1) & mask;
	}
	s->cycles += cycles;
	s->misses += (uint64_t)miss;
	s->coherence += (uint64_t)coh;
}

/* One access through the hierarchy.  Cycles, coherence transfers and the
 * LLC's contents depend on where the line was found; the counters name
 * who supplied it as perf's offcore encoding does (docs/MEMORY-MODEL.md,
 * "Events"): a load or an RFO the node's LLC does not serve is an LLC
 * miss, supplied by another node's cache (a load: a vCPU there holds the
 * line modified or exclusive; an RFO: any valid copy there, which it must
 * take), else by the DRAM of the line's node. */
static void simulate(struct krm_model *m, unsigned v, const struct event *ev)
{
	struct cpu *p = &m->cpu[v];
	int store = (ev->paddr & EV_STORE) != 0, kernel = ev->pc >= KRM_KERNEL_BASE;
	uint64_t addr = ev->paddr & ~EV_STORE, line = addr >> m->line_shift;
	uint64_t *cnt = p->count[kernel], stall, *e1, *e2, *e3;
	int coh, miss = 0, excl = 0;

	cnt[store ? KRM_STORES : KRM_LOADS]++;
	/* the common case: the set's most recent line again, nothing to do */
	e1 = set_of(&p->l1, line);
	if (E_LINE(*e1) == line && (*e1 & E_VALID) && (!store || (*e1 & E_EXCL)))
		return;
	e1 = find(&p->l1, line);
	if (e1 && (*e1 & E_VALID)) {
		e1 = touch(&p->l1, line, e1);
		if (store && !(*e1 & E_EXCL))
			(void)upgrade(m, v, line, cnt);
		return;
	}
	cnt[KRM_L1D_MISSES]++;
	e2 = find(&p->l2, line);
	if (e2 && (*e2 & E_VALID)) {
		coh = 0;
		stall = KRM_LAT_L2;
		excl = (*e2 & E_EXCL) != 0;
		touch(&p->l2, line, e2);
		if (store && !excl)
			miss = upgrade(m, v, line, cnt);
	} else {
		struct cache *llc = &m->llc[p->node];
		uint64_t out;
		unsigned h;
		int node = -2, hit;

		cnt[KRM_L2_MISSES]++;
		cnt[KRM_LLC_REFERENCES]++;
		if (store)
			cnt[KRM_RFOS]++;
		h = holders(m, v, line, 1);
		e3 = find(llc, line);
		/* it would have hit here, had no store taken it away */
		coh = e1 || e2 || (e3 && !(*e3 & E_VALID));
		if (coh) {
			cnt[KRM_COHERENCE]++;
			/* the node's LLC lost the line too: a store on another
			 * node took it (invalidate_others) */
			stall =
			    e3 && !(*e3 & E_VALID) ? KRM_LAT_COHERENCE_REMOTE : KRM_LAT_COHERENCE;
		} else if (e3) {
			stall = KRM_LAT_LLC;
		} else {
			node = node_of(m, addr);
			stall = node >= 0 && (unsigned)node != p->node ? KRM_LAT_DRAM_REMOTE
								       : KRM_LAT_DRAM_LOCAL;
		}
		/* the counters: who supplied it.  Haswell's LLC is inclusive of
		 * its cores' caches, the model's is not: a line another vCPU of
		 * the node holds is in the node's LLC too */
		hit = ((e3 && (*e3 & E_VALID)) || (h & H_OWN_VALID)) &&
		      !(store && (h & H_NODE_VALID));
		if (!hit) {
			miss = 1;
			cnt[KRM_LLC_MISSES]++;
			if (h & (store ? H_NODE_VALID : H_NODE_EXCL)) {
				cnt[KRM_REMOTE_CACHE]++;
				cnt[store ? KRM_NODE_STORE_MISSES : KRM_NODE_LOAD_MISSES]++;
			} else {
				int remote;

				if (node == -2)
					node = node_of(m, addr);
				remote = node >= 0 && (unsigned)node != p->node;
				if (store)
					cnt[remote ? KRM_NODE_STORE_MISSES : KRM_NODE_STORES]++;
				else
					cnt[remote ? KRM_NODE_LOAD_MISSES : KRM_NODE_LOADS]++;
			}
		}
		fill(llc, line, e3);
		out = fill(&p->l2, line, e2);
		if (out & E_PRESENT)
			drop(&p->l1, E_LINE(out));
		e1 = find(&p->l1, line);
		if (store)
			invalidate_others(m, v, line);
		/* a load of a line nobody else holds: exclusive (E) */
		excl = !(h & H_VALID);
	}
	fill(&p->l1, line, e1);
	if (store || excl)
		own(p, line);
	cnt[KRM_STALL_CYCLES] += stall;
	profile(m, ev->pc, stall, miss, coh);
}

/* ---- the merge ---- */

/* Simulate every buffered access with clock <= h, in (clock, vCPU) order. */
static void merge_until(struct krm_model *m, uint64_t h)
{
	for (;;) {
		unsigned best = KRM_MAX_CPUS, second = KRM_MAX_CPUS;
		uint64_t bc = 0, sc = UINT64_MAX;
		struct cpu *p;

		for (unsigned i = 0; i < m->c.ncpus; i++) {
			struct cpu *q = &m->cpu[i];
			uint64_t c;

			if (q->head == q->n || (c = q->buf[q->head].clock) > h)
				continue;
			if (best == KRM_MAX_CPUS || c < bc) {
				second = best;
				sc = bc;
				best = i;
				bc = c;
			} else if (second == KRM_MAX_CPUS || c < sc) {
				second = i;
				sc = c;
			}
		}
		if (best == KRM_MAX_CPUS)
			return;
		if (second == KRM_MAX_CPUS)
			sc = h;
		/* best's run up to the next vCPU's head: ties go to the lower vCPU */
		p = &m->cpu[best];
		while (p->head < p->n) {
			uint64_t c = p->buf[p->head].clock;

			if (c > h || c > sc || (c == sc && second < best))
				break;
			simulate(m, best, &p->buf[p->head]);
			if (c > m->merged)
				m->merged = c;
			p->head++;
		}
	}
}

static void compact(struct cpu *p)
{
	if (p->head == 0)
		return;
	memmove(p->buf, p->buf + p->head, (p->n - p->head) * sizeof(*p->buf));
	p->n -= p->head;
	p->head = 0;
}

/* v's buffer is full: simulate up to the slowest vCPU that ran since the
 * last merge (v counted at its newest access); if that frees less than
 * half of v's buffer, its older half goes anyway (a vCPU that later comes
 * with earlier clocks is moved forward, as if it had been idle). */
static void merge(struct krm_model *m, unsigned v)
{
	struct cpu *p = &m->cpu[v];
	uint64_t h = p->n > p->head ? p->buf[p->n - 1].clock : p->now;
	int forced = 0;

	for (unsigned i = 0; i < m->c.ncpus; i++) {
		if (i != v && m->cpu[i].ran && m->cpu[i].now < h)
			h = m->cpu[i].now;
		/* busy (not halted) but not run since the last merge: its
		 * coming accesses will be moved forward */
		if (i != v && !m->cpu[i].ran && m->cpu[i].active && !m->cpu[i].idle)
			forced = 1;
	}
	merge_until(m, h);
	if (p->n - p->head > m->c.buffer / 2) {
		forced = 1;
		merge_until(m, p->buf[p->head + (p->n - p->head) / 2].clock);
	}
	m->forced += (uint64_t)forced;
	for (unsigned i = 0; i < m->c.ncpus; i++) {
		m->cpu[i].ran = 0;
		compact(&m->cpu[i]);
	}
}

void krm_drain(struct krm_model *m)
{
	merge_until(m, UINT64_MAX);
	for (unsigned i = 0; i < m->c.ncpus; i++) {
		m->cpu[i].ran = 0;
		compact(&m->cpu[i]);
	}
}

void krm_window(struct krm_model *m, int start)
{
	if (start) {
		if (m->depth++ == 0) {
			m->windows++;
			m->cur = KRM_MAX_CPUS; /* the opener's slice starts here */
		}
	} else if (m->depth > 0 && --m->depth == 0) {
		krm_drain(m);
		for (unsigned i = 0; i < m->c.ncpus; i++)
			m->cpu[i].active = 0;
	}
}

int krm_window_open(const struct krm_model *m)
{
	return m->depth > 0;
}

uint64_t krm_windows(const struct krm_model *m)
{
	return m->windows;
}

uint64_t krm_forced_merges(const struct krm_model *m)
{
	return m->forced;
}

/* vCPU p's clock in model time: moved forward past what was merged. */
static uint64_t model_clock(struct krm_model *m, struct cpu *p, uint64_t clock)
{
	uint64_t c = clock + p->skew;

	if (c < m->merged) {
		p->skew += m->merged - c;
		c = m->merged;
	}
	return c;
}

void krm_idle(struct krm_model *m, unsigned cpu)
{
	if (cpu < m->c.ncpus)
		m->cpu[cpu].idle = 1;
}

void krm_tick(struct krm_model *m, unsigned cpu, uint64_t clock, int64_t n, int kernel)
{
	struct cpu *p;

	if (cpu >= m->c.ncpus || m->depth == 0)
		return;
	p = &m->cpu[cpu];
	if (m->cur != cpu) {
		/* The emulator switched to this vCPU.  One that had halted
		 * (krm_idle) was woken in the slice of the vCPU that ran before
		 * (an IPI, a timer), its instruction count standing still while
		 * it slept: it starts no earlier than that slice did, or it would
		 * replay its work against the other's past.  A busy vCPU keeps
		 * its own count: the emulator's slices are not the same length. */
		if (p->idle && m->cur < m->c.ncpus && clock + p->skew < m->cpu[m->cur].slice_start)
			p->skew = m->cpu[m->cur].slice_start - clock;
		/* Its first slice in this window: the counts from before it say
		 * nothing about each other (one vCPU booted the machine while the
		 * other slept, 340M instructions apart on qemu-2node), so it
		 * starts where the slice before it started, behind or ahead of
		 * its own count (skew wraps: unsigned arithmetic). */
		if (!p->active && m->cur < m->c.ncpus && m->cpu[m->cur].active)
			p->skew = m->cpu[m->cur].slice_start - clock;
		p->idle = 0;
		m->cur = cpu;
		p->slice_start = clock + p->skew;
	}
	p->count[kernel != 0][KRM_INSTRUCTIONS] += (uint64_t)n;
	p->now = model_clock(m, p, clock);
	p->ran = 1;
	p->active = 1;
}

void krm_access(struct krm_model *m, unsigned cpu, uint64_t clock, uint64_t paddr, uint64_t pc,
		int store)
{
	struct cpu *p;
	struct event *ev;

	if (cpu >= m->c.ncpus || m->depth == 0)
		return;
	p = &m->cpu[cpu];
	if (p->n == m->c.buffer) {
		compact(p);
		if (p->n == m->c.buffer)
			merge(m, cpu);
		if (p->n == m->c.buffer) /* cannot happen: the buffer is in clock order */
			krm_drain(m);
	}
	ev = &p->buf[p->n++];
	ev->clock = model_clock(m, p, clock);
	/* A vCPU's accesses stay in clock order: QEMU 7.2 may report an
	 * access of an interrupt's entry with the data of an instruction of an
	 * earlier block (its memory callbacks are not reset when a block exits
	 * early), a clock up to a block's length behind. */
	if (ev->clock < p->last)
		ev->clock = p->last;
	p->last = ev->clock;
	ev->paddr = (paddr & ~EV_STORE) | (store ? EV_STORE : 0);
	ev->pc = pc;
	if (ev->clock > p->now)
		p->now = ev->clock;
	p->ran = 1;
}

uint64_t krm_count(const struct krm_model *m, unsigned cpu, int kernel, enum krm_event e)
{
	const uint64_t *c;

	if (cpu >= m->c.ncpus || e >= KRM_NEVENTS)
		return 0;
	c = m->cpu[cpu].count[kernel != 0];
	if (e == KRM_CYCLES)
		return c[KRM_INSTRUCTIONS] * KRM_BASE_CPI + c[KRM_STALL_CYCLES];
	return c[e];
}

/* ---- the report ---- */

static int by_cycles(const void *a, const void *b)
{
	const struct pc_slot *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles > y->cycles ? -1 : 1;
	if (x->coherence != y->coherence)
		return x->coherence > y->coherence ? -1 : 1;
	if (x->misses != y->misses)
		return x->misses > y->misses ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void krm_set_ksyms(struct krm_model *m, const struct krm_ksyms *k)
{
	m->ksyms = k;
}

void krm_set_uprogs(struct krm_model *m, const struct krm_uprogs *u)
{
	m->uprogs = u;
}

/* A profile line's function: the kernel's from System.map, a known guest
 * program's as PROGRAM:FUNCTION, else [user] (the parser leaves those to
 * the user/kernel split). */
static const char *function_of(const struct krm_model *m, uint64_t pc)
{
	static char user[160];
	const char *s;

	if (pc < KRM_KERNEL_BASE) {
		unsigned prog = KRM_UPC_PROG(pc);

		s = krm_uprogs_function(m->uprogs, prog, KRM_UPC_ADDR(pc));
		if (!s || snprintf(user, sizeof(user), "%s:%s", krm_uprogs_name(m->uprogs, prog),
				   s) >= (int)sizeof(user))
			return "[user]";
		return user;
	}
	if (!m->ksyms)
		return "-";
	s = krm_ksyms_find(m->ksyms, pc);
	return s ? s : "[unknown]";
}

int krm_write(struct krm_model *m, FILE *f)
{
	const struct krm_config *c = &m->c;
	struct pc_slot *top;
	size_t n = 0;

	fprintf(f, "%s\n", KRP_MODEL_HEADER);
	fprintf(f, "config line %u\n", c->line);
	fprintf(f, "config l1d %" PRIu64 " %u\n", c->l1_size, c->l1_ways);
	fprintf(f, "config l2 %" PRIu64 " %u\n", c->l2_size, c->l2_ways);
	fprintf(f, "config llc %" PRIu64 " %u\n", c->llc_size, c->llc_ways);
	fprintf(f, "config cpus %u\nconfig nodes %u\n", c->ncpus, c->nnodes);
	for (unsigned i = 0; i < c->ncpus; i++)
		fprintf(f, "config cpunode %u %u\n", i, c->cpu_node[i]);
	for (unsigned i = 0; i < c->nranges; i++)
		fprintf(f, "config range 0x%" PRIx64 " 0x%" PRIx64 " %u\n", c->range[i].start,
			c->range[i].end, c->range[i].node);
	fprintf(f, "config freq-mhz %d\nconfig base-cpi %d\n", KRM_FREQ_MHZ, KRM_BASE_CPI);
	fprintf(f, "config latency l2 %d\nconfig latency llc %d\n", KRM_LAT_L2, KRM_LAT_LLC);
	fprintf(f, "config latency dram-local %d\nconfig latency dram-remote %d\n",
		KRM_LAT_DRAM_LOCAL, KRM_LAT_DRAM_REMOTE);
	fprintf(f, "config latency coherence %d\n", KRM_LAT_COHERENCE);
	fprintf(f, "config latency coherence-remote %d\n", KRM_LAT_COHERENCE_REMOTE);
	fprintf(f, "config buffer %zu\nconfig window %s\n", c->buffer,
		c->window_all ? "all" : "marks");
	fprintf(f, "windows %" PRIu64 "\n", m->windows);
	fprintf(f, "forced-merges %" PRIu64 "\n", m->forced);
	fprintf(f, "unknown-node %" PRIu64 "\n", m->unknown_node);
	for (unsigned i = 0; i < c->ncpus; i++)
		for (int k = 0; k < 2; k++)
			for (int e = 0; e < KRM_NEVENTS; e++)
				fprintf(f, "cpu %u %s %s %" PRIu64 "\n", i, k ? "kernel" : "user",
					event_names[e], krm_count(m, i, k, (enum krm_event)e));
	top = malloc((m->prof_used + 1) * sizeof(*top));
	if (!top)
		return -1;
	for (size_t i = 0; i < c->profile_size; i++)
		if (m->prof[i].cycles)
			top[n++] = m->prof[i];
	qsort(top, n, sizeof(*top), by_cycles);
	for (size_t i = 0; i < n && i < KRM_PROFILE_TOP; i++)
		fprintf(f,
			"pc 0x%" PRIx64 " %s cycles %" PRIu64 " misses %" PRIu64
			" coherence %" PRIu64 "\n",
			top[i].pc < KRM_KERNEL_BASE ? KRM_UPC_ADDR(top[i].pc) : top[i].pc,
			function_of(m, top[i].pc), top[i].cycles, top[i].misses, top[i].coherence);
	fprintf(f, "pc-other cycles %" PRIu64 " misses %" PRIu64 " coherence %" PRIu64 "\n",
		m->prof_other.cycles, m->prof_other.misses, m->prof_other.coherence);
	free(top);
	fprintf(f, "end\n");
	return ferror(f) ? -1 : 0;
}
