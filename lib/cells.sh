# shellcheck shell=sh
# lib/cells.sh: the cell and key table: a cell is one line of key=value words
# (krepro-matrix's output); its keys are checked against lib/matrix-keys and
# resolved here (board, clock, nr_task, durations, result path).

default_matrix() {
	cat <<'EOF'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 100%
runtime: 10s
variants: [base, calibration]
runs: 3
board: qemu-2node
EOF
}

DEFAULT_RUNS=3 # runs: of a cell that does not say
runs_of() { # cell -> its runs, the default applied
	ro=$(cell_get "$1" runs)
	echo "${ro:-$DEFAULT_RUNS}"
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
# docs/EXACT.md) or "real" (host time); the matrix's clock: key, else the
# board's.  Needs load_board of the cell's board.
cell_clock() {
	cc=$(cell_get "$1" clock)
	printf '%s\n' "${cc:-$B_CLOCK}"
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

# key_line KEY: the matrix file's line that sets KEY ("" if none).
key_line() {
	[ -f "$MATRIX" ] || return 0
	grep -n "^$1 *:" "$MATRIX" 2>/dev/null | head -n 1 | cut -d: -f1
}

# closest_key KEY: the listed key nearest to KEY (edit distance).
closest_key() {
	awk -v w="$1" '
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
	/^[a-z]/ { k = dist(w, $1); if (best == "" || k < bk) { best = $1; bk = k } }
	END { print best }' "$KREPRO_ROOT/lib/matrix-keys"
}

# check_cell CELL K: every key of cell K against lib/matrix-keys, values
# included, before anything is built; an error names file, line and key.
check_cell() {
	for kv in $1; do
		ck_key=${kv%%=*} ck_val=${kv#*=}
		ck_where=$MATRIX
		ck_l=$(key_line "$ck_key")
		[ -z "$ck_l" ] || ck_where="$MATRIX:$ck_l"
		case $ck_key in
		sysctl.* | sysfs.*) ck_check=path ;;
		*) ck_check=$(awk -v k="$ck_key" '$1 == k { print $2; exit }' "$KREPRO_ROOT/lib/matrix-keys") ;;
		esac
		[ -n "$ck_check" ] ||
			die "$ck_where: unknown key '$ck_key' (did you mean '$(closest_key "$ck_key")'? keys: lib/matrix-keys)"
		ck_bad=
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
		size) case $ck_val in '' | *[!0-9KMGTkmgt]* | [!0-9]* | *[KMGTkmgt]?* | ??????????????*) ck_bad=1 ;; esac ;;
		enum:*) case "|${ck_check#enum:}|" in *"|$ck_val|"*) ;; *) ck_bad=1 ;; esac ;;
		monitors) case $ck_val in '' | *[!a-z0-9_+-]*) ck_bad=1 ;; esac ;;
		variant)
			for ck_v in $(printf '%s\n' "$ck_val" | tr ',' ' '); do
				case $ck_v in [!A-Za-z0-9]* | *[!A-Za-z0-9._@+-]* | *..* | ?????????????????????????????????????????????????????????????????????????????????????????????????????*)
					die "$ck_where: bad variant name '$ck_v' (base, SERIES, SERIES@N, A+B)" ;;
				esac
				if [ -n "$BUNDLE" ]; then
					[ -f "$BUNDLE_DIR/kernels/$ck_v/bzImage" ] ||
						die "$ck_where: the bundle has no kernel '$ck_v' (it has: $(cd "$BUNDLE_DIR/kernels" && echo *))"
				elif [ -z "$IMPORT_DIR" ]; then
					"$KREPRO_ROOT/build.sh" patches "$ck_v" >/dev/null 2>"$TMPD/variant.err" ||
						die "$ck_where: variant '$ck_v': $(sed 's/^build: error: //' "$TMPD/variant.err" | head -n 1)"
				fi
			done
			;;
		cmdline) ;;
		esac
		if [ -n "$ck_bad" ]; then
			case $ck_check in
			enum:*) ck_want="one of $(echo "${ck_check#enum:}" | sed 's/|/, /g')" ;;
			int:*) ck_want="a whole number from ${ck_check#int:}" ; ck_want=$(echo "$ck_want" | sed 's/:/ to /') ;;
			count:*) ck_want="N (1..${ck_check#count:}) or N% of the board's CPUs" ;;
			duration) ck_want="a duration: N, Ns, Nm or Nh" ;;
			size) ck_want="a size: N, NK, NM, NG or NT" ;;
			words) ck_want="words of letters, digits, '_', '.', '-' joined by '+' (at most 64)" ;;
			*) ck_want="letters, digits, '_', '.', '-' (at most 64)" ;;
			esac
			die "$ck_where: bad value '$ck_val' for '$ck_key': expected $ck_want"
		fi
	done
}

# load_key_classes: from lib/matrix-keys, in one pass, the keys kept out of
# the result path (NONPATH_KEYS), out of job.conf (HOST_KEYS), and counted
# in CPUs (COUNT_KEYS, N or N%: job.conf gets the count, the path keeps N%);
# each " a b ... ".  Called once by plan_cells, not at every sourcing.
load_key_classes() {
	{
		IFS= read -r NONPATH_KEYS
		IFS= read -r HOST_KEYS
		IFS= read -r COUNT_KEYS
	} <<EOF
$(awk '/^[a-z]/ {
	if ($3 != "path") np = np $1 " "
	if ($3 == "host") h = h $1 " "
	if ($2 ~ /^count:/) c = c $1 " "
} END { print " " np; print " " h; print " " c }' "$KREPRO_ROOT/lib/matrix-keys")
EOF
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

DEFAULT_BOARD=qemu-2node # when neither the matrix nor --board names one
cell_board() { # cell -> the name of its board
	cb=${BOARD_OVERRIDE:-$(cell_get "$1" board)}
	printf '%s\n' "${cb:-$DEFAULT_BOARD}"
}

variant_dir() { # cell -> variant-level result dir
	vd_cell=$1
	# Each tenant of a multi-tenant cell has its own results (vm_1 by default).
	vd_t=$(cell_get "$1" tenants)
	if [ "${vd_t:-1}" != 1 ] && [ -z "$(cell_get "$1" tenant)" ]; then
		vd_cell="$1 tenant=vm_1"
	fi
	v=$(cell_get "$1" variants)
	[ -n "$v" ] || v=$(cell_get "$1" variant)
	[ -n "$v" ] || v=base
	b=$(cell_board "$1")
	# Exact-mode results are another machine: "<board>.exact".
	vd_clock=$(cell_get "$1" clock)
	[ -n "$vd_clock" ] || vd_clock=$(sed -n 's/^clock: *//p' "$KREPRO_ROOT/boards/$b" 2>/dev/null | head -n 1)
	[ "$vd_clock" != exact ] || b=$b.exact
	printf '%s/%s/%s/%s/%s/%s/%s/%s\n' "$RESULTS" "$(cell_get "$1" suite)" \
		"$(path_params "$vd_cell")" "$b" "$ROOTFS" "$KCONFIG" "$COMPILER" "$v"
}

cell_timeout() { # cell -> seconds for one boot running it
	ct=$(cell_get "$1" timeout)
	[ -n "$ct" ] && ct=$(to_seconds "$ct")
	ct_rt=$(to_seconds "$(cell_get "$1" runtime)")
	echo "${ct:-$((B_BOOT_TIMEOUT + ${ct_rt:-0} * 2))}"
}
