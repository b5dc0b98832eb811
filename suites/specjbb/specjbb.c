/* specjbb: a specjbb2005-like multi-threaded transaction workload.
 *
 * specjbb [-w WAREHOUSES] [-t THREADS] [-m MEMORY] [-s SECONDS] [-r RAMPUP]
 *
 * Each warehouse holds in-memory records (an item/stock table, customers,
 * a ring of orders in ten districts) sized so all warehouses together use
 * MEMORY bytes; THREADS worker threads per warehouse run SPECjbb2005's
 * transaction mix (new order, payment, order status, delivery, stock level)
 * against their own warehouse, under per-district locks.  After RAMPUP
 * seconds the completed transactions of SECONDS seconds are counted; the
 * score is business operations per second ("bops"). */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "specjbb_calc.h"
#include "usemem_calc.h"

#define PROG "specjbb"
#define DISTRICTS 10
#define MAX_LINES 15

struct item {
	uint64_t id;
	int64_t stock;
	uint64_t ytd;
	uint32_t price, orders;
	char pad[SJ_ITEM_BYTES - 32];
};

struct customer {
	int64_t balance;
	uint64_t ytd_payment, payments, last_order;
	char pad[SJ_CUSTOMER_BYTES - 32];
};

struct order {
	uint64_t customer, nlines, delivered, total;
	uint32_t item[MAX_LINES], qty[MAX_LINES];
	char pad[SJ_ORDER_BYTES - 32 - 8 * MAX_LINES];
};

struct district {
	pthread_mutex_t lock;
	uint64_t next, oldest; /* order numbers: ring head and oldest undelivered */
	char pad[64];
};

struct warehouse {
	struct sj_sizing n;
	struct item *items;
	struct customer *customers;
	struct order *orders; /* orders / DISTRICTS per district */
	struct district d[DISTRICTS];
	uint64_t ytd;
};

struct worker {
	pthread_t th;
	struct warehouse *w;
	uint64_t rng;
	unsigned long long ops[SJ_NTX]; /* updated by the worker only */
	char pad[64];
};

static volatile int stop;

#define die(...) krp_die(PROG, 1, __VA_ARGS__)

static void *alloc(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("cannot allocate %zu bytes: %s", n, strerror(errno));
	return p;
}

static void wh_init(struct warehouse *w, unsigned long long mem, unsigned long nw)
{
	sj_size(mem, nw, &w->n);
	if (w->n.orders < DISTRICTS * 2)
		w->n.orders = DISTRICTS * 2;
	w->items = alloc(w->n.items * sizeof(struct item));
	w->customers = alloc(w->n.customers * sizeof(struct customer));
	w->orders = alloc(w->n.orders * sizeof(struct order));
	for (unsigned long i = 0; i < w->n.items; i++) {
		w->items[i].id = i;
		w->items[i].stock = 10 + (int64_t)(i % 91);
		w->items[i].price = 100 + (uint32_t)(i * 7919 % 9900);
	}
	for (unsigned long i = 0; i < w->n.customers; i++)
		w->customers[i].balance = -1000;
	memset(w->orders, 0, w->n.orders * sizeof(struct order));
	for (int d = 0; d < DISTRICTS; d++)
		pthread_mutex_init(&w->d[d].lock, NULL);
}

static unsigned long per_district(const struct warehouse *w)
{
	return w->n.orders / DISTRICTS;
}

static struct order *order_at(struct warehouse *w, int d, uint64_t no)
{
	return &w->orders[(unsigned long)d * per_district(w) + no % per_district(w)];
}

