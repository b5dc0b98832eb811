# shellcheck shell=sh
# lib/shared/cells.sh: the cell and key table: a cell is one line of key=value words
# (krepro-matrix's output); its keys are checked against the key table
# (key_table: lib/shared/matrix-keys and the suites' and monitors' meta files) and
# resolved here (board, clock, nr_task, durations, result path).
# Reads: MATRIX, RESULTS, TENANT_PREFIX (lib/run/runs.sh), TMPD/keys,
# TMPD/boards, a board through board_get (boards_table).
# Sets: EXACT_RUNS (exact_runs), KCONFIG, ROOTFS, KEYS, DEFAULT_RUNS DEFAULT_BOARD
# MONITORS_LIST (load_key_classes), CB (board_of), BOARDS_IN_TABLE,
# TMPD/boards, KNOB_PATH_RE, and the session's settings cells are read
# with (CELLS_*: cells_set: --board, the compiler, a LAVA
# machine, an import's line).  Other modules ask: cell_board,
# cells_boards, exact_runs, keys_path, cells_import_line.

default_matrix() {
	cat <<'EOF'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: 10s
variants: [base, calibration]
board: qemu-2node
EOF
}

# KNOB_PATH_RE: what may follow sysctl. or sysfs. in a key, the guest's rule.
KNOB_PATH_RE=$(contract_get KRP_KNOB_PATH_RE)

# EXACT_RUNS: the runs (seeds) of an exact cell that sets neither runs: nor
# seeds: N-M: enough for the floor docs/EXACT.md measured (exact_runs).
EXACT_RUNS=8
exact_runs() { echo "$EXACT_RUNS"; }

# The session's settings cells are read with, set with cells_set SETTING
# VALUE: board (--board: every cell's board), compiler (the result path's,
# build.sh's checked gcc or an import's), machine (a LAVA machine's suffix
# of the board component) and import-line (import-lava: the export's
# cells.tsv line of the one cell, which cells_import_line gives the plan).
CELLS_BOARD='' CELLS_COMPILER='' CELLS_MACHINE='' CELLS_IMPORT_LINE=''
cells_set() {
	case $1 in
	board) CELLS_BOARD=$2 ;;
	compiler) CELLS_COMPILER=$2 ;;
	machine) CELLS_MACHINE=$2 ;;
	import-line) CELLS_IMPORT_LINE=$2 ;;
	*) die "cells_set: no setting '$1' (a bug: please report it)" ;;
	esac
}
cells_import_line() { printf '%s\n' "$CELLS_IMPORT_LINE"; }
cells_board_override() { printf '%s\n' "$CELLS_BOARD"; } # --board's, or empty

# The cell facts (lib/shared/cells.awk, the one reader of cells): runs, board,
# clock, runtime, seed, result path and defaults of one cell, a process a
# call (plan_check reads the whole matrix's in one).
runs_of() { cell_fact "$1" 2; } # cell -> its runs, the default applied

cell_get() { # cell-line key
	for kv in $1; do
		case $kv in "$2="*) printf '%s\n' "${kv#*=}"; return 0 ;; esac
	done
	return 0
}

# kernel_args CELL: the cell's kernel_cmdline ('+'-separated boot
# parameters, e.g. memcg_charge_batch=16+numa_balancing_scan_size_mb=256:
# the boot parameters the series add) as " a b" (lib/shared/cells.awk checked
# each word at plan time).
kernel_args() {
	ka_out=
	ka=$(cell_get "$1" kernel_cmdline)
	while [ -n "$ka" ]; do
		[ -z "${ka%%+*}" ] || ka_out="$ka_out ${ka%%+*}"
		case $ka in *+*) ka=${ka#*+} ;; *) ka= ;; esac
	done
	printf '%s' "$ka_out"
}

# key_line KEY: the matrix file's line that sets KEY ("" if none).
key_line() {
	# An imported cell is one line of the export's cells.tsv.
	[ -z "$CELLS_IMPORT_LINE" ] || { echo "$CELLS_IMPORT_LINE"; return 0; }
	[ -f "$MATRIX" ] || return 0
	grep -n "^$1 *:" "$MATRIX" 2>/dev/null | head -n 1 | cut -d: -f1
}

