# shellcheck shell=sh
# lib/cells.sh: the cell and key table: a cell is one line of key=value words
# (krepro-matrix's output); its keys are checked against the key table
# (key_table: lib/matrix-keys and the suites' and monitors' meta files) and
# resolved here (board, clock, nr_task, durations, result path).

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

# EXACT_RUNS: the runs (seeds) of an exact cell that sets neither runs: nor
# seeds: N-M: enough for the floor docs/EXACT.md measured.
EXACT_RUNS=8

runs_of() { # cell -> its runs, the default applied
	ro=$(cell_get "$1" runs)
	[ -n "$ro" ] || ro=$(seed_count "$1")
	if [ -z "$ro" ] && [ "$(cell_clock "$1")" = exact ]; then ro=$EXACT_RUNS; fi
	echo "${ro:-${DEFAULT_RUNS:-$(kit_default runs)}}"
}

# seed_count CELL: the number of seeds of "seeds: N-M" ("" for N or none).
seed_count() {
	sc=$(cell_get "$1" seeds)
	case $sc in *-*) echo $((${sc#*-} - ${sc%-*} + 1)) ;; esac
}

# seed_of CELL RUN: the layout seed of run RUN of an exact cell (run N has
# seed N, or FIRST + N - 1 with "seeds: FIRST[-LAST]"); "" in real mode.
seed_of() {
	[ "$(cell_clock "$1")" = exact ] || return 0
	so=$(cell_get "$1" seeds)
	so=${so:-1}
	echo $((${so%-*} + $2 - 1))
}

cell_get() { # cell-line key
	for kv in $1; do
		case $kv in "$2="*) printf '%s\n' "${kv#*=}"; return 0 ;; esac
	done
	return 0
}

to_seconds() { # 10s 2m 1h 30 -> seconds
	case $1 in
	'') return 0 ;;
	*[!0-9smh]* | [!0-9]*) die "$MATRIX: bad duration '$1'" ;;
	*s) echo "${1%s}" ;;
	*m) echo $((${1%m} * 60)) ;;
	*h) echo $((${1%h} * 3600)) ;;
	*) echo "$1" ;;
	esac
}

size_of() { # 64M 2g 4096 -> bytes ("" stays ""): the only K/M/G/T reader of the kit's shell
	case $1 in
	'') return 0 ;;
	*[kK]) so_n=${1%?} so_s=10 ;;
	*[mM]) so_n=${1%?} so_s=20 ;;
	*[gG]) so_n=${1%?} so_s=30 ;;
	*[tT]) so_n=${1%?} so_s=40 ;;
	*) so_n=$1 so_s=0 ;;
	esac
	case $so_n in '' | *[!0-9]* | ?????????????*) die "$MATRIX: bad size '$1'" ;; esac
	[ "$so_n" -le $(((1 << (50 - so_s)) - 1)) ] 2>/dev/null || die "$MATRIX: size '$1' is over 1P"
	echo $((so_n << so_s))
}

count_of() { # value cpus: N, or N% of the CPUs, as a count ("" stays "")
	case $1 in
	'') return 0 ;;
	*[!0-9]*%) die "$MATRIX: bad count '$1' (N or N%)" ;;
	*%) n=$((${1%\%} * $2 / 100)) ;;
	*[!0-9]*) die "$MATRIX: bad count '$1' (N or N%)" ;;
	*) n=$1 ;;
	esac
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}

# cell_clock CELL: the cell's measuring mode, "exact" (QEMU counts
# instructions: guest time is a function of the inputs alone, see
# docs/EXACT.md) or "real" (host time); the matrix's (or --clock's) clock=,
# else the board file's clock: (load_board checks it), else real.  Read from
# the board file, so callers need no board loaded (runs_of, variant_dir).
cell_clock() {
	cc=$(cell_get "$1" clock)
	[ -n "$cc" ] || cc=$(sed -n 's/^clock: *//p' "$KREPRO_ROOT/boards/$(cell_board "$1")" 2>/dev/null | head -n 1)
	printf '%s\n' "${cc:-real}"
}

