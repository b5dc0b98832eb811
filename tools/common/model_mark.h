/* The memory model's window marks (docs/MEMORY-MODEL.md): the guest
 * executes a 7-byte no-op, `nopl 0x4b524d0N(%rax)` ("KRM" and N in the
 * displacement), where the counted window starts (N = 1) and stops
 * (N = 2).  The kit's QEMU plugin compares the bytes of each instruction it
 * translates with these; without it (any other emulator, a lab board, the
 * host) they do nothing, so a program that marks its window runs
 * everywhere.  One home for both sides: guest C calls krp_model_mark(), the
 * plugin compares bytes. */
#ifndef KREPRO_MODEL_MARK_H
#define KREPRO_MODEL_MARK_H

#include <string.h>

#define KRP_MODEL_MARK_START 0x01
#define KRP_MODEL_MARK_STOP 0x02
#define KRP_MODEL_MARK_LEN 7
/* 0f 1f 80 <disp32 little-endian>: nopl disp32(%rax) */
#define KRP_MODEL_MARK_LIST(n) 0x0f, 0x1f, 0x80, n, 0x4d, 0x52, 0x4b
#define KRP_MODEL_MARK_BYTES(n)                                                                    \
	{                                                                                          \
		KRP_MODEL_MARK_LIST(n)                                                             \
	}
#define KRP_MODEL_MARK_START_BYTES KRP_MODEL_MARK_LIST(KRP_MODEL_MARK_START)
#define KRP_MODEL_MARK_STOP_BYTES KRP_MODEL_MARK_LIST(KRP_MODEL_MARK_STOP)

/* The same bytes as the assembler's .byte directives, made from the lists. */
#define KRP_MODEL_MARK_STR_(...) #__VA_ARGS__
#define KRP_MODEL_MARK_STR(...) KRP_MODEL_MARK_STR_(__VA_ARGS__)
#define KRP_MODEL_MARK_START_ASM ".byte " KRP_MODEL_MARK_STR(KRP_MODEL_MARK_START_BYTES)
#define KRP_MODEL_MARK_STOP_ASM ".byte " KRP_MODEL_MARK_STR(KRP_MODEL_MARK_STOP_BYTES)

/* start != 0: the window starts here; 0: it stops.  The "memory" clobber
 * keeps the compiler from moving memory accesses across the mark.  The
 * plugin (KRP_MODEL_MARK_NO_ASM) only compares bytes. */
static inline void krp_model_mark(int start)
{
#if defined(__x86_64__) && !defined(KRP_MODEL_MARK_NO_ASM)
	if (start)
		__asm__ __volatile__(KRP_MODEL_MARK_START_ASM ::: "memory");
	else
		__asm__ __volatile__(KRP_MODEL_MARK_STOP_ASM ::: "memory");
#else
	(void)start;
#endif
}

/* The word of `krepro-mark start|stop` (a shell's marks, around a suite's
 * measured command): KRP_MODEL_MARK_START or _STOP, or 0 for any other
 * word (or none). */
static inline int krp_model_mark_word(const char *w)
{
	if (w && strcmp(w, "start") == 0)
		return KRP_MODEL_MARK_START;
	if (w && strcmp(w, "stop") == 0)
		return KRP_MODEL_MARK_STOP;
	return 0;
}

#endif
