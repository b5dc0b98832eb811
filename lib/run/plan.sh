# shellcheck shell=sh
# lib/run/plan.sh: matrix -> cells -> plan: the matrix (or lkp-tests job) read into
# TMPD/cells, every cell checked before anything is built, and TMPD/plan, one
# line per boot to make.
# Reads: MATRIX, the bundle (bundle_dir),
# backend_builds (each cell's backend:
# backend_pick; NAME_check), keys_path, cells_boards, an import's line
# (cells_import_line), a board through board_get.  Sets: MATRIX, MATRIX_NAME, H (host_tools),
# the compiler (cells_set), TMPD/cells, NCELLS, TOTAL_RUNS, VARIANTS, PLAN_FEW_SEEDS,
# TMPD/cellruns, TMPD/backends (a cell's backend a line), TMPD/plan,
# PENDING, CHECKED_VARIANTS, PLAN_REFERENCE and KREPRO_REFERENCE (exported: a matrix's reference:), TMPD/cellfacts (lib/shared/cells.awk's facts of
# each cell, its memory_model in column 10), TMPD/plan.all (every run:
# "RUN K pending|kept") and TMPD/runs.tsv, the run table (lib/run/runs.sh).
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
# checks the whole matrix (lib/shared/cells.awk); another (plan_steps) reads its
# facts once and writes what the shell does, in cell order, once each: a
# board's first cell, a question to the backends, a variant, a note.  A
# process starts only once a board or a variant.
plan_check() {
	pc_dry=$1
	NCELLS=$(wc -l <"$TMPD/cells")
	# shellcheck disable=SC2046 # board names, checked by load_board
	boards_table $(cells_boards "$TMPD/cells")
	cells_awk 1 "$TMPD/cells" >"$TMPD/cellfacts" 2>"$TMPD/cells.err" ||
		die "$(head -n 1 "$TMPD/cells.err")"
	plan_steps
	: >"$TMPD/plan.answers"
	: >"$TMPD/plan.boards"
	while IFS= read -r pc_line; do
		pc_rest=${pc_line#*	}
		case ${pc_line%%	*} in
		board)
			load_board "$pc_rest"
			plan_board_origin "$pc_rest"
			# what --dry-run prints of the board, once a board
			[ "$pc_dry" = 1 ] || continue
			pc_what=$(board_get "$pc_rest" MODEL)
			[ -n "$pc_what" ] || pc_what=$(board_get "$pc_rest" TYPE)
			printf '%s\t%s, %s cpus, %s\tL1d %s, L2 %s, LLC %s a node, %s-byte lines\n' "$pc_rest" \
				"$pc_what" "$(board_get "$pc_rest" CPUS)" "$(board_get "$pc_rest" MEMORY)" \
				"$(board_get "$pc_rest" MODEL_L1D)" "$(board_get "$pc_rest" MODEL_L2)" \
				"$(board_get "$pc_rest" MODEL_LLC)" "$(board_get "$pc_rest" MODEL_LINE)" >>"$TMPD/plan.boards"
			;;
		backend) # K CLOCK BOARD MODEL CELL: the first cell asking this
			pc_k=${pc_rest%%	*} pc_rest=${pc_rest#*	}
			pc_clock=${pc_rest%%	*} pc_rest=${pc_rest#*	}
			pc_b=${pc_rest%%	*} pc_rest=${pc_rest#*	}
			pc_model=${pc_rest%%	*}
			backend_pick "${pc_rest#*	}" "$pc_clock" "$pc_b" "$pc_model" ||
				die "$(key_where "${BACKEND_KEY:-board}"): cell $pc_k (board $pc_b, clock $pc_clock): no backend runs it:$BACKEND_WHY"
			echo "$BACKEND" >>"$TMPD/plan.answers"
			;;
		reference) plan_reference "$pc_rest" ;;
		variant) check_variant "${pc_rest%%	*}" "${pc_rest#*	}" ;;
		few) PLAN_FEW_SEEDS=1 ;;
		note) note "$pc_rest" ;;
		esac
	done <"$TMPD/plan.steps"
	# a cell's backend a line: its question's answer
	awk -v answers="$TMPD/plan.answers" 'FILENAME == answers { a[FNR] = $0; next } { print a[$0] }' \
		"$TMPD/plan.answers" "$TMPD/plan.questions" >"$TMPD/backends"
	IFS='	' read -r TOTAL_RUNS VARIANTS <"$TMPD/plan.sums"
	[ "$pc_dry" = 1 ] || return 0
	plan_listing
	# A plan on two backends runs each one's runs in turn (run_plan).
	awk '{ if (!($1 in c)) o[++n] = $1; c[$1] = c[$1] " " NR }
		END { if (n > 1) { printf "backends: %d, each prepared, run and collected in turn:", n
			for (i = 1; i <= n; i++) printf " %s (cells%s)%s", o[i], c[o[i]], i < n ? ";" : "\n" } }' "$TMPD/backends"
}

