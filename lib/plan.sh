# shellcheck shell=sh
# lib/plan.sh: matrix -> cells -> plan: the matrix (or lkp-tests job) read into
# TMPD/cells, every cell checked before anything is built, and TMPD/plan, one
# line per boot to make.
# Reads: MATRIX, the bundle (bundle_dir),
# backend_builds (each cell's backend:
# backend_of_cell; NAME_check), keys_path, cells_boards, an import's line
# (cells_import_line), a board through board_get.  Sets: MATRIX, MATRIX_NAME, H (host_tools),
# the compiler (cells_set), TMPD/cells, NCELLS, TOTAL_RUNS, VARIANTS, PLAN_FEW_SEEDS,
# TMPD/cellruns, TMPD/backends (a cell's backend a line), TMPD/plan,
# PENDING, CHECKED_VARIANTS, TMPD/cellfacts (lib/cells.awk's facts of
# each cell, its memory_model in column 10), TMPD/plan.all (every run:
# "RUN K pending|kept") and TMPD/runs.tsv, the run table (lib/runs.sh).
# Other modules ask the plan's totals with plan_fact (TMPD/plan.facts).

# plan_cells CLOCK LKP-TESTS: MATRIX (default: the embedded one) ->
# TMPD/cells; CLOCK (--clock, or empty) replaces every cell's clock,
# LKP-TESTS (--lkp-tests, or empty) is the checkout an lkp-tests job
# includes files from.
plan_cells() {
	pc_clock=$1 pc_lkp=$2
	pc_line=$(cells_import_line)
	if [ -n "$pc_line" ]; then
		MATRIX_NAME=import
	elif [ -z "$MATRIX" ]; then
		default_matrix >"$TMPD/default.yaml"
		MATRIX=$TMPD/default.yaml
		MATRIX_NAME=default
	else
		need_file "matrix file" "$MATRIX"
		MATRIX_NAME=$(basename "$MATRIX" .yaml)
	fi

	host_tools
	cells_set compiler "$(root_compiler)"
	load_key_classes
	if [ -n "$pc_line" ]; then
		sed -n "${pc_line}p" "$MATRIX" | cut -f3 >"$TMPD/cells"
	else
		# An lkp-tests job file (0-day's job.yaml: testcase, nested program maps,
		# block lists) is read by libyaml and run as the matrix it describes.
		# lkp's semantics: later documents inherit the first, an empty value
		# is the program's default, "<<: FILE" includes (--lkp-tests DIR).
		if grep -Eq '^(testcase|category):|^[[:space:]]+[^[:space:]#]|^- |^:#!|^<< *:' "$MATRIX"; then
			"$H/krepro-lkpjob" --keys "$(keys_path)" ${pc_lkp:+--lkp-tests "$pc_lkp"} "$MATRIX" >"$TMPD/lkp-matrix.yaml" || exit 2
			note "$MATRIX: an lkp-tests job file, run as this matrix (lkp-matrix.yaml, numbered: an error below names its line):"
			awk '!/^#/ { printf "    %3d  %s\n", NR, $0 }' "$TMPD/lkp-matrix.yaml" >&2
			MATRIX=$TMPD/lkp-matrix.yaml
		fi
		"$H/krepro-matrix" "$MATRIX" >"$TMPD/cells" || exit 2
		if [ -n "$pc_clock" ]; then
			sed "s/^clock=[^ ]* //; s/ clock=[^ ]*//; s/\$/ clock=$pc_clock/" "$TMPD/cells" >"$TMPD/cells.clock"
			mv "$TMPD/cells.clock" "$TMPD/cells"
		fi
	fi
	[ -s "$TMPD/cells" ] || die "$MATRIX: no cells"
}

# plan_board_origin BOARD: a lab machine is the user's to pick: from the
# command line (--board) or the user's own matrix, never from a bundle's
# matrix (root ssh and kexec on a machine someone else named).  Said
# either way.
plan_board_origin() {
	board_is "$1" TYPE lab || return 0
	if [ "$(cells_board_override)" = "$1" ]; then
		note "board $1: a lab machine, from the command line (--board)"
	elif [ -n "$(bundle_dir)" ] && [ "$MATRIX" = "$(bundle_dir)/matrix.yaml" ]; then
		die "$MATRIX: the bundle's matrix names lab board $1: a bundle never picks a lab machine; name it yourself (--board $1) or give your own matrix"
	else
		note "board $1: a lab machine, from your matrix $MATRIX"
	fi
}

