# shellcheck shell=sh
# lib/backend.sh: the backends behind one interface, chosen in one place
# (backend_select), and the plan run on them (run_plan: one run at a time, or
# parallel slots in exact mode).
#
# A backend NAME is a module defining NAME_check, NAME_prepare, NAME_run_one
# and NAME_collect; the rest of the kit calls backend_<verb>:
#   backend_check CELL      plan time, a cell's board loaded: can NAME run it
#                           here (the board, the cell, the host's commands); dies
#   backend_prepare         before the first run of the plan
#   backend_run_one RUN CELL-NUMBER [PLAN-INDEX]
#                           one planned run: booted and stored, or staged
#   backend_collect         after the last run_one: what is left to boot,
#                           wait for or say
# The backends (a new one: its file, sourced by run-matrix.sh, and one line
# in backend_select):
#   qemu         lib/boot-qemu.sh   a QEMU board, one boot per run
#   lab          lib/boot-lab.sh    a lab board: ssh, kexec from its own system
#   kexec        lib/boot-kexec.sh  boot: kexec, --kexec: a chain in one QEMU
#   lava_export  lib/lava.sh        --export-lava DIR: job files, no boot; and
#                                   import-lava, which reads one job's log back
#   lava_server  lib/lava.sh        --lava URL: jobs submitted, waited for, imported
# backend_select sets, beside BACKEND, the facts other modules read instead
# of the board's type or the LAVA options:
#   BACKEND_GUEST    qemu: the kernel boots in a QEMU guest (a qemu board);
#                    machine: on the board's own machine, kexec'd (a lab board)
#   BACKEND_BUILDS   1: kernels and initramfs are built here (or come from a
#                    bundle); empty for import-lava (the export's images)
#   BACKEND_LAVA_LOG 1: a run's frames come inside a LAVA log (imported)
#   BACKEND_SLOTS    1: runs may boot JOBS at once (-j N)
#   BACKEND_REPORT   1: the runs' results are here once collected (a report
#                    follows); empty for an export
# Reads: B_TYPE (load_board; only with a CELL), BOOT_MODE, LAVA_SERVER,
# LAVA_DIR, IMPORT_DIR, JOBS, MATRIX, SLOT_PIDS and QEMU_PID (session_start),
# TMPD/plan, TMPD/cells.  Sets: BACKEND and BACKEND_* (backend_select);
# run_plan sets START, BOOT_MODE, done_runs, failed_runs, SLOT_PIDS and, in
# each slot, SLOT_TMP.

# backend_select [CELL]: BACKEND and its facts from the options and, with
# CELL (its board loaded), the board and the cell's boot: (unless --kexec or
# run_plan set BOOT_MODE).  run-matrix calls it once the options are read,
# select_cell and plan_check_boots for each cell.
backend_select() {
	BACKEND_GUEST=qemu BACKEND_BUILDS=1 BACKEND_LAVA_LOG='' BACKEND_SLOTS='' BACKEND_REPORT=1
	[ -z "${1:-}" ] || [ "$B_TYPE" != lab ] || BACKEND_GUEST=machine
	if [ -n "$LAVA_SERVER" ]; then
		BACKEND=lava_server BACKEND_LAVA_LOG=1
	elif [ -n "$LAVA_DIR$IMPORT_DIR" ]; then
		BACKEND=lava_export BACKEND_LAVA_LOG=1 BACKEND_REPORT=''
		[ -z "$IMPORT_DIR" ] || BACKEND_BUILDS=''
	elif [ "${BOOT_MODE:-$(cell_get "${1:-}" boot)}" = kexec ]; then
		BACKEND=kexec
	elif [ "$BACKEND_GUEST" = machine ]; then
		BACKEND=lab
	else
		BACKEND=qemu BACKEND_SLOTS=1
	fi
}

backend_check() { "${BACKEND}_check" "$@"; }
backend_prepare() { "${BACKEND}_prepare"; }
backend_collect() { "${BACKEND}_collect"; }

# backend_run_one RUN CELL-NUMBER [INDEX]: on the backend of the run's cell.
backend_run_one() {
	select_cell "$2"
	"${BACKEND}_run_one" "$@"
}

# run_plan: every planned run on the backend, the boot mode chosen once
# (--kexec, else the first cell's boot:); the session's backend is the
# first cell's (a plan's cells share it, but for qemu and lab boards, whose
# prepare and collect are alike).
run_plan() {
	START=$(date +%s)
	done_runs=0
	failed_runs=0
	BOOT_MODE=${BOOT_MODE:-$(cell_value "$(head -n 1 "$TMPD/cells")" boot)}
	case $BOOT_MODE in kexec | each) ;; *) die "$MATRIX: boot must be each or kexec" ;; esac
	select_cell 1
	backend_prepare
	if [ "$JOBS" -gt 1 ] && [ -n "$BACKEND_SLOTS" ]; then
		run_slots
	else
		while read -r r k; do
			backend_run_one "$r" "$k"
		done <"$TMPD/plan"
	fi
	backend_collect
}

# run_slots: JOBS parallel slots over TMPD/plan (exact mode).
run_slots() {
	# Slot I boots plan lines I, I+N, ... in order; exact results do not
	# depend on which slot ran them or on what ran beside them.
	i=1
	while [ "$i" -le "$JOBS" ]; do
		awk -v n="$JOBS" -v s="$i" '(NR - s) % n == 0 { print NR, $0 }' "$TMPD/plan" >"$TMPD/plan.$i"
		(
			trap - EXIT
			trap 'stop_pid "$QEMU_PID"; exit 130' INT TERM HUP
			SLOT_TMP=$TMPD/slot$i
			mkdir -p "$SLOT_TMP"
			# shellcheck disable=SC2030 # the slot's count goes back through a file
			failed_runs=0
			while read -r idx r k; do
				# A slot outlives a run-matrix killed with SIGKILL: it
				# starts nothing more once its parent is gone.
				kill -0 "$$" 2>/dev/null || exit 1
				backend_run_one "$r" "$k" "$idx"
			done <"$TMPD/plan.$i"
			echo "$failed_runs" >"$TMPD/failed.$i"
		) &
		SLOT_PIDS="$SLOT_PIDS $!"
		i=$((i + 1))
	done
	for p in $SLOT_PIDS; do wait "$p" || true; done
	SLOT_PIDS=
	i=1
	while [ "$i" -le "$JOBS" ]; do
		[ -f "$TMPD/failed.$i" ] || die "parallel slot $i stopped before its runs were done"
		# shellcheck disable=SC2031 # the parent's own count, plus the slot's
		failed_runs=$((failed_runs + $(cat "$TMPD/failed.$i")))
		i=$((i + 1))
	done
}
