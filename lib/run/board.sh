# shellcheck shell=sh
# lib/run/board.sh: boards/<name>: one data file per machine (never executed),
# validated line by line into the B_* variables.  load_board is the one
# reader of board files; the keys, their variables and defaults are one
# table, lib/run/board-keys.
# Reads: KREPRO_ROOT, KREPRO_CACHE, BOARD_KEYS.  Sets: B_* (lib/run/board-keys),
# B_NUMA, B_NODES, B_NODES_MIB (their memory added up), B_NODE_MEMS and B_NODE_CPUS (each node's, in order), B_SMP (qemu boards), B_SSH_CONFIG (lab boards), BOARD_KEYS,
# BOARD_LOADED (the loaded board's name).  The B_* are this module's own:
# other modules read a board by its name through board_get and board_is.

# board_keys: BOARD_KEYS, lib/run/board-keys as " key:VARIABLE:DEFAULT ...",
# read once a session.
board_keys() {
	[ -z "${BOARD_KEYS:-}" ] || return 0
	BOARD_KEYS=' '
	while read -r bk_key bk_var bk_def _; do
		case $bk_key in '' | '#'*) continue ;; esac
		BOARD_KEYS="$BOARD_KEYS$bk_key:$bk_var:$bk_def "
	done <"$KREPRO_ROOT/lib/run/board-keys"
}

