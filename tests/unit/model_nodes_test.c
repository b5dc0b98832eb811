/* Unit tests of the memory model's node rows (tools/qemu-plugin/model.c):
 * each of perf's names counted as Haswell's offcore encoding counts it,
 * proved by microbenchmarks with exact counts (docs/MEMORY-MODEL.md,
 * "Events"; issue 52). */
#include "model_fixture.h"

/* The node rows as perf's Haswell/Broadwell offcore encoding counts them
 * (docs/MEMORY-MODEL.md, "Events"), on a 2-node, 4-vCPU board (vCPUs 0, 1
 * on node 0; 2, 3 on node 1), node 0's memory below 4 GiB. */
#define NODES2 "0x0-0xffffffff:0+0x100000000-0x1ffffffff:1"
#define NODE1_MEM 0x100000000ull

static uint64_t total(struct krm_model *m, enum krm_event e)
{
	uint64_t t = 0;

	for (unsigned cpu = 0; cpu < 4; cpu++)
		t += sum(m, cpu, e);
	return t;
}

/* vCPUs a and b store to one line in turn (a first), n stores each, in
 * clock order. */
static struct krm_model *bounce(unsigned a, unsigned b, uint64_t line, size_t n)
{
	struct krm_model *m = model(4, NODES2, "0,0,1,1", "4096");

	krm_window(m, 1);
	for (size_t i = 0; i < 2 * n; i++)
		krm_access(m, i % 2 ? b : a, i, line, PC_KERNEL, 1);
	krm_window(m, 0);
	return m;
}

/* vCPU 0 reads n lines from base on, every 8-byte word of each. */
static struct krm_model *read_stream(uint64_t base, size_t n)
{
	struct krm_model *m = model(4, NODES2, "0,0,1,1", "65536");
	uint64_t clock = 0;

	krm_window(m, 1);
	for (size_t i = 0; i < n; i++)
		for (unsigned w = 0; w < 8; w++)
			krm_access(m, 0, clock++, base + i * 64 + w * 8, PC_USER, 0);
	krm_window(m, 0);
	return m;
}

static void test_node_rows(void)
{
	struct krm_model *m;

	/* node 1's line bounced by stores between vCPU 0 (node 0, first: node
	 * 1's DRAM) and vCPU 2 (node 1): every RFO is a node-store-miss, each
	 * after the first served by the other node's cache */
	m = bounce(0, 2, NODE1_MEM + 0x1000, 1000);
	CHECK("bounce across nodes: 2000 stores, 2000 RFOs",
	      total(m, KRM_STORES) == 2000 && total(m, KRM_RFOS) == 2000);
	CHECK("bounce across nodes: every RFO a node-store-miss, no node-store",
	      total(m, KRM_NODE_STORE_MISSES) == 2000 && total(m, KRM_NODE_STORES) == 0);
	CHECK("bounce across nodes: 1999 from the other node's cache, 2000 LLC misses",
	      total(m, KRM_REMOTE_CACHE) == 1999 && total(m, KRM_LLC_MISSES) == 2000 &&
		  total(m, KRM_LLC_REFERENCES) == 2000);
	CHECK("bounce across nodes: no load rows",
	      total(m, KRM_NODE_LOADS) + total(m, KRM_NODE_LOAD_MISSES) == 0);
	/* vCPU 2's first store held the line never: not a transfer */
	CHECK("bounce across nodes: coherence transfers as before (1998)",
	      total(m, KRM_COHERENCE) == 1998);
	krm_free(m);

	/* the same between vCPUs 0 and 1 of node 0, on node 0's memory: the
	 * node's LLC serves every RFO but the first (local DRAM) */
	m = bounce(0, 1, 0x1000, 1000);
	CHECK("bounce in a node: 2000 RFOs, no node-store-miss",
	      total(m, KRM_RFOS) == 2000 && total(m, KRM_NODE_STORE_MISSES) == 0);
	CHECK("bounce in a node: one node-store (the first, local DRAM), one LLC miss",
	      total(m, KRM_NODE_STORES) == 1 && total(m, KRM_LLC_MISSES) == 1 &&
		  total(m, KRM_LLC_REFERENCES) == 2000 && total(m, KRM_REMOTE_CACHE) == 0);
	krm_free(m);

	/* the same on node 1's memory: the first RFO a node-store-miss (node
	 * 1's DRAM), the rest LLC hits */
	m = bounce(0, 1, NODE1_MEM + 0x1000, 1000);
	CHECK("bounce in a node on the other node's memory: one node-store-miss",
	      total(m, KRM_NODE_STORE_MISSES) == 1 && total(m, KRM_NODE_STORES) == 0 &&
		  total(m, KRM_LLC_MISSES) == 1);
	krm_free(m);

	/* a read stream over node 1's memory from vCPU 0 (node 0) */
	m = read_stream(NODE1_MEM + 0x200000, 4096);
	CHECK("read stream, other node: 32768 loads, node-load-misses = the 4096 lines",
	      total(m, KRM_LOADS) == 32768 && total(m, KRM_NODE_LOAD_MISSES) == 4096 &&
		  total(m, KRM_NODE_LOADS) == 0);
	CHECK("read stream, other node: 4096 LLC references and misses, no RFO",
	      total(m, KRM_LLC_REFERENCES) == 4096 && total(m, KRM_LLC_MISSES) == 4096 &&
		  total(m, KRM_RFOS) == 0 && total(m, KRM_REMOTE_CACHE) == 0);
	krm_free(m);

	/* over its own node's memory */
	m = read_stream(0x200000, 4096);
	CHECK("read stream, own node: node-loads = the 4096 lines, no node-load-miss",
	      total(m, KRM_NODE_LOADS) == 4096 && total(m, KRM_NODE_LOAD_MISSES) == 0 &&
		  total(m, KRM_LLC_MISSES) == 4096);
	krm_free(m);
}

