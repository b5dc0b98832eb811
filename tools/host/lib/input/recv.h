/* Receiver: decode a frame stream and write its files into a staging
 * directory (only there: names are validated and files are created with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to the directory's fd). */
#ifndef KREPRO_RECV_H
#define KREPRO_RECV_H
#include <stddef.h>

#include "frame_decode.h"

/* Files the host writes in a run directory (KRP_HOST_FILES, contract.h:
 * job.conf, FAILED, images, host.conf, ...), also behind a tenant's
 * "vm_<N>." prefix: a guest frame with such a name is refused, so nothing a
 * guest sends can replace or forge them. */
int krp_host_owned_name(const char *name);

/* A tenant's file "vm_<N>.<name>" becomes <name> in the tenant's run
 * directory: <name> must itself be a valid frame name (not "..", "." or
 * "..x", which "vm_2..." would give).  Other names pass. */
int krp_tenant_name_ok(const char *name);

/* Files one run may send: 99 tenants with every monitor stay far below;
 * a guest sending 100,000 frames fails instead of filling the folder. */
#define KRP_RECV_MAX_FILES 4096

/* Returns 0 on success, -1 with res->err (decode or write failure), -2 if
 * the staging directory cannot be opened/created (res->err says why). */
int krp_recv_to_dir(const void *buf, size_t len, const char *staging_dir,
		    struct krp_decode_result *res);

/* The same for one session (1-based) of a multi-session stream; session 0
 * means the whole stream is one session. */
int krp_recv_session_to_dir(const void *buf, size_t len, unsigned session, const char *staging_dir,
			    struct krp_decode_result *res);

#endif
