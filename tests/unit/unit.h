/* Minimal unit-test helpers: every check prints "PASS name" or
 * "FAIL name: why"; tests/run.sh counts those lines. */
#ifndef KREPRO_UNIT_H
#define KREPRO_UNIT_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_failed;

#define CHECK(name, cond)                                                                          \
	do {                                                                                       \
		if (cond) {                                                                        \
			printf("PASS %s\n", (name));                                               \
		} else {                                                                           \
			printf("FAIL %s: %s (%s:%d)\n", (name), #cond, __FILE__, __LINE__);        \
			unit_failed = 1;                                                           \
		}                                                                                  \
	} while (0)

#define CHECK_NEAR(name, got, want, tol)                                                           \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (fabs(g_ - w_) <= (tol)) {                                                      \
			printf("PASS %s\n", (name));                                               \
		} else {                                                                           \
			printf("FAIL %s: got %.10g want %.10g (%s:%d)\n", (name), g_, w_,          \
			       __FILE__, __LINE__);                                                \
			unit_failed = 1;                                                           \
		}                                                                                  \
	} while (0)

#define CHECK_STR(name, got, want)                                                                 \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (g_ && w_ && strcmp(g_, w_) == 0) {                                             \
			printf("PASS %s\n", (name));                                               \
		} else {                                                                           \
			printf("FAIL %s: got \"%s\" want \"%s\" (%s:%d)\n", (name),                \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)", __FILE__, __LINE__);        \
			unit_failed = 1;                                                           \
		}                                                                                  \
	} while (0)

#define UNIT_EXIT() return unit_failed ? 1 : 0
#endif
