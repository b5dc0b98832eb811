/* krepro-model: the kit's QEMU TCG plugin, the glue between QEMU's plugin
 * API (QEMU 7.2, QEMU_PLUGIN_VERSION 1) and the memory model (model.[ch]).
 * docs/MEMORY-MODEL.md says what it models, its arguments and its output.
 *
 *   qemu-system-x86_64 ... -plugin
 * out/qemu-plugin/krepro-model.so,out=PATH[,ksyms=MAP][,KEY=VALUE...]
 *
 * At translation: each instruction gets a memory callback carrying its
 * address and its place in the block, each block a callback counting its
 * instructions (the vCPU's clock), and the window markers
 * (tools/common/model_mark.h) and the instructions that drop address
 * translations (xlat.h) an instruction callback.  Outside the window a
 * memory callback returns at once; inside, an access's physical address
 * comes from the vCPU's translation record, or from QEMU the first time.
 * At exit the model's report goes to PATH, written whole to PATH.tmp and
 * renamed.
 *
 * Exact mode only: single-threaded TCG (-icount), where the vCPUs run in
 * turn on one thread; a callback from a second thread stops QEMU (the
 * model is not shared between threads, and the order would not be
 * deterministic anyway). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "model.h"
#include "model_mark.h"
#include "uprogs.h"
#include "xlat.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct krm_model *model;
static struct krm_ksyms *ksyms;
static struct krm_uprogs *uprogs;
static const char *out_path;
static int window_open;
static pthread_t owner;
/* bench/model-cost.sh's parts (KREPRO_MODEL_STAGE): the window never
 * opens (closed), the physical addresses only (lookup), or the model
 * (full, the default).  check is full with QEMU asked for every access
 * beside the translation record, stopping at the first disagreement: its
 * report is the one full writes when the record is exact.  full and check
 * write a report. */
enum { STAGE_CLOSED, STAGE_LOOKUP, STAGE_FULL, STAGE_CHECK };
static int stage = STAGE_FULL;
static volatile uint64_t lookup_sink;
static int owner_set;
static unsigned ncpus;
static struct krm_xlat xlat[KRM_MAX_CPUS];

/* Per vCPU: its clock (instructions executed) and where the current block
 * started on it. */
static struct {
	uint64_t clock, base;
} vcpu[KRM_MAX_CPUS];

/* A memory callback's data, packed into its pointer: the instruction's
 * address (48 bits, sign-extended back), its index in the block (9 bits:
 * a block holds at most 512 instructions) and its guest program (7 bits,
 * uprogs.h; 0 for none or the kernel). */
#define PC_BITS 48
#define PC_MASK ((1ull << PC_BITS) - 1)
static void *pack_insn(uint64_t pc, size_t idx, unsigned prog)
{
	return (void *)(uintptr_t)((pc & PC_MASK) | (uint64_t)(idx & 0x1ff) << PC_BITS |
				   (uint64_t)prog << 57);
}
static uint64_t insn_pc(uint64_t u)
{
	uint64_t pc = u & PC_MASK;

	return pc & (1ull << (PC_BITS - 1)) ? pc | ~PC_MASK : pc;
}
#define INSN_IDX(u) (((u) >> PC_BITS) & 0x1ff)
#define INSN_PROG(u) ((unsigned)((u) >> 57))
/* A block's or a marker's data: instructions in the block, the kernel
 * flag, the marker's index and kind. */
static void *pack_tb(size_t n, int kernel, size_t idx, int start)
{
	return (void *)(uintptr_t)((uint64_t)n | (uint64_t)(kernel != 0) << 20 |
				   (uint64_t)idx << 21 | (uint64_t)(start != 0) << 41);
}
#define TB_N(u) ((u)&0xfffff)
#define TB_KERNEL(u) (((u) >> 20) & 1)
#define TB_IDX(u) (((u) >> 21) & 0xfffff)
#define TB_START(u) (((u) >> 41) & 1)

static void one_thread(void)
{
	if (!owner_set) {
		owner = pthread_self();
		owner_set = 1;
	} else if (!pthread_equal(owner, pthread_self())) {
		fprintf(stderr, "krepro-model: callbacks from two threads: the model needs "
				"single-threaded TCG (exact mode, -icount)\n");
		abort();
	}
}

static void tb_exec(unsigned int cpu, void *udata)
{
	uint64_t u = (uintptr_t)udata;

	if (cpu >= KRM_MAX_CPUS)
		return;
	vcpu[cpu].base = vcpu[cpu].clock;
	vcpu[cpu].clock += TB_N(u);
	if (window_open)
		krm_tick(model, cpu, vcpu[cpu].clock, (int64_t)TB_N(u), (int)TB_KERNEL(u));
}

/* The physical address of an access to RAM (0 for I/O): from the vCPU's
 * translation record, else asked of QEMU and recorded. */
