/* The plugin's record of each vCPU's address translations: virtual page to
 * physical page, so that an access to a page the vCPU has translated
 * before does not ask QEMU again (asking is most of the model's cost,
 * docs/MEMORY-MODEL.md "Cost").
 *
 * Why it is exact: x86 lets a CPU keep a translation it has used until
 * that CPU runs an instruction that drops it (mov to a control register,
 * invlpg, invpcid, invlpga, wrmsr, lmsw, rsm), and a kernel that moves a
 * page (migration, copy on write, munmap) runs one of them on every CPU
 * that may hold the old translation before it reuses the page.  The
 * plugin empties a vCPU's record before each such instruction, so the
 * record holds what the vCPU itself could still use.  Only RAM is
 * recorded.  KREPRO_MODEL_STAGE=check asks QEMU for every access as well
 * and stops at the first disagreement. */
#ifndef KREPRO_XLAT_H
#define KREPRO_XLAT_H

#include <stddef.h>
#include <stdint.h>

#define KRM_XLAT_SLOTS 1024 /* per vCPU, direct-mapped by virtual page */
#define KRM_PAGE_SHIFT 12

struct krm_xlat {
	uint64_t tag[KRM_XLAT_SLOTS]; /* virtual page << 1 | 1; 0: empty */
	uint64_t ppage[KRM_XLAT_SLOTS];
};

/* 1 and the physical address of vaddr, from the record; 0 if not there. */
static inline int krm_xlat_find(const struct krm_xlat *x, uint64_t vaddr, uint64_t *paddr)
{
	uint64_t vp = vaddr >> KRM_PAGE_SHIFT;
	size_t i = vp % KRM_XLAT_SLOTS;

	if (x->tag[i] != (vp << 1 | 1))
		return 0;
	*paddr = x->ppage[i] << KRM_PAGE_SHIFT | (vaddr & ((1u << KRM_PAGE_SHIFT) - 1));
	return 1;
}

static inline void krm_xlat_put(struct krm_xlat *x, uint64_t vaddr, uint64_t paddr)
{
	uint64_t vp = vaddr >> KRM_PAGE_SHIFT;
	size_t i = vp % KRM_XLAT_SLOTS;

	x->tag[i] = vp << 1 | 1;
	x->ppage[i] = paddr >> KRM_PAGE_SHIFT;
}

void krm_xlat_clear(struct krm_xlat *x);

/* 1 if the x86-64 instruction of len bytes at d can drop translations
 * (see above); prefixes and REX are skipped. */
int krm_insn_drops_xlat(const unsigned char *d, size_t len);

#endif