# key_table: the one table of matrix keys, a line "KEY CHECK WHERE OWNER
# DEFAULT TEXT...": the kit's keys (lib/shared/matrix-keys, OWNER kit), then the
# "param" lines of suites/<name>/meta (OWNER the suite) and of
# monitors/<name>/meta (OWNER monitor:<name>: any suite may set it).  A bad
# line, a kit key set again, a key set twice by one owner, or one key with
# two WHEREs or with a count and a non-count check stops it naming file and
# line: the result path and job.conf classes are per key, not per suite.
# A check "enum:@tests" or "words:@tests" is the list of names the suite's
# guest programs run, read from them by its meta's "tests" line
# (tools/meta-tables.awk, table=tests: the first input, "SUITE NAME" lines).
key_table() {
	(cd "$KREPRO_ROOT" && awk -v table=tests -f tools/meta-tables.awk suites/*/meta | awk '
	function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; failed = 1; exit 2 }
	function rest(n,    t, i) { t = $0; for (i = 0; i < n; i++) sub(/^[ \t]*[^ \t]+/, "", t); sub(/^[ \t]+/, "", t); return t }
	function row(k, check, where, owner, def, text) {
		if (k !~ /^[a-z][a-z0-9_]*$/) bad("bad key \"" k "\"")
		if (check !~ /^(word|words|words:[A-Za-z0-9_|.-]+|int:[0-9]+:[0-9]+|count:[0-9]+|duration|size|enum:[A-Za-z0-9_|.-]+|variant|monitors|cmdline|seeds|reference)$/)
			bad("bad check \"" check "\" for " k " (the checks: lib/shared/matrix-keys)")
		if (where !~ /^(host|job|path)$/) bad("bad place \"" where "\" for " k " (host, job or path)")
		if (def == "" || text == "") bad(k ": a default (- for none, required for a must) and a text are needed")
	if (def == "required" && (owner == "kit" || owner ~ /^monitor:/)) bad(k ": only a suite parameter can be required")
		if ((k, owner) in seen) bad(k " again (first at " at[k] ")")
		if (k in w) {
			if (o[k] == "kit" || owner == "kit") bad(k " is a kit key (" at[k] ")")
			if (w[k] != where) bad(k " is " w[k] " at " at[k] ", not " where)
			if ((c[k] ~ /^count:/) != (check ~ /^count:/)) bad(k ": a count of CPUs in one place, not in the other (" at[k] ")")
		} else {
			w[k] = where; c[k] = check; o[k] = owner; at[k] = FILENAME ":" FNR
		}
		seen[k, owner] = 1
		print k, check, where, owner, def, text
	}
	# (an if, not "tests[$1] = ($1 in tests) ? ...": POSIX leaves open
	# whether the left side exists before the test, and mawk makes it first)
	FILENAME == "-" { if ($1 in tests) tests[$1] = tests[$1] "|" $2; else tests[$1] = $2; next }
	FILENAME == "lib/shared/matrix-keys" { if (/^[a-z]/) row($1, $2, $3, "kit", $4, rest(4)); next }
	$1 == "param" {
		split(FILENAME, p, "/")
		ck = $3
		if (ck ~ /^(enum|words):@tests$/) {
			if (!(p[2] in tests)) bad($2 ": @tests, but no test names from a \"tests\" line (tools/meta-tables.awk)")
			ck = substr(ck, 1, index(ck, ":")) tests[p[2]]
		}
		row($2, ck, $4, p[1] == "monitors" ? "monitor:" p[2] : p[2], $5, rest(5))
	}
	END { if (failed) exit 2 }' - lib/shared/matrix-keys suites/*/meta monitors/*/meta)
}

# kit_default KEY: a kit key's default, from lib/shared/matrix-keys itself (for
# callers without a session's key table, such as bisect).
kit_default() {
	awk -v k="$1" '$1 == k { print $4; exit }' "$KREPRO_ROOT/lib/shared/matrix-keys"
}

# keys_file: KEYS, the key table's path, made once a session ($TMPD/keys).
keys_file() {
	if [ ! -s "$TMPD/keys" ]; then
		key_table >"$TMPD/keys.tmp" || die "the key table is broken (see above)"
		mv "$TMPD/keys.tmp" "$TMPD/keys"
	fi
	KEYS=$TMPD/keys
}
keys_path() { echo "$KEYS"; } # the key table keys_file wrote

# keys_markdown < TABLE: the key table as docs/KEYS.md (`./run-matrix.sh
# --keys-md`; a test compares the file with it).
keys_markdown() {
	echo "# Matrix keys"
	echo
	echo "Generated by \`./run-matrix.sh --keys-md\` from \`lib/shared/matrix-keys\` (the kit's"
	echo "keys) and the \`param\` lines of \`suites/<name>/meta\` and"
	echo "\`monitors/<name>/meta\`; the checks and places are explained in"
	echo "\`lib/shared/matrix-keys\`. A suite's parameter set in a cell of another suite"
	echo "is an error; \`sysctl.*\` and \`sysfs.*\` keys write /proc/sys and /sys."
	awk '
	$4 != last { printf "\n## %s\n\n| key | check | where | default | meaning |\n|---|---|---|---|---|\n",
		$4 == "kit" ? "The kit" : $4 ~ /^monitor:/ ? "Monitor " substr($4, 9) : "Suite " $4; last = $4 }
	{ t = $0; for (i = 0; i < 5; i++) sub(/^[ \t]*[^ \t]+/, "", t); sub(/^[ \t]+/, "", t)
	  c = $2; gsub(/\|/, "\\|", c); gsub(/\|/, "\\|", t)
	  printf "| `%s` | `%s` | %s | %s | %s |\n", $1, c, $3, $5 == "-" ? "" : $5 == "required" ? "required" : "`" $5 "`", t }'
}

# cells_awk CHECK CELLS [FIELD]: lib/shared/cells.awk over a cells file
# (krepro-keycheck's value map beside it): with CHECK 1 every cell checked
# against the key table
# (the first error ends the session, naming file and line), then each
# cell's facts, a TAB-separated line, or only its FIELD.  The boards the
# cells name are in TMPD/boards (boards_table); the suites' size rules in
# their meta files.
cells_awk() {
	ca_m=$MATRIX
	[ -f "$ca_m" ] && [ -z "$CELLS_IMPORT_LINE" ] || ca_m=/dev/null
	ca_mon=${MONITORS_LIST:-$(monitors_list)}
	# the values' grammar and the numbers of their sizes and durations,
	# one process for every cell (a file: lib/shared/cells.awk reads the
	# cells again).  A cell of the checked plan (a tenant's, an imported
	# job's) reads the plan's numbers: its values are the plan's.
	[ "$2" != - ] || die "cells_awk: the cells are a file (a bug: please report it)"
	ca_kc=$TMPD/keycheck.1
	if [ "$1" = 1 ] || [ ! -s "$ca_kc" ]; then
		ca_kc=$TMPD/keycheck.$1
		"$H/krepro-keycheck" --keys "$KEYS" --monitors "$ca_mon" <"$2" >"$ca_kc" ||
			die "krepro-keycheck failed on $2"
	fi
	KC_CHECK=$1 KC_FIELD=${3:-0} KC_MATRIX=$MATRIX KC_IMPORT_LINE=$CELLS_IMPORT_LINE \
		KC_SUITES=$(suites_list) KC_MONITORS=$ca_mon KC_BOARD_DEFAULT=$DEFAULT_BOARD KC_BOARD_OVERRIDE=$CELLS_BOARD \
		KC_EXACT_RUNS=$EXACT_RUNS KC_DEFAULT_RUNS=$DEFAULT_RUNS KC_RESULTS=$RESULTS KC_ROOTFS=$ROOTFS \
		KC_KCONFIG=$KCONFIG KC_COMPILER=$CELLS_COMPILER KC_TENANT_PREFIX=$TENANT_PREFIX \
		KC_LAVA_MACHINE=$CELLS_MACHINE KC_KNOB_PATH_RE=$KNOB_PATH_RE \
		awk -f "$KREPRO_ROOT/lib/shared/cells.awk" "$KEYS" "$TMPD/boards" "$ca_m" "$ca_kc" "$KREPRO_ROOT"/suites/*/meta "$2"
}

monitors_list() { # |a|b: the monitors krepro-monitor has (monitors/*/meta)
	awk '$1 == "monitor" { printf "|%s", $2 }' "$KREPRO_ROOT"/monitors/*/meta
}

suites_list() { # |a|b|: the suites with a run.sh
	sl="|"
	for sl_f in "$KREPRO_ROOT"/suites/*/run.sh; do
		[ -f "$sl_f" ] || continue
		sl_f=${sl_f%/run.sh}
		sl="$sl${sl_f##*/}|"
	done
	printf '%s' "$sl"
}

# boards_table BOARD...: each board (load_board checks it) as a line of
# TMPD/boards for lib/shared/cells.awk: NAME TYPE ACCEL CPUS CLOCK MEMORY_MODEL
# MEMORY (bytes) NODES.
boards_table() {
	: >"$TMPD/boards.new"
	for bt_b in "$@"; do
		case " ${BOARDS_IN_TABLE:-} " in *" $bt_b "*) continue ;; esac
		[ ! -f "$TMPD/boards" ] || ! grep -q "^$bt_b " "$TMPD/boards" || continue
		load_board "$bt_b"
		# NUMA nodes: a QEMU board's numa: lines, a lab board's nodes:
		bt_n=$(board_get "$bt_b" NODES)
		[ "$bt_n" -gt 0 ] || bt_n=$(board_get "$bt_b" LAB_NODES)
		[ -n "$bt_n" ] || bt_n=1
		printf '%s %s %s %s %s %s %s %s\n' "$bt_b" "$(board_get "$bt_b" TYPE)" "$(board_get "$bt_b" ACCEL)" \
			"$(board_get "$bt_b" CPUS)" "$(board_get "$bt_b" CLOCK)" "$(board_get "$bt_b" MEMORY_MODEL)" \
			"$(board_get "$bt_b" MEMORY)" "$bt_n" >>"$TMPD/boards.new"
		BOARDS_IN_TABLE="${BOARDS_IN_TABLE:-} $bt_b"
	done
	[ -s "$TMPD/boards.new" ] || return 0
	# the memories in bytes: one krepro-value (value.h) for the new boards
	# shellcheck disable=SC2046 # sizes, single words (load_board checked them)
	"$H/krepro-value" size $(cut -d' ' -f7 "$TMPD/boards.new") >"$TMPD/boards.mem" || die "a board's memory is not a size"
	awk 'NR == FNR { m[FNR] = $1; next } { $7 = m[FNR]; print }' "$TMPD/boards.mem" "$TMPD/boards.new" >>"$TMPD/boards"
}

