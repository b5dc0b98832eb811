/* Unit tests for tools/common/value.h, the kit's size and duration grammar
 * (the matrix checker, lkp-tests' job reader, the guest programs and the
 * QEMU plugin all read through it): one table, each row a text, which
 * reader, and what it must give. */
#include <stdint.h>

#include "unit.h"
#include "value.h"

enum reader { SIZE, SIZE_HEX, SECONDS };

static const struct row {
	const char *text;
	enum reader reader;
	int ok;		/* 0: refused */
	uint64_t value; /* when ok */
	int rest;	/* bytes the prefix reader leaves */
} rows[] = {
    {"4096", SIZE, 1, 4096, 0},
    {"4k", SIZE, 1, 4096, 0},
    {"3K", SIZE, 1, 3072, 0},
    {"128M", SIZE, 1, 128ull << 20, 0},
    {"2g", SIZE, 1, 2ull << 30, 0},
    {"1T", SIZE, 1, 1ull << 40, 0},
    {"16777215T", SIZE, 1, 16777215ull << 40, 0},
    {"16777216T", SIZE, 0, 0, 0},    /* shifted past 64 bits */
    {"17179869192G", SIZE, 0, 0, 0}, /* was 8G in the plugin */
    {"18446744073709551615", SIZE, 1, UINT64_MAX, 0},
    {"18446744073709551616", SIZE, 0, 0, 0},
    {"", SIZE, 0, 0, 0},
    {"M", SIZE, 0, 0, 0},
    {"-1", SIZE, 0, 0, 0},
    {" 1", SIZE, 0, 0, 0},
    {"12x", SIZE, 1, 12, 1}, /* a prefix: the caller refuses the rest */
    {"12Mx", SIZE, 1, 12ull << 20, 1},
    {"0x10", SIZE, 1, 0, 3}, /* hex only where asked */
    {"0x10", SIZE_HEX, 1, 16, 0},
    {"0xffffffff:0", SIZE_HEX, 1, 0xffffffffull, 2},
    {"0X1fK", SIZE_HEX, 1, 31ull << 10, 0},
    {"0x", SIZE_HEX, 0, 0, 0},
    {"0x10000000000000000", SIZE_HEX, 0, 0, 0},
    {"010", SIZE_HEX, 1, 10, 0}, /* decimal, never octal */
    {"30", SECONDS, 1, 30, 0},
    {"30s", SECONDS, 1, 30, 0},
    {"5m", SECONDS, 1, 300, 0},
    {"2h", SECONDS, 1, 7200, 0},
    {"1d", SECONDS, 1, 1, 1},
    {"s", SECONDS, 0, 0, 0},
    {"", SECONDS, 0, 0, 0},
    {"5M", SECONDS, 1, 5, 1}, /* minutes are m: M is a size's */
    {"5124095576030432h", SECONDS, 0, 0, 0},
    {"5124095576030431h", SECONDS, 1, 5124095576030431ull * 3600, 0},
};

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const char *end = NULL, *kind = r->reader == SECONDS ? "duration" : "size";
		uint64_t v = 0, w = 0;
		int rc, whole;
		char name[128];

		if (r->reader == SECONDS) {
			rc = krp_seconds_prefix(r->text, &v, &end);
			whole = krp_seconds(r->text, &w);
		} else {
			rc = krp_size_prefix(r->text, r->reader == SIZE_HEX ? KRP_VALUE_HEX : 0, &v,
					     &end);
			whole = r->reader == SIZE ? krp_size(r->text, &w) : (rc || *end ? -1 : 0);
			if (r->reader == SIZE_HEX)
				w = v;
		}
		snprintf(name, sizeof(name), "%s '%s': %s", kind, r->text,
			 r->ok ? (r->rest ? "a prefix" : "read") : "refused");
		if (!r->ok)
			CHECK(name, rc == -1 && whole == -1);
		else
			CHECK(name, rc == 0 && v == r->value && (size_t)r->rest == strlen(end) &&
					(r->rest ? whole == -1 : whole == 0 && w == r->value));
		/* krp_value_of, by the key table's name of the check: the whole reader */
		if (r->reader != SIZE_HEX) {
			uint64_t x = 0;
			int k = krp_value_of(kind, r->text, &x);

			snprintf(name, sizeof(name), "krp_value_of %s '%s'", kind, r->text);
			CHECK(name, k == whole && (k != 0 || x == w));
		}
	}
	{
		uint64_t x;

		CHECK("krp_value_of: a kind that is neither size nor duration is -2",
		      krp_value_of("count", "4", &x) == -2);
	}
	return unit_failed;
}
