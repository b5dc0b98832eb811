# shellcheck shell=sh
# lib/run/backends/lab.sh: the lab backend (lib/run/backend.sh): a run on a lab board: ssh,
# the board's own kexec-tools, results over TCP.
# Reads: SLOT_TMP, variant_kernel, guest_cmdline (lib/run/boot.sh), H,
# KREPRO_ROOT, JOBS (lab_accepts).
# Sets: BOOT_REASON, BOOT_SECONDS, CONSOLE_PID, LISTEN_PID, and lr_board,
# lr_cell, lr_v, lr_rdir: the run lab_run_one was given (run_record), which
# this module's functions read.

# lab_accepts CELL CLOCK BOARD MODEL: a lab board, its clock (real), one run at a time.
lab_accepts() {
	board_is "$3" TYPE lab || { echo "board $3 is a QEMU board"; return 1; }
	if [ "$4" = on ]; then
		BACKEND_KEY=memory_model
		echo "memory_model: on needs a QEMU board: the model is a QEMU plugin, a lab machine has its own caches"
		return 1
	fi
	board_keeps_clock "$2" "$3" || return 1
	[ "$JOBS" -le 1 ] || { echo "-j $JOBS: a lab board boots one run at a time"; return 1; }
}

lab_facts() { :; }
lab_check() { need_cmd ssh openssh-client; }
lab_prepare() { :; }
lab_collect() { :; }
# lab_stop: the console command and the results listener of a run.
lab_stop() {
	for p in ${CONSOLE_PID:-} ${LISTEN_PID:-}; do kill -TERM "$p" 2>/dev/null || true; done
}

# lab_run_one RUN CELL-NUMBER [INDEX]: one planned run booted and stored.
lab_run_one() {
	lr=$(run_record "$1" "$2")
	prepare_run "$lr"
	lr_board=$(run_field "$lr" board) lr_cell=$(run_field "$lr" words)
	lr_v=$(run_field "$lr" variant) lr_rdir=$(run_field "$lr" result)
	progress "$lr_v run $1 on $lr_board (lab: ssh $(lab_board SSH), kexec)" "${3:-}"
	BOOT_SECONDS=
	run_lab || true
	finish_run "$lr_rdir" 0 "$BOOT_REASON" "$lr_cell" "$BOOT_SECONDS"
}

# --- lab boards: ssh, the board's own kexec-tools, results over TCP ---------

# lab_board KEY: the run's lab board's KEY (board_get: CONSOLE, SSH, ...).
lab_board() { board_get "$lr_board" "$1"; }

# lab_ssh ARGS...: one command on the board, never prompting.
lab_ssh() {
	lssh_cfg=$(lab_board SSH_CONFIG)
	# shellcheck disable=SC2086 # the optional -F pair
	ssh ${lssh_cfg:+-F "$lssh_cfg"} -o BatchMode=yes -o ConnectTimeout=10 \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 "$(lab_board SSH)" "$@" 9>&-
}

# lab_wait_ssh SECONDS: 0 once the board's own system answers over ssh.
lab_wait_ssh() {
	lw_end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$lw_end" ]; do
		lab_ssh true </dev/null >/dev/null 2>&1 && return 0
		sleep 2
	done
	return 1
}

# lab_power_cycle: the board's power_cycle command, then wait for ssh.
lab_power_cycle() {
	lpc_power=$(lab_board POWER)
	note "    power-cycling $lr_board: $lpc_power"
	(cd "$KREPRO_ROOT" && sh -c "$lpc_power") </dev/null >>"$TMPD/power.log" 2>&1 9>&- ||
		note "    power_cycle command failed: $(tail -n 1 "$TMPD/power.log")"
	lab_wait_ssh "$(lab_board BOOT_TIMEOUT)"
}

