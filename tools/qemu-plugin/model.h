/* The memory model of the kit's QEMU plugin (krepro-model.c is the glue to
 * QEMU; this part knows nothing of QEMU, so the unit tests drive it alone).
 * docs/MEMORY-MODEL.md says what it models and its output format.
 *
 * Caches: per vCPU a private L1d and L2 (the L2 inclusive of the L1d), per
 * NUMA node one shared LLC; set-associative, LRU, one line size.
 * Coherence: a store invalidates the line in every other vCPU's private
 * caches and in the other nodes' LLCs; the tag stays where it was, marked
 * invalid, so a later access there that would have hit is seen and counted
 * as a coherence transfer.  Memory: an LLC miss goes to the node of the
 * physical address (config ranges), local or remote to the vCPU's node.
 *
 * Concurrency: each vCPU has its own clock (its executed instructions).
 * krm_access() buffers an access with its vCPU's clock; the buffers are
 * simulated merged in clock order (ties: lower vCPU first) up to the
 * smallest clock of the vCPUs that ran since the previous merge.  A vCPU
 * that did not run (idle) does not hold the others back; when it runs
 * again behind the merged time its clock moves forward to it.  Everything
 * is a function of the calls only: two identical feeds give identical
 * output, byte for byte. */
#ifndef KREPRO_QEMU_PLUGIN_MODEL_H
#define KREPRO_QEMU_PLUGIN_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ksyms.h"
#include "model_format.h"

#define KRM_MAX_CPUS 64
#define KRM_MAX_NODES 16
#define KRM_MAX_RANGES 64
/* profile lines in the report: enough that a kernel function's sum over
 * its PCs is not cut by the bound on a benchmark's window (top PCs by
 * stall cycles; a deterministic order) */
#define KRM_PROFILE_TOP 2000
/* instruction addresses at or above this are the kernel's */
#define KRM_KERNEL_BASE 0xffff800000000000ull
/* A user PC as krm_access takes it: the address in bits 0-47 and, in bits
 * 48-54, 1 + the index of the guest program it belongs to (uprogs.h), 0
 * when none is known. */
#define KRM_UPC(pc, prog) (((pc) & (uint64_t)0xffffffffffff) | (uint64_t)(prog) << 48)
#define KRM_UPC_ADDR(upc) ((upc) & (uint64_t)0xffffffffffff)
#define KRM_UPC_PROG(upc) ((unsigned)((upc) >> 48) & 0x7f)

struct krm_range {
	uint64_t start, end; /* inclusive */
	unsigned node;
};

struct krm_config {
	unsigned line;			     /* line size, bytes (power of two) */
	uint64_t l1_size, l2_size, llc_size; /* bytes; the LLC per node */
	unsigned l1_ways, l2_ways, llc_ways;
	unsigned ncpus, nnodes;
	unsigned cpu_node[KRM_MAX_CPUS];
	unsigned nranges;
	struct krm_range range[KRM_MAX_RANGES];
	size_t buffer;	     /* buffered accesses per vCPU before a merge */
	size_t profile_size; /* distinct PCs the profile holds (power of two) */
	int window_all;	     /* count from the start, markers or not */
};

/* The documented defaults: 64-byte lines, L1d 32 KiB 8-way, L2 1 MiB
 * 16-way, LLC 8 MiB 16-way per node, one node holding everything, ncpus
 * vCPUs on node 0. */
void krm_config_default(struct krm_config *c, unsigned ncpus);

/* One plugin argument KEY=VALUE into c (see docs/MEMORY-MODEL.md): l1d,
 * l2, llc (SIZE/WAYS, SIZE with K, M or G), line, nodes
 * (START-END:NODE+..., inclusive), cpunode (NODE+..., one per vCPU),
 * buffer, profile, window (marks or all).  Lists take '+' between items (QEMU's -plugin splits its
 * arguments at commas) or ',' (a QEMU ",,").
 * Returns 0, or -1 with a message in err. */
int krm_config_set(struct krm_config *c, const char *key, const char *val, char *err,
		   size_t errlen);

/* 0 if c is usable, else -1 with a message in err. */
int krm_config_check(const struct krm_config *c, char *err, size_t errlen);

struct krm_model;

/* A model for a checked config, or NULL (out of memory). */
struct krm_model *krm_new(const struct krm_config *c);
void krm_free(struct krm_model *m);

/* The benchmark window: counts are kept only while open (krm_window(m, 1)
 * opens it, or nests one deeper; krm_window(m, 0) closes one level and,
 * when the last closes, simulates everything buffered). */
void krm_window(struct krm_model *m, int start);
int krm_window_open(const struct krm_model *m);

/* vCPU cpu reached clock (its instruction count) having executed n more
 * instructions (a negative n takes back some counted in advance), kernel
 * ones if kernel: counted while the window is open. */
void krm_tick(struct krm_model *m, unsigned cpu, uint64_t clock, int64_t n, int kernel);

/* vCPU cpu halts (hlt: the kernel's idle loop) until an interrupt wakes it.
 * Its instruction count stands still meanwhile: when the emulator next runs
 * it, its clock starts no earlier than the slice of the vCPU that ran
 * before it (the one that woke it, or ran while it slept). */
void krm_idle(struct krm_model *m, unsigned cpu);

/* An access by vCPU cpu at its clock, to physical address paddr, by the
 * instruction at pc; buffered while the window is open. */
void krm_access(struct krm_model *m, unsigned cpu, uint64_t clock, uint64_t paddr, uint64_t pc,
		int store);

/* Simulate everything buffered (at exit). */
void krm_drain(struct krm_model *m);

/* The counters per vCPU and mode (0 user, 1 kernel): KRM_INSTRUCTIONS,
 * KRM_LOADS, ... (tools/common/model_format.h). */
#define KRM_EVENT_ENUM(e, name, metric) KRM_##e,
enum krm_event { KRP_MODEL_EVENTS(KRM_EVENT_ENUM) KRM_NEVENTS };
#undef KRM_EVENT_ENUM
/* The event's name in the output ("llc-misses", ...). */
const char *krm_event_name(enum krm_event e);
/* A counter; KRM_CYCLES is instructions x base CPI + stall cycles. */
uint64_t krm_count(const struct krm_model *m, unsigned cpu, int kernel, enum krm_event e);
/* windows opened (outermost), accesses outside every node's range */
uint64_t krm_windows(const struct krm_model *m);
/* merges that simulated a full buffer's older half without waiting for a
 * vCPU that lagged behind it by more than half a buffer (its accesses are
 * then moved forward: the two streams interleave less than they ran) */
uint64_t krm_forced_merges(const struct krm_model *m);

/* The kernel's symbols for the report's profile lines (not owned; NULL:
 * unsymbolised). */
void krm_set_ksyms(struct krm_model *m, const struct krm_ksyms *k);
struct krm_uprogs;
/* The guest's programs (not owned): user PCs of known programs are named
 * PROGRAM:FUNCTION in the profile. */
void krm_set_uprogs(struct krm_model *m, const struct krm_uprogs *u);

/* The report (docs/MEMORY-MODEL.md, "Output"), deterministic. 0 or -1.
 * A profile line is "pc 0xADDR FUNCTION cycles C misses M coherence T":
 * FUNCTION is the kernel function (ksyms), "[unknown]" for a kernel PC no
 * text symbol holds, "[user]" for a user PC and "-" for a kernel PC when
 * no symbols were given. */
int krm_write(struct krm_model *m, FILE *f);

#endif