# load_board NAME: validate boards/NAME and set B_* variables.
load_board() {
	f=$KREPRO_ROOT/boards/$1
	case $1 in */* | .*) die "bad board name '$1'" ;; esac
	[ -f "$f" ] || die "board '$1' not found (no file boards/$1)"
	board_keys
	# Every key's variable at its default (the table's names and values, never
	# a board file's, go through eval).
	for bk in $BOARD_KEYS; do
		bk_def=${bk##*:}
		[ "$bk_def" != - ] || bk_def=
		bk=${bk#*:}
		eval "${bk%%:*}=\$bk_def"
	done
	B_NUMA='' B_NODES=0 B_NODE_MEMS='' B_NODE_CPUS='' B_NODES_MIB=0
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		key=${line%%:*}
		[ "$key" != "$line" ] || die "boards/$1:$n: expected 'key: value'"
		val=${line#*:}
		val=${val# }
		case $val in
		'' | *[!A-Za-z0-9=,._@:/+\ -]*) die "boards/$1:$n: bad value for '$key': '$val'" ;;
		esac
		case $key in
		node[0-9] | node[0-9][0-9])
			id=${key#node}
			ncpus='' nmem=''
			for kv in $val; do
				case $kv in
				cpus=*) ncpus=${kv#cpus=} ;;
				mem=*) nmem=${kv#mem=} ;;
				*) die "boards/$1:$n: unknown node field '$kv' (cpus=, mem=)" ;;
				esac
			done
			if [ -z "$ncpus" ] || [ -z "$nmem" ]; then
				die "boards/$1:$n: node needs cpus= and mem="
			fi
			# both end up inside QEMU's -object and -numa options: a comma
			# or a space there would add options of the board's choosing
			case $ncpus in
			[0-9] | [0-9][0-9] | [0-9][0-9][0-9] | [0-9]-[0-9] | [0-9]-[0-9][0-9] | [0-9][0-9]-[0-9][0-9] | [0-9][0-9]-[0-9][0-9][0-9] | [0-9][0-9][0-9]-[0-9][0-9][0-9]) ;;
			*) die "boards/$1:$n: node cpus= must be N or N-M, not '$ncpus'" ;;
			esac
			board_size_mib "$1:$n" "node mem=" "$nmem"
			B_NODES_MIB=$((B_NODES_MIB + bs_mib))
			B_NODES=$((B_NODES + 1))
			B_NODE_MEMS="$B_NODE_MEMS $nmem"
			B_NODE_CPUS="$B_NODE_CPUS $ncpus"
			B_NUMA="$B_NUMA -object memory-backend-ram,id=m$id,size=$nmem -numa node,nodeid=$id,memdev=m$id,cpus=$ncpus"
			;;
		'' | *[!a-z_]*) die "boards/$1:$n: unknown key '$key'" ;;
		*)
			case $BOARD_KEYS in *" $key:"*) ;; *) die "boards/$1:$n: unknown key '$key'" ;; esac
			bk=${BOARD_KEYS#*" $key:"}
			eval "${bk%%:*}=\$val"
			;;
		esac
	done <"$f"
	case $B_TYPE in
	qemu) ;;
	lab)
		[ -n "$B_SSH" ] || die "boards/$1: a lab board needs ssh: user@host"
		[ -n "$B_CONSOLE" ] || die "boards/$1: a lab board needs console: COMMAND"
		[ -n "$B_POWER" ] || die "boards/$1: a lab board needs power_cycle: COMMAND"
		case $B_LAB_NODES in '' | *[!0-9]*) die "boards/$1: nodes must be a number" ;; esac
		case $B_CONTROLLER in
		*.*.*.*) ;;
		*) die "boards/$1: a lab board needs controller: the IPv4 address the board reaches run-matrix at" ;;
		esac
		case $B_SSH_CONFIG in '' | /*) ;; *) B_SSH_CONFIG=$KREPRO_CACHE/$B_SSH_CONFIG ;; esac
		# krepro-listen takes frames only from this address: without it, any
		# peer's bytes would become the run's results.
		case $B_ADDRESS in
		'') die "boards/$1: a lab board needs address: its IPv4 address (the results listener takes only that peer)" ;;
		*[!0-9.]* | .* | *. | *..* | *.*.*.*.*) die "boards/$1: address must be the board's IPv4 address" ;;
		*.*.*.*) ;;
		*) die "boards/$1: address must be the board's IPv4 address" ;;
		esac
		;;
	*) die "boards/$1: type must be qemu or lab, not '$B_TYPE'" ;;
	esac
	board_check_values "$1"
	case $B_ACCEL in auto | tcg | kvm) ;; *) die "boards/$1: accel must be auto, tcg or kvm" ;; esac
	case $B_CLOCK in real | exact) ;; *) die "boards/$1: clock must be real or exact, not '$B_CLOCK'" ;; esac
	case $B_BOOT_TIMEOUT in *[!0-9]*) die "boards/$1: boot_timeout must be seconds" ;; esac
	case $B_MEMORY_MODEL in off | on) ;; *) die "boards/$1: memory_model must be on or off, not '$B_MEMORY_MODEL'" ;; esac
	for bm in "l1d:$B_MODEL_L1D" "l2:$B_MODEL_L2" "llc:$B_MODEL_LLC"; do
		# SIZE (bytes, or K, M, G; at most 6 digits: no size wraps in the
		# plugin's arithmetic) / WAYS (1 to 999)
		bm_v=${bm#*:}
		bm_s=${bm_v%%/*} bm_w=${bm_v#*/}
		case $bm_s in [1-9]*) ;; *) bm_s=x ;; esac
		case ${bm_s%[KMG]}:$bm_w in
		*[!0-9]*:* | ???????*:* | *:*[!0-9]* | *:0* | *:????* | *:) die "boards/$1: model_${bm%%:*} must be SIZE/WAYS (e.g. 32K/8), not '$bm_v'" ;;
		esac
	done
	case $B_MODEL_LINE in 16 | 32 | 64 | 128 | 256) ;; *) die "boards/$1: model_line must be 16, 32, 64, 128 or 256 bytes" ;; esac
	[ "$B_TYPE" = qemu ] || [ "$B_MEMORY_MODEL" = off ] || die "boards/$1: memory_model: on needs a QEMU board (the model is a QEMU plugin)"
	if [ "$B_TYPE" = qemu ]; then
		# One socket per NUMA node, so no cache is shared across nodes.
		B_SMP=$B_CPUS
		if [ "$B_NODES" -gt 1 ]; then
			[ $((B_CPUS % B_NODES)) = 0 ] || die "boards/$1: $B_CPUS cpus do not split over $B_NODES nodes"
			B_SMP="$B_CPUS,sockets=$B_NODES,cores=$((B_CPUS / B_NODES)),threads=1"
		fi
	fi
	BOARD_LOADED=$1
}

