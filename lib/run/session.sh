# shellcheck shell=sh
# lib/run/session.sh: one run-matrix process: its temp folder (TMPD), the children it
# must stop on exit (guests, slots), and the lock on its results tree.
# Reads: RESULTS, SLOT_PIDS (cleanup; each backend stops its own children:
# backend_stop); environment: TMPDIR.  Sets:
# TMPD, SLOT_TMP, SLOT_PIDS, QEMU_PID (session_start).
# Shared (bench/shared-state.sh): TMPD, SLOT_TMP (a parallel slot's own
# folder): the session's temp folders, which every module writes in.

# session_start: a fresh TMPD, older ones of killed run-matrix processes
# removed, and the traps that stop every child on exit.
session_start() {
	# Temp folders of run-matrix processes that were killed outright go first.
	for d in "${TMPDIR:-/tmp}"/krepro.*; do
		[ -f "$d/pid" ] || continue
		kill -0 "$(cat "$d/pid" 2>/dev/null)" 2>/dev/null || rm -rf "$d"
	done
	TMPD=$(mktemp -d "${TMPDIR:-/tmp}/krepro.XXXXXX")
	echo $$ >"$TMPD/pid"
	SLOT_TMP=$TMPD
	SLOT_PIDS=
	QEMU_PID=
	# boot_guest's bound (guest_output_max), checked before anything runs
	guest_output_max >/dev/null
	trap cleanup EXIT
	trap 'note "interrupted; completed runs are kept, rerun to resume"; exit 130' INT TERM HUP
}

stop_pid() { # pid: terminate, then reap
	[ -n "$1" ] || return 0
	terminate "$1"
	wait "$1" 2>/dev/null || true
}
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	for p in $SLOT_PIDS; do kill -TERM "$p" 2>/dev/null || true; done
	for p in $SLOT_PIDS; do wait "$p" 2>/dev/null || true; done
	backend_stop
	rm -rf "$TMPD"
	temps_remove
}

lock_results() {
	# One run-matrix per results tree at a time.  The lock file names its
	# holder: a run-matrix killed outright leaves children (a sleep, a slot
	# between runs) holding the lock for a moment after it is gone, and a
	# rerun waits for them instead of refusing.
	refuse_link "$RESULTS/.lock"
	exec 9>>"$RESULTS/.lock"
	if command -v flock >/dev/null 2>&1 && ! flock -n 9; then
		holder=$(head -c 20 "$RESULTS/.lock" | tr -cd 0-9)
		if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
			note "run-matrix $holder is gone; waiting up to 30 s for what it left running to release $RESULTS/.lock"
			flock -w 30 9 || die "$RESULTS/.lock is still held by leftovers of run-matrix $holder (see: fuser $RESULTS/.lock)"
		else
			die "$RESULTS is in use by another run-matrix${holder:+ (pid $holder)} (lock $RESULTS/.lock)"
		fi
	fi
	# the holder's PID: a full disk is said in the kit's words (written)
	written "$RESULTS/.lock" lock_holder "$RESULTS/.lock" ||
		die "$RESULTS: cannot write its lock file (full or read-only?): nothing run"
}
lock_holder() { echo $$ >"$1"; } # FILE: this run-matrix's PID in FILE