# plan_check DRY: every cell valid, result paths unique; sets NCELLS,
# TOTAL_RUNS, VARIANTS (DRY 1, --dry-run: prints each cell).  One awk process
# checks the whole matrix (lib/cells.awk); the loop below starts a process
# only once a board or a variant.
plan_check() {
	pc_dry=$1
	NCELLS=$(wc -l <"$TMPD/cells")
	# shellcheck disable=SC2046 # board names, checked by load_board
	boards_table $(cells_boards "$TMPD/cells")
	cells_awk 1 "$TMPD/cells" >"$TMPD/cellfacts" 2>"$TMPD/cells.err" ||
		die "$(head -n 1 "$TMPD/cells.err")"
	: >"$TMPD/cellruns"
	: >"$TMPD/backends"
	TOTAL_RUNS=0
	VARIANTS=
	pc_loaded=
	BACKEND_ASKED= # every plan asks the backends again (backend_of_cell)
	exec 3<"$TMPD/cells"
	# the facts this loop reads, without the long columns it does not:
	# dash's read takes a line a byte at a time (a system call each)
	cut -f1-8,10-12 "$TMPD/cellfacts" >"$TMPD/cellfacts.plan"
	while IFS='	' read -r k runs b clock rt seed vd ddj model scale cnote; do
		IFS= read -r cell <&3
		# The cell's backend (its board's facts), before anything is built.
		if [ "$b" != "$pc_loaded" ]; then
			load_board "$b" && pc_loaded=$b
			plan_board_origin "$b"
			# what --dry-run prints of the board, once a board
			if [ "$pc_dry" = 1 ]; then
				pc_what=$(board_get "$b" MODEL)
				[ -n "$pc_what" ] || pc_what=$(board_get "$b" TYPE)
				pc_board="$pc_what, $(board_get "$b" CPUS) cpus, $(board_get "$b" MEMORY)"
				pc_caches="L1d $(board_get "$b" MODEL_L1D), L2 $(board_get "$b" MODEL_L2), LLC $(board_get "$b" MODEL_LLC) a node, $(board_get "$b" MODEL_LINE)-byte lines"
			fi
		fi
		backend_of_cell "$cell" "$clock" "$b" "$model" "$k"
		for kv in $cell; do
			case $kv in variants=* | variant=*)
				pc_vs=${kv#*=}
				while [ -n "$pc_vs" ]; do
					check_variant "${pc_vs%%,*}" "${kv%%=*}"
					case $pc_vs in *,*) pc_vs=${pc_vs#*,} ;; *) pc_vs= ;; esac
				done
				;;
			esac
		done
		# plan_runs reads each cell's runs and result path from here.
		printf '%s\t%s\t%s\t%s\n' "$runs" "$b" "$seed" "$vd" >>"$TMPD/cellruns"
		TOTAL_RUNS=$((TOTAL_RUNS + runs))
		if [ "$runs" -lt 3 ] && [ -z "${PLAN_FEW_SEEDS:-}" ] && [ "$clock" = exact ]; then
			PLAN_FEW_SEEDS=1
			note "$MATRIX: cell $k runs $runs seed(s): an exact comparison gives a verdict from 3 seeds a side (fewer: the numbers, no verdict; docs/EXACT.md)"
		fi
		# a size the board cannot hold is never booted as is: the scaled
		# one goes to job.conf (write_job), said here (docs/BENCHMARKS.md)
		[ "$scale" = - ] || note "$MATRIX: cell $k: ${scale#* * } (docs/BENCHMARKS.md, sizes on a board)"
		# a count of N% below one CPU runs one task (lib/cells.awk guest_count), said here
		[ "$cnote" = - ] || note "$MATRIX: cell $k: $cnote"
		v=${vd##*/}
		case " $VARIANTS " in *" $v "*) ;; *) VARIANTS="$VARIANTS $v" ;; esac
		if [ "$pc_dry" = 1 ]; then
			printf 'cell %d/%d: %s\n  board %s: %s, clock %s\n  -> %s/{1..%d}  (%d runs x ~%d s)\n' \
				"$k" "$NCELLS" "$cell" "$b" "$pc_board" "$clock" \
				"$vd" "$runs" "$runs" "$((${rt:-0} + 15))"
			[ "$seed" = - ] || printf '  seeds %s-%s (exact mode: run N has the N-th)\n' "$seed" "$((seed + runs - 1))"
			[ "$model" != on ] || printf '  memory model: %s (docs/MEMORY-MODEL.md)\n' "$pc_caches"
			[ "$ddj" = - ] || printf '  defaults (docs/KEYS.md): %s\n' "$ddj"
		fi
	done <"$TMPD/cellfacts.plan"
	exec 3<&-
	[ "$pc_dry" = 1 ] || return 0
	# A plan on two backends runs each one's runs in turn (run_plan).
	awk '{ if (!($1 in c)) o[++n] = $1; c[$1] = c[$1] " " NR }
		END { if (n > 1) { printf "backends: %d, each prepared, run and collected in turn:", n
			for (i = 1; i <= n; i++) printf " %s (cells%s)%s", o[i], c[o[i]], i < n ? ";" : "\n" } }' "$TMPD/backends"
}