# board_size_mib WHERE WHAT VALUE: bs_mib, VALUE (NM or NG, at most 64T) in
# MiB, or stop naming WHERE and WHAT (called directly, never in $(...): its
# die must stop the caller).
board_size_mib() {
	case $3 in
	[1-9]*[MG]) case ${3%?} in *[!0-9]* | ????????*) die "boards/$1: $2 must be NM or NG, not '$3'" ;; esac ;;
	*) die "boards/$1: $2 must be NM or NG (a positive size), not '$3'" ;;
	esac
	case $3 in *G) bs_mib=$((${3%G} * 1024)) ;; *) bs_mib=${3%M} ;; esac
}

# board_ipv4 VALUE: 0 when VALUE is a dotted IPv4 address.
board_ipv4() {
	case $1 in *[!0-9.]* | .* | *. | *..*) return 1 ;; esac
	bi_n=0
	for bi_o in $(printf '%s\n' "$1" | tr . ' '); do
		case $bi_o in ? | [1-9]? | 1?? | 2[0-4]? | 25[0-5]) ;; *) return 1 ;; esac
		bi_n=$((bi_n + 1))
	done
	[ "$bi_n" = 4 ]
}

# board_qemu_cpu NAME: 0 when NAME is one of the installed QEMU's CPU models
# (its own -cpu help list, asked once a session): QEMU 7.2 prints "x86
# NAME ...", QEMU 10 (Debian 13) "Available CPUs:" then "  NAME ...".
board_qemu_cpu() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || return 0 # checked again before a boot (qemu_check)
	bq_list=${TMPD:+$TMPD/qemu-cpu-models}
	if [ -z "$bq_list" ] || [ ! -s "$bq_list" ]; then
		bq_list=${bq_list:-$(mktemp)}
		# whole or not at all: a parallel slot may read it meanwhile
		qemu-system-x86_64 -cpu help 2>/dev/null | awk '$1 == "x86" && NF >= 2 { print $2; next }
			/^Available CPUs:/ { list = 1; next } /^[^ ]/ { list = 0 } list && /^  [^ ]/ { print $1 }' >"$bq_list.$$"
		mv "$bq_list.$$" "$bq_list"
	fi
	grep -qxF -- "$1" "$bq_list"
	bq_rc=$?
	[ -n "${TMPD:-}" ] || rm -f "$bq_list"
	return $bq_rc
}

