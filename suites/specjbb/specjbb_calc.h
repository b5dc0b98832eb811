/* Pure arithmetic of the specjbb2005-like workload (suites/specjbb/specjbb.c):
 * warehouse sizing from the memory parameter, the transaction mix, and the
 * score.  Header-only for tests/unit/specjbb_calc_test.c. */
#ifndef KREPRO_SPECJBB_CALC_H
#define KREPRO_SPECJBB_CALC_H
#include <stdint.h>
#include <stdio.h>

/* Transaction types and their weights in percent (SPECjbb2005's mix:
 * new order and payment dominate, the rest 4-5% each). */
enum sj_tx { SJ_NEW_ORDER, SJ_PAYMENT, SJ_ORDER_STATUS, SJ_DELIVERY, SJ_STOCK_LEVEL, SJ_NTX };

static const unsigned sj_tx_weight[SJ_NTX] = {44, 44, 4, 4, 4}; /* sums to 100 */

static inline const char *sj_tx_name(enum sj_tx t)
{
	static const char *const names[SJ_NTX] = {"new_order", "payment", "order_status",
						  "delivery", "stock_level"};

	return (unsigned)t < SJ_NTX ? names[t] : "?";
}

/* Transaction for a draw r in [0, 100): cumulative weights. */
static inline enum sj_tx sj_pick(unsigned r)
{
	unsigned acc = 0;

	for (int t = 0; t < SJ_NTX; t++) {
		acc += sj_tx_weight[t];
		if (r < acc)
			return (enum sj_tx)t;
	}
	return SJ_STOCK_LEVEL;
}

/* Record sizes of one warehouse (bytes): items/stock rows, customers and
 * the order ring.  The item table takes half of a warehouse's memory,
 * customers a quarter, orders a quarter. */
#define SJ_ITEM_BYTES 64
#define SJ_CUSTOMER_BYTES 128
#define SJ_ORDER_BYTES 256

struct sj_sizing {
	unsigned long items, customers, orders;
};

/* Splits mem bytes over warehouses; at least 16 of each record. */
static inline void sj_size(unsigned long long mem, unsigned long warehouses, struct sj_sizing *s)
{
	unsigned long long per = warehouses ? mem / warehouses : mem;

	s->items = (unsigned long)(per / 2 / SJ_ITEM_BYTES);
	s->customers = (unsigned long)(per / 4 / SJ_CUSTOMER_BYTES);
	s->orders = (unsigned long)(per / 4 / SJ_ORDER_BYTES);
	if (s->items < 16)
		s->items = 16;
	if (s->customers < 16)
		s->customers = 16;
	if (s->orders < 16)
		s->orders = 16;
}

/* Score: business operations per second over the measured interval,
 * rounded down as SPECjbb reports whole bops. */
static inline unsigned long long sj_bops(unsigned long long ops, double secs)
{
	return secs > 0 ? (unsigned long long)((double)ops / secs) : 0;
}

/* xorshift64 per worker (state nonzero). */
static inline uint64_t sj_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

#endif