# check_variant NAME KEY: a variant a cell names can be built (once a
# session: build.sh is a process start), or is in the bundle.
check_variant() {
	case " ${CHECKED_VARIANTS:-} " in *" $1 "*) return 0 ;; esac
	cv_why=$(variant_stack_problem "$1")
	[ -z "$cv_why" ] || die "$(key_where "$2"): bad variant '$1': $cv_why"
	cv_bundle=$(bundle_dir)
	if [ -n "$cv_bundle" ]; then
		[ -f "$cv_bundle/kernels/$1/bzImage" ] ||
			die "$(key_where "$2"): the bundle has no kernel '$1' (it has: $(cd "$cv_bundle/kernels" && echo *))"
	elif backend_builds; then
		"$KREPRO_ROOT/build.sh" patches "$1" >/dev/null 2>"$TMPD/variant.err" ||
			die "$(key_where "$2"): variant '$1': $(sed 's/^build: error: //' "$TMPD/variant.err" | head -n 1)"
	fi
	CHECKED_VARIANTS="${CHECKED_VARIANTS:-} $1"
}

key_where() { # KEY -> "MATRIX:LINE" (or MATRIX) for messages
	kw_l=$(key_line "$1")
	echo "$MATRIX${kw_l:+:$kw_l}"
}

# plan_runs RERUN: TMPD/plan, the boots to make; RERUN 1 (--rerun): complete
# runs too.
plan_runs() {
	pr_rerun=$1
	# the run table's columns are TAB-separated, its rows lines
	case $RESULTS in *'	'* | *'
'*) die "$RESULTS: a results folder with a TAB or a newline in its path cannot be planned" ;; esac
	# Each cell's runs, board, first seed and result folder come from
	# plan_check (TMPD/cellruns, TAB-separated, a line a cell).  The
	# folders are this loop's arguments: dash's read takes a line a byte at
	# a time.  A result folder planted as a link is neither read (its runs
	# kept) nor written through; the run folders already there (none in a
	# new matrix) are TMPD/kept.dirs.
	pr_ifs=$IFS
	IFS='
'
	set -f
	# shellcheck disable=SC2046 # a folder a line, no TAB or newline in one
	set -- $(cut -f4 "$TMPD/cellruns")
	set +f
	IFS=$pr_ifs
	for pr_vd; do
		no_links_below "$RESULTS" "$pr_vd"
		[ "$pr_rerun" = 0 ] || continue
		[ -d "$pr_vd" ] || continue
		for pr_d in "$pr_vd"/[1-9]*; do
			[ -d "$pr_d" ] && printf '%s\n' "$pr_d"
		done
	done >"$TMPD/kept.dirs"
	# Plan: runs outer, cells inner (A, B, A, B, ...) so drift hits every
	# variant alike; a run whose folder is there is kept.  Lines "RUN K
	# STATE"; a kept run's line also has its cell's first seed, board and
	# folder, for the checks below.
	awk -F '\t' -v kept="$TMPD/kept.dirs" 'FILENAME == kept { have[$0] = 1; next }
		{ runs[FNR] = $1; rest[FNR] = $3 "\t" $2 "\t" $4; n = FNR; if ($1 > max) max = $1 }
		END {
			for (r = 1; r <= max; r++)
				for (k = 1; k <= n; k++) {
					if (r > runs[k]) continue
					split(rest[k], f, "\t")
					if ((f[3] "/" r) in have) print r "\t" k "\tkept\t" rest[k]
					else print r "\t" k "\tpending"
				}
		}' "$TMPD/kept.dirs" "$TMPD/cellruns" >"$TMPD/plan.found"
	# the kept runs' checks, in plan order (a resumed matrix's few lines)
	grep '	kept	' "$TMPD/plan.found" >"$TMPD/plan.kept" || :
	while IFS='	' read -r r k _ pr_seed pr_b pr_vd; do
		check_kept_seed "$pr_seed" "$r" "$pr_vd/$r"
		check_kept_board "$pr_b" "$pr_vd/$r"
		check_kept_monitors "$(sed -n "${k}p" "$TMPD/cells")" "$pr_vd/$r"
		note "${pr_vd##*/} run $r: complete, kept"
	done <"$TMPD/plan.kept"
	cut -f1-3 "$TMPD/plan.found" | tr '\t' ' ' >"$TMPD/plan.all"
	runs_table "$TMPD/cellfacts" "$TMPD/cells" "$TMPD/backends" "$TMPD/plan.all" >"$TMPD/runs.tsv"
	# the boots to make, "RUN K" (backends split it: run_plan)
	sed -n 's/ pending$//p' "$TMPD/plan.all" >"$TMPD/plan"
	PENDING=$(wc -l <"$TMPD/plan")
	printf 'name %s\ncells %s\nruns %s\npending %s\nvariants%s\n' "$MATRIX_NAME" "$NCELLS" "$TOTAL_RUNS" "$PENDING" "$VARIANTS" >"$TMPD/plan.facts"
}

