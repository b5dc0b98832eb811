# shellcheck shell=sh
# lib/run/backend.sh: the backends behind one interface, chosen in one place
# (backend_pick: the first of BACKENDS that accepts a cell), and the plan run
# on them (run_plan: each backend's runs in turn, one at a time or in
# parallel slots).
#
# A backend NAME is a module defining
#   NAME_accepts CELL CLOCK BOARD MODEL
#                            plan time (--dry-run too): the cell, its clock,
#                            its board (read with board_get/board_is) and
#                            memory_model (on/off); of the cell's words only
#                            its boot: (plan_check asks once for each of
#                            these that its cells have):
#                            0 when NAME runs the cell; else it prints why
#                            not (one line) and returns 1, or 2 when the
#                            cell (its boot:) or an option asked for NAME:
#                            then no later backend may take the cell
#   NAME_facts               prints the facts below that differ from
#                            backend_use's defaults, a "FACT VALUE" line
#                            each (no process: plan time calls it a cell)
#   NAME_check               before a build, once a session when a cell
#                            uses NAME: what it needs on this host
#                            (commands); dies
#   NAME_prepare             before the first of its runs
#   NAME_run_one RUN CELL-NUMBER [PLAN-INDEX]
#                            one planned run: booted and stored, or staged;
#                            the run is a record (run_record, lib/run/runs.sh)
#                            the backend reads, not the session's globals
#   NAME_collect             after its last run_one: what is left to boot,
#                            wait for or say
#   NAME_stop                the session ends (cleanup, a slot killed): its
#                            children stopped
# The backends, tried in this order (a new one: its file, sourced by
# run-matrix.sh, and its name here):
#   lava_server  lib/run/backends/lava.sh   --lava URL: jobs submitted, waited for, imported
#   lava_export  lib/run/backends/lava.sh   --export-lava DIR: job files, no boot; and
#                                           import-lava, which reads one job's log back
#   kexec        lib/run/backends/kexec.sh  boot: kexec, --kexec: a chain in one QEMU
#   lab          lib/run/backends/lab.sh    a lab board: ssh, kexec from its own system
#   qemu         lib/run/backends/qemu.sh   a QEMU board, one boot per run
BACKENDS="lava_server lava_export kexec lab qemu"
# What the backends share lives in lib/run/boot.sh; none calls another's
# functions (tests/cli_backends.sh checks it).  --kexec is the driver's
# option: the kexec backend takes every cell then, and LAVA refuses it.
KEXEC_ASKED=
backend_option_kexec() { KEXEC_ASKED=1; } # run-matrix's --kexec
backend_kexec_asked() { [ -n "$KEXEC_ASKED" ]; }
# The facts, which other modules ask through backend_builds and
# backend_reports instead of reading the options:
#   builds   yes: kernels and initramfs are built here (or come from a
#            bundle); no for import-lava (the export's images)
#   slots    yes: runs may boot JOBS at once (-j N); default no
#   report   yes: the runs' results are here once collected (a report
#            follows); no for an export
# Reads: JOBS, SLOT_PIDS (session_start), the run table (TMPD/runs.tsv:
# each run's backend, plan_check's answer);
# each backend's accepts its own options.  Sets: BACKEND and BACKEND_*
# (backend_use), BACKEND_WHY, BACKEND_KEY (backend_pick: plan_check puts
# its answers in the run table); run_plan starts the runs' count
# (runs_start) and sets failed_runs (a slot's), SLOT_PIDS,
# TMPD/backend.turns and backend.runs.<backend> and, in each slot,
# SLOT_TMP.  BACKEND_KEY is set by the backends' accepts.  Other
# modules ask backend_builds and backend_reports.
# Shared (bench/shared-state.sh): SLOT_TMP (a parallel slot's folder).

# backend_use NAME: BACKEND and its facts.
backend_use() {
	BACKEND=$1 BACKEND_BUILDS=1 BACKEND_SLOTS='' BACKEND_REPORT=1
	"${1}_facts" >"$TMPD/facts"
	while read -r bu_fact bu_val; do
		case $bu_val in yes) bu_val=1 ;; no) bu_val='' ;; *) die "${1}_facts: $bu_fact: expected yes or no, not '$bu_val'" ;; esac
		case $bu_fact in
		builds) BACKEND_BUILDS=$bu_val ;;
		slots) BACKEND_SLOTS=$bu_val ;;
		report) BACKEND_REPORT=$bu_val ;;
		*) die "${1}_facts: unknown fact '$bu_fact'" ;;
		esac
	done <"$TMPD/facts"
}

