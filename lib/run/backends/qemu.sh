# shellcheck shell=sh
# lib/run/backends/qemu.sh: the qemu backend (lib/run/backend.sh): a run is
# one QEMU boot: the initrd with its job, the machine from the board (exact
# or real clock), booted and watched by lib/run/boot.sh (boot_guest), and
# in real mode the host's contention beside it.
# Reads: the run's record (run_record: its board, through board_get, cell,
# variant, clock, directory), SLOT_TMP, variant_kernel, JOBS;
# environment: KREPRO_CONTENDED_PERMILLE.  Sets: nothing global.

# qemu_accepts CELL CLOCK BOARD MODEL: a QEMU board, a clock it can keep, and parallel
# guests (-j N) only where results do not depend on host load.  A rule on
# the cell's own keys goes here too, read with cell_get "$1" KEY (e.g. one
# that needs exact mode on a QEMU board: "memory_model: on").
qemu_accepts() {
	board_is "$3" TYPE qemu || { echo "board $3 is a lab machine"; return 1; }
	# memory_model: on (MODEL, the cell's fact) needs exact mode, which
	# lib/shared/cells.awk checked, on a QEMU board: this one.
	board_keeps_clock "$2" "$3" || return 1
	if [ "$JOBS" -gt 1 ] && [ "$2" != exact ]; then
		BACKEND_KEY=clock
		echo "-j $JOBS: parallel guests need clock: exact (real-mode timings depend on host load)"
		return 1
	fi
}

qemu_facts() { echo slots yes; } # exact guests boot in JOBS slots
# qemu_check: no boot starts without QEMU (a bundle run builds nothing,
# so nothing else asks for it).
qemu_check() { need_cmd qemu-system-x86_64 qemu-system-x86; }
qemu_prepare() { :; }
qemu_collect() { :; }
qemu_stop() { boot_guest_stop; }

# qemu_run_one RUN CELL-NUMBER [INDEX]: one planned run booted and stored.
qemu_run_one() {
	qr=$(run_record "$1" "$2")
	prepare_run "$qr"
	qr_board=$(run_field "$qr" board) qr_clock=$(run_field "$qr" clock)
	qr_cell=$(run_field "$qr" words) qr_rdir=$(run_field "$qr" result)
	qr_kernel=$(variant_kernel "$(run_field "$qr" variant)")
	pick_accel "$qr_board" "$qr_clock"
	progress "$(run_field "$qr" variant) run $1 on $qr_board ($(accel_picked), clock $qr_clock)" "${3:-}"
	single_initrd "$qr_rdir.tmp/job.conf"
	rp_mark=$(host_load_mark)
	qr_plugin=
	[ "$(run_field "$qr" model)" != on ] || qr_plugin=$(model_plugin_arg "$qr_rdir.tmp" "$qr_kernel" "$qr_board") || exit 2
	boot_guest "$qr_board" "$qr_clock" "$qr_kernel" "$SLOT_TMP/initrd" "$qr_rdir.tmp" "$(run_timeout "$qr")" "$(accel_picked)" \
		"$(run_boot_args "$qr")" "$qr_plugin" || true
	# Real-mode timings depend on the host: its contention is recorded.
	[ "$qr_clock" = exact ] || host_load_record "$rp_mark" "$qr_rdir.tmp/host.conf"
	finish_run "$qr_rdir" 0 "$(boot_guest_said reason)" "$qr_cell" "$(boot_guest_said seconds)"
}

# host_load_mark: the host's CPU pressure stall total (us, /proc/pressure/cpu
# "some"), steal and total jiffies (/proc/stat) and uptime (cs) now, as
# "PSI STEAL JIFFIES UPTIME" ("-" where the host has no PSI).
host_load_mark() {
	hl_psi=$(sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/cpu 2>/dev/null)
	hl_up=$(cut -d' ' -f1 /proc/uptime | tr -d .)
	awk -v psi="${hl_psi:--}" -v up="$hl_up" '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print psi, $9, t, up; exit }' /proc/stat
}

# host_load_record MARK FILE: what the host did beside a real-mode boot
# since MARK (host_load_mark), as host.conf lines (appended to the matrix's
# forms, write_matrix_forms): CPU pressure and steal
# in per mille of the boot's wall time and of all CPU time, the 1-minute
# load, and contended=1 when the pressure reached KREPRO_CONTENDED_PERMILLE
# (default 100: a runnable task waited for a CPU a tenth of the time).
# Compare and report name such runs (docs/EXACT.md, real mode).
host_load_record() {
	# shellcheck disable=SC2086,SC2046 # marks are four numbers each
	set -- $1 "$2" $(host_load_mark)
	awk -v p0="$1" -v s0="$2" -v j0="$3" -v u0="$4" -v p1="$6" -v s1="$7" -v j1="$8" -v u1="$9" \
		-v lim="${KREPRO_CONTENDED_PERMILLE:-100}" -v ld1="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
		wall = (u1 - u0) * 10000
		if (p0 != "-" && p1 != "-" && wall > 0) {
			pm = int((p1 - p0) * 1000 / wall + 0.5)
			if (pm > 1000) pm = 1000
			printf "cpu_pressure_permille=%d\n", pm
		}
		if (j1 > j0) printf "steal_permille=%d\n", int((s1 - s0) * 1000 / (j1 - j0) + 0.5)
		printf "load1=%s\n", ld1
		printf "contended=%d\n", (pm != "" && pm >= lim)
	}' >>"$5"
}
