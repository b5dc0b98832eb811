/* The memory model's window marks (issue 37): a 7-byte no-op, nopl
 * 0x4b524d0N(%rax), N = 1 where the counted window starts and N = 2 where
 * it stops ("KRM" and N in the displacement).  The krepro memory-model
 * plugin compares the bytes of each instruction it translates with these;
 * without it (any other emulator, a lab board, the host) they do nothing,
 * so a program that marks its window runs everywhere. */
#ifndef KREPRO_MODEL_MARK_H
#define KREPRO_MODEL_MARK_H

/* a 7-byte no-op the krepro memory-model plugin recognises: nopl 0x4b524d01(%rax) starts the
   counted window, nopl 0x4b524d02(%rax) stops it */
#define KRP_MODEL_MARK_START_BYTES 0x0f, 0x1f, 0x80, 0x01, 0x4d, 0x52, 0x4b
#define KRP_MODEL_MARK_STOP_BYTES 0x0f, 0x1f, 0x80, 0x02, 0x4d, 0x52, 0x4b

/* The same bytes as the assembler's .byte directives, made from the lists. */
#define KRP_MODEL_MARK_STR_(...) #__VA_ARGS__
#define KRP_MODEL_MARK_STR(...) KRP_MODEL_MARK_STR_(__VA_ARGS__)
#define KRP_MODEL_MARK_START_ASM ".byte " KRP_MODEL_MARK_STR(KRP_MODEL_MARK_START_BYTES)
#define KRP_MODEL_MARK_STOP_ASM ".byte " KRP_MODEL_MARK_STR(KRP_MODEL_MARK_STOP_BYTES)

/* start != 0: the window starts here; 0: it stops.  The "memory" clobber
 * keeps the compiler from moving memory accesses across the mark. */
static inline void krp_model_mark(int start)
{
#if defined(__x86_64__)
	if (start)
		__asm__ __volatile__(KRP_MODEL_MARK_START_ASM ::: "memory");
	else
		__asm__ __volatile__(KRP_MODEL_MARK_STOP_ASM ::: "memory");
#else
	(void)start;
#endif
}

#endif