# check_clock CELL BOARD: refuse what exact mode cannot be, before any build.
check_clock() {
	case $(cell_clock "$1") in
	real) ;;
	exact)
		[ "$B_TYPE" = qemu ] ||
			die "$MATRIX: clock: exact needs a QEMU board; board $2 is a lab machine, whose clock is always real (docs/EXACT.md)"
		[ "$B_ACCEL" != kvm ] ||
			die "$MATRIX: clock: exact needs TCG; board $2 has accel: kvm (KVM runs on the host's clock)"
		;;
	*) die "$MATRIX: clock must be real or exact, not '$(cell_get "$1" clock)'" ;;
	esac
}

# kernel_args CELL: the cell's kernel_cmdline ('+'-separated boot
# parameters, e.g. memcg_charge_batch=16+numa_balancing_scan_size_mb=256:
# the boot parameters the series add) as " a b", checked word by word.
kernel_args() {
	ka=$(cell_get "$1" kernel_cmdline)
	[ -n "$ka" ] || return 0
	ka_out=
	for w in $(printf '%s\n' "$ka" | tr '+' ' '); do
		case $w in
		[!a-z]* | *[!A-Za-z0-9_.=,-]*) die "$MATRIX: kernel_cmdline: bad boot parameter '$w'" ;;
		krepro.* | console=* | panic=* | oops=*) die "$MATRIX: kernel_cmdline: '$w' is set by run-matrix" ;;
		esac
		ka_out="$ka_out $w"
	done
	printf '%s' "$ka_out"
}

# boot_args CELL RUN: kernel_args and, in exact mode, the run's seed as
# krepro.seed=S: the kernel mixes its command line into its random pool, so
# the seed moves KASLR-free layout (user ASLR, hash keys, slab and page
# order) and the boot's phase; the guest's init moves the rest (docs/EXACT.md).
boot_args() {
	ba_seed=$(seed_of "$1" "$2")
	printf '%s%s' "$(kernel_args "$1")" "${ba_seed:+ krepro.seed=$ba_seed}"
}

# key_line KEY: the matrix file's line that sets KEY ("" if none).
key_line() {
	# An imported cell is one line of the export's cells.tsv.
	[ -z "${IMPORT_DIR:-}" ] || { echo "$IMPORT_LINENO"; return 0; }
	[ -f "$MATRIX" ] || return 0
	grep -n "^$1 *:" "$MATRIX" 2>/dev/null | head -n 1 | cut -d: -f1
}

# closest_key KEY: the listed key nearest to KEY (edit distance).
closest_key() {
	closest_of "$1" "$(awk '{ printf "%s%s", n++ ? "|" : "", $1 }' "$KEYS")"
}

# closest_of WORD A|B|...: the name of the list nearest to WORD (edit
# distance; the first of equals).
closest_of() {
	printf '%s\n' "$2" | tr '|' '\n' | awk -v w="$1" '
	function dist(a, b,    i, j, la, lb, d, c, x, y, z) {
		la = length(a); lb = length(b)
		for (i = 0; i <= la; i++) d[i, 0] = i
		for (j = 0; j <= lb; j++) d[0, j] = j
		for (i = 1; i <= la; i++)
			for (j = 1; j <= lb; j++) {
				c = substr(a, i, 1) != substr(b, j, 1)
				x = d[i - 1, j] + 1; y = d[i, j - 1] + 1; z = d[i - 1, j - 1] + c
				d[i, j] = x < y ? (x < z ? x : z) : (y < z ? y : z)
			}
		return d[la, lb]
	}
	{ k = dist(w, $1); if (best == "" || k < bk) { best = $1; bk = k } }
	END { print best }'
}

