/* The translation record's two parts that are not inline: emptying it,
 * and the instructions that empty it (xlat.h says why these). */
#include "xlat.h"

#include <string.h>

void krm_xlat_clear(struct krm_xlat *x)
{
	memset(x->tag, 0, sizeof(x->tag));
}

int krm_insn_drops_xlat(const unsigned char *d, size_t len)
{
	size_t i = 0;

	/* legacy prefixes, then one REX */
	while (i < len && (d[i] == 0x66 || d[i] == 0x67 || d[i] == 0xf0 || d[i] == 0xf2 ||
			   d[i] == 0xf3 || d[i] == 0x2e || d[i] == 0x36 || d[i] == 0x3e ||
			   d[i] == 0x26 || d[i] == 0x64 || d[i] == 0x65))
		i++;
	if (i < len && (d[i] & 0xf0) == 0x40)
		i++;
	if (i + 1 >= len || d[i] != 0x0f)
		return 0;
	switch (d[i + 1]) {
	case 0x22: /* mov to cr0/cr3/cr4/cr8 */
	case 0x30: /* wrmsr (EFER) */
	case 0xaa: /* rsm */
		return 1;
	case 0x01: { /* group 7 */
		unsigned modrm, mod, reg;

		if (i + 2 >= len)
			return 0;
		modrm = d[i + 2];
		mod = modrm >> 6;
		reg = (modrm >> 3) & 7;
		if (reg == 6) /* lmsw */
			return 1;
		if (reg == 7 && mod != 3) /* invlpg; mod 3 is swapgs, rdtscp */
			return 1;
		return modrm == 0xdf; /* invlpga */
	}
	case 0x38: /* invpcid: 66 0f 38 82 */
		return i + 2 < len && d[i + 2] == 0x82;
	default:
		return 0;
	}
}