# cell_fact CELL FIELD: one fact of one cell (fields: lib/shared/cells.awk).
cell_fact() {
	boards_table "$(cell_board "$1")"
	printf '%s\n' "$1" >"$TMPD/cell.fact"
	cells_awk 0 "$TMPD/cell.fact" "$2" || exit 2
}

# load_key_classes: the key table (made here, once a session) and, in one
# pass, the defaults of runs and board (lib/shared/cells.awk resolves each key's
# class: what job.conf gets of a count, size or duration).  Called once by
# plan_cells, not at every sourcing.
load_key_classes() {
	keys_file
	MONITORS_LIST=$(monitors_list) # once: cells_awk runs a process a cell
	IFS=' ' read -r DEFAULT_RUNS DEFAULT_BOARD <<EOF
$(awk '!seen[$1]++ && $4 == "kit" { d[$1] = $5 } END { print d["runs"], d["board"] }' "$KEYS")
EOF
}

cell_value() { # cell key -> its value, else its default ("" if neither)
	cv=$(cell_get "$1" "$2")
	if [ -z "$cv" ]; then
		for cv_kv in $(cell_fact "$1" 9); do
			case $cv_kv in "$2="*) cv=${cv_kv#*=} && break ;; esac
		done
	fi
	printf '%s\n' "$cv"
}