# key_table: the one table of matrix keys, a line "KEY CHECK WHERE OWNER
# DEFAULT TEXT...": the kit's keys (lib/matrix-keys, OWNER kit), then the
# "param" lines of suites/<name>/meta (OWNER the suite) and of
# monitors/<name>/meta (OWNER monitor:<name>: any suite may set it).  A bad
# line, a kit key set again, a key set twice by one owner, or one key with
# two WHEREs or with a count and a non-count check stops it naming file and
# line: the result path and job.conf classes are per key, not per suite.
key_table() {
	(cd "$KREPRO_ROOT" && awk '
	function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; failed = 1; exit 2 }
	function rest(n,    t, i) { t = $0; for (i = 0; i < n; i++) sub(/^[ \t]*[^ \t]+/, "", t); sub(/^[ \t]+/, "", t); return t }
	function row(k, check, where, owner, def, text) {
		if (k !~ /^[a-z][a-z0-9_]*$/) bad("bad key \"" k "\"")
		if (check !~ /^(word|words|words:[A-Za-z0-9_|.-]+|int:[0-9]+:[0-9]+|count:[0-9]+|duration|size|enum:[A-Za-z0-9_|.-]+|variant|monitors|cmdline|seeds)$/)
			bad("bad check \"" check "\" for " k " (the checks: lib/matrix-keys)")
		if (where !~ /^(host|job|path)$/) bad("bad place \"" where "\" for " k " (host, job or path)")
		if (def == "" || text == "") bad(k ": a default (- for none) and a text are needed")
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
	FILENAME == "lib/matrix-keys" { if (/^[a-z]/) row($1, $2, $3, "kit", $4, rest(4)); next }
	$1 == "param" {
		split(FILENAME, p, "/")
		row($2, $3, $4, p[1] == "monitors" ? "monitor:" p[2] : p[2], $5, rest(5))
	}
	END { if (failed) exit 2 }' lib/matrix-keys suites/*/meta monitors/*/meta)
}

# kit_default KEY: a kit key's default, from lib/matrix-keys itself (for
# callers without a session's key table, such as bisect).
kit_default() {
	awk -v k="$1" '$1 == k { print $4; exit }' "$KREPRO_ROOT/lib/matrix-keys"
}

# keys_file: KEYS, the key table's path, made once a session ($TMPD/keys).
keys_file() {
	if [ ! -s "$TMPD/keys" ]; then
		key_table >"$TMPD/keys.tmp" || die "the key table is broken (see above)"
		mv "$TMPD/keys.tmp" "$TMPD/keys"
	fi
	KEYS=$TMPD/keys
}

# keys_markdown < TABLE: the key table as docs/KEYS.md (`./run-matrix.sh
# --keys-md`; a test compares the file with it).
keys_markdown() {
	echo "# Matrix keys"
	echo
	echo "Generated by \`./run-matrix.sh --keys-md\` from \`lib/matrix-keys\` (the kit's"
	echo "keys) and the \`param\` lines of \`suites/<name>/meta\` and"
	echo "\`monitors/<name>/meta\`; the checks and places are explained in"
	echo "\`lib/matrix-keys\`. A suite's parameter set in a cell of another suite"
	echo "is an error; \`sysctl.*\` and \`sysfs.*\` keys write /proc/sys and /sys."
	awk '
	$4 != last { printf "\n## %s\n\n| key | check | where | default | meaning |\n|---|---|---|---|---|\n",
		$4 == "kit" ? "The kit" : $4 ~ /^monitor:/ ? "Monitor " substr($4, 9) : "Suite " $4; last = $4 }
	{ t = $0; for (i = 0; i < 5; i++) sub(/^[ \t]*[^ \t]+/, "", t); sub(/^[ \t]+/, "", t)
	  c = $2; gsub(/\|/, "\\|", c); gsub(/\|/, "\\|", t)
	  printf "| `%s` | `%s` | %s | %s | %s |\n", $1, c, $3, $5 == "-" ? "" : "`" $5 "`", t }'
}

# check_cell CELL: every key of the cell against the key table, values
# included, before anything is built; an error names file, line and key.
check_cell() {
	ck_suite=$(cell_get "$1" suite) # known: plan_check said so
	for kv in $1; do
		ck_key=${kv%%=*} ck_val=${kv#*=}
		ck_where=$MATRIX
		ck_l=$(key_line "$ck_key")
		[ -z "$ck_l" ] || ck_where="$MATRIX:$ck_l"
		case $ck_key in
		sysctl.* | sysfs.*) ck_check=path ;;
		*) ck_check=$(awk -v k="$ck_key" -v s="$ck_suite" '$1 == k && ($4 == "kit" || $4 == s || $4 ~ /^monitor:/) { print $2; exit }' "$KEYS") ;;
		esac
		if [ -z "$ck_check" ]; then
			ck_owners=$(awk -v k="$ck_key" '$1 == k { printf "%s%s", n++ ? ", " : "", $4 }' "$KEYS")
			[ -z "$ck_owners" ] ||
				die "$ck_where: '$ck_key' is a parameter of $ck_owners, not of suite '$ck_suite' (its parameters: $(awk -v s="$ck_suite" '$4 == s { printf "%s%s", n++ ? " " : "", $1 }' "$KEYS"); suites/$ck_suite/meta)"
			die "$ck_where: unknown key '$ck_key' (did you mean '$(closest_key "$ck_key")'? keys: docs/KEYS.md)"
		fi
		ck_bad=
		# Numbers are decimal without a leading zero: the shell's arithmetic
		# reads 08 as a bad octal number.
		case $ck_check:$ck_val in int:*:0[0-9]* | count:*:0[0-9]* | duration:0[0-9]* | size:0[0-9]*)
			die "$ck_where: bad value '$ck_val' for '$ck_key': a number with a leading zero (write it without)" ;;
		esac
		case $ck_check in
		word | path)
			case $ck_val in '' | *[!A-Za-z0-9_.-]* | ?????????????????????????????????????????????????????????????????*) ck_bad=1 ;; esac
			;;
		words) # unixbench's test list: whetstone-double+context1
			case $ck_val in '' | [+]* | *[+] | *++* | *[!A-Za-z0-9_.+-]* | ?????????????????????????????????????????????????????????????????*) ck_bad=1 ;; esac
			;;
		int:*)
			ck_lo=${ck_check#int:} ck_hi=${ck_lo#*:} ck_lo=${ck_lo%%:*}
			case $ck_val in '' | *[!0-9]* | ??????????*) ck_bad=1 ;; *)
				[ "$ck_val" -ge "$ck_lo" ] && [ "$ck_val" -le "$ck_hi" ] || ck_bad=1 ;;
			esac
			;;
		count:*)
			ck_n=${ck_val%\%}
			case $ck_n in '' | *[!0-9]* | ?????????*) ck_bad=1 ;; *)
				[ "$ck_n" -ge 1 ] && [ "$ck_n" -le "${ck_check#count:}" ] || ck_bad=1 ;;
			esac
			;;
		duration) case $ck_val in '' | *[!0-9smh]* | [!0-9]* | *[smh]?* | ????????*) ck_bad=1 ;; esac ;;
		size) case $ck_val in '' | *[!0-9KMGTkmgt]* | [!0-9]* | *[KMGTkmgt]?* | ??????????????*) ck_bad=1 ;; *)
			(size_of "$ck_val" >/dev/null 2>&1) || ck_bad=1 ;;
			esac ;;
		enum:*) case "|${ck_check#enum:}|" in *"|$ck_val|"*) ;; *) ck_bad=1 ;; esac ;;
		words:*) # unixbench's tests, each from its list
			case $ck_val in '' | [+]* | *[+] | *++* | *[!A-Za-z0-9_.+-]* | ?????????????????????????????????????????????????????????????????*) ck_bad=1 ;; esac
			if [ -z "$ck_bad" ]; then
				for ck_w in $(printf '%s\n' "$ck_val" | tr '+' ' '); do
					case "|${ck_check#words:}|" in *"|$ck_w|"*) ;; *)
						die "$ck_where: unknown $ck_suite test '$ck_w' in '$ck_val' (did you mean '$(closest_of "$ck_w" "${ck_check#words:}")'? the list: the check of '$ck_key' in suites/$ck_suite/meta, docs/KEYS.md)" ;;
					esac
				done
			fi
			;;
		monitors) case $ck_val in '' | *[!a-z0-9_+-]*) ck_bad=1 ;; esac ;;
		variant)
			for ck_v in $(printf '%s\n' "$ck_val" | tr ',' ' '); do
				case $ck_v in [!A-Za-z0-9]* | *[!A-Za-z0-9._@+-]* | *..* | ?????????????????????????????????????????????????????????????????????????????????????????????????????*)
					die "$ck_where: bad variant name '$ck_v' (base, SERIES, SERIES@N, A+B)" ;;
				esac
				ck_why=$(variant_stack_problem "$ck_v")
				[ -z "$ck_why" ] || die "$ck_where: bad variant '$ck_v': $ck_why"
				if [ -n "$BUNDLE" ]; then
					[ -f "$BUNDLE_DIR/kernels/$ck_v/bzImage" ] ||
						die "$ck_where: the bundle has no kernel '$ck_v' (it has: $(cd "$BUNDLE_DIR/kernels" && echo *))"
				elif [ -z "$IMPORT_DIR" ]; then
					# Once a variant a session: build.sh is a process start.
					case " ${CHECKED_VARIANTS:-} " in *" $ck_v "*) ;; *)
						"$KREPRO_ROOT/build.sh" patches "$ck_v" >/dev/null 2>"$TMPD/variant.err" ||
							die "$ck_where: variant '$ck_v': $(sed 's/^build: error: //' "$TMPD/variant.err" | head -n 1)"
						CHECKED_VARIANTS="${CHECKED_VARIANTS:-} $ck_v"
						;;
					esac
				fi
			done
			;;
		cmdline) ;;
		seeds)
			ck_lo=${ck_val%-*} ck_hi=${ck_val#*-}
			for ck_n in "$ck_lo" "$ck_hi"; do
				case $ck_n in '' | *[!0-9]* | 0* | ???????*) ck_bad=1 ;; esac
			done
			[ -n "$ck_bad" ] || [ "$ck_lo" -le "$ck_hi" ] || ck_bad=1
			if [ -z "$ck_bad" ] && [ "$(cell_clock "$1")" != exact ]; then
				die "$ck_where: seeds: is for clock: exact (a real-mode boot has no seed to set)"
			fi
			ck_r=$(cell_get "$1" runs)
			if [ -z "$ck_bad" ] && [ -n "$ck_r" ] && [ "$ck_val" != "$ck_lo" ] && [ "$ck_r" != "$(seed_count "$1")" ]; then
				die "$ck_where: seeds: $ck_val are $(seed_count "$1") seeds, runs: says $ck_r"
			fi
			;;
		esac
		if [ -n "$ck_bad" ]; then
			case $ck_check in
			enum:*)
				# a long list (a suite's tests): the closest name, not all of them
				case ${ck_check#enum:} in *'|'*'|'*'|'*'|'*'|'*'|'*'|'*)
					die "$ck_where: unknown $ck_suite $ck_key '$ck_val' (did you mean '$(closest_of "$ck_val" "${ck_check#enum:}")'? the list: the check of '$ck_key' in suites/$ck_suite/meta, docs/KEYS.md)" ;;
				esac
				ck_want="one of $(echo "${ck_check#enum:}" | sed 's/|/, /g')" ;;
			int:*) ck_want="a whole number from ${ck_check#int:}" ; ck_want=$(echo "$ck_want" | sed 's/:/ to /') ;;
			count:*) ck_want="N (1..${ck_check#count:}) or N% of the board's CPUs" ;;
			duration) ck_want="a duration: N, Ns, Nm or Nh" ;;
			size) ck_want="a size: N, NK, NM, NG or NT, below 1P" ;;
			seeds) ck_want="a seed N or seeds N-M (whole numbers 1..999999 without leading zeros, N <= M)" ;;
			words*) ck_want="words of letters, digits, '_', '.', '-' joined by '+' (at most 64)" ;;
			*) ck_want="letters, digits, '_', '.', '-' (at most 64)" ;;
			esac
			die "$ck_where: bad value '$ck_val' for '$ck_key': expected $ck_want"
		fi
	done
}