static void tx_new_order(struct worker *k)
{
	struct warehouse *w = k->w;
	int d = (int)(sj_rand(&k->rng) % DISTRICTS);
	unsigned long c = (unsigned long)(sj_rand(&k->rng) % w->n.customers);
	unsigned n = 5 + (unsigned)(sj_rand(&k->rng) % (MAX_LINES - 4));
	uint32_t it[MAX_LINES], q[MAX_LINES];
	uint64_t total = 0;
	struct order *o;

	for (unsigned i = 0; i < n; i++) {
		struct item *x;

		it[i] = (uint32_t)(sj_rand(&k->rng) % w->n.items);
		q[i] = 1 + (uint32_t)(sj_rand(&k->rng) % 10);
		x = &w->items[it[i]];
		if (__atomic_sub_fetch(&x->stock, q[i], __ATOMIC_RELAXED) < 10)
			__atomic_add_fetch(&x->stock, 91, __ATOMIC_RELAXED);
		__atomic_add_fetch(&x->orders, 1, __ATOMIC_RELAXED);
		total += (uint64_t)x->price * q[i];
	}
	pthread_mutex_lock(&w->d[d].lock);
	if (w->d[d].next - w->d[d].oldest >= per_district(w))
		w->d[d].oldest++; /* the ring is full: drop the oldest order */
	o = order_at(w, d, w->d[d].next);
	o->customer = c;
	o->nlines = n;
	o->delivered = 0;
	o->total = total;
	memcpy(o->item, it, n * sizeof(it[0]));
	memcpy(o->qty, q, n * sizeof(q[0]));
	w->customers[c].last_order = w->d[d].next++;
	pthread_mutex_unlock(&w->d[d].lock);
}

static void tx_payment(struct worker *k)
{
	struct warehouse *w = k->w;
	unsigned long c = (unsigned long)(sj_rand(&k->rng) % w->n.customers);
	int d = (int)(c % DISTRICTS);
	uint64_t amount = 1 + sj_rand(&k->rng) % 5000;

	pthread_mutex_lock(&w->d[d].lock);
	w->customers[c].balance -= (int64_t)amount;
	w->customers[c].ytd_payment += amount;
	w->customers[c].payments++;
	pthread_mutex_unlock(&w->d[d].lock);
	__atomic_add_fetch(&w->ytd, amount, __ATOMIC_RELAXED);
}

static volatile uint64_t sink;

static void tx_order_status(struct worker *k)
{
	struct warehouse *w = k->w;
	int d = (int)(sj_rand(&k->rng) % DISTRICTS);
	uint64_t sum = 0;

	pthread_mutex_lock(&w->d[d].lock);
	if (w->d[d].next > w->d[d].oldest) {
		struct order *o = order_at(w, d, w->d[d].next - 1);

		for (uint64_t i = 0; i < o->nlines && i < MAX_LINES; i++)
			sum += w->items[o->item[i]].price * (uint64_t)o->qty[i];
		sum += w->customers[o->customer].balance < 0 ? 1 : 0;
	}
	pthread_mutex_unlock(&w->d[d].lock);
	sink += sum;
}

static void tx_delivery(struct worker *k)
{
	struct warehouse *w = k->w;

	for (int d = 0; d < DISTRICTS; d++) {
		pthread_mutex_lock(&w->d[d].lock);
		if (w->d[d].next > w->d[d].oldest) {
			struct order *o = order_at(w, d, w->d[d].oldest++);

			o->delivered = 1;
			w->customers[o->customer].balance += (int64_t)o->total;
		}
		pthread_mutex_unlock(&w->d[d].lock);
	}
}

