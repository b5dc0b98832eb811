# shellcheck shell=sh
# lib/run/boot.sh: what the backends share to boot a guest, so that none
# calls another: the clock each kind of machine keeps (board_keeps_clock),
# the guest's command line and initrd, and a QEMU boot booted, watched and
# bounded (boot_guest: the qemu backend's runs, the kexec chain's one QEMU;
# accel_args: a LAVA qemu device's job boots the same machine).
# Reads: a board through board_get/board_is, SLOT_TMP, the plan's variants
# (plan_fact: the probe's kernel), H, KREPRO_CACHE, ROOT_QEMU_DIR; environment:
# KREPRO_GUEST_OUTPUT_MAX.  Sets: EXACT_QEMU_ARGS, QEMU_PID, BOOT_REASON,
# BOOT_SECONDS (asked with boot_guest_said), ACCEL (accel_picked),
# ACCEL_CACHE, KVM_VERDICT, KVM_WHY, BOOT_WATCH (kvm_probe: boot_guest's
# watch), BACKEND_KEY (board_keeps_clock: the key a refusal is about).

# board_keeps_clock CLOCK BOARD: 0 when BOARD's machine can boot with CLOCK;
# else it says why.  A QEMU board (the qemu and kexec backends, a LAVA
# qemu device): exact time is TCG's instruction count, so not under KVM.  A
# lab machine (or a LAVA x86 device) has real time only.
board_keeps_clock() {
	[ "$1" = exact ] || return 0
	if board_is "$2" TYPE qemu; then
		board_is "$2" ACCEL kvm || return 0
		BACKEND_KEY=clock
		echo "clock: exact needs TCG; board $2 has accel: kvm (KVM runs on the host's clock)"
	else
		BACKEND_KEY=clock
		echo "clock: exact needs a QEMU board; board $2 is a lab machine, whose clock is always real (docs/EXACT.md)"
	fi
	return 1
}

# boot_guest_stop: boot_guest's QEMU stopped (a session's end, a slot
# killed), if one runs.
boot_guest_stop() { stop_pid "${QEMU_PID:-}"; QEMU_PID=; }

# guest_cmdline: the kernel command line every backend's guest starts with
# (QEMU, a lab board, a LAVA device).
guest_cmdline() { echo "console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1 nokaslr printk.devkmsg=on"; }

# guest_output_max: the most a guest may write to its results or console
# port (KREPRO_GUEST_OUTPUT_MAX, bytes; krepro-listen's bound for lab boards
# too); more fails the run and stops the guest.
guest_output_max() {
	gom=${KREPRO_GUEST_OUTPUT_MAX:-268435456}
	case $gom in '' | *[!0-9]*) die "KREPRO_GUEST_OUTPUT_MAX must be bytes" ;; esac
	echo "$gom"
}
EXACT_QEMU_ARGS="-icount shift=$(contract_get KRP_EXACT_ICOUNT_SHIFT),sleep=off,align=off -rtc base=2026-01-01T00:00:00,clock=vm"

# single_initrd JOBCONF: the initramfs plus a small cpio holding the job.
# Written under SLOT_TMP (TMPD, or a parallel slot's own folder).
single_initrd() {
	# gen_init_cpio's list splits at spaces: the job goes via SLOT_TMP.
	[ "$1" = "$SLOT_TMP/job.conf" ] || cp "$1" "$SLOT_TMP/job.conf"
	printf 'dir /job 0755 0 0\nfile /job/job.conf %s 0644 0 0\n' "$SLOT_TMP/job.conf" >"$SLOT_TMP/job.list"
	initrd_with "$SLOT_TMP/job.list" "$SLOT_TMP/initrd"
}

# accel_args ACCEL BOARD CLOCK: QEMU's accelerator and CPU options for a boot
# (and for a LAVA job, so that it boots the same machine).  Exact mode:
# guest time is the count of executed instructions (one thread runs every
# vCPU in turn, idle time is skipped) and the RTC starts at a fixed date on
# that clock, so nothing the guest can read depends on the host
# (docs/EXACT.md).  boot_guest passes each part as its own argument.
accel_args() {
	echo "-accel $(accel_opt "$1" "$3") -cpu $(accel_cpu "$1" "$2" "$3")$(accel_clock "$3")"
}
accel_opt() { # ACCEL CLOCK: -accel's value
	if [ "${2:-real}" = exact ]; then echo tcg,thread=single; else echo "$1"; fi
}
accel_cpu() { # ACCEL BOARD CLOCK: -cpu's value (the board's, a checked model name)
	if [ "${3:-real}" != exact ] && [ "$1" = kvm ]; then echo host; else board_get "$2" CPU; fi
}
accel_clock() { # CLOCK: exact mode's clock options (the kit's constant words)
	[ "${1:-real}" != exact ] || echo " $EXACT_QEMU_ARGS"
}

