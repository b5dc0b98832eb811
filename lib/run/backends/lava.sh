# shellcheck shell=sh
# lib/run/backends/lava.sh: run-matrix.sh and LAVA, two backends (lib/run/backend.sh):
# lava_export (--export-lava writes one job definition per planned run,
# docs/SCALE.md; import-lava reads a job's console log back into the result
# layout) and lava_server (--lava URL: the jobs submitted, waited for and
# imported).
# Reads: RESULTS, RERUN, JOBS and backend_kexec_asked (lava_options), the plan's
# pending boots (plan_fact), the runs' time (runs_elapsed), the run's record
# (run_record: its board, through board_get/board_is, whose type says the
# LAVA device: a QEMU one, or an x86 machine that kexecs; cell, variant),
# guest_cmdline, H, initramfs_sha, SLOT_TMP, TMPD/plan; environment:
# KREPRO_LAVA_*, XDG_CONFIG_HOME, HOME.
# Sets: the LAVA options (lava_option: LAVA_DIR, LAVA_URL, LAVA_SERVER,
# LAVA_TAGS, LAVA_IDENTITY), IMPORT_DIR IMPORT_N IMPORT_LOG IMPORT_LINE
# IMPORT_LINENO (an import), MATRIX (import-lava: the matrix is a line of
# the export's cells.tsv, cells_set import-line), LAVA_MACHINE (and
# cells_set machine), the import's compiler (cells_set compiler), CELL,
# RDIR (import_lava_run; lava_stage's CELL, ls_v, ls_board), BOOT_CLOCK,
# LAVA_SERVER_SHOWN, LAVA_TRIES LAVA_POLL LAVA_TIMEOUT, LAVA_ERR,
# RESULTS_SENT, JN, LJ_*.
# Shared (bench/shared-state.sh): MATRIX, RESULTS (import-lava's -o and
# the export's cells.tsv are the session's matrix and results).

RESULTS_SENT=$(contract_get KRP_RESULTS_SENT) # a LAVA job waits for it
# run-matrix's LAVA options (lava_option), checked together by lava_options
LAVA_DIR='' LAVA_URL='' LAVA_SERVER='' LAVA_TAGS='' LAVA_IDENTITY='' LAVA_MACHINE=''

# lava_option OPTION VALUE...: one of run-matrix's LAVA options and its value.
lava_option() {
	case $1 in
	--export-lava) [ $# -ge 2 ] || die "--export-lava needs a directory"; LAVA_DIR=$2 ;;
	--lava-url) [ $# -ge 2 ] || die "--lava-url needs a URL"; LAVA_URL=$2 ;;
	--lava) [ $# -ge 2 ] || die "--lava needs the server's URL"; LAVA_SERVER=$2 ;;
	--lava-tags) [ $# -ge 2 ] || die "--lava-tags needs tag names"; LAVA_TAGS=$2 ;;
	--lava-identity) [ $# -ge 2 ] || die "--lava-identity needs a lavacli identity"; LAVA_IDENTITY=$2 ;;
	*) die "lava_option: not a LAVA option: $1 (a bug: please report it)" ;;
	esac
}

# import_lava_args [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG: sets IMPORT_*.
import_lava_args() {
	while [ $# -gt 3 ]; do
		case $1 in
		-o) opt_arg "a directory" "$@"; RESULTS=$2; shift 2 ;;
		--rerun) RERUN=1; shift ;;
		*) die "import-lava: unknown option '$1'" ;;
		esac
	done
	[ $# -eq 3 ] || die "usage: ./run-matrix.sh import-lava [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG"
	IMPORT_DIR=$1 IMPORT_N=$2 IMPORT_LOG=$3
	case $IMPORT_N in '' | *[!0-9]* | ???????*) die "import-lava: bad job number '$IMPORT_N' (001, 002, ...: cells.tsv's first column)" ;; esac
	[ -f "$IMPORT_DIR/cells.tsv" ] || die "$IMPORT_DIR: no cells.tsv (not an --export-lava folder)"
	need_file log "$IMPORT_LOG"
	import_lava_line
	MATRIX=$IMPORT_DIR/cells.tsv
}

