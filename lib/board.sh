# shellcheck shell=sh
# lib/board.sh: boards/<name>: one data file per machine (never executed),
# validated line by line into the B_* variables.

# load_board NAME: validate boards/NAME and set B_* variables.
load_board() {
	f=$KREPRO_ROOT/boards/$1
	case $1 in */* | .*) die "bad board name '$1'" ;; esac
	[ -f "$f" ] || die "board '$1' not found (no file boards/$1)"
	B_TYPE='' B_CPUS='' B_MEMORY='' B_MACHINE=pc B_CPU=qemu64 B_ACCEL=auto B_NUMA='' B_NODES=0 B_BOOT_TIMEOUT=120
	B_LAB_NODES='' B_MODEL='' B_SSH='' B_CONSOLE='' B_POWER=''
	B_SSH_CONFIG='' B_CONTROLLER='' B_LISTEN=0.0.0.0 B_NET=dhcp B_CMDLINE='' B_CLOCK=real B_ADDRESS=
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
		type) B_TYPE=$val ;;
		cpus) B_CPUS=$val ;;
		memory) B_MEMORY=$val ;;
		machine) B_MACHINE=$val ;;
		cpu) B_CPU=$val ;;
		accel) B_ACCEL=$val ;;
		boot_timeout) B_BOOT_TIMEOUT=$val ;;
		nodes) B_LAB_NODES=$val ;;
		model) B_MODEL=$val ;;
		ssh) B_SSH=$val ;;
		console) B_CONSOLE=$val ;;
		power_cycle) B_POWER=$val ;;
		ssh_config) B_SSH_CONFIG=$val ;;
		controller) B_CONTROLLER=$val ;;
		listen) B_LISTEN=$val ;;
		net) B_NET=$val ;;
		cmdline) B_CMDLINE=" $val" ;;
		clock) B_CLOCK=$val ;;
		address) B_ADDRESS=$val ;;
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
			B_NUMA="$B_NUMA -object memory-backend-ram,id=m$id,size=$nmem -numa node,nodeid=$id,memdev=m$id,cpus=$ncpus"
			;;
		*) die "boards/$1:$n: unknown key '$key'" ;;
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
	[ "$B_TYPE" = qemu ] || return 0
	# One socket per NUMA node, so no cache is shared across nodes.
	B_SMP=$B_CPUS
	if [ "$B_NODES" -gt 1 ]; then
		[ $((B_CPUS % B_NODES)) = 0 ] || die "boards/$1: $B_CPUS cpus do not split over $B_NODES nodes"
		B_SMP="$B_CPUS,sockets=$B_NODES,cores=$((B_CPUS / B_NODES)),threads=1"
	fi
}