# load_key_classes: from the key table (made here, once a session), in one
# pass, the keys kept out of the result path (NONPATH_KEYS), out of job.conf
# (HOST_KEYS), counted in CPUs (COUNT_KEYS, N or N%: job.conf gets the
# count, the path keeps N%), sizes (SIZE_KEYS: job.conf gets bytes, the
# path keeps 64M) and durations (DURATION_KEYS: job.conf gets seconds), each
# " a b ... "; and the defaults of runs and board.  Called once by
# plan_cells, not at every sourcing.
load_key_classes() {
	keys_file
	{
		IFS= read -r NONPATH_KEYS
		IFS= read -r HOST_KEYS
		IFS= read -r COUNT_KEYS
		IFS= read -r SIZE_KEYS
		IFS= read -r DURATION_KEYS
		IFS=' ' read -r DEFAULT_RUNS DEFAULT_BOARD
	} <<EOF
$(awk '!seen[$1]++ {
	if ($3 != "path") np = np $1 " "
	if ($3 == "host") h = h $1 " "
	if ($2 ~ /^count:/) c = c $1 " "
	if ($2 == "size") z = z $1 " "
	if ($2 == "duration") t = t $1 " "
	if ($4 == "kit") d[$1] = $5
} END { print " " np; print " " h; print " " c; print " " z; print " " t; print d["runs"], d["board"] }' "$KEYS")
EOF
}