# import_lava_line: IMPORT_LINENO (also the cells' import-line, cells_set:
# the line the cell's messages name) and IMPORT_LINE, job IMPORT_N's line
# of IMPORT_DIR/cells.tsv, its cell checked for characters.
import_lava_line() {
	# Everything read back from the export folder is data from elsewhere:
	# the cell (column 3) is checked by lib/shared/cells.awk as a matrix's cell is
	# (plan_check), and the result path (column 2) must be that cell's
	# (import_lava_run); IMPORT_LINENO names the line in errors.
	IMPORT_LINENO=$(awk -F '\t' -v n="$IMPORT_N" '$1 == n { print NR; exit }' "$IMPORT_DIR/cells.tsv")
	[ -n "$IMPORT_LINENO" ] || die "$IMPORT_DIR/cells.tsv: no job $IMPORT_N"
	cells_set import-line "$IMPORT_LINENO"
	IMPORT_LINE=$(sed -n "${IMPORT_LINENO}p" "$IMPORT_DIR/cells.tsv")
	case $(printf '%s\n' "$IMPORT_LINE" | cut -f3) in
	'' | *[!A-Za-z0-9_.=+%:,@/~^\ -]*) die "$IMPORT_DIR/cells.tsv:$IMPORT_LINENO: bad cell (key=value words of letters, digits and _.=+%:,@/~^-)" ;;
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
	cells_set compiler "$ir_cc"
	# The board component names the LAVA machine: "<board>.lava" (an
	# export), "<board>.lava-HOST-PORT[-TAGS]" (--lava), then ".exact".
	ir_b=$(printf '%s\n' "$ir_rel" | cut -d/ -f3)
	ir_b=${ir_b%.exact}
	LAVA_MACHINE=${ir_b#"$(cell_board "$CELL")".}
	case $LAVA_MACHINE in
	lava | lava-[A-Za-z0-9]*) case $LAVA_MACHINE in *[!A-Za-z0-9._-]* | *..*) die "$ir_where: bad LAVA machine in result path '$ir_rel'" ;; esac ;;
	*) die "$ir_where: result path '$ir_rel' is not a LAVA machine's (<board>.lava...)" ;;
	esac
	cells_set machine "$LAVA_MACHINE"
	RDIR=$(variant_dir "$CELL")/$ir_run
	[ "$ir_rel" = "${RDIR#"$RESULTS"/}" ] ||
		die "$ir_where: result path '$ir_rel' is not the cell's (${RDIR#"$RESULTS"/})"
}

# import_lava_run [REASON]: the imported log -> its run directory; 0 if it
# passed.  REASON: LAVA's, for a job that never finished well (the run is
# recorded failed with it and the log's tail).
import_lava_run() {
	CELL=$(printf '%s\n' "$IMPORT_LINE" | cut -f3)
	load_board "$(cell_board "$CELL")"
	import_result_path
	[ ! -d "$RDIR" ] || [ "${RERUN:-0}" = 1 ] ||
		die "$RDIR is complete already; nothing imported (--rerun imports this log and keeps the old run beside it)"
	# job.conf is written again from the checked cell, as for a boot; the
	# export's copy gives only the initramfs' hash (64 hex digits, or none)
	# and the console port of a lab board's job.
	ir_isha=$(sed -n 's/^initramfs_sha256=\([0-9a-f]\{64\}\)$/\1/p' "$IMPORT_DIR/jobs/$IMPORT_N.conf" 2>/dev/null | head -n 1)
	failed_runs=${failed_runs:-0}
	# Every write is checked (written); one that fails (a full disk)
	# removes RDIR.tmp and stops with a message naming the file.
	mkdir -p "$(dirname "$RDIR")" || die "cannot create $(dirname "$RDIR")"
	rm -rf "$RDIR.tmp"
	mkdir "$RDIR.tmp" || die "cannot create $RDIR.tmp"
	# the run as a plan's row (lib/run/runs.sh run table), its cell checked
	ir_rec=$(cell_record "$CELL" "$ir_run") || exit 2
	ir_write "$RDIR.tmp/job.conf" write_job "$ir_rec" "$RDIR.tmp/job.conf" "$ir_isha"
	! grep -qx 'result_port=console' "$IMPORT_DIR/jobs/$IMPORT_N.conf" 2>/dev/null ||
		ir_write "$RDIR.tmp/job.conf" append_line result_port=console "$RDIR.tmp/job.conf"
	# The images LAVA booted, as the export wrote them (two hashes).
	if grep -qxE '(kernel|initramfs) [0-9a-f]{64}' "$IMPORT_DIR/jobs/$IMPORT_N.images" 2>/dev/null &&
		[ "$(grep -cxE '(kernel|initramfs) [0-9a-f]{64}' "$IMPORT_DIR/jobs/$IMPORT_N.images")" = 2 ]; then
		ir_write "$RDIR.tmp/images" cp "$IMPORT_DIR/jobs/$IMPORT_N.images" "$RDIR.tmp/images"
	fi
	ir_write "$RDIR.tmp/host.conf" write_matrix_forms "$ir_rec" "$RDIR.tmp/host.conf"
	ir_write "$RDIR.tmp/job.yaml" write_job_yaml "$RDIR.tmp/job.conf" "$(cell_board "$CELL").$LAVA_MACHINE" "$RDIR.tmp/job.yaml"
	# One copy of the log (it may be hundreds of MB), its credentials
	# scrubbed (a text frame's base64 passes scrub_secrets untouched):
	# frames.bin, what krepro-recv reads, is a second name of console.log.
	ir_write "$RDIR.tmp/console.log" scrub_file "$IMPORT_LOG" "$RDIR.tmp/console.log"
	ir_write "$RDIR.tmp/frames.bin" ln "$RDIR.tmp/console.log" "$RDIR.tmp/frames.bin"
	ir_write "$RDIR.tmp/lava.conf" lava_conf "$RDIR.tmp/lava.conf"
	finish_run "$RDIR" 0 "${1:-}" "$CELL" "" lava-log
	"$H/krepro-stats" unite "$(dirname "$RDIR")" >/dev/null ||
		die "the run is in $RDIR, but $(dirname "$RDIR")'s matrix.json, avg.json and stddev.json could not be written"
	echo "$RDIR"
	[ ! -f "$RDIR/FAILED" ]
}

