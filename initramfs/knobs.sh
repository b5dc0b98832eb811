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
#   sched_debug_interval=SECONDS
#                              the sched_debug monitor's interval (default 60); exported
#                              as KREPRO_SCHED_DEBUG_INTERVAL for krepro-monitor
#
# Any other key that contains a '.' or starts with thp, ksm, numa_bal,
# sysctl, sysfs or fs_ is an unknown knob: the run fails at once (fail +
# finish) instead of silently running without the setting.  Every other key
# is a benchmark or kit parameter and is left to the suite.

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

# knob_path ROOT SUFFIX: sets KP to ROOT/<suffix with '.' as '/'>, checked.
knob_path() {
	case $2 in
	'' | .* | *. | *..* | *[!a-z0-9_.]*)
		knob_fail "bad path '$2' in a sysctl./sysfs. key"
		return 1
		;;
	esac
	KP="$1/$(printf '%s' "$2" | tr . /)"
}

knob_apply() { # key value
	case $1 in
	thp)
		case $2 in
		always | madvise | never) ;;
		*) knob_fail "thp must be always, madvise or never, not '$2'" ;;
		esac
		knob_write /sys/kernel/mm/transparent_hugepage/enabled "$2" || return
		grep -q "\[$2\]" /sys/kernel/mm/transparent_hugepage/enabled ||
			knob_fail "thp=$2 did not take effect"
		;;
	ksm)
		case $2 in
		on) knob_write /sys/kernel/mm/ksm/run 1 && KREPRO_KSM=1 ;;
		off) knob_write /sys/kernel/mm/ksm/run 0 && KREPRO_KSM=0 ;;
		*) knob_fail "ksm must be on or off, not '$2'" ;;
		esac
		export KREPRO_KSM
		;;
	numa_balancing)
		case $2 in
		0 | 1) knob_write /proc/sys/kernel/numa_balancing "$2" ;;
		*) knob_fail "numa_balancing must be 0 or 1, not '$2'" ;;
		esac
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
	sched_debug_interval)
		case $2 in
		'' | *[!0-9.]*) knob_fail "sched_debug_interval must be seconds, not '$2'" ;;
		esac
		KREPRO_SCHED_DEBUG_INTERVAL=$2
		export KREPRO_SCHED_DEBUG_INTERVAL
		echo "sched_debug_interval=$2" >>"$R/knobs"
		;;
	*.* | thp* | ksm* | numa_bal* | sysctl* | sysfs* | fs_*)
		knob_fail "unknown knob '$1' (known: thp ksm numa_balancing fs sched_debug_interval sysctl.* sysfs.*)"
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
	*)
		knob_fail "fs must be tmpfs, ext2 or xfs, not '$1'"
		;;
	esac
	KREPRO_FS_DIR=/fs
	export KREPRO_FS_DIR
	echo "fs=$1" >>"$R/knobs"
}

# The job: $JOB of /init (kexec chains and tenants have their own) or
# /job/job.conf; KREPRO_JOB_CONF overrides both (the kit's own tests).
knob_conf=${KREPRO_JOB_CONF:-${JOB:-/job/job.conf}}
if [ -f "$knob_conf" ]; then
	while IFS= read -r knob_line; do
		case $knob_line in
		*=*) knob_apply "${knob_line%%=*}" "${knob_line#*=}" ;;
		esac
	done <"$knob_conf"
fi