# The compiler (cells_set compiler) is set by plan_cells, once build.sh has checked it.
KCONFIG=qemu-minimal
ROOTFS=krepro-initramfs

# board_of CELL: CB, the name of its board (--board, else its board=, else
# the default), without a process (cells_boards, cell_board).
board_of() {
	CB=$CELLS_BOARD
	[ -n "$CB" ] || for kv in $1; do case $kv in board=*) CB=${kv#board=} && break ;; esac; done
	[ -n "$CB" ] || CB=${DEFAULT_BOARD:-$(kit_default board)}
}

cell_board() { # cell -> the name of its board
	board_of "$1"
	printf '%s\n' "$CB"
}

# cells_boards FILE: the boards FILE's cells (a line each) boot on, each
# once, in order, on one line; one process for the whole file.
cells_boards() {
	cbs=
	while IFS= read -r cbs_cell; do
		board_of "$cbs_cell"
		case " $cbs " in *" $CB "*) ;; *) cbs="$cbs $CB" ;; esac
	done <"$1"
	printf '%s\n' "$cbs"
}

# variant_dir CELL: the variant-level result dir.  Runs made by LAVA are
# another machine: "<board>.lava" (an export), "<board>.lava-HOST-PORT[-TAGS]"
# (--lava; lib/run/backends/lava.sh sets LAVA_MACHINE); exact ones "<board>[...].exact".
variant_dir() { cell_fact "$1" 7; }