# ir_write FILE CMD...: CMD writing FILE into RDIR.tmp (written); when it
# fails, RDIR.tmp goes and the import stops.
ir_write() {
	written "$@" || {
		rm -rf "$RDIR.tmp"
		die "import-lava: nothing imported ($RDIR.tmp removed)"
	}
}

append_line() { printf '%s\n' "$1" >>"$2"; } # LINE FILE
scrub_file() { scrub_secrets <"$1" >"$2"; }    # FROM TO: FROM's text scrubbed

# lava_conf FILE: where an imported run ran: the LAVA server, job, device
# and tries (known with --lava) and QEMU's command line, the log's "Boot
# command:" line (the log is untrusted: one line, printable, bounded,
# credentials scrubbed).
lava_conf() {
	{
		echo "machine=$LAVA_MACHINE"
		[ -z "${LAVA_SERVER:-}" ] || echo "server=$LAVA_SERVER_SHOWN"
		[ -z "${LJ_ID:-}" ] || echo "job=$LJ_ID"
		[ -z "${LJ_DEVICE:-}" ] || echo "device=$LJ_DEVICE"
		[ -z "${LJ_TRIES:-}" ] || echo "tries=$LJ_TRIES"
		# In LAVA's records the message is a JSON string ("msg": "...",
		# its quotes escaped); in lavacli's lines, plain text.
		lc_cmd=$(LC_ALL=C grep -a -m 1 'Boot command: ' "$IMPORT_LOG" | head -c 8192 |
			sed -e 's/^.*Boot command: //' -e '/"}[[:space:]]*$/{s/"}[[:space:]]*$//; s/\\"/"/g; s/\\\\/\\/g;}' |
			LC_ALL=C tr -cd '\40-\176' | scrub_secrets | LC_ALL=C cut -c1-4000)
		[ -z "$lc_cmd" ] || echo "boot_command=$lc_cmd"
	} >"$1"
}