# cell_defaults CELL [host]: "key=default" for each key the cell does not
# set that has a default: its suite's parameters, the kit's keys and the
# parameters of the monitors it names; only those that go to job.conf
# unless "host" (the run-matrix-only keys too).  write_job adds them, so
# job.conf holds every value the guest runs with.
cell_defaults() {
	cd_suite=$(cell_get "$1" suite)
	cd_mons=+$(cell_get "$1" monitors)+
	printf '%s\n' "$1" | awk -v s="$cd_suite" -v m="$cd_mons" -v host="${2:-}" '
	NR == 1 { n = split($0, kv, " "); for (i = 1; i <= n; i++) { sub(/=.*/, "", kv[i]); set[kv[i]] = 1 }; next }
	$5 == "-" || ($1 in set) || ($3 == "host" && host == "") { next }
	$4 == s || $4 == "kit" || ($4 ~ /^monitor:/ && index(m, "+" substr($4, 9) "+")) { print $1 "=" $5 }' - "$KEYS"
}

cell_value() { # cell key -> its value, else its default ("" if neither)
	cv=$(cell_get "$1" "$2")
	[ -n "$cv" ] || cv=$(cell_defaults "$1" host | sed -n "s/^$2=//p")
	printf '%s\n' "$cv"
}

path_params() { # cell -> LKP path_params: benchmark options sorted by key
	for kv in $1; do
		case $NONPATH_KEYS in *" ${kv%%=*} "*) continue ;; esac
		echo "$kv"
	done | sort | sed 's/^[^=]*=//' | tr '\n' '-' | sed 's/-$//; s/[^-a-zA-Z0-9+=:.%]/_/g'
}

