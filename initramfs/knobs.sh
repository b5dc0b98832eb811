# shellcheck shell=sh
# krepro knobs: sourced by /init (which provides job_get, fail, finish and
# $R) after reading /job/job.conf and before the suite.  Applies the job's
# guest-side settings and records them in $R/knobs.
#
# Knob keys (job.conf / matrix keys):
#   thp=always|madvise|never   /sys/kernel/mm/transparent_hugepage/enabled
#   ksm=on|off                 /sys/kernel/mm/ksm/run (1 or 0); exports
#                              KREPRO_KSM=1 (on) or 0, and benchmarks that
#                              see KREPRO_KSM=1 madvise(MADV_MERGEABLE) their
#                              memory
#   numa_balancing=0|1         /proc/sys/kernel/numa_balancing
#   sysctl.<a>.<b>...=VALUE    /proc/sys/<a>/<b>/...  (every '.' is a '/':
#                              sysctl.vm.overcommit_memory -> /proc/sys/vm/overcommit_memory)
#   sysfs.<a>.<b>...=VALUE     /sys/<a>/<b>/...       (every '.' is a '/':
#                              sysfs.kernel.mm.ksm.pages_to_scan ->
#                              /sys/kernel/mm/ksm/pages_to_scan); matrix keys
#                              are [a-z][a-z0-9_.]*, so only components made
#                              of [a-z0-9_] can be named; the resolved path
#                              must stay under /sys
#   fs=tmpfs|ext2|xfs          a filesystem mounted at /fs for the benchmark
#                              files; exports KREPRO_FS_DIR=/fs.  ext2 and
#                              xfs live on a loop device over a sparse tmpfs
#                              file (half of MemTotal) and need the kernel's
#                              support (/proc/filesystems) and mke2fs
#                              (busybox) or mkfs.xfs
#   a monitor's parameter      (a "param" line of monitors/<name>/meta: the
#                              key table's owner monitor:<name>) passed on to
#                              krepro-monitor as KEY=VALUE words of
#                              KREPRO_MONITOR_PARAMS (sched_debug_interval=60)
#
# Every job.conf key is checked against the key table the image carries
# (/etc/krepro/keys, made from lib/shared/matrix-keys and the suites' and monitors'
# meta files: docs/KEYS.md) before anything is applied: a key not in it
# (sysctl.*, sysfs.* and the keys the host adds, KRP_JOB_EXTRA_KEYS, aside)
# or a value its check refuses fails the run at once (fail + finish), the
# same checks the host ran at plan time, whoever wrote the job.

# knob_write PATH VALUE: write and record, or fail the run.
knob_write() {
	if ! printf '%s\n' "$2" >"$1" 2>/dev/null; then
		knob_fail "cannot write '$2' to $1"
		return 1
	fi
	echo "$1=$2" >>"$R/knobs"
}

knob_fail() {
	fail "knob: $*"
	finish
}

# knob_path ROOT SUFFIX: sets KP to ROOT/<suffix with '.' as '/'>, checked
# by the contract's KRP_KNOB_PATH_RE (the host's plan checks the same).
knob_path() {
	if ! awk -v p="$2" -v re="$knob_path_re" 'BEGIN { exit !(re != "" && p ~ re) }'; then
		knob_fail "bad path '$2' in a sysctl./sysfs. key"
		return 1
	fi
	KP="$1/$(printf '%s' "$2" | tr . /)"
}

# knob_check KEY VALUE: what is wrong with them by the key table ("" if
# nothing).  Counts, sizes and durations come resolved to numbers (a
# tenant's memory as NK).  The grammar is krepro-knobcheck's
# (tools/common/keycheck.c, the one the plan checks with on the host).
# KREPRO_KNOBCHECK overrides the program (the kit's tests, on the host); a
# checker that cannot run is an error too.
knob_check() {
	kc_out=$("${KREPRO_KNOBCHECK:-krepro-knobcheck}" "$knob_keys" "$knob_suite" "$knob_extra" "$1" "$2" 2>&1)
	kc_rc=$?
	case $kc_rc in
	0) ;;
	1) printf '%s\n' "$kc_out" ;;
	*) printf 'krepro-knobcheck: %s\n' "${kc_out:-exit $kc_rc}" ;;
	esac
}