# lava_stage RUN CELL-NUMBER: one planned run as a LAVA job in LAVA_DIR: its
# number JN (cells.tsv: a result path keeps its number), job, initrd, the
# images' hashes and the job definition JN.yaml.  The initrd is the one a
# local boot of the run makes (same initramfs, same job.conf); only a lab
# board's job sends its results on the console (result_port=console).
lava_stage() {
	ls=$(run_record "$1" "$2")
	CELL=$(run_field "$ls" words) ls_v=$(run_field "$ls" variant) ls_board=$(run_field "$ls" board)
	ls_rel=$(run_field "$ls" result)
	ls_rel=${ls_rel#"$RESULTS"/}
	JN=$(awk -F '\t' -v p="$ls_rel" '$2 == p { print $1; exit }' "$LAVA_DIR/cells.tsv")
	if [ -n "$JN" ]; then
		# The number's line must hold the planned cell: the results tree's
		# files are read back, so they are checked as data.
		[ "$(awk -F '\t' -v n="$JN" '$1 == n { print $3; exit }' "$LAVA_DIR/cells.tsv")" = "$CELL" ] ||
			die "$LAVA_DIR/cells.tsv: job $JN ($ls_rel) holds another cell than the plan's; move $LAVA_DIR away to start afresh"
	else
		JN=$(printf '%03d' $(($(wc -l <"$LAVA_DIR/cells.tsv") + 1)))
		printf '%s\t%s\t%s\n' "$JN" "$ls_rel" "$CELL" >>"$LAVA_DIR/cells.tsv"
	fi
	ls_isha=$(initramfs_sha)
	for ls_f in "jobs/$JN.conf" "artifacts/$ls_v.bzImage.tmp" "artifacts/$ls_v.bzImage" "artifacts/$JN-initrd.cpio.gz.tmp" \
		"artifacts/$JN-initrd.cpio.gz" "jobs/$JN.images" "$JN.yaml"; do
		refuse_link "$LAVA_DIR/$ls_f"
	done
	write_job "$ls" "$LAVA_DIR/jobs/$JN.conf" "$ls_isha"
	! board_is "$ls_board" TYPE lab || echo "result_port=console" >>"$LAVA_DIR/jobs/$JN.conf"
	# A queued job may be fetching these files: each appears whole (mv).
	if [ ! -f "$LAVA_DIR/artifacts/$ls_v.bzImage" ]; then
		cp "$(variant_kernel "$ls_v")" "$LAVA_DIR/artifacts/$ls_v.bzImage.tmp"
		mv "$LAVA_DIR/artifacts/$ls_v.bzImage.tmp" "$LAVA_DIR/artifacts/$ls_v.bzImage"
	fi
	single_initrd "$LAVA_DIR/jobs/$JN.conf"
	cp "$SLOT_TMP/initrd" "$LAVA_DIR/artifacts/$JN-initrd.cpio.gz.tmp"
	mv "$LAVA_DIR/artifacts/$JN-initrd.cpio.gz.tmp" "$LAVA_DIR/artifacts/$JN-initrd.cpio.gz"
	ksha=$(sha256sum "$LAVA_DIR/artifacts/$ls_v.bzImage" | cut -d' ' -f1)
	isha=$(sha256sum "$LAVA_DIR/artifacts/$JN-initrd.cpio.gz" | cut -d' ' -f1)
	printf 'kernel %s\ninitramfs %s\n' "$ksha" "$ls_isha" >"$LAVA_DIR/jobs/$JN.images"
	lava_job_yaml "$1" "$2" >"$LAVA_DIR/$JN.yaml"
}

# lava_options: the LAVA options checked together once every option is
# read (run-matrix.sh): LAVA_MACHINE, the board component's suffix, and
# with --lava its identity (lava_setup) and LAVA_DIR, RESULTS/lava.
lava_options() {
	if [ -n "$LAVA_SERVER" ]; then
		[ -z "$LAVA_DIR" ] || die "--lava runs the jobs; --export-lava only writes them: one or the other"
		if [ "$JOBS" != 1 ] || backend_kexec_asked; then
			die "--lava: LAVA runs the jobs (as many at once as it has devices): no -j, no --kexec"
		fi
		lava_setup "$LAVA_SERVER"
		LAVA_MACHINE=$LAVA_MACHINE${LAVA_TAGS:+-$(printf '%s' "$LAVA_TAGS" | tr ',' '-')}
		LAVA_DIR=$RESULTS/lava
	elif [ -n "$LAVA_DIR" ]; then
		LAVA_MACHINE=lava
	fi
	[ -z "$LAVA_DIR" ] || lava_dir_check
	cells_set machine "$LAVA_MACHINE"
}

# lava_dir_check: what the export writes in LAVA_DIR is no planted link
# (checked before anything builds, and again before the writes).
lava_dir_check() {
	# (the folder itself is the command line's, unless it is RESULTS/lava)
	[ "$LAVA_DIR" != "$RESULTS/lava" ] || refuse_link "$LAVA_DIR"
	for ld_f in "$LAVA_DIR/cells.tsv" "$LAVA_DIR/artifacts" "$LAVA_DIR/jobs"; do refuse_link "$ld_f"; done
}

# lava_no_model MODEL: a LAVA device boots without the kit's memory-model plugin.
lava_no_model() {
	[ "$1" = on ] || return 0
	BACKEND_KEY=memory_model
	echo "memory_model: on needs the kit's QEMU plugin, which a LAVA device does not load (run it here: docs/MEMORY-MODEL.md)"
	return 1
}

# The lava_export backend: one LAVA job per planned run, instead of booting
# (docs/SCALE.md); any board, any boot mode (a LAVA job is one boot).
lava_export_accepts() {
	[ -n "$LAVA_DIR$IMPORT_DIR" ] || { echo "no --export-lava DIR (nor import-lava)"; return 1; }
	lava_no_model "$4" || return 2
	board_keeps_clock "$2" "$3" || return 2
}
lava_export_facts() {
	echo report no
	[ -z "$IMPORT_DIR" ] || echo builds no
}
lava_export_check() { :; }
lava_export_stop() { :; }
lava_export_prepare() {
	lava_dir_check
	mkdir -p "$LAVA_DIR/artifacts" "$LAVA_DIR/jobs"
	LAVA_DIR=$(cd "$LAVA_DIR" && pwd)
	: >"$LAVA_DIR/cells.tsv"
}
lava_export_run_one() { lava_stage "$1" "$2"; }
lava_export_collect() {
	note "LAVA: $(plan_fact pending) job definitions in $LAVA_DIR (cells.tsv maps each to its result path)"
}

# lava_job_yaml RUN CELL-NUMBER: job JN's definition (lava_stage's
# variables), on stdout.  A qemu job is for a device with the kit's
# dictionary (lava/krepro-qemu.jinja2): its context gives the board's
# machine, memory, accelerator and CPU model, -smp and NUMA nodes, the
# dictionary the rest of the board's QEMU (no NIC, no display, two serial
# ports).  LAVA_TAGS (--lava-tags) pin it to the devices with those tags.
lava_job_yaml() {
	url=${LAVA_URL:-file://$LAVA_DIR}
	mins=$((($(run_timeout "$ls") + 59) / 60 + 5))
	append=$(guest_cmdline)$(run_boot_args "$ls")
	echo "# krepro cell $2, run $1: $CELL"
	echo "# import: ./run-matrix.sh import-lava $LAVA_DIR $JN LOG  (LOG: the job's console log)"
	echo "job_name: krepro $(cell_get "$CELL" suite) $ls_v run $1 ($JN)"
	echo "timeouts:"
	echo "  job: {minutes: $((mins + 10))}"
	echo "  action: {minutes: $mins}"
	echo "priority: medium"
	echo "visibility: public"
	[ -z "${LAVA_TAGS:-}" ] || echo "tags: [$(printf '%s' "$LAVA_TAGS" | sed 's/,/, /g')]"
	echo "metadata:"
	echo "  krepro.job: '$JN'"
	echo "  krepro.result: '$ls_rel'"
	if board_is "$ls_board" TYPE qemu; then
		BOOT_CLOCK=$(run_field "$ls" clock)
		# LAVA's own qemu template runs "-cpu host -enable-kvm" for amd64
		# unless no_kvm is set, and ignores cpu: there: the board's CPU
		# model and accelerator go in extra_options.
		lava_acc=tcg
		! board_is "$ls_board" ACCEL kvm || [ "$BOOT_CLOCK" = exact ] || lava_acc=kvm
		echo "device_type: qemu"
		echo "context:"
		echo "  arch: amd64"
		echo "  machine: $(board_get "$ls_board" MACHINE)"
		echo "  cpu: $(board_get "$ls_board" CPU)"
		echo "  no_kvm: true"
		echo "  memory: $(board_get "$ls_board" MEMORY | awk '/G$/ { print $0 * 1024; next } { print $0 + 0 }')"
		echo "  extra_options:"
		echo "  - $(accel_args "$lava_acc" "$ls_board" "$BOOT_CLOCK")"
		echo "  - -smp $(board_get "$ls_board" SMP)"
		lj_numa=$(board_get "$ls_board" NUMA)
		# shellcheck disable=SC2086 # one option and its value per pair
		set -- $lj_numa
		while [ $# -ge 2 ]; do
			echo "  - $1 $2"
			shift 2
		done
		echo "actions:"
		echo "- deploy:"
		echo "    to: tmpfs"
		echo "    timeout: {minutes: 5}"
		echo "    images:"
		echo "      kernel:"
		echo "        url: $url/artifacts/$ls_v.bzImage"
		echo "        sha256sum: $ksha"
		echo "        image_arg: -kernel {kernel} -append \"$append\""
		echo "      initrd:"
		echo "        url: $url/artifacts/$JN-initrd.cpio.gz"
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
		echo "        url: $url/artifacts/$ls_v.bzImage"
		echo "        sha256sum: $ksha"
		echo "      initrd:"
		echo "        url: $url/artifacts/$JN-initrd.cpio.gz"
		echo "        sha256sum: $isha"
		echo "- boot:"
		echo "    method: kexec"
		echo "    kernel: /tmp/$ls_v.bzImage"
		echo "    initrd: /tmp/$JN-initrd.cpio.gz"
		echo "    deploy: true"
		echo "    options: ['--append=\"$append\"']"
		echo "    boot_message: Linux version"
		echo "    parameters: {kernel-start-message: 'Kernel command line:'}"
		echo "    timeout: {minutes: $mins}"
	fi
	echo "    prompts: ['$RESULTS_SENT']"
}

# --- --lava URL: submit, wait, import -----------------------------------------

# lava_setup URL: LAVA_SERVER (URL), LAVA_SERVER_SHOWN (without any
# user:password@), LAVA_IDENTITY (the lavacli identity whose uri is URL's
# RPC2, unless --lava-identity named one) and LAVA_MACHINE, the board
# component's suffix: "lava-HOST-PORT", with the tags in real mode.
lava_setup() {
	LAVA_SERVER=$1
	LAVA_SERVER_SHOWN=$(printf '%s\n' "$1" | scrub_secrets)
	ls_host=${LAVA_SERVER_SHOWN#*://}
	ls_host=${ls_host%%/*}
	case $ls_host in '' | *[!A-Za-z0-9.:-]* | .* | *..*) die "--lava: '$LAVA_SERVER_SHOWN': expected http(s)://HOST[:PORT]/" ;; esac
	case $LAVA_SERVER_SHOWN in http://* | https://*) ;; *) die "--lava: '$LAVA_SERVER_SHOWN': expected http(s)://HOST[:PORT]/" ;; esac
	LAVA_MACHINE=lava-$(printf '%s' "$ls_host" | tr ':' '-')
	case ${LAVA_TAGS:-} in *[!A-Za-z0-9_.,-]* | ,* | *, | *,,*) die "--lava-tags: tag names of letters, digits and _.- separated by commas" ;; esac
	if [ -z "${LAVA_IDENTITY:-}" ]; then
		ls_conf=${XDG_CONFIG_HOME:-$HOME/.config}/lavacli.yaml
		[ -f "$ls_conf" ] || die "--lava: no lavacli configuration ($ls_conf): lavacli identities add --uri ${LAVA_SERVER_SHOWN%/}/RPC2 --username USER --token TOKEN NAME"
		# Only names and uris are read: the token stays in lavacli's file.
		LAVA_IDENTITY=$(awk -v want="${LAVA_SERVER_SHOWN%/}" '
			/^[A-Za-z0-9_.-]+:[ \t]*$/ { name = $0; sub(/:[ \t]*$/, "", name) }
			/^[ \t]+uri:/ { u = $2; sub(/\/RPC2\/?$/, "", u); sub(/\/$/, "", u); sub(/:\/\/[^\/@]*@/, "://", u)
				if (u == want && name != "") { print name; exit } }' "$ls_conf")
		[ -n "$LAVA_IDENTITY" ] || die "--lava: no lavacli identity with uri ${LAVA_SERVER_SHOWN%/}/RPC2 in $ls_conf (lavacli identities add ...; or --lava-identity NAME)"
	fi
	case $LAVA_IDENTITY in *[!A-Za-z0-9_.-]*) die "--lava-identity: a name of letters, digits and _.-" ;; esac
}

# lava_scrub: standard input's first line as guest text (show_guest_text:
# credentials scrubbed, as lavacli's error messages carry the URL it called,
# token and all), without its newline.
lava_scrub() {
	show_guest_text 1 | LC_ALL=C tr -d '\n'
}

# lava_cli OUT ARGS...: lavacli as LAVA_IDENTITY, stdout in OUT; a call that
# fails (the server's proxy answers 502 now and then) is tried up to 5 times
# over about 30 s.  1 when it still fails, the reason (scrubbed) in LAVA_ERR.
lava_cli() {
	lc_out=$1
	shift
	lc_try=1
	while :; do
		if lavacli -i "$LAVA_IDENTITY" "$@" >"$lc_out" 2>"$lc_out.err" </dev/null &&
			! grep -q '^Unable to ' "$lc_out"; then
			return 0
		fi
		LAVA_ERR=$(cat "$lc_out.err" "$lc_out" | grep -v '^[[:space:]]*$' | tail -n 1 | lava_scrub)
		[ "$lc_try" -lt 5 ] || return 1
		sleep $((lc_try * 2))
		lc_try=$((lc_try + 1))
	done
}

# lava_last_job JN: the LAVA job id of JN's latest submission (jobs.tsv).
lava_last_job() {
	awk -F '\t' -v n="$1" '$1 == n && $2 ~ /^[0-9]+$/ { id = $2 } END { print id }' "$LAVA_DIR/jobs.tsv"
}

# lava_submit JN: JN.yaml submitted; its id appended to jobs.tsv (the
# NNN-to-job map a rerun resumes from).
lava_submit() {
	lava_cli "$TMPD/lava.submit" jobs submit "$LAVA_DIR/$1.yaml" ||
		die "job $1: lavacli jobs submit failed: $LAVA_ERR"
	ls_id=$(head -n 1 "$TMPD/lava.submit")
	case $ls_id in '' | *[!0-9]* | ??????????*) die "job $1: lavacli jobs submit answered '$(printf '%s' "$ls_id" | lava_scrub)', not a job id" ;; esac
	printf '%s\t%s\t%s\n' "$1" "$ls_id" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$LAVA_DIR/jobs.tsv"
	note "job $1: LAVA job $ls_id submitted"
}

# lava_job_state ID: LJ_ID, LJ_STATE, LJ_HEALTH, LJ_DEVICE and LJ_FAILURE
# of a LAVA job (lavacli jobs show --yaml; every value checked: the
# server's answers are data from elsewhere); 1 when it cannot be had.
lava_job_state() {
	LJ_ID=$1 LJ_STATE='' LJ_HEALTH='' LJ_DEVICE='' LJ_FAILURE=''
	lava_cli "$TMPD/lava.show" jobs show --yaml "$1" || return 1
	LJ_STATE=$(sed -n 's/^state: //p' "$TMPD/lava.show" | head -n 1)
	LJ_HEALTH=$(sed -n 's/^health: //p' "$TMPD/lava.show" | head -n 1)
	LJ_DEVICE=$(sed -n 's/^device: //p' "$TMPD/lava.show" | head -n 1)
	LJ_FAILURE=$(sed -n "s/^failure_comment: *//p" "$TMPD/lava.show" | sed "s/^'//; s/'\$//; s/^null\$//" | lava_scrub)
	case $LJ_STATE in Submitted | Scheduling | Scheduled | Running | Canceling | Finished) ;; *) LAVA_ERR="job $1: unknown state '$(printf '%s' "$LJ_STATE" | lava_scrub)'"; return 1 ;; esac
	case $LJ_HEALTH in Unknown | Complete | Incomplete | Canceled) ;; *) LAVA_ERR="job $1: unknown health '$(printf '%s' "$LJ_HEALTH" | lava_scrub)'"; return 1 ;; esac
	case $LJ_DEVICE in null) LJ_DEVICE= ;; *[!A-Za-z0-9_.-]* | ?????????????????????????????????????????????????????????????????*) LJ_DEVICE=invalid-name ;; esac
	return 0
}