# run_lab: one planned run on a lab board.  The board runs its own system
# with sshd; the variant's kernel and the initramfs with the job are copied
# over, loaded with the board's kexec-tools and executed.  The guest sends
# its frames to a krepro-listen on this controller and reboots into the
# board's system; the console command's output is the run's console.log.
# A board that does not answer, hangs or panics is power-cycled.
run_lab() {
	if ! lab_wait_ssh "$(lab_board BOOT_TIMEOUT)"; then
		note "    $lr_board does not answer ssh ($(lab_board SSH))"
		lab_power_cycle || {
			BOOT_REASON="board $lr_board unreachable over ssh, even after a power cycle"
			return 1
		}
	fi
	tmo=$(run_timeout "$lr")
	(cd "$KREPRO_ROOT" && exec sh -c "exec $(lab_board CONSOLE)") </dev/null >"$lr_rdir.tmp/console.log" 2>&1 9>&- &
	CONSOLE_PID=$!
	rm -f "$TMPD/port"
	# Only the board may send results (board key address:).
	rl_address=$(lab_board ADDRESS)
	"$H/krepro-listen" -b "$(lab_board LISTEN)" ${rl_address:+-a "$rl_address"} -P "$TMPD/port" -t "$((tmo + $(lab_board BOOT_TIMEOUT)))" \
		-o "$lr_rdir.tmp/frames.bin" 2>"$lr_rdir.tmp/listen.log" 9>&- &
	LISTEN_PID=$!
	i=0
	while [ ! -s "$TMPD/port" ] && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$TMPD/port" ] || die "krepro-listen did not start: $(cat "$lr_rdir.tmp/listen.log")"
	{
		echo "result_port=tcp:$(lab_board CONTROLLER):$(cat "$TMPD/port")"
		echo "net=$(lab_board NET)"
		echo "after=reboot"
	} >>"$lr_rdir.tmp/job.conf"
	single_initrd "$lr_rdir.tmp/job.conf"
	rl_cmdline=$(lab_board CMDLINE)
	cmdline="$(guest_cmdline)${rl_cmdline:+ $rl_cmdline}$(kernel_args "$lr_cell")"
	echo "ssh $(lab_board SSH): kexec -l $lr_v.bzImage --append='$cmdline'" >"$lr_rdir.tmp/boot.cmd"
	BOOT_REASON=
	t0=$(date +%s)
	if ! lab_ssh 'mkdir -p /tmp/krepro && cat >/tmp/krepro/bzImage' <"$(variant_kernel "$lr_v")" ||
		! lab_ssh 'cat >/tmp/krepro/initrd' <"$SLOT_TMP/initrd"; then
		BOOT_REASON="could not copy the kernel and initrd to $(lab_board SSH)"
	elif ! lab_ssh "kexec -s -l /tmp/krepro/bzImage --initrd=/tmp/krepro/initrd --append='$cmdline' ||
		kexec -l /tmp/krepro/bzImage --initrd=/tmp/krepro/initrd --append='$cmdline'" \
		</dev/null >"$lr_rdir.tmp/kexec.log" 2>&1; then
		BOOT_REASON="kexec -l failed on the board: $(tail -n 1 "$lr_rdir.tmp/kexec.log")"
	else
		# Detached, so this ssh session ends cleanly before the kernel goes.
		lab_ssh '(sleep 1; kexec -e) </dev/null >/dev/null 2>&1 &' </dev/null >/dev/null 2>&1 || true
		t=0
		while kill -0 "$LISTEN_PID" 2>/dev/null; do
			if [ "$t" -ge "$tmo" ]; then
				BOOT_REASON="timeout after $tmo s (hang)"
				break
			fi
			BOOT_REASON=$(console_fault "$lr_rdir.tmp/console.log")
			[ -z "$BOOT_REASON" ] || break
			if [ "$(grep -c 'Linux version' "$lr_rdir.tmp/console.log")" -ge 2 ]; then
				BOOT_REASON="early reboot: the board rebooted before sending results"
				break
			fi
			sleep 1
			t=$((t + 1))
		done
	fi
	if [ -z "$BOOT_REASON" ]; then
		wait "$LISTEN_PID" || BOOT_REASON="results: $(tail -n 1 "$lr_rdir.tmp/listen.log")"
	else
		stop_pid "$LISTEN_PID"
	fi
	LISTEN_PID=
	BOOT_SECONDS=$(($(date +%s) - t0))
	sleep 2 # the last console lines
	stop_pid "$CONSOLE_PID"
	CONSOLE_PID=
	[ -n "$BOOT_REASON" ] || BOOT_REASON=$(console_fault "$lr_rdir.tmp/console.log")
	[ -f "$lr_rdir.tmp/frames.bin" ] || : >"$lr_rdir.tmp/frames.bin"
	if [ -n "$BOOT_REASON" ]; then
		# panic=-1 reboots a panicked board at once; a hung one needs power.
		case $BOOT_REASON in
		timeout*) lab_power_cycle ;;
		*) lab_wait_ssh "$(lab_board BOOT_TIMEOUT)" || lab_power_cycle ;;
		esac || note "    $lr_board still does not answer"
		return 1
	fi
	return 0
}
