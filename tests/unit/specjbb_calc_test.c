/* Unit tests for suites/specjbb/specjbb_calc.h (specjbb-like workload). */
#include "unit.h"
#include "../../suites/specjbb/specjbb_calc.h"

int main(void)
{
	struct sj_sizing s;
	unsigned sum = 0, count[SJ_NTX] = {0};

	for (int t = 0; t < SJ_NTX; t++)
		sum += sj_tx_weight[t];
	CHECK("mix: weights sum to 100", sum == 100);
	for (unsigned r = 0; r < 100; r++)
		count[sj_pick(r)]++;
	CHECK("mix: new_order 44%", count[SJ_NEW_ORDER] == 44);
	CHECK("mix: payment 44%", count[SJ_PAYMENT] == 44);
	CHECK("mix: order_status 4%", count[SJ_ORDER_STATUS] == 4);
	CHECK("mix: delivery 4%", count[SJ_DELIVERY] == 4);
	CHECK("mix: stock_level 4%", count[SJ_STOCK_LEVEL] == 4);
	CHECK("mix: r 0 is a new order", sj_pick(0) == SJ_NEW_ORDER);
	CHECK("mix: r 44 is a payment", sj_pick(44) == SJ_PAYMENT);
	CHECK("mix: r 99 is stock level", sj_pick(99) == SJ_STOCK_LEVEL);
	CHECK("mix: out of range", sj_pick(1000) == SJ_STOCK_LEVEL);
	CHECK_STR("names", sj_tx_name(SJ_DELIVERY), "delivery");

	/* 64 MiB over 2 warehouses: 32 MiB each; items 16 MiB / 64 = 262144,
	 * customers 8 MiB / 128 = 65536, orders 8 MiB / 256 = 32768 */
	sj_size(64ULL << 20, 2, &s);
	CHECK("size: items", s.items == 262144);
	CHECK("size: customers", s.customers == 65536);
	CHECK("size: orders", s.orders == 32768);
	sj_size(1000, 4, &s);
	CHECK("size: minimum 16", s.items == 16 && s.customers == 16 && s.orders == 16);

	CHECK("bops: 4199758 ops in 2.004 s", sj_bops(4199758ULL, 2.004) == 2095687);
	CHECK("bops: exact", sj_bops(1000, 4) == 250);
	CHECK("bops: no time", sj_bops(1000, 0) == 0);
	{
		uint64_t a = 1, b = 1;

		CHECK("rand: deterministic", sj_rand(&a) == sj_rand(&b) && a != 1);
	}
	UNIT_EXIT();
}