static int phys_addr(unsigned cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, uint64_t *pa)
{
	struct qemu_plugin_hwaddr *hw;
	uint64_t rec = 0;
	int have = krm_xlat_find(&xlat[cpu], vaddr, &rec);

	if (have && stage != STAGE_CHECK) {
		*pa = rec;
		return 1;
	}
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		if (have) {
			fprintf(stderr,
				"krepro-model: check: vCPU %u address 0x%llx recorded "
				"as RAM 0x%llx, QEMU says I/O\n",
				cpu, (unsigned long long)vaddr, (unsigned long long)rec);
			abort();
		}
		return 0;
	}
	*pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (have && rec != *pa) {
		fprintf(stderr,
			"krepro-model: check: vCPU %u address 0x%llx recorded at "
			"0x%llx, QEMU says 0x%llx\n",
			cpu, (unsigned long long)vaddr, (unsigned long long)rec,
			(unsigned long long)*pa);
		abort();
	}
	if (!have)
		krm_xlat_put(&xlat[cpu], vaddr, *pa);
	return 1;
}

static void mem_access(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	uint64_t u = (uintptr_t)udata, pa;

	if (!window_open || cpu >= KRM_MAX_CPUS)
		return;
	one_thread();
	if (!phys_addr(cpu, info, vaddr, &pa))
		return;
	if (stage == STAGE_LOOKUP) {
		lookup_sink += pa;
		return;
	}
	krm_access(model, cpu, vcpu[cpu].base + INSN_IDX(u), pa,
		   INSN_PROG(u) ? KRM_UPC(insn_pc(u), INSN_PROG(u)) : insn_pc(u),
		   qemu_plugin_mem_is_store(info));
}

/* An instruction that may drop translations, before it runs. */
static void xlat_drop(unsigned int cpu, void *udata)
{
	(void)udata;
	if (cpu < KRM_MAX_CPUS)
		krm_xlat_clear(&xlat[cpu]);
}

/* A window marker.  The block callback ran before it: when the window
 * opens here, the block's instructions from the marker on are counted;
 * when it closes here, those after the marker are taken back. */
static void mark_exec(unsigned int cpu, void *udata)
{
	uint64_t u = (uintptr_t)udata;
	int64_t rest = (int64_t)(TB_N(u) - TB_IDX(u));

	if (cpu >= KRM_MAX_CPUS)
		return;
	one_thread();
	if (TB_START(u)) {
		int was_open = krm_window_open(model);

		krm_window(model, 1);
		if (!was_open) {
			/* what was recorded before is not trusted */
			for (unsigned c = 0; c < ncpus; c++)
				krm_xlat_clear(&xlat[c]);
			krm_tick(model, cpu, vcpu[cpu].clock, rest, (int)TB_KERNEL(u));
		}
	} else {
		krm_tick(model, cpu, vcpu[cpu].clock, -(rest - 1), (int)TB_KERNEL(u));
		krm_window(model, 0);
		krm_tick(model, cpu, vcpu[cpu].clock, rest - 1, (int)TB_KERNEL(u));
	}
	window_open = stage != STAGE_CLOSED && krm_window_open(model);
}

/* hlt: the vCPU stops until an interrupt wakes it (the kernel's idle). */
static void hlt_exec(unsigned int cpu, void *udata)
{
	(void)udata;
	if (cpu < KRM_MAX_CPUS)
		krm_idle(model, cpu);
}

/* The guest program whose text holds a user block's bytes (uprogs.h), or
 * 0: the block's instructions are contiguous, compared as one run. */
