# shellcheck shell=sh
# lib/run/backends/kexec.sh: the kexec chain backend (boot: kexec, --kexec): one QEMU
# per group of cells that differ only by variant; the guest kexecs from step
# to step, A, B, A, B, ... in one machine.
# Reads: variant_kernel, JOBS, each run's
# record (run_record: its cell, variant, board, clock, directory), the
# accelerator and the boot's outcome (lib/run/boot.sh: accel_picked,
# boot_guest_said), --kexec (backend_kexec_asked).  Sets:
# CHAIN_STEP, the runs of each chain (finish_run),
# TMPD/kexec.groups and TMPD/chain*.

CHAIN_STEP=$(contract_get KRP_CHAIN_STEP) # the guest's "... N of M" line

# kexec_accepts CELL CLOCK BOARD MODEL: the cells that ask for a chain (boot: kexec,
# --kexec), which runs in one QEMU: a QEMU board, a clock it keeps, one
# guest at a time.  A cell that asks and cannot have it is refused (2).
kexec_accepts() {
	if ! backend_kexec_asked; then
		case " $1 " in
		*" boot=kexec "*) ;;
		*) echo "boot: each (a chain is boot: kexec or --kexec)"; return 1 ;;
		esac
	fi
	BACKEND_KEY=boot
	if [ "$4" = on ]; then
		echo "memory_model: on needs one QEMU boot a run (the plugin's window and report are one boot's), not a kexec chain"
		return 2
	fi
	if ! board_is "$3" TYPE qemu; then
		echo "board $3: boot: kexec chains run in one QEMU; a lab board kexecs every run from its own system anyway"
		return 2
	fi
	board_keeps_clock "$2" "$3" || return 2
	[ "$JOBS" -le 1 ] || { echo "-j $JOBS: a kexec chain is one guest"; return 2; }
}

kexec_facts() { :; }
kexec_check() { need_cmd qemu-system-x86_64 qemu-system-x86; }
kexec_stop() { boot_guest_stop; } # its one QEMU is boot_guest's

kexec_prepare() { : >"$TMPD/kexec.groups"; }

# kexec_run_one RUN CELL-NUMBER: the run joins its group's chain (booted by
# kexec_collect): the group is its result path without the variant.
kexec_run_one() {
	echo "$(dirname "$(dirname "$(run_field "$(run_record "$1" "$2")" result)")") $1 $2" >>"$TMPD/kexec.groups"
}

# kexec_collect: each group's chain booted, each step stored as its run.
kexec_collect() {
	for g in $(cut -d' ' -f1 "$TMPD/kexec.groups" | uniq | sort -u); do
		rm -rf "$TMPD/chain" "$TMPD/chainrun"
		mkdir -p "$TMPD/chain" "$TMPD/chainrun"
		printf 'dir /chain 0755 0 0\ndir /chain/kernels 0755 0 0\nfile /chain/plan %s 0644 0 0\n' \
			"$TMPD/chain/plan" >"$TMPD/chain.list"
		step=0 tmo=0 first=
		grep "^$g " "$TMPD/kexec.groups" | while read -r _ r k; do echo "$r $k"; done >"$TMPD/chain/steps"
		while read -r r k; do
			step=$((step + 1))
			kr=$(run_record "$r" "$k")
			prepare_run "$kr"
			kr_v=$(run_field "$kr" variant)
			# the chain boots on its first run's board and clock (a group
			# differs only by variant)
			[ -n "$first" ] || first=$kr_v first_args=$(run_boot_args "$kr") \
				kc_board=$(run_field "$kr" board) kc_clock=$(run_field "$kr" clock)
			echo "$step $kr_v" >>"$TMPD/chain/plan"
			cp "$(run_field "$kr" result).tmp/job.conf" "$TMPD/chain/job-$step.conf"
			echo "file /chain/job-$step.conf $TMPD/chain/job-$step.conf 0644 0 0" >>"$TMPD/chain.list"
			grep -q " /chain/kernels/$kr_v.bzImage " "$TMPD/chain.list" ||
				echo "file /chain/kernels/$kr_v.bzImage $(variant_kernel "$kr_v") 0644 0 0" >>"$TMPD/chain.list"
			tmo=$((tmo + $(run_timeout "$kr")))
		done <"$TMPD/chain/steps"
		# The accelerator first: a KVM probe writes its own initrd where the
		# chain's goes ($SLOT_TMP/initrd), and the chain then booted the
		# probe's job, sending nothing (a first run that is a chain).
		pick_accel "$kc_board" "$kc_clock"
		kc_accel=$(accel_picked)
		initrd_with "$TMPD/chain.list" "$TMPD/initrd"
		note "kexec chain of $step boots in one QEMU ($kc_accel): $(cut -d' ' -f2 "$TMPD/chain/plan" | tr '\n' ' ')"
		# kernel_cmdline is part of the result path, so every step of a
		# group shares it; the guest hands its own command line on, with
		# each step's seed (exact mode).
		boot_guest "$kc_board" "$kc_clock" "$(variant_kernel "$first")" "$TMPD/initrd" "$TMPD/chainrun" "$tmo" "$kc_accel" \
			" krepro.step=1$first_args" || true
		kc_why=$(boot_guest_said reason)
		note "kexec chain ran $(boot_guest_said seconds)s${kc_why:+: $kc_why}"
		step=0
		while read -r r k; do
			step=$((step + 1))
			kr=$(run_record "$r" "$k")
			prepare_run "$kr"
			kr_rdir=$(run_field "$kr" result)
			progress "$(run_field "$kr" variant) run $r (chain step $step)"
			cp "$TMPD/chainrun/frames.bin" "$TMPD/chainrun/qemu.cmd" "$kr_rdir.tmp/"
			cp "$TMPD/chainrun/console.log" "$kr_rdir.tmp/console-chain.log"
			awk -v s="$step" -v m="$CHAIN_STEP" 'index($0, m " ") == 1 { cur = substr($0, length(m) + 2) + 0 } cur == s' \
				"$TMPD/chainrun/console.log" >"$kr_rdir.tmp/console.log"
			# a step's seconds are the chain's: none said a run
			finish_run "$kr_rdir" "$step" "${kc_why:+chain: $kc_why}" "$(run_field "$kr" words)"
		done <"$TMPD/chain/steps"
	done
}
