# shellcheck shell=sh
# lib/run/runs.sh: run bookkeeping: a run's job files, its .tmp folder, receiving and
# parsing what came back, a failure's record, the move into place.
# Reads: TMPD/cells, the cell's board CPUS (board_get), initramfs_sha,
# the run table (TMPD/runs.tsv), the plan's pending boots (plan_fact), H.
# Sets: TENANT_PREFIX, HOST_FILES, START, done_runs, failed_runs (runs_start;
# asked with runs_failed, runs_elapsed).  A run is a record (run_record), an
# argument of the functions that need it: the backends' run_one read its
# fields, finish_run gets the cell and the boot's seconds.
# Shared (bench/shared-state.sh): TENANT_PREFIX (contract.h's, read-only).

# --- run --------------------------------------------------------------------

# write_job RECORD FILE INITRAMFS-SHA256: job.conf, every key the guest
# needs (the run table's job column: the cell's keys and defaults, each
# value in the guest's form, lib/shared/cells.awk job_words), then the run's
# clock, seed and the initramfs it is for.  Not the variant's name: the
# guest boots the kernel it is given, and its name in job.conf would move
# every exact digit (a byte more of job.conf does): a series and a commit
# that make the same kernel must read the same digits.  host.conf has it.
write_job() {
	{
		for kv in $(run_field "$1" job); do
			[ "$kv" = - ] || echo "$kv"
		done
		echo "clock=$(run_field "$1" clock)"
		wj_seed=$(run_field "$1" seed)
		[ "$wj_seed" = - ] || echo "seed=$wj_seed"
		echo "initramfs_sha256=${3:-}"
	} >"$2"
}

# write_matrix_forms RECORD FILE: host.conf's "matrix.KEY=VALUE" lines, the
# values write_job resolves (a count, size or duration: 100%, 64M, 10s) as
# the matrix, the plan and the result path write them (the run table's
# forms column), and the run's variant.  job.conf keeps what the guest ran with (2, bytes,
# seconds): it is the guest's input, and a byte more of it moves every
# exact digit; the pivot and job.yaml read these.
write_matrix_forms() {
	for kv in $(run_field "$1" forms); do
		[ "$kv" = - ] || echo "$kv"
	done >"$2"
	echo "variant=$(run_field "$1" variant)" >>"$2"
}

# write_job_yaml JOB.CONF BOARD OUT: the run's job in lkp-tests' job.yaml form
# (suite and testcase, the program's map with test and mode, the rest at the
# top), so that lkp-tests' tools can read a krepro results tree.  A value
# host.conf beside JOB.CONF holds in the matrix's form (write_matrix_forms)
# is written so, as lkp-tests keeps nr_task: 100% and runtime: 300s.  A
# variant that is one commit of a git reference is its full id (the
# images' commit line), as lkp-tests' commit: is.
write_job_yaml() {
	wy_host=$(dirname "$1")/host.conf
	[ -f "$wy_host" ] || wy_host=/dev/null
	awk -F= -v board="$2" -v images="$(dirname "$1")/images" '
	function q(v) { gsub(/\047/, "\047\047", v); return "\047" v "\047" }
	FILENAME != ARGV[2] {
		if ($1 ~ /^matrix\./) asked[substr($1, 8)] = substr($0, length($1) + 2)
		else if ($1 == "variant") commit = substr($0, 9)
		next
	}
	{ k = $1; v = substr($0, length(k) + 2) }
	k in asked { v = asked[k] }
	k == "suite" { suite = v; next }
	k == "test" || k == "mode" { prog = prog "  " k ": " q(v) "\n"; next }
	k == "initramfs_sha256" { rootfs = "krepro-initramfs-" substr(v, 1, 16); next }
	k == "result_port" || k == "size_asked" { next } # size is the asked one (host.conf)
	k == "monitors" { n = split(v, ms, "+"); for (i = 1; i <= n; i++) mons = mons ms[i] ":\n"; next }
	k == "runtime" && v ~ /^[0-9]+$/ { v = v "s" }
	{ top = top k ": " q(v) "\n" }
	END {
		# a one-commit variant: its full id, from the images line "commit FULL PART"
		while ((getline l < images) > 0)
			if (split(l, w, " ") == 3 && w[1] == "commit" && w[3] == commit) full = w[2]
		if (full != "") commit = full
		print "# krepro: this run as an lkp-tests job (commit: the kit variant)"
		print "suite: " q(suite); print "testcase: " q(suite); print "category: benchmark"
		printf "%s", top
		if (prog != "") printf "%s:\n%s", suite, prog
		printf "%s", mons
		print "commit: " q(commit); print "rootfs: " q(rootfs)
		print "testbox: " q(board); print "tbox_group: " q(board)
	}' "$wy_host" "$1" >"$3"
}