knob_apply() { # key value
	case $1 in
	sysctl.* | sysfs.*) ;;
	*)
		knob_err=$(knob_check "$1" "$2")
		[ -z "$knob_err" ] || {
			knob_fail "$knob_err"
			return 1
		}
		;;
	esac
	case $1 in
	thp)
		knob_write /sys/kernel/mm/transparent_hugepage/enabled "$2" || return
		grep -q "\[$2\]" /sys/kernel/mm/transparent_hugepage/enabled ||
			knob_fail "thp=$2 did not take effect"
		;;
	ksm)
		case $2 in
		on) knob_write /sys/kernel/mm/ksm/run 1 && KREPRO_KSM=1 ;;
		off) knob_write /sys/kernel/mm/ksm/run 0 && KREPRO_KSM=0 ;;
		esac
		export KREPRO_KSM
		;;
	numa_balancing)
		knob_write /proc/sys/kernel/numa_balancing "$2"
		;;
	sysctl.*)
		knob_path /proc/sys "${1#sysctl.}" || return
		[ -f "$KP" ] || knob_fail "$1: no $KP"
		knob_write "$KP" "$2"
		;;
	sysfs.*)
		knob_path /sys "${1#sysfs.}" || return
		[ -f "$KP" ] || knob_fail "$1: no $KP"
		case $(realpath "$KP" 2>/dev/null) in
		/sys/*) ;;
		*) knob_fail "$1: $KP resolves outside /sys" ;;
		esac
		knob_write "$KP" "$2"
		;;
	fs)
		knob_fs "$2"
		;;
	*)
		# a monitor's parameter: its value passed the key table's check
		if awk -v k="$1" '$1 == k && $4 ~ /^monitor:/ { f = 1; exit } END { exit !f }' "$knob_keys"; then
			KREPRO_MONITOR_PARAMS="${KREPRO_MONITOR_PARAMS:+$KREPRO_MONITOR_PARAMS }$1=$2"
			export KREPRO_MONITOR_PARAMS
			echo "$1=$2" >>"$R/knobs"
		fi
		;;
	esac
}

knob_fs() {
	mkdir -p /fs
	case $1 in
	tmpfs)
		mount -t tmpfs -o mode=1777 tmpfs /fs || knob_fail "fs=tmpfs: mount failed"
		;;
	ext2 | xfs)
		grep -qw "$1" /proc/filesystems || knob_fail "fs=$1: the kernel has no $1 support"
		case $1 in
		ext2) mkfs="mke2fs -q -F" ;;
		xfs) mkfs="mkfs.xfs -q -f" ;;
		esac
		command -v "${mkfs%% *}" >/dev/null 2>&1 || knob_fail "fs=$1: no ${mkfs%% *} in the initramfs"
		mkdir -p /fs-backing
		mount -t tmpfs tmpfs /fs-backing || knob_fail "fs=$1: tmpfs for the image failed"
		kb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
		truncate -s "$((kb / 2))K" /fs-backing/img || knob_fail "fs=$1: sparse image failed"
		# shellcheck disable=SC2086 # mkfs holds a command and its options
		$mkfs /fs-backing/img >/dev/null 2>&1 || knob_fail "fs=$1: ${mkfs%% *} failed"
		loopdev=$(losetup -f 2>&1) || knob_fail "fs=$1: no free loop device: $loopdev"
		err=$(losetup "$loopdev" /fs-backing/img 2>&1) || knob_fail "fs=$1: losetup $loopdev: $err"
		err=$(mount -t "$1" "$loopdev" /fs 2>&1) || knob_fail "fs=$1: mount $loopdev: $err"
		;;
	esac
	KREPRO_FS_DIR=/fs
	export KREPRO_FS_DIR
	echo "fs=$1" >>"$R/knobs"
}

# The job: $JOB of /init (kexec chains and tenants have their own) or
# /job/job.conf; KREPRO_JOB_CONF overrides both (the kit's own tests).
knob_conf=${KREPRO_JOB_CONF:-${JOB:-/job/job.conf}}
knob_keys=${KREPRO_KEYS:-/etc/krepro/keys}
knob_suite=$(sed -n 's/^suite=//p' "$knob_conf" 2>/dev/null | head -n 1)
knob_extra=$(sed -n 's/^#define KRP_JOB_EXTRA_KEYS "\(.*\)"$/\1/p' "${KREPRO_CONTRACT:-/etc/krepro/contract.h}")
knob_path_re=$(sed -n 's/^#define KRP_KNOB_PATH_RE "\(.*\)"$/\1/p' "${KREPRO_CONTRACT:-/etc/krepro/contract.h}")
if [ -f "$knob_conf" ]; then
	while IFS= read -r knob_line; do
		case $knob_line in
		*=*) knob_apply "${knob_line%%=*}" "${knob_line#*=}" ;;
		esac
	done <"$knob_conf"
fi