static void tx_stock_level(struct worker *k)
{
	struct warehouse *w = k->w;
	int d = (int)(sj_rand(&k->rng) % DISTRICTS);
	uint64_t low = 0;

	pthread_mutex_lock(&w->d[d].lock);
	for (uint64_t no = w->d[d].next; no > w->d[d].oldest && w->d[d].next - no < 20; no--) {
		struct order *o = order_at(w, d, no - 1);

		for (uint64_t i = 0; i < o->nlines && i < MAX_LINES; i++)
			low += __atomic_load_n(&w->items[o->item[i]].stock, __ATOMIC_RELAXED) < 20;
	}
	pthread_mutex_unlock(&w->d[d].lock);
	sink += low;
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		enum sj_tx t = sj_pick((unsigned)(sj_rand(&k->rng) % 100));

		switch (t) {
		case SJ_NEW_ORDER:
			tx_new_order(k);
			break;
		case SJ_PAYMENT:
			tx_payment(k);
			break;
		case SJ_ORDER_STATUS:
			tx_order_status(k);
			break;
		case SJ_DELIVERY:
			tx_delivery(k);
			break;
		default:
			tx_stock_level(k);
			break;
		}
		__atomic_store_n(&k->ops[t], k->ops[t] + 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void snapshot(struct worker *ks, unsigned long n, unsigned long long out[][SJ_NTX])
{
	for (unsigned long i = 0; i < n; i++)
		for (int t = 0; t < SJ_NTX; t++)
			out[i][t] = __atomic_load_n(&ks[i].ops[t], __ATOMIC_RELAXED);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_sec(double s)
{
	struct timespec ts = {.tv_sec = (time_t)s,
			      .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static unsigned long num(const char *s, char o, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || *s < '0' || *s > '9' || v > max)
		die("-%c: '%s' is not a number in 0..%lu", o, s, max);
	return v;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: " PROG
		   " [-w WAREHOUSES] [-t THREADS] [-m MEMORY] [-s SECONDS] [-r RAMPUP]\n"
		   "  -w N   warehouses (default: online CPUs)\n"
		   "  -t N   worker threads per warehouse (default 1)\n"
		   "  -m M   memory of all warehouses, K/M/G/T suffix (default 256M)\n"
		   "  -s S   measured seconds (default 30)\n"
		   "  -r S   ramp-up seconds before measuring (default 3)\n"
		   "Prints per-warehouse and per-transaction counts and 'bops: N'.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	long nc = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long nw = nc > 0 ? (unsigned long)nc : 1, nt = 1, secs = 30, rampup = 3;
	unsigned long long mem = 256ULL << 20, total = 0, per_tx[SJ_NTX] = {0};
	unsigned long long(*a)[SJ_NTX], (*b)[SJ_NTX];
	struct warehouse *ws;
	struct worker *ks;
	double t0, t1;
	int c;

	while ((c = getopt_long(argc, argv, "w:t:m:s:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			nw = num(optarg, 'w', 1024);
			break;
		case 't':
			nt = num(optarg, 't', 256);
			break;
		case 'm':
			if (usemem_parse_size(optarg, &mem) != 0 || mem < 4096)
				die("-m: bad memory size '%s'", optarg);
			break;
		case 's':
			secs = num(optarg, 's', 86400);
			break;
		case 'r':
			rampup = num(optarg, 'r', 86400);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || nw < 1 || nt < 1 || secs < 1) {
		usage(stderr);
		return 2;
	}
	ws = calloc(nw, sizeof(*ws));
	ks = calloc(nw * nt, sizeof(*ks));
	a = calloc(nw * nt, sizeof(*a));
	b = calloc(nw * nt, sizeof(*b));
	if (!ws || !ks || !a || !b)
		die("out of memory");
	for (unsigned long i = 0; i < nw; i++)
		wh_init(&ws[i], mem, nw);
	for (unsigned long i = 0; i < nw * nt; i++) {
		int err;

		ks[i].w = &ws[i / nt];
		ks[i].rng = 0x9E3779B97F4A7C15ULL * (i + 1);
		err = pthread_create(&ks[i].th, NULL, worker_main, &ks[i]);
		if (err)
			die("pthread_create: %s", strerror(err));
	}
	sleep_sec((double)rampup);
	snapshot(ks, nw * nt, a);
	t0 = now();
	sleep_sec((double)secs);
	snapshot(ks, nw * nt, b);
	t1 = now();
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (unsigned long i = 0; i < nw * nt; i++)
		pthread_join(ks[i].th, NULL);

	printf("warehouses: %lu\nthreads_per_warehouse: %lu\nmemory: %llu\nseconds: %.3f\n", nw, nt,
	       mem, t1 - t0);
	for (unsigned long w = 0; w < nw; w++) {
		unsigned long long ops = 0;

		for (unsigned long i = w * nt; i < (w + 1) * nt; i++)
			for (int t = 0; t < SJ_NTX; t++) {
				ops += b[i][t] - a[i][t];
				per_tx[t] += b[i][t] - a[i][t];
			}
		printf("warehouse %lu ops: %llu\n", w + 1, ops);
		total += ops;
	}
	for (int t = 0; t < SJ_NTX; t++)
		printf("%s: %llu\n", sj_tx_name((enum sj_tx)t), per_tx[t]);
	printf("total_ops: %llu\nbops: %llu\n", total, sj_bops(total, t1 - t0));
	return ferror(stdout) ? 1 : 0;
}
