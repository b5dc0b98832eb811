/* What the model's unit tests share: a model of a board (NODES and CPUNODE
 * as the plugin's arguments, NULL for one node), a vCPU's counts. */
#ifndef KREPRO_MODEL_FIXTURE_H
#define KREPRO_MODEL_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "../../tools/qemu-plugin/model.h"
#include "unit.h"

#define PC_USER 0x401000ull
#define PC_KERNEL 0xffffffff81000000ull

static inline struct krm_model *model(unsigned ncpus, const char *nodes, const char *cpunode,
				      const char *buffer)
{
	struct krm_config c;
	char err[256];

	krm_config_default(&c, ncpus);
	if ((nodes && krm_config_set(&c, "nodes", nodes, err, sizeof(err))) ||
	    (cpunode && krm_config_set(&c, "cpunode", cpunode, err, sizeof(err))) ||
	    (buffer && krm_config_set(&c, "buffer", buffer, err, sizeof(err))) ||
	    krm_config_check(&c, err, sizeof(err))) {
		printf("FAIL config: %s\n", err);
		unit_failed = 1;
		return NULL;
	}
	return krm_new(&c);
}

static inline uint64_t sum(struct krm_model *m, unsigned cpu, enum krm_event e)
{
	return krm_count(m, cpu, 0, e) + krm_count(m, cpu, 1, e);
}

#endif