# backend_builds: 0 when the current backend (backend_use) boots images
# built here or taken from a bundle; backend_reports: 0 when its results
# are here once it collected them.
backend_builds() { [ -n "$BACKEND_BUILDS" ]; }
backend_reports() { [ -n "$BACKEND_REPORT" ]; }

# backend_pick CELL CLOCK BOARD MODEL: BACKEND, the first of BACKENDS whose accepts
# takes the cell, its facts set; 1 when none does, with
# BACKEND_WHY, every refusal tried ("NAME: reason" lines), and BACKEND_KEY,
# the matrix key a refusal named (a backend's accepts sets it), for the
# message.  No process: plan_check calls it once a cell.
backend_pick() {
	BACKEND_WHY='' BACKEND_KEY=''
	for bp_b in $BACKENDS; do
		bp_rc=0
		"${bp_b}_accepts" "$1" "$2" "$3" "$4" >"$TMPD/accepts" || bp_rc=$?
		[ "$bp_rc" != 0 ] || { backend_use "$bp_b"; return 0; }
		IFS= read -r bp_why <"$TMPD/accepts" || true
		BACKEND_WHY="$BACKEND_WHY
  $bp_b: ${bp_why:-refused (no reason given: a bug)}"
		[ "$bp_rc" = 1 ] || break
	done
	return 1
}

# backend_stop: every backend's children stopped (session cleanup, a slot).
backend_stop() {
	for bs_b in $BACKENDS; do "${bs_b}_stop"; done
}

# backend_run_one RUN CELL-NUMBER [INDEX]: on the backend in use (run_plan's
# turn: every run it hands over is that backend's).
backend_run_one() {
	"${BACKEND}_run_one" "$@"
}

# run_plan: every pending run of the run table on its backend (its column
# "backend"): each backend in turn (in the order of its first run)
# prepares, runs its runs in the plan's order (runs outer, cells inner)
# and collects, so a matrix whose cells need two backends runs both, with
# the prepare and collect of each.
run_plan() {
	runs_start
	: >"$TMPD/backend.turns"
	runs_column state backend run cell | awk -F '\t' -v dir="$TMPD" '$1 == "pending" {
		print $3, $4 > (dir "/backend.runs." $2)
		if (!($2 in seen)) { seen[$2] = 1; print $2 > (dir "/backend.turns") }
	}'
	while read -r rp_b; do
		backend_use "$rp_b"
		"${rp_b}_prepare"
		if [ "$JOBS" -gt 1 ] && [ -n "$BACKEND_SLOTS" ]; then
			run_slots "$TMPD/backend.runs.$rp_b"
		else
			while read -r r k; do
				backend_run_one "$r" "$k"
			done <"$TMPD/backend.runs.$rp_b"
		fi
		"${rp_b}_collect"
	done <"$TMPD/backend.turns"
}

# run_slots PLAN: JOBS parallel slots over PLAN's runs (exact mode).
run_slots() {
	# Slot I boots plan lines I, I+N, ... in order; exact results do not
	# depend on which slot ran them or on what ran beside them.  (rs_i:
	# a run's functions are this subshell's too; split_tenants' "i" once
	# made every slot write failed.0.)
	rs_i=1
	while [ "$rs_i" -le "$JOBS" ]; do
		awk -v n="$JOBS" -v s="$rs_i" '(NR - s) % n == 0 { print NR, $0 }' "$1" >"$TMPD/slot.$rs_i"
		(
			trap - EXIT
			trap 'backend_stop; exit 130' INT TERM HUP
			SLOT_TMP=$TMPD/slot$rs_i
			mkdir -p "$SLOT_TMP"
			# shellcheck disable=SC2030 # the slot's count goes back through a file
			failed_runs=0
			while read -r idx r k; do
				# A slot outlives a run-matrix killed with SIGKILL: it
				# starts nothing more once its parent is gone.
				kill -0 "$$" 2>/dev/null || exit 1
				backend_run_one "$r" "$k" "$idx"
			done <"$TMPD/slot.$rs_i"
			echo "$failed_runs" >"$TMPD/failed.$rs_i"
		) &
		SLOT_PIDS="$SLOT_PIDS $!"
		rs_i=$((rs_i + 1))
	done
	for p in $SLOT_PIDS; do wait "$p" || true; done
	SLOT_PIDS=
	rs_i=1
	while [ "$rs_i" -le "$JOBS" ]; do
		[ -f "$TMPD/failed.$rs_i" ] || die "parallel slot $rs_i stopped before its runs were done"
		# shellcheck disable=SC2031 # the parent's own count, plus the slot's
		failed_runs=$((failed_runs + $(cat "$TMPD/failed.$rs_i")))
		rs_i=$((rs_i + 1))
	done
}
