# shellcheck shell=sh
# lib/boot.sh: every planned run booted: one at a time, in parallel slots (exact
# mode), or as kexec chains; each run on its board's backend.

CHAIN_STEP=$(contract_get KRP_CHAIN_STEP) # the guest's "... N of M" line

# boot_all: every planned run, one way chosen once: kexec chains (boot:
# kexec, --kexec), parallel slots (-j N, exact mode), else one at a time.
boot_all() {
	START=$(date +%s)
	done_runs=0
	failed_runs=0
	BOOT_MODE=${BOOT_MODE:-$(cell_value "$(head -n 1 "$TMPD/cells")" boot)}
	case $BOOT_MODE in
	kexec) run_kexec_chains ;;
	each)
		if [ "$JOBS" -gt 1 ]; then
			run_slots
		else
			while read -r r k; do
				run_planned "$r" "$k"
			done <"$TMPD/plan"
		fi
		;;
	*) die "$MATRIX: boot must be each or kexec" ;;
	esac
}

# run_planned RUN CELL [INDEX]: one planned run, booted and stored.
run_planned() {
	prepare_run "$1" "$2"
	if [ "$B_TYPE" = lab ]; then
		progress "$V run $1 on $BOARD_NAME (lab: ssh $B_SSH, kexec)" "${3:-}"
		run_lab || true
		finish_run "$RDIR" 0 "$BOOT_REASON"
		return 0
	fi
	pick_accel
	progress "$V run $1 on $BOARD_NAME ($ACCEL, clock $BOOT_CLOCK)" "${3:-}"
	single_initrd "$RDIR.tmp/job.conf"
	rp_mark=$(host_load_mark)
	boot_guest "$(cat "$TMPD/kernel.$V")" "$SLOT_TMP/initrd" "$RDIR.tmp" "$(cell_timeout "$CELL")" "$ACCEL" \
		"$(boot_args "$CELL" "$1")" || true
	# Real-mode timings depend on the host: its contention is recorded.
	[ "$BOOT_CLOCK" = exact ] || host_load_record "$rp_mark" "$RDIR.tmp/host.conf"
	finish_run "$RDIR" 0 "$BOOT_REASON"
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
				run_planned "$r" "$k" "$idx"
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

run_kexec_chains() {
	# One QEMU per group of cells that differ only by variant: the guest
	# kexecs from step to step, A, B, A, B, ... in one machine.
	while read -r r k; do
		echo "$(dirname "$(variant_dir "$(sed -n "${k}p" "$TMPD/cells")")") $r $k"
	done <"$TMPD/plan" >"$TMPD/plan.grouped"
	for g in $(cut -d' ' -f1 "$TMPD/plan.grouped" | uniq | sort -u); do
		rm -rf "$TMPD/chain" "$TMPD/chainrun"
		mkdir -p "$TMPD/chain" "$TMPD/chainrun"
		printf 'dir /chain 0755 0 0\ndir /chain/kernels 0755 0 0\nfile /chain/plan %s 0644 0 0\n' \
			"$TMPD/chain/plan" >"$TMPD/chain.list"
		step=0 tmo=0 first=
		grep "^$g " "$TMPD/plan.grouped" | while read -r _ r k; do echo "$r $k"; done >"$TMPD/chain/steps"
		while read -r r k; do
			step=$((step + 1))
			prepare_run "$r" "$k"
			[ -n "$first" ] || { first=$V first_args=$(boot_args "$CELL" "$r"); }
			echo "$step $V" >>"$TMPD/chain/plan"
			cp "$RDIR.tmp/job.conf" "$TMPD/chain/job-$step.conf"
			echo "file /chain/job-$step.conf $TMPD/chain/job-$step.conf 0644 0 0" >>"$TMPD/chain.list"
			grep -q " /chain/kernels/$V.bzImage " "$TMPD/chain.list" ||
				echo "file /chain/kernels/$V.bzImage $(cat "$TMPD/kernel.$V") 0644 0 0" >>"$TMPD/chain.list"
			tmo=$((tmo + $(cell_timeout "$CELL")))
		done <"$TMPD/chain/steps"
		"$GIC" -t 0 "$TMPD/chain.list" | gzip -n >"$TMPD/chain.cpio.gz"
		cat "$INITRAMFS" "$TMPD/chain.cpio.gz" >"$TMPD/initrd"
		pick_accel
		note "kexec chain of $step boots in one QEMU ($ACCEL): $(cut -d' ' -f2 "$TMPD/chain/plan" | tr '\n' ' ')"
		# kernel_cmdline is part of the result path, so every step of a
		# group shares it; the guest hands its own command line on, with
		# each step's seed (exact mode).
		boot_guest "$(cat "$TMPD/kernel.$first")" "$TMPD/initrd" "$TMPD/chainrun" "$tmo" "$ACCEL" \
			" krepro.step=1$first_args" || true
		note "kexec chain ran ${BOOT_SECONDS}s${BOOT_REASON:+: $BOOT_REASON}"
		BOOT_SECONDS=
		step=0
		while read -r r k; do
			step=$((step + 1))
			prepare_run "$r" "$k"
			progress "$V run $r (chain step $step)"
			cp "$TMPD/chainrun/frames.bin" "$TMPD/chainrun/qemu.cmd" "$RDIR.tmp/"
			cp "$TMPD/chainrun/console.log" "$RDIR.tmp/console-chain.log"
			awk -v s="$step" -v m="$CHAIN_STEP" 'index($0, m " ") == 1 { cur = substr($0, length(m) + 2) + 0 } cur == s' \
				"$TMPD/chainrun/console.log" >"$RDIR.tmp/console.log"
			finish_run "$RDIR" "$step" "${BOOT_REASON:+chain: $BOOT_REASON}"
		done <"$TMPD/chain/steps"
	done
}
