/* The few hwloc calls of will-it-scale's main.c, over sched_setaffinity:
 * enough to build upstream's runner static with musl for a side-by-side
 * measurement (bench/upstream-wis.sh).  Every CPU counts as a core and as
 * a PU, object i is CPU i, as hwloc reports a guest without SMT. */
#ifndef KREPRO_HWLOC_STANDIN_H
#define KREPRO_HWLOC_STANDIN_H
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

typedef cpu_set_t *hwloc_cpuset_t;
typedef int *hwloc_topology_t;
struct hwloc_obj {
	hwloc_cpuset_t cpuset;
};
typedef struct hwloc_obj *hwloc_obj_t;
enum { HWLOC_OBJ_CORE, HWLOC_OBJ_PU };
enum { HWLOC_CPUBIND_THREAD = 2 };

static int hwloc_ncpus;

static inline int hwloc_topology_init(hwloc_topology_t *t)
{
	*t = &hwloc_ncpus;
	return 0;
}

static inline int hwloc_topology_load(hwloc_topology_t t)
{
	*t = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return 0;
}

static inline int hwloc_topology_dup(hwloc_topology_t *n, hwloc_topology_t t)
{
	*n = t;
	return 0;
}

static inline void hwloc_topology_destroy(hwloc_topology_t t)
{
	(void)t;
}

static inline int hwloc_get_nbobjs_by_type(hwloc_topology_t t, int type)
{
	(void)type;
	return *t;
}

static inline hwloc_cpuset_t hwloc_bitmap_alloc(void)
{
	return calloc(1, sizeof(cpu_set_t));
}

static inline void hwloc_bitmap_free(hwloc_cpuset_t s)
{
	free(s);
}

static inline hwloc_cpuset_t hwloc_bitmap_dup(hwloc_cpuset_t s)
{
	hwloc_cpuset_t d = hwloc_bitmap_alloc();

	if (d)
		*d = *s;
	return d;
}

static inline hwloc_obj_t hwloc_get_obj_by_type(hwloc_topology_t t, int type, unsigned idx)
{
	hwloc_obj_t o = calloc(1, sizeof(*o));

	(void)t;
	(void)type;
	if (!o || !(o->cpuset = hwloc_bitmap_alloc()))
		abort();
	CPU_SET(idx, o->cpuset);
	return o;
}

static inline int hwloc_get_cpubind(hwloc_topology_t t, hwloc_cpuset_t s, int flags)
{
	(void)t;
	if (flags & HWLOC_CPUBIND_THREAD)
		return pthread_getaffinity_np(pthread_self(), sizeof(*s), s) ? -1 : 0;
	return sched_getaffinity(0, sizeof(*s), s);
}

static inline int hwloc_set_cpubind(hwloc_topology_t t, hwloc_cpuset_t s, int flags)
{
	(void)t;
	if (flags & HWLOC_CPUBIND_THREAD)
		return pthread_setaffinity_np(pthread_self(), sizeof(*s), s) ? -1 : 0;
	return sched_setaffinity(0, sizeof(*s), s);
}

static inline int hwloc_set_thread_cpubind(hwloc_topology_t t, pthread_t th, hwloc_cpuset_t s,
					   int flags)
{
	(void)t;
	(void)flags;
	return pthread_setaffinity_np(th, sizeof(*s), s) ? -1 : 0;
}
#endif