# boot_guest BOARD CLOCK KERNEL INITRD DIR TIMEOUT ACCEL [CMDLINE_EXTRA
# [PLUGIN]]: boot BOARD's machine (PLUGIN: QEMU's -plugin argument, the
# memory model's), collect frames.bin and console.log in DIR; sets
# BOOT_REASON on failure and BOOT_SECONDS, returns 0 on a clean exit.
boot_guest() {
	bg_board=$1 bg_clock=$2
	shift 2
	bg_kernel=$1 bg_initrd=$2 bg_dir=$3 bg_tmo=$4 bg_accel=$5 bg_extra=${6:-} bg_plugin=${7:-}
	: >"$bg_dir/console.log"
	: >"$bg_dir/frames.bin"
	cmdline="$(guest_cmdline)$bg_extra"
	bg_max=$(guest_output_max)
	bg_numa=$(board_get "$bg_board" NUMA)
	# every board value one argument; the NUMA options are the board's node
	# lines, whose fields load_board checked (numbers and sizes)
	# shellcheck disable=SC2086,SC2046 # the NUMA options and the clock's are argument lists
	set -- qemu-system-x86_64 -machine "$(board_get "$bg_board" MACHINE)" -accel "$(accel_opt "$bg_accel" "$bg_clock")" \
		-cpu "$(accel_cpu "$bg_accel" "$bg_board" "$bg_clock")" $(accel_clock "$bg_clock") -smp "$(board_get "$bg_board" SMP)" \
		-m "$(board_get "$bg_board" MEMORY)" $bg_numa \
		-nodefaults -display none -no-reboot -monitor none \
		-chardev file,id=con,path="$bg_dir/console.log" -serial chardev:con \
		-chardev file,id=res,path="$bg_dir/frames.bin" -serial chardev:res \
		-kernel "$bg_kernel" -initrd "$bg_initrd" -append "$cmdline"
	# the memory model: the kit's plugin watches the guest
	[ -z "$bg_plugin" ] || set -- "$@" -plugin "$bg_plugin"
	# exact mode: the pinned root's QEMU (root_qemu_words; prepare_images)
	if [ "$bg_clock" = exact ] && [ -n "${ROOT_QEMU_DIR:-}" ]; then
		shift
		bg_n=$#
		while IFS= read -r bg_w; do
			set -- "$@" "$bg_w"
		done <<EOF
$(root_qemu_words "$ROOT_QEMU_DIR")
EOF
		while [ "$bg_n" -gt 0 ]; do
			set -- "$@" "$1"
			shift
			bg_n=$((bg_n - 1))
		done
	fi
	printf '%s\n' "$*" >"$bg_dir/qemu.cmd"
	# timeout(1) bounds QEMU even if this script is killed outright; our own
	# kills go to timeout as TERM, which it passes on to QEMU.
	# krepro-die-with-parent: timeout dies with this shell and QEMU with
	# timeout, even when run-matrix is killed with SIGKILL.
	"$H/krepro-die-with-parent" timeout -s KILL "$((bg_tmo + 30))" \
		"$H/krepro-die-with-parent" "$@" >"$bg_dir/qemu.log" 2>&1 9>&- &
	QEMU_PID=$!
	t=0
	BOOT_REASON=
	while kill -0 "$QEMU_PID" 2>/dev/null && kill -0 "$$" 2>/dev/null; do
		if [ "$t" -ge "$bg_tmo" ]; then
			BOOT_REASON="timeout after $bg_tmo s (hang)"
			break
		fi
		# A probe (kvm_probe) stops the boot once it has its verdict.
		if [ -n "${BOOT_WATCH:-}" ] && "$BOOT_WATCH" "$bg_dir" "$t"; then
			break
		fi
		if grep -q 'KVM internal error\|emulation failure' "$bg_dir/qemu.log" 2>/dev/null; then
			BOOT_REASON="kvm emulation failure"
			break
		fi
		for f in frames.bin console.log; do
			if [ "$(stat -c %s "$bg_dir/$f" 2>/dev/null || echo 0)" -gt "$bg_max" ]; then
				BOOT_REASON="guest wrote more than $bg_max bytes to $f"
			fi
		done
		[ -z "$BOOT_REASON" ] || break
		sleep 1
		t=$((t + 1))
	done
	stop_pid "$QEMU_PID"
	# A parallel slot whose run-matrix was killed leaves the run staged.
	kill -0 "$$" 2>/dev/null || exit 1
	QEMU_PID=
	BOOT_SECONDS=$t
	[ -n "$BOOT_REASON" ] || BOOT_REASON=$(console_fault "$bg_dir/console.log")
	[ -z "$BOOT_REASON" ]
}