# fail_run RDIR REASON: the run recorded failed (FAILED: the reason, the
# guest's errors and console tail; stats.json: last_state.failed).  A
# record that cannot be written (a full disk) removes RDIR (a .tmp folder)
# and stops: a run is never left half recorded.
fail_run() {
	# the reason may quote a LAVA failure or a tool's message: scrubbed too
	set -- "$1" "$(printf '%s\n' "$2" | scrub_secrets)"
	if ! written "$1/FAILED" fail_record "$1" "$2" ||
		! written "$1/stats.json" fail_stats "$1"; then
		rm -rf "$1"
		die "the failed run could not be recorded; $1 removed"
	fi
	note "run failed: $2"
	sed 's/^/    | /' "$1/FAILED" >&2
}

fail_stats() { printf '{"last_state.failed": 1}\n' >"$1/stats.json"; }
fail_record() { # rdir reason: FAILED's text
	{
		echo "reason: $2"
		# what the guest said went wrong, and its console's last lines
		if [ -s "$1/guest-errors" ]; then
			echo "guest errors:"
			show_guest_text 10 <"$1/guest-errors"
		fi
		echo "console tail:"
		tail -n 20 "$1/console.log" 2>/dev/null | show_guest_text 20
	} >"$1/FAILED"
}

# finish_run RDIR SESSION REASON CELL [SECONDS [lava-log]]: receive and
# parse RDIR.tmp's frames (one session of a chain when SESSION > 0), record
# a failure with its reason and console tail, then move RDIR.tmp into
# place; SECONDS: the boot's, said.  A run is complete only here.
finish_run() {
	fr=$1 fr_session=$2 fr_reason=$3 fr_cell=$4 fr_secs=${5:-} fr_log=${6:-}
	set --
	# An imported LAVA log holds the console inside LAVA's records.
	[ "$fr_log" != lava-log ] || set -- --lava-log
	[ "$fr_session" = 0 ] || set -- "$@" --session "$fr_session"
	if [ -n "$fr_reason" ] && [ "$fr_session" = 0 ]; then
		fail_run "$fr.tmp" "$fr_reason"
	elif ! "$H/krepro-recv" "$@" -o "$fr.tmp" "$fr.tmp/frames.bin" >"$fr.tmp/recv.log" 2>&1; then
		fail_run "$fr.tmp" "${fr_reason:+$fr_reason; }results: $(tail -n 1 "$fr.tmp/recv.log")"
	elif ! split_tenants "$fr" "$fr_cell"; then
		:
	elif ! "$H/krepro-stats" run "$fr.tmp" >"$fr.tmp/stats.log" 2>&1; then
		fail_run "$fr.tmp" "stats: $(head -n 1 "$fr.tmp/stats.log")"
	else
		note "    ok${fr_secs:+ in ${fr_secs}s}: $(cat "$fr.tmp/recv.log")"
	fi
	[ -f "$fr.tmp/FAILED" ] && failed_runs=$((failed_runs + 1))
	# --rerun keeps the replaced run beside the new one: nothing is lost.
	if [ -d "$fr" ]; then
		check_repeat "$fr" "$fr.tmp"
		mv "$fr" "$fr.replaced-$(date +%Y%m%d-%H%M%S)"
	fi
	mv "$fr.tmp" "$fr"
}

# check_repeat OLD NEW: an exact run booted again (--rerun) with the same
# seed and images must repeat its digits; if its stats.json differs, NEW
# gets a NOT-DETERMINISTIC file (compare and report name the run).
check_repeat() {
	for cr in "$1" "$2"; do
		[ ! -f "$cr/FAILED" ] && [ -f "$cr/images" ] && grep -qx 'clock=exact' "$cr/job.conf" || return 0
	done
	[ "$(grep '^seed=' "$1/job.conf")" = "$(grep '^seed=' "$2/job.conf")" ] || return 0
	cmp -s "$1/images" "$2/images" || return 0
	cmp -s "$1/stats.json" "$2/stats.json" && return 0
	{
		echo "booted again with $(grep '^seed=' "$2/job.conf") and the same images ($1/images), this run gave other digits:"
		diff "$1/stats.json" "$2/stats.json" | head -n 20
	} >"$2/NOT-DETERMINISTIC"
	note "NOT DETERMINISTIC: $2 differs from the run it replaces (see its NOT-DETERMINISTIC)"
}