# lava_fetch_import JN ID [REASON]: the job's log (lavacli jobs logs --raw,
# the server's output.yaml) into LAVA_DIR/logs, then imported into the run's
# directory as import-lava does; REASON makes it a failed run.
lava_fetch_import() {
	lf_log=$LAVA_DIR/logs/$1-$2.yaml
	if ! lava_cli "$lf_log.tmp" jobs logs --raw "$2"; then
		: >"$lf_log.tmp"
		set -- "$1" "$2" "${3:-LAVA job $2}: its log could not be had: $LAVA_ERR"
	fi
	# the server's log is kept scrubbed, as the console.log made of it
	written "$lf_log" scrub_file "$lf_log.tmp" "$lf_log" || die "job $1: LAVA job $2's log could not be stored"
	rm -f "$lf_log.tmp" "$lf_log.tmp.err"
	# A job that failed without a failure comment (a deploy LAVA refused)
	# says why in its log's last result record: its error_msg, scrubbed.
	if [ -n "${3:-}" ] && [ -z "$LJ_FAILURE" ]; then
		lf_err=$(LC_ALL=C grep -a '"error_msg": "' "$lf_log" | tail -n 1 | head -c 4096 |
			sed -n 's/.*"error_msg": "\(.*\)", "error_type".*/\1/p' | sed 's/\\"/"/g' | lava_scrub)
		[ -z "$lf_err" ] || set -- "$1" "$2" "$3: $lf_err"
	fi
	LJ_TRIES=$(awk -F '\t' -v n="$1" '$1 == n' "$LAVA_DIR/jobs.tsv" | wc -l)
	IMPORT_DIR=$LAVA_DIR IMPORT_N=$1 IMPORT_LOG=$lf_log
	import_lava_line
	lf_rc=0
	lf_dir=$(import_lava_run "${3:-}") || lf_rc=$?
	IMPORT_DIR=''
	cells_set import-line ''
	[ "$lf_rc" = 0 ] || failed_runs=$((failed_runs + 1))
	progress "job $1: LAVA job $2 on ${LJ_DEVICE:-?}: ${lf_dir#"$RESULTS"/}$([ "$lf_rc" = 0 ] || echo ' FAILED')"
}