# boot_guest_said reason|seconds: the last boot_guest's failure (empty:
# none) or seconds, for a caller in another module (the kexec chain).
boot_guest_said() {
	case $1 in reason) printf '%s\n' "$BOOT_REASON" ;; seconds) printf '%s\n' "$BOOT_SECONDS" ;; esac
}

# console_fault LOG: what the console shows went wrong, or nothing.
console_fault() {
	if grep -q 'Kernel panic' "$1"; then
		echo "kernel panic: $(grep -m1 'Kernel panic' "$1" | cut -c1-160)"
	elif grep -q 'Out of memory\|invoked oom-killer' "$1"; then
		echo "out of memory"
	fi
}

# The accelerator: KVM only when a probe guest really boots under it and
# says it sent its results; the verdict comes within seconds (a KVM that
# opens but runs no guest hung the probe for its whole 60 s before) and is
# kept per host kernel and QEMU version in KREPRO_CACHE/kvm-probe (key,
# verdict, date, reason), and said whenever it is used.
ACCEL_CACHE=
KVM_PROBE_DONE="$(contract_get KRP_RESULTS_SENT) (ok)" # the probe guest's last line
KVM_PROBE_FIRST=5 # s: a guest under KVM prints its kernel's first line by then
KVM_PROBE_MAX=20  # s: and has sent its results by then
KVM_DEV=/dev/kvm
# qemu_exact_prepare (prepare_images): exact boots run the pinned root's
# QEMU (its version decides the digits), real ones the host's: when a
# planned run is exact (runs_have clock exact), ROOT_QEMU_DIR is the
# root (made if need be); a bundle's runs boot its builder's QEMU, the
# root of the bundle's lock.  host.conf names the one a run used.
qemu_exact_prepare() {
	ROOT_QEMU_DIR=
	runs_have clock exact || return 0
	[ "$(root_mode)" = pinned ] || return 0
	qe_lock=$(bundle_dir)/inputs/root/bookworm.lock
	if [ -n "$(bundle_dir)" ] && [ -f "$qe_lock" ]; then
		ROOT_QEMU_DIR=$(root_ready "$qe_lock" "$(bundle_root_debs "$(bundle_dir)")") || exit 2
	else
		ROOT_QEMU_DIR=$(root_ready) || exit 2
	fi
	[ -x "$ROOT_QEMU_DIR/usr/bin/qemu-system-x86_64" ] || die "the pinned root ${ROOT_QEMU_DIR:-(none)} has no qemu-system-x86_64"
	run_qemu exact >/dev/null
}

# run_qemu CLOCK: host.conf's lines for the QEMU a boot of CLOCK runs:
# qemu=root:ID (exact: the pinned root's) or qemu=host, qemu_version (its
# own) and qemu_debian (the package's).  host.conf is read as job.conf is
# (the pivot, the reports): values in contract.h's characters, no blank.
run_qemu() {
	if [ "$1" = exact ] && [ -n "${ROOT_QEMU_DIR:-}" ]; then
		# shellcheck disable=SC2046 # root_qemu_words: one word a line, no spaces
		[ -n "${RQ_ROOT:-}" ] || RQ_ROOT=$(rq_lines "root:${ROOT_QEMU_DIR##*/}" "$($(root_qemu_words "$ROOT_QEMU_DIR") --version | head -n 1)")
		printf '%s\n' "$RQ_ROOT"
	else
		[ -n "${RQ_HOST:-}" ] || RQ_HOST=$(rq_lines host "$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)")
		printf '%s\n' "$RQ_HOST"
	fi
}
rq_lines() { # WHERE VERSION-LINE: run_qemu's lines
	printf 'qemu=%s\n' "$1"
	printf '%s\n' "$2" | awk '{ if (match($0, /version [^ ]+/)) print "qemu_version=" substr($0, RSTART + 8, RLENGTH - 8)
		if (match($0, /\(Debian [^)]+\)/)) print "qemu_debian=" substr($0, RSTART + 8, RLENGTH - 9) }' |
		tr -c 'A-Za-z0-9._%+@:/=,\n-' _
}