TENANT_PREFIX=$(contract_get KRP_TENANT_PREFIX) # vm_
# The files the host writes in a run (contract.h's one list, which
# krepro-recv refuses as a guest's file names too).
HOST_FILES=" $(contract_get KRP_HOST_FILES) "

# host_owned NAME: NAME, behind any number of vm_N. prefixes, is a file the
# host writes (a guest's vm_2.images never replaces tenant 2's images).
host_owned() {
	ho=$1
	while :; do
		ho_r=${ho#"$TENANT_PREFIX"}
		ho_d=${ho_r%%[!0-9]*}
		case $ho_r in "$ho") break ;; esac
		case $ho_d:${ho_r#"$ho_d"} in [0-9]*:.?*) ho=${ho_r#"$ho_d".} ;; *) break ;; esac
	done
	case $HOST_FILES in *" $ho "*) return 0 ;; esac
	return 1
}

# split_tenants RDIR CELL: RDIR.tmp holds vm_I.* files of every tenant of CELL;
# tenants 2..N get their own complete run directories (their files, the main
# tenant's system-wide monitors, the shared console and kernel files), then
# RDIR.tmp keeps tenant 1's.  Returns 0; a broken tenant is recorded failed.
split_tenants() {
	st_cell=$2
	st_n=$(cell_get "$st_cell" tenants)
	[ "${st_n:-1}" -gt 1 ] || return 0
	st_suite=$(cell_get "$st_cell" suite)
	st_run=$(basename "$1")
	st_i=$st_n
	while [ "$st_i" -ge 1 ]; do
		if [ "$st_i" = 1 ]; then td=$1; else td=$(variant_dir "$st_cell tenant=$TENANT_PREFIX$st_i")/$st_run; fi
		mkdir -p "$td.tmp"
		for f in "$1.tmp"/*; do
			name=$(basename "$f")
			# What follows vm_N. is a file name (krepro-recv refused any other).
			st_rest=${name#"$TENANT_PREFIX"}
			st_rest=${st_rest#"${st_rest%%[!0-9]*}"}
			case $name:$st_rest in "$TENANT_PREFIX"[0-9]*:.[A-Za-z0-9]*) ;; "$TENANT_PREFIX"[0-9]*:.*) continue ;; esac
			# and never one the host writes (krepro-recv refused it too).
			case $name in "$TENANT_PREFIX"[0-9]*.*) ! host_owned "$name" || continue ;; esac
			case $name in
			"$TENANT_PREFIX$st_i".*) mv "$f" "$td.tmp/${name#"$TENANT_PREFIX$st_i".}" ;;
			"${TENANT_PREFIX}1".*)
				case ${name#"${TENANT_PREFIX}1".} in "$st_suite" | "$st_suite".*) ;; *) cp "$f" "$td.tmp/${name#"${TENANT_PREFIX}1".}" ;; esac
				;;
			"$TENANT_PREFIX"*) ;;
			job.conf) { cat "$f"; echo "tenant=$TENANT_PREFIX$st_i"; } >"$td.tmp/job.conf.new" ;;
			*) [ "$st_i" = 1 ] || cp "$f" "$td.tmp/$name" ;;
			esac
		done
		mv "$td.tmp/job.conf.new" "$td.tmp/job.conf"
		if [ "$st_i" != 1 ]; then
			if ! "$H/krepro-stats" run "$td.tmp" >"$td.tmp/stats.log" 2>&1; then
				fail_run "$td.tmp" "tenant $TENANT_PREFIX$st_i: stats: $(head -n 1 "$td.tmp/stats.log")"
				failed_runs=$((failed_runs + 1))
			fi
			[ -d "$td" ] && mv "$td" "$td.replaced-$(date +%Y%m%d-%H%M%S)"
			mv "$td.tmp" "$td"
		fi
		st_i=$((st_i - 1))
	done
	return 0
}

# --- the run table ------------------------------------------------------------
# TMPD/runs.tsv (docs/ARCHITECTURE.md, "The run table"): the plan's runs, a
# row each, TAB-separated under a header naming the columns, written once
# a matrix run (plan_runs) from the cells' facts (lib/shared/cells.awk): the run
# and its cell's number, whether it is to boot or kept, variant, board,
# backend, clock, the run's seed ("-" in real mode), memory model, runtime
# and the cell's timeout: in seconds ("-": none, run_timeout's rule), result folder, the job's values in the guest's form (job),
# their matrix forms (forms) and the cell's own words.  Every run's files
# and boots read it by column name (run_field); no cell fact is computed
# again after planning.  run_plan keeps a copy in RESULTS/plans/.
RUN_COLUMNS="run cell state variant board backend clock seed model runtime timeout result job forms words"

# runs_table FACTS CELLS BACKENDS PLAN: the table, header first, for
# PLAN's "RUN K STATE" lines: cell K's facts are line K of FACTS
# (lib/shared/cells.awk's), its words line K of CELLS, its backend line K of
# BACKENDS.
runs_table() {
	awk -F '\t' -v cols="$RUN_COLUMNS" '
	BEGIN { OFS = "\t"; n = split(cols, c, " "); for (i = 1; i <= n; i++) printf "%s%s", c[i], i < n ? OFS : "\n" }
	FILENAME == ARGV[1] { f[FNR] = $0; next }
	FILENAME == ARGV[2] { w[FNR] = $0; next }
	FILENAME == ARGV[3] { b[FNR] = $0; next }
	{
		split($0, p, " "); split(f[p[2]], x, "\t")
		v = x[7]; sub(/.*\//, "", v)
		print p[1], p[2], p[3], v, x[3], b[p[2]], x[4], x[6] == "-" ? "-" : x[6] + p[1] - 1, x[10], x[5], x[16], x[7] "/" p[1], x[13], x[14], w[p[2]]
	}' "$@"
}

# run_record RUN K: planned run RUN of cell K, its row of the run table.
# The backends' run_one get it from here, not from session globals.
run_record() {
	awk -F '\t' -v r="$1" -v k="$2" 'NR > 1 && $1 == r && $2 == k { print; f = 1; exit } END { exit !f }' "$TMPD/runs.tsv" ||
		die "run_record: no run $1 of cell $2 in the run table (a bug: please report it)"
}

# runs_column NAME...: the columns NAME... of every row of the run table,
# a line each (TAB-separated, in the order asked).
runs_column() {
	awk -F '\t' -v cs="$*" 'NR == 1 {
		n = split(cs, c, " ")
		for (j = 1; j <= n; j++) { for (i = 1; i <= NF; i++) if ($i == c[j]) k[j] = i; if (!k[j]) exit 2 }
		next
	}
	{ for (j = 1; j <= n; j++) printf "%s%s", $k[j], j < n ? "\t" : "\n" }' "$TMPD/runs.tsv" ||
		die "runs_column: no column of '$*' in the run table"
}

# runs_have NAME VALUE: 0 when a run of the table has VALUE in column NAME
# (plan_runs wrote it: images.sh asks for an exact or a model run).
runs_have() { [ "$(runs_column "$1" | grep -cxF -e "$2")" != 0 ]; }

# cell_record CELL RUN: the row run RUN of CELL (key=value words outside
# a plan: an imported LAVA job, the tests) has, its facts read once.
cell_record() {
	boards_table "$(cell_board "$1")"
	printf '%s\n' "$1" >"$TMPD/cells.one"
	cells_awk 0 "$TMPD/cells.one" >"$TMPD/cellfacts.one" || exit 2
	echo - >"$TMPD/backends.one"
	echo "$2 1 pending" >"$TMPD/plan.one"
	runs_table "$TMPD/cellfacts.one" "$TMPD/cells.one" "$TMPD/backends.one" "$TMPD/plan.one" | sed 1d
}

# run_field RECORD NAME: one column of a run table row, by its name
# (RUN_COLUMNS).  No column is empty ("-" for none; tabs collapse).
run_field() {
	rf_name=$2 rf_i=0 rf_n=
	for rf_c in $RUN_COLUMNS; do
		rf_i=$((rf_i + 1))
		[ "$rf_c" != "$rf_name" ] || rf_n=$rf_i
	done
	[ -n "$rf_n" ] || die "run_field: no column '$rf_name'"
	rf_ifs=$IFS rf_opts=$-
	set -f
	IFS='	'
	# shellcheck disable=SC2086 # split at tabs only, no globbing
	set -- $1
	IFS=$rf_ifs
	case $rf_opts in *f*) ;; *) set +f ;; esac
	eval "printf '%s\n' \"\${$rf_n}\""
}

# run_boot_args RECORD: the cell's kernel_args and, in exact mode, the
# run's seed as krepro.seed=S: the kernel mixes its command line into its
# random pool, so the seed moves KASLR-free layout (user ASLR, hash keys,
# slab and page order) and the boot's phase; the guest's init moves the
# rest (docs/EXACT.md).
run_boot_args() {
	ba_seed=$(run_field "$1" seed)
	printf '%s' "$(kernel_args "$(run_field "$1" words)")"
	[ "$ba_seed" = - ] || printf ' krepro.seed=%s' "$ba_seed"
}

# run_timeout RECORD: seconds for one boot running it: the cell's
# timeout:, else its board's boot timeout and twice its runtime, three
# times that with the memory model (its cost bound: docs/MEMORY-MODEL.md,
# "Determinism and cost"; two boots of seed 003's tenants at once overran the plain limit).
run_timeout() {
	rt_t=$(run_field "$1" timeout)
	if [ "$rt_t" != - ]; then
		echo "$rt_t"
	else
		rt_t=$(($(board_get "$(run_field "$1" board)" BOOT_TIMEOUT) + $(run_field "$1" runtime) * 2))
		[ "$(run_field "$1" model)" != on ] || rt_t=$((rt_t * 3))
		echo "$rt_t"
	fi
}

# prepare_run RECORD: a fresh RDIR.tmp (the record's result) with the run's job.
prepare_run() {
	pr_rdir=$(run_field "$1" result)
	# a folder of the result path planted as a link is refused
	no_links_below "$RESULTS" "$pr_rdir.tmp"
	mkdir -p "$(dirname "$pr_rdir")"
	rm -rf "$pr_rdir.tmp"
	mkdir "$pr_rdir.tmp"
	pr_isha=$(initramfs_sha)
	write_job "$1" "$pr_rdir.tmp/job.conf" "$pr_isha"
	write_matrix_forms "$1" "$pr_rdir.tmp/host.conf"
	{
		echo "board_sha256=$(board_sha "$(run_field "$1" board)")"
		# what built the images, and the QEMU that boots them (boot_guest)
		# (values in job.conf's characters: host.conf is read as it is)
		if [ -n "$(bundle_dir)" ]; then echo "images=bundle"; else
			root_tools_id | awk '{ print "tools=" $1; if (NF > 1) { sub(/^sha256:/, "", $2); print "tools_sha256=" $2 } }' |
				tr -c 'A-Za-z0-9._%+@:/=,\n-' _
		fi
		[ "$(board_get "$(run_field "$1" board)" TYPE)" != qemu ] || run_qemu "$(run_field "$1" clock)"
	} >>"$pr_rdir.tmp/host.conf"
	write_images "$pr_rdir.tmp" "$(run_field "$1" variant)" "$pr_isha"
	write_job_yaml "$pr_rdir.tmp/job.conf" "$(run_field "$1" board)" "$pr_rdir.tmp/job.yaml"
}

# runs_start: the plan's runs begin (run_plan): elapsed time and counts
# from here (runs_failed and runs_elapsed say them); the run table kept
# in RESULTS/plans/.
runs_start() {
	START=$(date +%s)
	done_runs=0
	failed_runs=0
	# the run table, kept beside the results it planned (a new file each
	# matrix run: what was planned is never overwritten)
	rs_f=$RESULTS/plans/$(date +%Y%m%d-%H%M%S)-$(plan_fact name)
	rs_n=
	while [ -e "$rs_f$rs_n.tsv" ]; do rs_n=$((${rs_n:-1} + 1)); done
	{ mkdir -p "$RESULTS/plans" && cp "$TMPD/runs.tsv" "$rs_f$rs_n.tsv"; } ||
		die "cannot keep the run table in $RESULTS/plans"
}
runs_failed() { echo "$failed_runs"; }
runs_elapsed() { echo "$(($(date +%s) - START))"; }

progress() { # what [plan index, for parallel slots]
	done_runs=$((done_runs + 1))
	pg_i=${2:-$done_runs}
	el=$(runs_elapsed)
	pg_n=$(plan_fact pending)
	left=
	[ "$pg_i" -gt 1 ] && left=", ~$((el * (pg_n - pg_i + 1) / (pg_i - 1)))s left"
	note "[$pg_i/$pg_n] $1, elapsed ${el}s$left"
}