# board_check_values NAME: every value of the loaded board against its key's
# type.  Values become QEMU options, ssh and kexec arguments and job.conf
# lines: a name is a name, a count a count within what QEMU or the host
# can give, never a word that a program would read as an option.
board_check_values() {
	case $B_CPUS in '' | *[!0-9]* | 0*) die "boards/$1: cpus must be a number from 1" ;; esac
	[ -n "$B_MEMORY" ] || die "boards/$1: no memory"
	board_size_mib "$1" memory "$B_MEMORY"
	bc_mib=$bs_mib
	case $B_BOOT_TIMEOUT in '' | *[!0-9]* | 0* | ??????*) die "boards/$1: boot_timeout must be seconds, 1 to 99999" ;; esac
	if [ "$B_TYPE" = qemu ]; then
		[ "$B_CPUS" -le 255 ] || die "boards/$1: cpus: $B_CPUS is more than QEMU's pc and q35 machines hold (255)"
		bc_host=$(awk '$1 == "MemTotal:" { print int($2 / 1024) }' /proc/meminfo 2>/dev/null)
		[ -z "$bc_host" ] || [ "$bc_mib" -le "$bc_host" ] ||
			die "boards/$1: memory: $B_MEMORY is more than this host has ($bc_host MiB)"
		case $B_MACHINE in
		[a-z]*) case $B_MACHINE in *[!a-z0-9._-]*) die "boards/$1: machine must be a QEMU machine name (pc, q35, pc-q35-7.2), not '$B_MACHINE'" ;; esac ;;
		*) die "boards/$1: machine must be a QEMU machine name (pc, q35, pc-q35-7.2), not '$B_MACHINE'" ;;
		esac
		case $B_CPU in
		[A-Za-z]*) case $B_CPU in *[!A-Za-z0-9._-]*) die "boards/$1: cpu must be a CPU model name of QEMU's -cpu help, not '$B_CPU'" ;; esac ;;
		*) die "boards/$1: cpu must be a CPU model name of QEMU's -cpu help, not '$B_CPU'" ;;
		esac
		board_qemu_cpu "$B_CPU" || die "boards/$1: cpu: '$B_CPU' is not a CPU model of this QEMU (qemu-system-x86_64 -cpu help)"
		if [ "$B_NODES" -gt 0 ]; then
			[ "$B_NODES_MIB" = "$bc_mib" ] || die "boards/$1: the nodes' mem= add up to $B_NODES_MIB MiB, memory is $B_MEMORY"
			for bc_c in $B_NODE_CPUS; do
				if [ "${bc_c##*-}" -ge "$B_CPUS" ] || [ "${bc_c%%-*}" -gt "${bc_c##*-}" ]; then
					die "boards/$1: node cpus=$bc_c: the board has cpus 0 to $((B_CPUS - 1))"
				fi
			done
		fi
	else
		# a lab machine: what ssh and kexec are given
		case $B_SSH in
		-* | *[!A-Za-z0-9@._-]* | *@*@*) die "boards/$1: ssh must be user@host or an ssh_config Host, not '$B_SSH'" ;;
		esac
		case $B_SSH_CONFIG in -* | *..*) die "boards/$1: ssh_config must be a file's path without '..', not '$B_SSH_CONFIG'" ;; esac
		board_ipv4 "$B_CONTROLLER" || die "boards/$1: a lab board needs controller: the IPv4 address the board reaches run-matrix at"
		board_ipv4 "$B_LISTEN" || die "boards/$1: listen must be an IPv4 address, not '$B_LISTEN'"
		case $B_NET in
		dhcp) ;;
		*/*,*) board_ipv4 "${B_NET%%/*}" || die "boards/$1: net must be dhcp or ADDR/PREFIX,GW, not '$B_NET'"
			board_ipv4 "${B_NET##*,}" || die "boards/$1: net must be dhcp or ADDR/PREFIX,GW, not '$B_NET'" ;;
		*) die "boards/$1: net must be dhcp or ADDR/PREFIX,GW, not '$B_NET'" ;;
		esac
		for bc_w in $B_CMDLINE; do
			case $bc_w in -* | *[!A-Za-z0-9=,._:/+-]*) die "boards/$1: cmdline: '$bc_w' is not a kernel parameter" ;; esac
		done
	fi
}

# board_sha NAME: the sha256 of boards/NAME's bytes (a run's host.conf
# records it: an edited board never reuses another version's runs).
board_sha() {
	case $1 in '' | */* | .*) die "bad board name '$1'" ;; esac
	sha256sum "$KREPRO_ROOT/boards/$1" | cut -d' ' -f1
}

# The board as data: other modules read a board through these two, given
# its name, never through B_*.  KEY is a variable of lib/run/board-keys without
# its B_ (CPUS, TYPE, SSH, ...) or one load_board derives (NUMA, NODES,
# NODE_MEMS, NODE_CPUS, SMP).  The board is loaded unless it is the loaded
# one (BOARD_LOADED), so a $(board_get ...) after a load reads no file.
board_key() {
	case $1 in '' | *[!A-Z0-9_]*) die "board: bad key '$1' (a board-keys variable without B_)" ;; esac
}
board_get() { # NAME KEY: the value, on stdout
	[ "${BOARD_LOADED:-}" = "$1" ] || load_board "$1"
	board_key "$2"
	eval "printf '%s\\n' \"\${B_$2}\""
}
board_is() { # NAME KEY VALUE: 0 when the board's KEY is VALUE (no process)
	[ "${BOARD_LOADED:-}" = "$1" ] || load_board "$1"
	board_key "$2"
	eval "[ \"\${B_$2}\" = \"\$3\" ]"
}
