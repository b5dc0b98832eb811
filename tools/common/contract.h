/* What guest and host say to each other outside the result frames
 * (frame.h): job.conf's grammar, the console lines the host's scripts wait
 * for, and the prefix of a tenant's files.  C includes this header; the
 * shell on both sides reads its KRP_* strings with contract_get (the host's
 * lib/shared/common.sh; the guest's init, from its copy /etc/krepro/contract.h),
 * so each is written once.  A string define is one line, in double quotes,
 * without '"' or '\'. */
#ifndef KREPRO_CONTRACT_H
#define KREPRO_CONTRACT_H
#include <string.h>

/* job.conf (and a matrix): "key=value" lines.  A key is a lower-case letter
 * then letters, digits and KRP_KEY_PUNCT, at most KRP_KEY_MAX bytes; a value
 * is letters, digits and KRP_VALUE_PUNCT, at most KRP_VALUE_MAX: safe in a
 * result path and in the guest's shell (~ and ^: a commit's ancestry in a
 * variant's name, REF~2; '-' last: a shell bracket reads it as itself). */
#define KRP_KEY_PUNCT "_."
#define KRP_VALUE_PUNCT "._%+@:/=,~^-"
#define KRP_KEY_MAX 64
#define KRP_VALUE_MAX 256

/* job.conf keys that are not matrix keys (docs/KEYS.md): what the host adds
 * (the image's hash; a lab board's result port, network and reboot; the
 * probe boot; size_asked, the matrix's size when the board could not hold
 * it and size= is the scaled one, docs/BENCHMARKS.md) and the guest's init
 * adds to a tenant's job (its memory). */
/* clang-format off */
#define KRP_JOB_EXTRA_KEYS "initramfs_sha256 result_port net after probe tenant memory seed size_asked"
/* clang-format on */

/* Exact mode's instruction-counted clock: QEMU's -icount shift, every
 * executed instruction 2^shift ns of guest time (lib/run/backends/qemu.sh's
 * EXACT_QEMU_ARGS; the memory model's rates, analyze/model_rate.c). */
#define KRP_EXACT_ICOUNT_SHIFT "2"
/* A knob key sysctl.<path> or sysfs.<path>: <path> is names of a-z, 0-9 and
 * '_' joined by single dots, each dot a '/' under /proc/sys or /sys (never
 * empty, no "..", nothing to climb out with).  An ERE: the host's plan
 * (lib/shared/cells.awk) refuses a key against it before a build, the guest's
 * knobs.sh before it writes. */
#define KRP_KNOB_PATH_RE "^[a-z0-9_]+([.][a-z0-9_]+)*$"

/* Console: "<KRP_CHAIN_STEP> N of M" when step N of a kexec chain starts
 * (the host cuts the chain's console there); "<KRP_RESULTS_SENT> (STATUS)"
 * once the results are out (a LAVA job waits for it). */
#define KRP_CHAIN_STEP "krepro: chain step"
#define KRP_RESULTS_SENT "krepro: results sent"

/* A monitor's raw file (monitors/<family>/): every sample starts with a
 * line "<KRP_SAMPLE_MARK> <epoch.usec>", then the sample's lines. */
#define KRP_SAMPLE_MARK "time:"

/* Files of tenant N of a run arrive as "<KRP_TENANT_PREFIX>N.<name>". */
#define KRP_TENANT_PREFIX "vm_"

/* The files the host writes in a run directory (and the variant's files
 * above it), space-separated: the one list of names no guest file may take,
 * not even behind a tenant's prefix ("vm_2.images").  krepro-recv refuses
 * a frame so named (krp_host_owned_name); the host's scripts read the same
 * list (lib/run/runs.sh, host_owned); tests/cli_recv.sh checks that every file
 * lib/ writes into a run is on it.  A new host record is added here. */
/* clang-format off */
#define KRP_HOST_FILES "FAILED NOT-DETERMINISTIC avg.json boot.cmd console-chain.log console.log frames.bin host.conf images job.conf job.conf.new job.yaml kexec.log lava.conf listen.log matrix.json memory-model model.conf power.log qemu.cmd qemu.log recv.log stats.json stats.log stddev.json"
/* clang-format on */

static inline int krp_key_char(char c, int first)
{
	if (c >= 'a' && c <= 'z')
		return 1;
	return !first && c && ((c >= '0' && c <= '9') || strchr(KRP_KEY_PUNCT, c));
}

static inline int krp_value_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       (c && strchr(KRP_VALUE_PUNCT, c));
}

#endif
