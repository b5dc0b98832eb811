/* The guest's own programs for the memory model's profile: static x86-64
 * executables (ELF64, EXEC), given to the plugin as uprog=PATH.  Every one
 * is linked at 0x400000, so a user PC alone does not say whose it is: the
 * plugin compares a translated block's bytes with each program's text at
 * that address (a static executable is not relocated) and keeps the one
 * program whose bytes match; then the PC's function comes from that
 * program's symbol table.  No QEMU here: the unit tests load programs
 * alone.  A file over KRM_UPROG_MAX_BYTES, not ELF64 x86-64 EXEC, or with
 * a header that points outside it is refused whole, with its name. */
#ifndef KREPRO_QEMU_PLUGIN_UPROGS_H
#define KREPRO_QEMU_PLUGIN_UPROGS_H
#include <stddef.h>
#include <stdint.h>

#define KRM_UPROGS_MAX 126 /* a program index fits 7 bits, 0 for none */
#define KRM_UPROG_MAX_BYTES (64u << 20)

struct krm_uprogs;

struct krm_uprogs *krm_uprogs_new(void);
/* Adds the program at path; 0, or -1 with the reason in err. */
int krm_uprogs_add(struct krm_uprogs *u, const char *path, char *err, size_t errlen);
size_t krm_uprogs_count(const struct krm_uprogs *u);

/* 1 + the index of the one program whose executable text holds exactly
 * bytes[0..len) at vaddr; 0 when none or more than one does. */
unsigned krm_uprogs_match(const struct krm_uprogs *u, uint64_t vaddr, const unsigned char *bytes,
			  size_t len);

/* Program prog's (1-based, as krm_uprogs_match gives) name, its file's
 * base name, and the function holding pc (NULL when none). */
const char *krm_uprogs_name(const struct krm_uprogs *u, unsigned prog);
const char *krm_uprogs_function(const struct krm_uprogs *u, unsigned prog, uint64_t pc);

void krm_uprogs_free(struct krm_uprogs *u);

#endif
