/* The memory model's report (docs/MEMORY-MODEL.md, "Output"): written by
 * the QEMU plugin (tools/qemu-plugin/model.c), read by the host parser
 * (monitors/memory-model/parse.c).  One home for what both must agree on:
 * the first line and the events, each with its name in the report and its
 * metric's name (model-stat.<metric>, after perf-stat's rows). */
#ifndef KREPRO_MODEL_FORMAT_H
#define KREPRO_MODEL_FORMAT_H

#define KRP_MODEL_HEADER "# krepro-model 1"
/* the raw file's name in a run directory */
#define KRP_MODEL_FILE "memory-model"

/* X(ENUM, report name, metric name) */
#define KRP_MODEL_EVENTS(X)                                                                        \
	X(INSTRUCTIONS, "instructions", "instructions")                                            \
	X(LOADS, "loads", "loads")                                                                 \
	X(STORES, "stores", "stores")                                                              \
	X(RFOS, "rfos", "rfos")                                                                    \
	X(L1D_MISSES, "l1d-misses", "l1d-misses")                                                  \
	X(L2_MISSES, "l2-misses", "l2-misses")                                                     \
	X(LLC_REFERENCES, "llc-references", "cache-references")                                    \
	X(LLC_MISSES, "llc-misses", "cache-misses")                                                \
	X(NODE_LOADS, "node-loads", "node-loads")                                                  \
	X(NODE_LOAD_MISSES, "node-load-misses", "node-load-misses")                                \
	X(NODE_STORES, "node-stores", "node-stores")                                               \
	X(NODE_STORE_MISSES, "node-store-misses", "node-store-misses")                             \
	X(REMOTE_CACHE, "remote-cache", "remote-cache")                                            \
	X(COHERENCE, "coherence-transfers", "coherence-transfers")                                 \
	X(STALL_CYCLES, "stall-cycles", "stall-cycles")                                            \
	X(CYCLES, "cycles", "cpu-cycles")

#endif