# lava_poll JN: 0 when job JN is done with (imported, or recorded failed),
# 1 while it is still to wait for.  An Incomplete or Canceled job is
# submitted again, up to KREPRO_LAVA_TRIES submissions (default 3).
lava_poll() {
	lp_id=$(lava_last_job "$1")
	if ! lava_job_state "$lp_id"; then
		note "job $1: LAVA job $lp_id: $LAVA_ERR (asking again)"
		return 1
	fi
	[ "$LJ_STATE" = Finished ] || return 1
	[ "$LJ_HEALTH" != Complete ] || { lava_fetch_import "$1" "$lp_id"; return 0; }
	lp_tries=$(awk -F '\t' -v n="$1" '$1 == n' "$LAVA_DIR/jobs.tsv" | wc -l)
	lp_why="LAVA job $lp_id $LJ_HEALTH${LJ_DEVICE:+ on $LJ_DEVICE}${LJ_FAILURE:+: $LJ_FAILURE}"
	if [ "$lp_tries" -lt "$LAVA_TRIES" ]; then
		note "job $1: $lp_why; submitting it again ($((lp_tries + 1)) of $LAVA_TRIES)"
		lava_submit "$1"
		return 1
	fi
	lava_fetch_import "$1" "$lp_id" "$lp_why (after $lp_tries submissions)"
	return 0
}