# accel_picked: the last pick_accel's ACCEL (kvm or tcg).
accel_picked() { printf '%s\n' "$ACCEL"; }
pick_accel() { # BOARD CLOCK: sets ACCEL
	[ "${2:-real}" != exact ] || { ACCEL=tcg; return 0; }
	pa_acc=$(board_get "${1:-}" ACCEL)
	case $pa_acc in tcg | kvm) ACCEL=$pa_acc; return 0 ;; esac
	if [ -n "$ACCEL_CACHE" ]; then ACCEL=$ACCEL_CACHE; return 0; fi
	ACCEL_CACHE=tcg ACCEL=tcg
	# No probe where KVM cannot work.
	if ! { [ -r "$KVM_DEV" ] && [ -w "$KVM_DEV" ]; }; then
		note "KVM: tcg (no $KVM_DEV this user can read and write: no probe)"
		return 0
	fi
	pkey="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
	pfile=$KREPRO_CACHE/kvm-probe
	if [ -f "$pfile" ] && [ "$(sed -n 1p "$pfile")" = "$pkey" ]; then
		case $(sed -n 2p "$pfile") in kvm) ACCEL_CACHE=kvm ;; esac
		pa_when=$(sed -n '3{s/[^0-9A-Za-z:. -]//g;p;}' "$pfile")
		pa_why=$(sed -n '4{s/[^[:print:]]//g;p;}' "$pfile" | cut -c1-200)
		note "KVM: $ACCEL_CACHE (probe verdict of ${pa_when:-an earlier run}${pa_why:+: $pa_why}, cached in $pfile for this host kernel and QEMU; remove it to probe again)"
		ACCEL=$ACCEL_CACHE
		return 0
	fi
	firstv=$(plan_fact variants)
	kvm_probe "$(variant_kernel "${firstv%% *}")" "${1:-}"
	ACCEL_CACHE=$KVM_VERDICT ACCEL=$KVM_VERDICT
	printf '%s\n%s\n%s\n%s\n' "$pkey" "$KVM_VERDICT" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$KVM_WHY" >"$pfile"
	note "KVM: $KVM_VERDICT (probe boot: $KVM_WHY, after ${BOOT_SECONDS:-0} s; verdict cached in $pfile)"
}

# kvm_probe KERNEL BOARD: a probe guest (job probe=1: init sends one file and
# powers off) booted under KVM on BOARD's machine, watched until kvm_probe_verdict gives one:
# KVM_VERDICT, kvm or tcg, and KVM_WHY, what the probe showed.
kvm_probe() {
	rm -rf "$TMPD/probe"
	mkdir -p "$TMPD/probe"
	echo probe=1 >"$TMPD/probe.conf"
	single_initrd "$TMPD/probe.conf"
	KVM_WHY=
	BOOT_WATCH=kvm_probe_watch
	boot_guest "${2:-}" real "$1" "$SLOT_TMP/initrd" "$TMPD/probe" "$KVM_PROBE_MAX" kvm || true
	BOOT_WATCH=
	[ -n "$KVM_WHY" ] || KVM_WHY=$(kvm_probe_verdict "$TMPD/probe" "$BOOT_SECONDS" exited)
	KVM_VERDICT=${KVM_WHY%%:*}
	KVM_WHY=${KVM_WHY#*: }
}

# kvm_probe_watch DIR SECONDS: boot_guest's watch: 0 (stop) once there is
# a verdict (in KVM_WHY).
kvm_probe_watch() {
	KVM_WHY=$(kvm_probe_verdict "$1" "$2")
	[ -n "$KVM_WHY" ]
}

# kvm_probe_verdict DIR SECONDS [exited]: the verdict of a probe boot (its
# console.log and qemu.log in DIR) SECONDS after it started, as "kvm:
# REASON" or "tcg: REASON"; nothing while it is too early to say (unless
# QEMU exited).
kvm_probe_verdict() {
	pv_err=$(grep -m 1 'KVM internal error\|emulation failure\|failed to initialize [Kk][Vv][Mm]\|Could not access KVM' "$1/qemu.log" 2>/dev/null | cut -c1-120)
	if [ -n "$pv_err" ]; then
		echo "tcg: QEMU says '$pv_err'"
	elif grep -qF "$KVM_PROBE_DONE" "$1/console.log" 2>/dev/null; then
		echo "kvm: the probe guest booted and sent its results"
	elif ! grep -q 'Linux version' "$1/console.log" 2>/dev/null; then
		if [ "${3:-}" = exited ]; then
			echo "tcg: QEMU exited before the kernel's first line"
		elif [ "$2" -ge "$KVM_PROBE_FIRST" ]; then
			echo "tcg: no kernel line on the console within $KVM_PROBE_FIRST s"
		fi
	elif [ "${3:-}" = exited ]; then
		echo "tcg: the probe guest stopped before it sent its results"
	elif [ "$2" -ge "$KVM_PROBE_MAX" ]; then
		echo "tcg: the probe guest did not send its results within $KVM_PROBE_MAX s"
	fi
}