/* Who supplies the line, by its state in the other vCPUs' caches. */
static void test_suppliers(void)
{
	struct krm_model *m = model(4, NODES2, "0,0,1,1", "4096");
	uint64_t line = 0x3000; /* node 0's memory */

	krm_window(m, 1);
	krm_access(m, 2, 0, line, PC_KERNEL, 1); /* vCPU 2 (node 1): RFO, remote DRAM */
	krm_access(m, 0, 1, line, PC_KERNEL, 0); /* vCPU 0: modified on node 1 */
	krm_access(m, 1, 2, line, PC_KERNEL, 0); /* vCPU 1: node 0's LLC has it now */
	krm_window(m, 0);
	CHECK("supplier: vCPU 2's RFO to node 0's memory: a node-store-miss",
	      sum(m, 2, KRM_NODE_STORE_MISSES) == 1 && sum(m, 2, KRM_RFOS) == 1);
	CHECK("supplier: a load of a line modified on the other node: a node-load-miss, "
	      "though its memory is local",
	      sum(m, 0, KRM_NODE_LOAD_MISSES) == 1 && sum(m, 0, KRM_NODE_LOADS) == 0 &&
		  sum(m, 0, KRM_REMOTE_CACHE) == 1 && sum(m, 0, KRM_LLC_MISSES) == 1);
	CHECK("supplier: then the node's LLC serves vCPU 1: a hit",
	      sum(m, 1, KRM_LLC_REFERENCES) == 1 && sum(m, 1, KRM_LLC_MISSES) == 0 &&
		  sum(m, 1, KRM_NODE_LOADS) + sum(m, 1, KRM_NODE_LOAD_MISSES) == 0);
	krm_free(m);

	/* a line read by one vCPU alone is held exclusive: its store makes no
	 * RFO; read by both nodes it is shared: the store's RFO must take it
	 * from the other node (a node-store-miss), though the L1d hits */
	m = model(4, NODES2, "0,0,1,1", "4096");
	krm_window(m, 1);
	krm_access(m, 0, 0, 0x5000, PC_USER, 0);
	krm_access(m, 0, 1, 0x5000, PC_USER, 1);
	krm_access(m, 0, 2, 0x5000, PC_USER, 1);
	krm_window(m, 0);
	CHECK("exclusive: a store to a line read alone makes no RFO",
	      sum(m, 0, KRM_RFOS) == 0 && sum(m, 0, KRM_NODE_LOADS) == 1 &&
		  sum(m, 0, KRM_LLC_REFERENCES) == 1 &&
		  sum(m, 0, KRM_NODE_STORES) + sum(m, 0, KRM_NODE_STORE_MISSES) == 0);
	krm_free(m);
	m = model(4, NODES2, "0,0,1,1", "4096");
	krm_window(m, 1);
	krm_access(m, 0, 0, 0x5000, PC_USER, 0);
	krm_access(m, 2, 1, 0x5000, PC_USER, 0);
	krm_access(m, 0, 2, 0x5000, PC_USER, 1);
	krm_access(m, 0, 3, 0x5000, PC_USER, 1);
	krm_window(m, 0);
	CHECK("shared with the other node: the store's RFO is a node-store-miss, the next "
	      "store none",
	      sum(m, 0, KRM_RFOS) == 1 && sum(m, 0, KRM_NODE_STORE_MISSES) == 1 &&
		  sum(m, 0, KRM_LLC_REFERENCES) == 2 && sum(m, 0, KRM_LLC_MISSES) == 2);
	CHECK("shared: vCPU 2's load a node-load-miss, forwarded by vCPU 0's exclusive copy",
	      sum(m, 2, KRM_NODE_LOAD_MISSES) == 1 && sum(m, 2, KRM_REMOTE_CACHE) == 1);
	krm_free(m);
	/* shared within one node only: the RFO is an LLC hit */
	m = model(4, NODES2, "0,0,1,1", "4096");
	krm_window(m, 1);
	krm_access(m, 0, 0, 0x5000, PC_USER, 0);
	krm_access(m, 1, 1, 0x5000, PC_USER, 0);
	krm_access(m, 0, 2, 0x5000, PC_USER, 1);
	krm_window(m, 0);
	CHECK("shared within the node: the RFO is an LLC reference, no miss",
	      sum(m, 0, KRM_RFOS) == 1 && sum(m, 0, KRM_LLC_REFERENCES) == 2 &&
		  sum(m, 0, KRM_LLC_MISSES) == 1 && sum(m, 0, KRM_NODE_STORE_MISSES) == 0);
	krm_free(m);
}

int main(void)
{
	test_node_rows();
	test_suppliers();
	return unit_failed;
}