# The lava_server backend: every planned run as a LAVA job on LAVA_SERVER:
# staged in RESULTS/lava (cells.tsv, jobs/, artifacts/ served as
# --lava-url, default file://: a worker on this machine), submitted unless
# jobs.tsv already has its job (a rerun after a kill waits for the jobs it
# had submitted), then waited for, fetched and imported as each finishes.

# lava_server_accepts CELL CLOCK BOARD MODEL: with --lava, a clock its device keeps;
# real mode needs one machine for A and B: tags.
lava_server_accepts() {
	[ -n "$LAVA_SERVER" ] || { echo "no --lava URL"; return 1; }
	lava_no_model "$4" || return 2
	board_keeps_clock "$2" "$3" || return 2
	if [ "$2" = real ] && [ -z "$LAVA_TAGS" ]; then
		BACKEND_KEY=clock
		echo "--lava: real-mode cells (board $3) must run on one machine, A and B alike: pin them with --lava-tags TAG, a tag of one device (exact mode needs no pinning: docs/SCALE.md)"
		return 2
	fi
}
lava_server_facts() { :; } # its runs come back through import_lava_run
lava_server_check() { :; }
lava_server_stop() { :; }

lava_server_prepare() {
	need_cmd lavacli lavacli
	LAVA_TRIES=${KREPRO_LAVA_TRIES:-3}
	LAVA_POLL=${KREPRO_LAVA_POLL:-10}
	LAVA_TIMEOUT=${KREPRO_LAVA_TIMEOUT:-$((1800 + $(plan_fact pending) * 600))}
	for lr_n in "$LAVA_TRIES" "$LAVA_POLL" "$LAVA_TIMEOUT"; do
		case $lr_n in '' | *[!0-9]* | 0) die "KREPRO_LAVA_TRIES, _POLL and _TIMEOUT must be positive numbers" ;; esac
	done
	LAVA_DIR=$RESULTS/lava
	mkdir -p "$LAVA_DIR/artifacts" "$LAVA_DIR/jobs" "$LAVA_DIR/logs"
	touch "$LAVA_DIR/cells.tsv" "$LAVA_DIR/jobs.tsv"
	lava_cli "$TMPD/lava.version" system version ||
		die "--lava: cannot reach $LAVA_SERVER_SHOWN as lavacli identity $LAVA_IDENTITY: $LAVA_ERR"
	note "LAVA $LAVA_SERVER_SHOWN ($(head -c 40 "$TMPD/lava.version" | lava_scrub)), identity $LAVA_IDENTITY: $(plan_fact pending) jobs${LAVA_TAGS:+ on devices tagged $LAVA_TAGS}"
	: >"$TMPD/lava.wait"
}

