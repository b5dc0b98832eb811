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
	[ -f "$IMPORT_DIR/cells.tsv" ] || die "$IMPORT_DIR: no cells.tsv (not an --export-lava folder)"
	[ -f "$IMPORT_LOG" ] || die "log '$IMPORT_LOG' not found"
	IMPORT_LINE=$(awk -F '\t' -v n="$IMPORT_N" '$1 == n' "$IMPORT_DIR/cells.tsv")
	[ -n "$IMPORT_LINE" ] || die "$IMPORT_DIR/cells.tsv: no job $IMPORT_N"
}

# import_lava_run: the imported log -> its run directory; 0 if it passed.
import_lava_run() {
	RDIR=$RESULTS/$(printf '%s\n' "$IMPORT_LINE" | cut -f2)
	case $RDIR in *..*) die "$IMPORT_DIR/cells.tsv: bad result path" ;; esac
	[ ! -d "$RDIR" ] || [ "${RERUN:-0}" = 1 ] ||
		die "$RDIR is complete already; nothing imported (--rerun imports this log and keeps the old run beside it)"
	CELL=$(cat "$TMPD/cells")
	failed_runs=0
	mkdir -p "$(dirname "$RDIR")"
	rm -rf "$RDIR.tmp"
	mkdir "$RDIR.tmp"
	cp "$IMPORT_DIR/jobs/$IMPORT_N.conf" "$RDIR.tmp/job.conf"
	cp "$IMPORT_LOG" "$RDIR.tmp/console.log"
	cp "$IMPORT_LOG" "$RDIR.tmp/frames.bin"
	finish_run "$RDIR" 0 ""
	"$H/krepro-stats" unite "$(dirname "$RDIR")" >/dev/null || true
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
