# shellcheck shell=sh
# lib/lava.sh: run-matrix.sh and LAVA: --export-lava writes one job definition per
# planned run (docs/SCALE.md); import-lava reads a job's console log back into
# the result layout.

RESULTS_SENT=$(contract_get KRP_RESULTS_SENT) # a LAVA job waits for it

# import_lava_args [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG: sets IMPORT_*.
import_lava_args() {
	while [ $# -gt 3 ]; do
		case $1 in
		-o) RESULTS=$2; shift 2 ;;
		--rerun) RERUN=1; shift ;;
		*) die "import-lava: unknown option '$1'" ;;
		esac
	done
	[ $# -eq 3 ] || die "usage: ./run-matrix.sh import-lava [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG"
	IMPORT_DIR=$1 IMPORT_N=$2 IMPORT_LOG=$3
	case $IMPORT_N in '' | *[!0-9]* | ???????*) die "import-lava: bad job number '$IMPORT_N' (001, 002, ...: cells.tsv's first column)" ;; esac
	[ -f "$IMPORT_DIR/cells.tsv" ] || die "$IMPORT_DIR: no cells.tsv (not an --export-lava folder)"
	[ -f "$IMPORT_LOG" ] || die "log '$IMPORT_LOG' not found"
	# Everything read back from the export folder is data from elsewhere:
	# the cell (column 3) is checked by lib/cells.awk as a matrix's cell is
	# (plan_check), and the result path (column 2) must be that cell's
	# (import_lava_run); IMPORT_LINENO names the line in errors.
	IMPORT_LINENO=$(awk -F '\t' -v n="$IMPORT_N" '$1 == n { print NR; exit }' "$IMPORT_DIR/cells.tsv")
	[ -n "$IMPORT_LINENO" ] || die "$IMPORT_DIR/cells.tsv: no job $IMPORT_N"
	IMPORT_LINE=$(sed -n "${IMPORT_LINENO}p" "$IMPORT_DIR/cells.tsv")
	case $(printf '%s\n' "$IMPORT_LINE" | cut -f3) in
	'' | *[!A-Za-z0-9_.=+%:,@/\ -]*) die "$IMPORT_DIR/cells.tsv:$IMPORT_LINENO: bad cell (key=value words of letters, digits and _.=+%:,@/-)" ;;
	esac
}

# import_result_path: RDIR, the run directory of the imported job: column 2
# of its cells.tsv line, which must be exactly the path variant_dir makes of
# the (checked) cell and one of its runs; only the compiler component, the
# exporting host's, is taken from it (checked as a word).
import_result_path() {
	ir_rel=$(printf '%s\n' "$IMPORT_LINE" | cut -f2)
	ir_where=$IMPORT_DIR/cells.tsv:$IMPORT_LINENO
	ir_run=${ir_rel##*/}
	case $ir_run in '' | 0* | *[!0-9]* | ???*) die "$ir_where: bad run number in result path '$ir_rel'" ;; esac
	[ "$ir_run" -le "$(runs_of "$CELL")" ] || die "$ir_where: run $ir_run of a cell of $(runs_of "$CELL") runs"
	ir_cc=$(printf '%s\n' "$ir_rel" | cut -d/ -f6)
	case $ir_cc in '' | .* | *[!A-Za-z0-9_.-]*) die "$ir_where: bad compiler in result path '$ir_rel'" ;; esac
	COMPILER=$ir_cc
	RDIR=$(variant_dir "$CELL")/$ir_run
	[ "$ir_rel" = "${RDIR#"$RESULTS"/}" ] ||
		die "$ir_where: result path '$ir_rel' is not the cell's (${RDIR#"$RESULTS"/})"
}

# import_lava_run: the imported log -> its run directory; 0 if it passed.
import_lava_run() {
	CELL=$(cat "$TMPD/cells")
	import_result_path
	[ ! -d "$RDIR" ] || [ "${RERUN:-0}" = 1 ] ||
		die "$RDIR is complete already; nothing imported (--rerun imports this log and keeps the old run beside it)"
	# job.conf is written again from the checked cell, as for a boot; the
	# export's copy gives only the initramfs' hash (64 hex digits, or none).
	INITRAMFS_SHA=$(sed -n 's/^initramfs_sha256=\([0-9a-f]\{64\}\)$/\1/p' "$IMPORT_DIR/jobs/$IMPORT_N.conf" 2>/dev/null | head -n 1)
	failed_runs=0
	mkdir -p "$(dirname "$RDIR")"
	rm -rf "$RDIR.tmp"
	mkdir "$RDIR.tmp"
	write_job "$CELL" "$RDIR.tmp/job.conf" "$ir_run"
	echo "result_port=console" >>"$RDIR.tmp/job.conf"
	# One copy of the log (it may be hundreds of MB): frames.bin, what
	# krepro-recv reads, is a second name of console.log.
	cp "$IMPORT_LOG" "$RDIR.tmp/console.log" || die "cannot copy $IMPORT_LOG into $RDIR.tmp"
	ln "$RDIR.tmp/console.log" "$RDIR.tmp/frames.bin" || die "cannot link $RDIR.tmp/frames.bin"
	finish_run "$RDIR" 0 ""
	"$H/krepro-stats" unite "$(dirname "$RDIR")" >/dev/null ||
		die "the run is in $RDIR, but $(dirname "$RDIR")'s matrix.json, avg.json and stddev.json could not be written"
	echo "$RDIR"
	[ "$failed_runs" = 0 ]
}