# lava_server_run_one RUN CELL-NUMBER: staged and submitted (or waited for).
lava_server_run_one() {
	lava_stage "$1" "$2"
	echo "$JN" >>"$TMPD/lava.wait"
	lr_id=$(lava_last_job "$JN")
	# --rerun of a complete run boots it again: its old job is not it.
	[ "$RERUN" = 0 ] || [ ! -d "$RESULTS/$ls_rel" ] || lr_id=
	if [ -n "$lr_id" ]; then
		note "job $JN: LAVA job $lr_id, submitted before: waiting for it"
	else
		lava_submit "$JN"
	fi
}

# lava_server_collect: every submitted job waited for and imported.
lava_server_collect() {
	while [ -s "$TMPD/lava.wait" ]; do
		: >"$TMPD/lava.next"
		while read -r jn; do
			lava_poll "$jn" || echo "$jn" >>"$TMPD/lava.next"
		done <"$TMPD/lava.wait"
		mv "$TMPD/lava.next" "$TMPD/lava.wait"
		[ -s "$TMPD/lava.wait" ] || break
		[ "$(runs_elapsed)" -lt "$LAVA_TIMEOUT" ] ||
			die "--lava: $(wc -l <"$TMPD/lava.wait") jobs not finished after $LAVA_TIMEOUT s (KREPRO_LAVA_TIMEOUT); they stay in LAVA (RESULTS/lava/jobs.tsv): rerun to resume"
		sleep "$LAVA_POLL"
	done
	note "LAVA: $(plan_fact pending) runs ($failed_runs failed) in $(runs_elapsed) s"
}
