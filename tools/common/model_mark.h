/* The memory model's window markers (docs/MEMORY-MODEL.md): the guest
 * executes a 7-byte no-op, `nopl 0x4b524d0N(%rax)` ("KRM" and N), where
 * the benchmark window starts (N = 1) and stops (N = 2).  The kit's QEMU
 * plugin recognises these bytes when it translates an instruction; on any
 * other machine, or without the plugin, they do nothing.  One home for
 * both sides: guest C calls krp_model_mark(), the plugin compares bytes. */
#ifndef KREPRO_MODEL_MARK_H
#define KREPRO_MODEL_MARK_H

#define KRP_MODEL_MARK_LEN 7
/* 0f 1f 80 <disp32 little-endian>: nopl disp32(%rax) */
#define KRP_MODEL_MARK_BYTES(n)                                                                    \
	{                                                                                          \
		0x0f, 0x1f, 0x80, (n), 0x4d, 0x52, 0x4b                                            \
	}
#define KRP_MODEL_MARK_START 1
#define KRP_MODEL_MARK_STOP 2

#if defined(__x86_64__) && !defined(KRP_MODEL_MARK_NO_ASM)
/* start != 0: the window starts here; 0: it stops. */
static inline void krp_model_mark(int start)
{
	if (start)
		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x01, 0x4d, 0x52, 0x4b" ::: "memory");
	else
		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x02, 0x4d, 0x52, 0x4b" ::: "memory");
}
#endif

#endif
