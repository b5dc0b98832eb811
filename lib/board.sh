# shellcheck shell=sh
# lib/board.sh: boards/<name>: one data file per machine (never executed),
# validated line by line into the B_* variables.  load_board is the one
# reader of board files; the keys, their variables and defaults are one
# table, lib/board-keys.
# Reads: KREPRO_ROOT, KREPRO_CACHE, BOARD_KEYS.  Sets: B_* (lib/board-keys),
# B_NUMA, B_NODES, B_NODE_MEMS and B_NODE_CPUS (each node's, in order), B_SMP (qemu boards), B_SSH_CONFIG (lab boards), BOARD_KEYS,
# BOARD_LOADED (the loaded board's name).  The B_* are this module's own:
# other modules read a board by its name through board_get and board_is.

# board_keys: BOARD_KEYS, lib/board-keys as " key:VARIABLE:DEFAULT ...",
# read once a session.
board_keys() {
	[ -z "${BOARD_KEYS:-}" ] || return 0
	BOARD_KEYS=' '
	while read -r bk_key bk_var bk_def _; do
		case $bk_key in '' | '#'*) continue ;; esac
		BOARD_KEYS="$BOARD_KEYS$bk_key:$bk_var:$bk_def "
	done <"$KREPRO_ROOT/lib/board-keys"
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
	B_NUMA='' B_NODES=0 B_NODE_MEMS='' B_NODE_CPUS=''
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
	case $B_CPUS in '' | *[!0-9]*) die "boards/$1: cpus must be a number" ;; esac
	[ -n "$B_MEMORY" ] || die "boards/$1: no memory"
	case $B_ACCEL in auto | tcg | kvm) ;; *) die "boards/$1: accel must be auto, tcg or kvm" ;; esac
	case $B_CLOCK in real | exact) ;; *) die "boards/$1: clock must be real or exact, not '$B_CLOCK'" ;; esac
	case $B_BOOT_TIMEOUT in *[!0-9]*) die "boards/$1: boot_timeout must be seconds" ;; esac
	case $B_MEMORY_MODEL in off | on) ;; *) die "boards/$1: memory_model must be on or off, not '$B_MEMORY_MODEL'" ;; esac
	for bm in "l1d:$B_MODEL_L1D" "l2:$B_MODEL_L2" "llc:$B_MODEL_LLC"; do
		case ${bm#*:} in
		[1-9]*[0-9KMG]/[1-9]* | [1-9]/[1-9]*) case ${bm#*:} in *[!0-9KMG/]* | */*/* | *[KMG]?*/*) die "boards/$1: model_${bm%%:*} must be SIZE/WAYS (e.g. 32K/8), not '${bm#*:}'" ;; esac ;;
		*) die "boards/$1: model_${bm%%:*} must be SIZE/WAYS (e.g. 32K/8), not '${bm#*:}'" ;;
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

# The board as data: other modules read a board through these two, given
# its name, never through B_*.  KEY is a variable of lib/board-keys without
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