# plan_fact name|cells|runs|pending|variants: the planned matrix's name,
# its number of cells, of runs, of boots to make (complete runs are kept),
# its variants (space-separated), from TMPD/plan.facts (plan_runs).
plan_fact() {
	sed -n "s/^$1 //p" "$TMPD/plan.facts"
}

# plan_summary: the --dry-run's last lines.
plan_summary() {
	echo "$NCELLS cells, $TOTAL_RUNS runs, variants:$VARIANTS"
	echo "plan: $PENDING boots ($((TOTAL_RUNS - PENDING)) runs complete, kept)"
}

# check_kept_board BOARD RDIR: a complete run kept for this plan was made
# on this version of boards/BOARD (its host.conf's board_sha256; a run of
# an older kit has none): an edited board's cells are new runs.
check_kept_board() {
	kb_have=$(sed -n 's/^board_sha256=//p' "$2/host.conf" 2>/dev/null) || kb_have=
	[ -n "$kb_have" ] || return 0
	[ -n "${PLAN_BOARD_SHA:-}" ] && [ "${PLAN_BOARD_SHA%% *}" = "$1" ] || PLAN_BOARD_SHA="$1 $(board_sha "$1")"
	[ "$kb_have" = "${PLAN_BOARD_SHA#* }" ] ||
		die "$2: kept run made on another version of boards/$1 (sha256 $(printf %.16s "$kb_have"), now $(printf %.16s "${PLAN_BOARD_SHA#* }")): use another -o, or --rerun to replace its runs"
}

# check_kept_monitors CELL RDIR: a complete run kept for this plan sampled
# the monitors the cell asks for (its job.conf's monitors=; the result path
# leaves them out, as lkp-tests' does).
check_kept_monitors() {
	km_have=$(sed -n 's/^monitors=//p' "$2/job.conf" 2>/dev/null) || km_have=
	[ -n "$km_have" ] || return 0
	km_want=$(cell_value "$1" monitors)
	[ "$km_have" = "$km_want" ] ||
		die "$2: kept run sampled monitors '$km_have', but this matrix asks for '$km_want': use another -o, or --rerun"
}

# check_kept_seed FIRST RUN RDIR: a complete run kept for this plan has the
# seed the plan gives it (the cell's FIRST seed + RUN - 1; FIRST "-" in
# real mode): one cell's runs never mix seed sets.
check_kept_seed() {
	ks_want=
	[ "$1" = - ] || ks_want=$(($1 + $2 - 1))
	ks_have=$(sed -n 's/^seed=//p' "$3/job.conf" 2>/dev/null) || ks_have= # (a run without one: set -e)
	[ "$ks_want" = "$ks_have" ] ||
		die "$3: kept run made with seed '${ks_have:-none}', but this matrix gives run $2 seed '${ks_want:-none}' (seeds: in docs/EXACT.md); use another -o, or --rerun"
}

# plan_check_boots: what each backend of the plan (plan_check picked one a
# cell: TMPD/backends) needs on this host.
plan_check_boots() {
	sort -u "$TMPD/backends" >"$TMPD/backends.used"
	while read -r pb_b; do
		"${pb_b}_check" </dev/null
	done <"$TMPD/backends.used"
}
