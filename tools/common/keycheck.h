/* keycheck: the one grammar of the key table's values (the CHECK column of
 * `./run-matrix.sh --keys`, lib/shared/matrix-keys' header says what each check
 * accepts), for the plan on the host (krepro-keycheck, read by
 * lib/shared/cells.awk) and for the guest (krepro-knobcheck, run by
 * initramfs/knobs.sh).  Pure functions over strings: no files, no
 * allocation but the table's. */
#ifndef KREPRO_KEYCHECK_H
#define KREPRO_KEYCHECK_H

#include <stddef.h>

/* A key table's row: KEY CHECK WHERE OWNER DEFAULT TEXT... */
struct krp_key_row {
	const char *key, *check, *owner;
};

struct krp_keys {
	char *text; /* the table, its words cut in place */
	struct krp_key_row *rows;
	size_t n;
};

/* krp_keys_parse: the table from LEN bytes of TEXT (copied); a line with
 * fewer than four words is skipped.  0, or -1 out of memory. */
int krp_keys_parse(struct krp_keys *t, const char *text, size_t len);
void krp_keys_free(struct krp_keys *t);

/* krp_keys_check: the check of KEY in a cell of SUITE (its first row owned
 * by the kit, SUITE or a monitor), "path" for sysctl.* and sysfs.* keys,
 * NULL if none applies. */
const char *krp_keys_check(const struct krp_keys *t, const char *key, const char *suite);

/* krp_closest: the name of "a|b|c" LIST nearest to W by edit distance (the
 * first of equals), written to OUT (at most OUTSZ - 1 bytes). */
void krp_closest(const char *w, const char *list, char *out, size_t outsz);

/* krp_check_plan: VAL of KEY (a cell of SUITE) against CHECK at plan time.
 * MONITORS is "|a|b" (the monitors a "monitors" value may name).  0 if
 * the value passes; else 1 and MSG holds what lib/shared/cells.awk prints after
 * "FILE:LINE: " (truncated to MSGSZ). */
int krp_check_plan(const char *check, const char *key, const char *val, const char *suite,
		   const char *monitors, char *msg, size_t msgsz);

/* krp_check_guest: KEY=VAL of a job.conf in the guest, whose counts,
 * sizes and durations come resolved to numbers, against table T (read
 * from KEYS_NAME).  EXTRA is " a b " (keys the host adds, never in the
 * table).  0 if it passes, else 1 and MSG holds initramfs/knobs.sh's
 * message. */
int krp_check_guest(const struct krp_keys *t, const char *keys_name, const char *suite,
		    const char *extra, const char *key, const char *val, char *msg, size_t msgsz);

#endif
