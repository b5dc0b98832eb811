/* The kernel's symbols for the memory model's profile: a System.map read
 * at the plugin's install (the ksyms=PATH argument), so that each profile
 * line names the kernel function of its instruction.  No QEMU here: the
 * unit tests load maps alone.
 *
 * A line is "ADDRESS TYPE NAME": 1 to 16 hex digits, one type letter (or
 * '?'), a name of 1 to KRM_KSYM_NAME_MAX bytes of [A-Za-z0-9_.$].  Text
 * symbols (t, T, w, W) name functions; every other symbol only ends the
 * function before it (a PC past the kernel's text is no function).  A
 * file that breaks that, is over KRM_KSYMS_MAX_BYTES or holds more than
 * KRM_KSYMS_MAX symbols is refused whole, with its name and line. */
#ifndef KREPRO_QEMU_PLUGIN_KSYMS_H
#define KREPRO_QEMU_PLUGIN_KSYMS_H
#include <stddef.h>
#include <stdint.h>

#define KRM_KSYM_NAME_MAX 127
#define KRM_KSYMS_MAX (1u << 22)
#define KRM_KSYMS_MAX_BYTES (256ull << 20)

struct krm_ksyms;

/* The symbols of System.map path, sorted by address, or NULL with the
 * reason in err ("PATH:LINE: ..."). */
struct krm_ksyms *krm_ksyms_load(const char *path, char *err, size_t errlen);

/* The function holding pc (the text symbol at the greatest address <= pc,
 * when no other symbol lies between), or NULL.  Symbols at one address:
 * the name that sorts last among the text ones. */
const char *krm_ksyms_find(const struct krm_ksyms *k, uint64_t pc);

/* How many symbols were kept (text and the others). */
size_t krm_ksyms_count(const struct krm_ksyms *k);

void krm_ksyms_free(struct krm_ksyms *k);

#endif
