/* report_read's reading of the key table (report_keys.c): what
 * report_read.c asks of it.  Not for other modules: report_read.h is the
 * interface. */
#ifndef KREPRO_REPORT_KEYS_H
#define KREPRO_REPORT_KEYS_H
#include <stddef.h>

/* k is a line of keys ("\nkey\n..."). */
int rr_has_key(const char *keys, const char *k);
/* The suite's required parameters a part's body (matrix lines, "suite: S"
 * first) does not set, into missing as "'a', 'b'"; 0 when none. */
int rr_missing_required(const char *body, const char *required, char *missing, size_t sz);

#endif