static unsigned block_program(struct qemu_plugin_tb *tb, size_t n)
{
	unsigned char bytes[512 * 16];
	size_t len = 0;

	if (!krm_uprogs_count(uprogs))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		size_t sz = qemu_plugin_insn_size(insn);

		if (len + sz > sizeof(bytes) ||
		    qemu_plugin_insn_vaddr(insn) != qemu_plugin_tb_vaddr(tb) + len)
			return 0;
		memcpy(bytes + len, qemu_plugin_insn_data(insn), sz);
		len += sz;
	}
	return krm_uprogs_match(uprogs, qemu_plugin_tb_vaddr(tb), bytes, len);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	static const unsigned char start[] = KRP_MODEL_MARK_BYTES(KRP_MODEL_MARK_START);
	static const unsigned char stop[] = KRP_MODEL_MARK_BYTES(KRP_MODEL_MARK_STOP);
	size_t n = qemu_plugin_tb_n_insns(tb);
	int kernel = qemu_plugin_tb_vaddr(tb) >= KRM_KERNEL_BASE;
	unsigned prog = kernel ? 0 : block_program(tb, n);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     pack_tb(n, kernel, 0, 0));
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *data = qemu_plugin_insn_data(insn);

		if (qemu_plugin_insn_size(insn) == KRP_MODEL_MARK_LEN &&
		    (memcmp(data, start, sizeof(start)) == 0 ||
		     memcmp(data, stop, sizeof(stop)) == 0))
			qemu_plugin_register_vcpu_insn_exec_cb(
			    insn, mark_exec, QEMU_PLUGIN_CB_NO_REGS,
			    pack_tb(n, kernel, i, data[3] == KRP_MODEL_MARK_START));
		if (qemu_plugin_insn_size(insn) == 1 && data[0] == 0xf4) /* hlt */
			qemu_plugin_register_vcpu_insn_exec_cb(insn, hlt_exec,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (krm_insn_drops_xlat(data, qemu_plugin_insn_size(insn)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, xlat_drop,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 pack_insn(qemu_plugin_insn_vaddr(insn), i, prog));
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char tmp[4096];
	FILE *f;
	int bad;

	(void)id;
	(void)udata;
	if (stage != STAGE_FULL && stage != STAGE_CHECK) {
		fprintf(stderr,
			"krepro-model: KREPRO_MODEL_STAGE=%s: a cost measurement, no report\n",
			stage == STAGE_CLOSED ? "closed" : "lookup");
		return;
	}
	krm_drain(model);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", out_path) >= (int)sizeof(tmp) ||
	    !(f = fopen(tmp, "w"))) {
		fprintf(stderr, "krepro-model: cannot write %s.tmp\n", out_path);
		return;
	}
	bad = krm_write(model, f) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, out_path) != 0) {
		fprintf(stderr, "krepro-model: writing %s failed\n", out_path);
		remove(tmp);
	}
	krm_free(model);
	model = NULL;
	krm_ksyms_free(ksyms);
	ksyms = NULL;
	krm_uprogs_free(uprogs);
	uprogs = NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					   char **argv)
{
	struct krm_config c;
	char err[512];
	const char *ksyms_path = NULL;

	if (!info->system_emulation) {
		fprintf(stderr, "krepro-model: system emulation only\n");
		return -1;
	}
	if (info->system.max_vcpus > KRM_MAX_CPUS) {
		fprintf(stderr, "krepro-model: %d vCPUs; the model holds at most %d\n",
			info->system.max_vcpus, KRM_MAX_CPUS);
		return -1;
	}
	ncpus = (unsigned)info->system.max_vcpus;
	krm_config_default(&c, ncpus);
	if (getenv("KREPRO_MODEL_STAGE")) {
		const char *st = getenv("KREPRO_MODEL_STAGE");

		if (!strcmp(st, "closed"))
			stage = STAGE_CLOSED;
		else if (!strcmp(st, "lookup"))
			stage = STAGE_LOOKUP;
		else if (!strcmp(st, "check"))
			stage = STAGE_CHECK;
		else if (strcmp(st, "full")) {
			fprintf(
			    stderr,
			    "krepro-model: KREPRO_MODEL_STAGE=%s: closed, lookup, full or check\n",
			    st);
			return -1;
		}
	}
	for (int i = 0; i < argc; i++) {
		char key[32], *eq = strchr(argv[i], '=');
		size_t kl = eq ? (size_t)(eq - argv[i]) : 0;

		if (!eq || kl == 0 || kl >= sizeof(key)) {
			fprintf(stderr, "krepro-model: argument '%s': expected KEY=VALUE\n",
				argv[i]);
			return -1;
		}
		memcpy(key, argv[i], kl);
		key[kl] = 0;
		if (strcmp(key, "out") == 0) {
			out_path = eq + 1;
		} else if (strcmp(key, "ksyms") == 0) {
			ksyms_path = eq + 1;
		} else if (strcmp(key, "uprog") == 0) {
			if ((!uprogs && !(uprogs = krm_uprogs_new())) ||
			    krm_uprogs_add(uprogs, eq + 1, err, sizeof(err)) != 0) {
				fprintf(stderr, "krepro-model: uprog=%s\n",
					uprogs ? err : "out of memory");
				krm_uprogs_free(uprogs);
				uprogs = NULL;
				return -1;
			}
		} else if (krm_config_set(&c, key, eq + 1, err, sizeof(err)) != 0) {
			fprintf(stderr, "krepro-model: %s\n", err);
			return -1;
		}
	}
	if (!out_path || !*out_path) {
		fprintf(stderr, "krepro-model: no out=PATH argument\n");
		return -1;
	}
	if (krm_config_check(&c, err, sizeof(err)) != 0) {
		fprintf(stderr, "krepro-model: %s\n", err);
		return -1;
	}
	if (ksyms_path && !(ksyms = krm_ksyms_load(ksyms_path, err, sizeof(err)))) {
		fprintf(stderr, "krepro-model: ksyms=%s\n", err);
		return -1;
	}
	model = krm_new(&c);
	if (!model) {
		fprintf(stderr, "krepro-model: out of memory\n");
		krm_ksyms_free(ksyms);
		return -1;
	}
	krm_set_ksyms(model, ksyms);
	krm_set_uprogs(model, uprogs);
	window_open = stage != STAGE_CLOSED && krm_window_open(model);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