# COMPILER is set by plan_cells, once build.sh has checked the compiler.
KCONFIG=qemu-minimal
ROOTFS=krepro-initramfs

cell_board() { # cell -> the name of its board
	cb=${BOARD_OVERRIDE:-$(cell_get "$1" board)}
	printf '%s\n' "${cb:-${DEFAULT_BOARD:-$(kit_default board)}}"
}

variant_dir() { # cell -> variant-level result dir
	vd_cell=$1
	# Each tenant of a multi-tenant cell has its own results (vm_1 by default).
	vd_t=$(cell_get "$1" tenants)
	if [ "${vd_t:-1}" != 1 ] && [ -z "$(cell_get "$1" tenant)" ]; then
		vd_cell="$1 tenant=${TENANT_PREFIX}1"
	fi
	v=$(cell_get "$1" variants)
	[ -n "$v" ] || v=$(cell_get "$1" variant)
	[ -n "$v" ] || v=base
	b=$(cell_board "$1")
	# Runs made by LAVA are another machine: "<board>.lava" (an export),
	# "<board>.lava-HOST-PORT[-TAGS]" (--lava; lib/lava.sh).
	[ -z "${LAVA_MACHINE:-}" ] || b=$b.$LAVA_MACHINE
	# Exact-mode results are another machine: "<board>.exact".
	[ "$(cell_clock "$1")" != exact ] || b=$b.exact
	printf '%s/%s/%s/%s/%s/%s/%s/%s\n' "$RESULTS" "$(cell_get "$1" suite)" \
		"$(path_params "$vd_cell")" "$b" "$ROOTFS" "$KCONFIG" "$COMPILER" "$v"
}

cell_timeout() { # cell -> seconds for one boot running it
	ct=$(cell_get "$1" timeout)
	[ -n "$ct" ] && ct=$(to_seconds "$ct")
	ct_rt=$(to_seconds "$(cell_value "$1" runtime)")
	echo "${ct:-$((B_BOOT_TIMEOUT + ${ct_rt:-0} * 2))}"
}