# plan_steps: from TMPD/cellfacts and TMPD/cells, TMPD/plan.steps (what
# plan_check does, TAB-separated: "board B", "backend K CLOCK B MODEL CELL"
# for the first cell K of each clock, board, memory model and boot: (what
# a backend's accepts reads), "variant NAME KEY", "few" and "note TEXT"),
# TMPD/plan.questions (each cell's question, by number), TMPD/cellruns
# (each cell's runs, board, first seed, result folder: plan_runs) and
# TMPD/plan.sums (TOTAL_RUNS and VARIANTS).
plan_steps() {
	PS_CELLS=$TMPD/cells PS_MATRIX=$MATRIX PS_FEW=${PLAN_FEW_SEEDS:-} awk -F '\t' -v dir="$TMPD" '
	{
		k = $1; runs = $2; b = $3; clock = $4; seed = $6; vd = $7; model = $10
		if ((getline cell < ENVIRON["PS_CELLS"]) <= 0) cell = ""
		if (!(b in board)) { board[b] = 1; print "board\t" b > (dir "/plan.steps") }
		boot = ""; nw = split(cell, w, " ")
		for (i = 1; i <= nw; i++) if (w[i] ~ /^boot=/) boot = substr(w[i], 6)
		q = clock "\t" b "\t" model "\t" boot
		if (!(q in asked)) {
			asked[q] = ++nq
			print "backend\t" k "\t" clock "\t" b "\t" model "\t" cell > (dir "/plan.steps")
		}
		print asked[q] > (dir "/plan.questions")
		# the reference before any variant: variants are checked on it
		for (i = 1; i <= nw; i++)
			if (w[i] ~ /^reference=/ && !(w[i] in ref)) { ref[w[i]] = 1; print "reference\t" substr(w[i], 11) > (dir "/plan.steps") }
		for (i = 1; i <= nw; i++) {
			if (w[i] !~ /^variants?=/) continue
			key = w[i]; sub(/=.*/, "", key)
			nv = split(substr(w[i], length(key) + 2), vs, ",")
			for (j = 1; j <= nv; j++)
				if (!(vs[j] in variant)) { variant[vs[j]] = 1; print "variant\t" vs[j] "\t" key > (dir "/plan.steps") }
		}
		# plan_runs reads each cell runs and result folder from here
		print runs "\t" b "\t" seed "\t" vd > (dir "/cellruns")
		total += runs
		if (runs < 3 && clock == "exact" && !few && ENVIRON["PS_FEW"] == "") {
			few = 1
			print "few" > (dir "/plan.steps")
			print "note\t" ENVIRON["PS_MATRIX"] ": cell " k " runs " runs " seed(s): an exact comparison gives a verdict from 3 seeds a side (fewer: the numbers, no verdict; docs/EXACT.md)" > (dir "/plan.steps")
		}
		# a size the board cannot hold is never booted as is: the scaled
		# one goes to job.conf (write_job), said here (docs/BENCHMARKS.md)
		if ($11 != "-") { sc = $11; sub(/^[^ ]* [^ ]* /, "", sc); print "note\t" ENVIRON["PS_MATRIX"] ": cell " k ": " sc " (docs/BENCHMARKS.md, sizes on a board)" > (dir "/plan.steps") }
		# a count of N% below one CPU runs one task (lib/shared/cells.awk guest_count), said here
		if ($12 != "-") print "note\t" ENVIRON["PS_MATRIX"] ": cell " k ": " $12 > (dir "/plan.steps")
		v = vd; sub(/.*\//, "", v)
		if (!(v in seen)) { seen[v] = 1; vars = vars " " v }
	}
	END {
		printf "" > (dir "/plan.steps")
		printf "" > (dir "/cellruns")
		printf "" > (dir "/plan.questions")
		print (total + 0) "\t" vars > (dir "/plan.sums")
	}' "$TMPD/cellfacts"
}

# plan_listing: the cells --dry-run prints, from TMPD/cellfacts, TMPD/cells
# and the boards' lines plan_check wrote (TMPD/plan.boards).
plan_listing() {
	PS_CELLS=$TMPD/cells PS_BOARDS=$TMPD/plan.boards awk -F '\t' -v n="$NCELLS" '
	BEGIN { while ((getline l < ENVIRON["PS_BOARDS"]) > 0) { split(l, f, "\t"); what[f[1]] = f[2]; caches[f[1]] = f[3] } }
	{
		if ((getline cell < ENVIRON["PS_CELLS"]) <= 0) cell = ""
		printf "cell %d/%d: %s\n  board %s: %s, clock %s\n  -> %s/{1..%d}  (%d runs x ~%d s)\n", \
			$1, n, cell, $3, what[$3], $4, $7, $2, $2, $5 + 15
		if ($6 != "-") printf "  seeds %s-%s (exact mode: run N has the N-th)\n", $6, $6 + $2 - 1
		if ($10 == "on") printf "  memory model: %s (docs/MEMORY-MODEL.md)\n", caches[$3]
		if ($8 != "-") printf "  defaults (docs/KEYS.md): %s\n", $8
		if ($15 != "-") printf "  defaults the guest resolves on its board: %s\n", $15
	}' "$TMPD/cellfacts"
}

# plan_reference SPEC: the matrix's reference (its key reference:) is the
# one build.sh builds every variant on (KREPRO_REFERENCE, exported); one a
# matrix, and not another than KREPRO_REFERENCE names.
plan_reference() {
	case ${PLAN_REFERENCE:-} in
	'' | "$1") ;;
	*) die "$(key_where reference): one reference a matrix: '$PLAN_REFERENCE' and '$1'" ;;
	esac
	[ -z "${KREPRO_REFERENCE:-}" ] || [ "$KREPRO_REFERENCE" = "$1" ] ||
		die "$(key_where reference): reference '$1', but KREPRO_REFERENCE is '$KREPRO_REFERENCE': give one of them"
	PLAN_REFERENCE=$1 KREPRO_REFERENCE=$1
	export KREPRO_REFERENCE
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
	# variant alike; a run whose folder is there is kept.  TMPD/plan.all:
	# "RUN K pending|kept"; TMPD/plan.kept: the kept runs with their cell's
	# first seed, board and folder, for the checks below.
	awk -F '\t' -v kept="$TMPD/kept.dirs" -v out="$TMPD/plan.kept" '
		FILENAME == kept { have[$0] = 1; next }
		{ runs[FNR] = $1; vd[FNR] = $4; rest[FNR] = $3 "\t" $2 "\t" $4; n = FNR; if ($1 > max) max = $1 }
		END {
			printf "" > out
			for (r = 1; r <= max; r++)
				for (k = 1; k <= n; k++) {
					if (r > runs[k]) continue
					if ((vd[k] "/" r) in have) { print r " " k " kept"; print r "\t" k "\t" rest[k] > out }
					else print r " " k " pending"
				}
		}' "$TMPD/kept.dirs" "$TMPD/cellruns" >"$TMPD/plan.all"
	# the kept runs' checks, in plan order (a resumed matrix's few lines)
	while IFS='	' read -r r k pr_seed pr_b pr_vd; do
		check_kept_seed "$pr_seed" "$r" "$pr_vd/$r"
		check_kept_board "$pr_b" "$pr_vd/$r"
		check_kept_monitors "$(sed -n "${k}p" "$TMPD/cells")" "$pr_vd/$r"
		note "${pr_vd##*/} run $r: complete, kept"
	done <"$TMPD/plan.kept"
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
