/* The memory model's latencies: the one table (docs/MEMORY-MODEL.md).
 *
 * Units are core cycles of a nominal 2.5 GHz server core.  An access
 * served by the L1d costs nothing beyond the base CPI (its load-to-use
 * latency is part of what the base CPI stands for); every other access
 * costs the latency of the level that served it, as a whole (no overlap
 * of misses: an in-order, blocking model).  Sources, all public:
 *
 *   [IOM]  Intel 64 and IA-32 Architectures Optimization Reference Manual
 *          (order 248966), the cache tables of the Skylake server and
 *          Ice Lake chapters: L1d 4-5 cycles, L2 14 cycles.
 *   [7CPU] 7-cpu.com, "Intel Skylake X" and "Intel Cascade Lake":
 *          L2 14 cycles, L3 about 50-70 cycles, RAM about 80 ns + L3.
 *   [MLC]  Intel Memory Latency Checker's idle latency matrix as published
 *          for 2-socket Xeon Scalable systems: local DRAM about 80-90 ns,
 *          remote about 130-150 ns (1.5-1.8x).
 *   [HITM] Molka et al., "Memory Performance and Cache Coherency Effects
 *          on an Intel Nehalem Multiprocessor System" (PACT 2009) and
 *          the 7-cpu figures for a line modified in another core of the
 *          same socket: about 60-100 cycles.
 */
#ifndef KREPRO_QEMU_PLUGIN_LATENCY_H
#define KREPRO_QEMU_PLUGIN_LATENCY_H

/* the nominal clock: nanoseconds become cycles at it, and model cycles
 * become model seconds */
#define KRM_FREQ_MHZ 2500
/* cycles per instruction when every access hits the L1d */
#define KRM_BASE_CPI 1
/* an L1d miss served by the vCPU's own L2 [IOM], [7CPU] */
#define KRM_LAT_L2 14
/* an L2 miss served by the node's LLC [7CPU] */
#define KRM_LAT_LLC 50
/* an LLC miss served by DRAM of the vCPU's own node: 85 ns [MLC] */
#define KRM_LAT_DRAM_LOCAL 212
/* an LLC miss served by DRAM of another node: 140 ns, 1.65x [MLC] */
#define KRM_LAT_DRAM_REMOTE 350
/* a line this vCPU held, taken away by another vCPU's store and fetched
 * back from that vCPU's cache [HITM] */
#define KRM_LAT_COHERENCE 80
/* the same from a vCPU of another node (another socket): the line comes
 * over the socket interconnect, about 100 ns [HITM] (Molka et al.'s
 * remote modified lines; Intel MLC's remote HITM figures, 100-130 ns) */
#define KRM_LAT_COHERENCE_REMOTE 250

#endif