# export_lava: one LAVA job per planned run, instead of booting (docs/SCALE.md).
export_lava() {
	mkdir -p "$LAVA_DIR/artifacts" "$LAVA_DIR/jobs"
	LAVA_DIR=$(cd "$LAVA_DIR" && pwd)
	url=${LAVA_URL:-file://$LAVA_DIR}
	: >"$LAVA_DIR/cells.tsv"
	j=0
	while read -r r k; do
		j=$((j + 1))
		jn=$(printf '%03d' "$j")
		select_cell "$k"
		write_job "$CELL" "$LAVA_DIR/jobs/$jn.conf" "$r"
		echo "result_port=console" >>"$LAVA_DIR/jobs/$jn.conf"
		[ -f "$LAVA_DIR/artifacts/$V.bzImage" ] || cp "$(cat "$TMPD/kernel.$V")" "$LAVA_DIR/artifacts/$V.bzImage"
		single_initrd "$LAVA_DIR/jobs/$jn.conf"
		cp "$SLOT_TMP/initrd" "$LAVA_DIR/artifacts/$jn-initrd.cpio.gz"
		ksha=$(sha256sum "$LAVA_DIR/artifacts/$V.bzImage" | cut -d' ' -f1)
		isha=$(sha256sum "$LAVA_DIR/artifacts/$jn-initrd.cpio.gz" | cut -d' ' -f1)
		rel=$(variant_dir "$CELL")/$r
		rel=${rel#"$RESULTS"/}
		printf '%s\t%s\t%s\n' "$jn" "$rel" "$CELL" >>"$LAVA_DIR/cells.tsv"
		mins=$((($(cell_timeout "$CELL") + 59) / 60 + 5))
		append=$GUEST_CMDLINE$(boot_args "$CELL" "$r")
		{
			echo "# krepro cell $k, run $r: $CELL"
			echo "# import: ./run-matrix.sh import-lava $LAVA_DIR $jn LOG  (LOG: the job's console log)"
			echo "job_name: krepro $(cell_get "$CELL" suite) $V run $r ($jn)"
			echo "timeouts:"
			echo "  job: {minutes: $((mins + 10))}"
			echo "  action: {minutes: $mins}"
			echo "priority: medium"
			echo "visibility: public"
			echo "metadata:"
			echo "  krepro.job: '$jn'"
			echo "  krepro.result: '$rel'"
			if [ "$B_TYPE" = qemu ]; then
				BOOT_CLOCK=$(cell_clock "$CELL")
				# LAVA's qemu template runs "-cpu host -enable-kvm" for amd64
				# unless no_kvm is set, and ignores cpu: there: the board's
				# CPU model and accelerator go in extra_options.
				lava_acc=tcg
				[ "$B_ACCEL" != kvm ] || [ "$BOOT_CLOCK" = exact ] || lava_acc=kvm
				echo "device_type: qemu"
				echo "context:"
				echo "  arch: amd64"
				echo "  machine: $B_MACHINE"
				echo "  cpu: $B_CPU"
				[ "$lava_acc" = kvm ] || echo "  no_kvm: true"
				echo "  memory: $(printf '%s' "$B_MEMORY" | awk '/G$/ { print $0 * 1024; next } { print $0 + 0 }')"
				echo "  extra_options:"
				[ "$lava_acc" = kvm ] || echo "  - $(accel_args tcg)"
				echo "  - -smp $B_SMP"
				# shellcheck disable=SC2086 # one option and its value per pair
				set -- $B_NUMA
				while [ $# -ge 2 ]; do
					echo "  - $1 $2"
					shift 2
				done
				echo "  - -no-reboot"
				echo "actions:"
				echo "- deploy:"
				echo "    to: tmpfs"
				echo "    timeout: {minutes: 5}"
				echo "    images:"
				echo "      kernel:"
				echo "        url: $url/artifacts/$V.bzImage"
				echo "        sha256sum: $ksha"
				echo "        image_arg: -kernel {kernel} -append \"$append\""
				echo "      initrd:"
				echo "        url: $url/artifacts/$jn-initrd.cpio.gz"
				echo "        sha256sum: $isha"
				echo "        image_arg: -initrd {initrd}"
				echo "- boot:"
				echo "    method: qemu"
				echo "    media: tmpfs"
				echo "    timeout: {minutes: $mins}"
			else
				echo "device_type: x86"
				echo "# The device runs its own good kernel with a shell on its console"
				echo "# (the lab's boot method before this job's actions); LAVA fetches"
				echo "# the variant and the initramfs from --lava-url onto it and kexecs."
				echo "context:"
				echo "  boot_character_delay: 0"
				echo "actions:"
				echo "- deploy:"
				echo "    to: downloads"
				echo "    timeout: {minutes: 5}"
				echo "    images:"
				echo "      kernel:"
				echo "        url: $url/artifacts/$V.bzImage"
				echo "        sha256sum: $ksha"
				echo "      initrd:"
				echo "        url: $url/artifacts/$jn-initrd.cpio.gz"
				echo "        sha256sum: $isha"
				echo "- boot:"
				echo "    method: kexec"
				echo "    kernel: /tmp/$V.bzImage"
				echo "    initrd: /tmp/$jn-initrd.cpio.gz"
				echo "    deploy: true"
				echo "    options: ['--append=\"$append\"']"
				echo "    boot_message: Linux version"
				echo "    parameters: {kernel-start-message: 'Kernel command line:'}"
				echo "    timeout: {minutes: $mins}"
			fi
			echo "    prompts: ['$RESULTS_SENT']"
		} >"$LAVA_DIR/$jn.yaml"
	done <"$TMPD/plan"
	note "LAVA: $j job definitions in $LAVA_DIR (cells.tsv maps each to its result path)"
}
