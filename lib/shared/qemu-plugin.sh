# shellcheck shell=sh
# lib/shared/qemu-plugin.sh: build.sh's memory-model plugin (tools/qemu-plugin):
# the installed QEMU checked, its plugin header fetched from the pinned
# Debian source package (tools/qemu-plugin/qemu-source.conf) and the plugin
# compiled against it.  docs/MEMORY-MODEL.md.
# Sourced by build.sh; only definitions, so a script edited while it runs
# cannot change what runs.
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT; environment:
# KREPRO_QEMU_SOURCE (a folder already holding the source package's files,
# still checked), KREPRO_DEBIAN_MIRROR (the mirror apt fetches from).
# run-matrix's model_plugin_prepare sets MODEL_PLUGIN, MODEL_PLUGIN_SHA and
# MODEL_QEMU, which model_plugin_arg reads (with its board, through
# board_get).  Sets nothing else global.

qp_get() { # key -> value from tools/qemu-plugin/qemu-source.conf
	conf_get "$KREPRO_ROOT/tools/qemu-plugin/qemu-source.conf" "$1"
}

# qp_check_qemu: the qemu-system-x86_64 on PATH has plugins and is the
# pinned Debian version (a binNMU's +bN suffix aside), else stop saying
# what to install.
qp_check_qemu() {
	qp_want=$(qp_get version)
	qp_how="install Debian 12's qemu-system-x86 $qp_want (apt-get install qemu-system-x86), whose plugin header the kit pins"
	command -v qemu-system-x86_64 >/dev/null 2>&1 || die "no qemu-system-x86_64: $qp_how"
	qp_qv=$(qemu-system-x86_64 -version 2>/dev/null | head -n 1)
	qemu-system-x86_64 -help 2>/dev/null | grep -q '^-plugin' ||
		die "qemu-system-x86_64 ($qp_qv) has no TCG plugin support (-plugin): $qp_how"
	qp_got=$(printf '%s\n' "$qp_qv" | sed -n 's/.*(Debian \([^)]*\)).*/\1/p' | sed 's/+b[0-9]*$//')
	[ -n "$qp_got" ] || die "qemu-system-x86_64 is '$qp_qv', not a Debian build the kit knows: $qp_how"
	[ "$qp_got" = "$qp_want" ] || [ "${qp_got#*:}" = "${qp_want#*:}" ] ||
		die "qemu-system-x86_64 is Debian's $qp_got, the kit's plugin header is pinned to $qp_want: $qp_how (or pin the new version in tools/qemu-plugin/qemu-source.conf)"
}

# qp_mirror [SUITE [DEFAULT]]: the Debian mirror of SUITE (default: the
# pinned suite) the host's apt uses (one-line or deb822 sources), else
# DEFAULT (deb.debian.org's debian); KREPRO_DEBIAN_MIRROR overrides.
qp_mirror() {
	if [ -n "${KREPRO_DEBIAN_MIRROR:-}" ]; then
		qp_m=$KREPRO_DEBIAN_MIRROR
	else
		qp_suite=${1:-$(qp_get suite)}
		qp_m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk -v s="$qp_suite" '$1 == "deb" { i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++
				if ($i ~ /^\[/ || $i ~ /\]$/) i++; if ($(i + 1) == s) { print $i; exit } }')
		if [ -z "$qp_m" ]; then
			qp_m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
				awk -v s="$qp_suite" 'BEGIN { RS = "" } {
					uri = ""; ok = 0; deb = 0; off = 0
					n = split($0, l, "\n")
					for (j = 1; j <= n; j++) {
						if (l[j] ~ /^URIs:/) { split(l[j], w, /[ \t]+/); uri = w[2] }
						if (l[j] ~ /^Types:/ && l[j] ~ /[ \t]deb([ \t]|$)/) deb = 1
						if (l[j] ~ /^Enabled:[ \t]*no/) off = 1
						if (l[j] ~ /^Suites:/ && (" " l[j] " ") ~ ("[ \t]" s "[ \t]")) ok = 1
					}
					if (deb && ok && !off && uri != "") { print uri; exit }
				}')
		fi
		qp_m=${qp_m:-${2:-http://deb.debian.org/debian}}
	fi
	case $qp_m in
	http://* | https://*) ;;
	*) die "Debian mirror '$qp_m': expected an http:// or https:// URI (KREPRO_DEBIAN_MIRROR)" ;;
	esac
	printf '%s\n' "$qp_m" | LC_ALL=C grep -qx '[A-Za-z0-9._~:/+%-]*' ||
		die "Debian mirror '$qp_m': unexpected characters (KREPRO_DEBIAN_MIRROR)"
	printf '%s\n' "${qp_m%/}"
}

# qp_fetch DIR: the source package's files into DIR with apt-get, as any
# user: a private sources list, lists and cache under the kit's cache.
qp_fetch() {
	need_cmd apt-get apt
	qp_a="$KREPRO_CACHE/qemu-plugin/apt"
	mkdir -p "$qp_a/lists/partial" "$qp_a/cache/archives/partial" "$1"
	qp_key=
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] &&
		qp_key='[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] '
	printf 'deb-src %s%s %s main\n' "$qp_key" "$(qp_mirror "$(qp_get suite)")" "$(qp_get suite)" >"$qp_a/sources.list"
	set -- "$1" -q -o "Dir::Etc::SourceList=$qp_a/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$qp_a/lists" -o "Dir::Cache=$qp_a/cache" -o Debug::NoLocking=1
	qp_d=$1
	shift
	note "fetching the source package $(qp_get package)=$(qp_get version) (apt-get source --download-only, $(cat "$qp_a/sources.list"))"
	apt-get "$@" update >"$qp_a/apt.log" 2>&1 || {
		tail -n 5 "$qp_a/apt.log" >&2
		die "apt-get update for the deb-src line in $qp_a/sources.list failed"
	}
	(cd "$qp_d" && apt-get "$@" source --download-only "$(qp_get package)=$(qp_get version)") \
		>>"$qp_a/apt.log" 2>&1 || {
		tail -n 5 "$qp_a/apt.log" >&2
		die "apt-get source $(qp_get package)=$(qp_get version) failed; if the version left the archive, set KREPRO_QEMU_SOURCE to a folder holding $(qp_get dsc), $(qp_get orig) and $(qp_get debian) (snapshot.debian.org has them), or KREPRO_DEBIAN_MIRROR"
	}
}

# qp_header: the pinned qemu-plugin.h, fetched, checked and extracted once;
# prints its folder.
qp_header() {
	qp_ver=$(qp_get version)
	qp_dest="$KREPRO_CACHE/qemu-plugin/${qp_ver#*:}"
	if [ ! -f "$qp_dest/.krepro-complete" ]; then
		need_cmd xz xz-utils
		qp_src=${KREPRO_QEMU_SOURCE:-$KREPRO_CACHE/downloads/qemu-source}
		[ -n "${KREPRO_QEMU_SOURCE:-}" ] || [ -f "$qp_src/$(qp_get orig)" ] || qp_fetch "$qp_src"
		for qp_f in dsc orig debian; do
			[ -f "$qp_src/$(qp_get "$qp_f")" ] || die "$qp_src/$(qp_get "$qp_f"): missing (KREPRO_QEMU_SOURCE)"
			qp_got=$(sha256sum "$qp_src/$(qp_get "$qp_f")" | cut -d' ' -f1)
			[ "$qp_got" = "$(qp_get "${qp_f}_sha256")" ] ||
				die "$qp_src/$(qp_get "$qp_f"): sha256 mismatch: expected $(qp_get "${qp_f}_sha256"), got $qp_got (tools/qemu-plugin/qemu-source.conf)"
		done
		rm -rf "$qp_dest.tmp"
		mkdir -p "$qp_dest.tmp"
		xz -dc "$qp_src/$(qp_get orig)" | tar -xO "$(qp_get header)" >"$qp_dest.tmp/qemu-plugin.h" ||
			die "$qp_src/$(qp_get orig): no $(qp_get header)"
		qp_got=$(sha256sum "$qp_dest.tmp/qemu-plugin.h" | cut -d' ' -f1)
		[ "$qp_got" = "$(qp_get header_sha256)" ] ||
			die "$(qp_get header): sha256 mismatch: expected $(qp_get header_sha256), got $qp_got"
		grep -q "^#define QEMU_PLUGIN_VERSION $(qp_get plugin_version)\$" "$qp_dest.tmp/qemu-plugin.h" ||
			die "$(qp_get header): not plugin API version $(qp_get plugin_version)"
		touch "$qp_dest.tmp/.krepro-complete"
		rm -rf "$qp_dest"
		mv "$qp_dest.tmp" "$qp_dest"
		note "QEMU plugin header $(qp_get header) of $qp_ver verified (sha256 $qp_got)"
	fi
	printf '%s\n' "$qp_dest"
}

# build.sh model-plugin: the plugin for the installed QEMU; prints its path last.
cmd_model_plugin() {
	qp_check_qemu
	qp_inc=$(qp_header)
	need_cmd make make
	need_cmd cc gcc
	make -s -C "$KREPRO_ROOT" OUT="$KREPRO_OUT" QEMU_PLUGIN_INC="$qp_inc" model-plugin >&2
	# the profile names user functions from these (model_plugin_arg)
	cmd_guest_syms
	printf '%s\n' "$KREPRO_OUT/qemu-plugin/krepro-model.so"
}

# model_node_ranges SIZE...: the plugin's nodes= argument for a board
# whose NUMA nodes are QEMU memory backends of SIZE bytes each, in order
# (lib/run/boot.sh: -object memory-backend-ram -numa node,memdev=).
# QEMU 7.2's qemu_plugin_hwaddr_phys_addr() is not the guest-physical
# address: it is the RAM block's offset among QEMU's RAM blocks plus the
# offset in the block plus the block's place in the machine's RAM
# container.  The backends are the first RAM blocks, in order, so node i,
# after nodes of A bytes in all, is [2A, 2A + SIZE) in that space, whatever
# the PCI hole below 4 GiB does to the guest-physical layout (measured:
# guest-physical 0x50000000 of 2 x 1G is 0x90000000; docs/MEMORY-MODEL.md).
model_node_ranges() {
	awk 'function hex(v,    s, d) {
		s = ""
		do { d = v % 16; s = substr("0123456789abcdef", d + 1, 1) s; v = (v - d) / 16 } while (v > 0)
		return "0x" s
	}
	BEGIN {
		a = 0; out = ""
		for (i = 1; i < ARGC; i++) {
			if (ARGV[i] !~ /^[0-9]+$/ || ARGV[i] + 0 == 0) { print "model_node_ranges: bad size " ARGV[i] > "/dev/stderr"; exit 2 }
			out = out sprintf("%s%s-%s:%d", i > 1 ? "+" : "", hex(2 * a), hex(2 * a + ARGV[i] - 1), i - 1)
			a += ARGV[i]
		}
		print out
	}' "$@"
}

# model_cpunodes CPULIST...: the plugin's cpunode= argument (each vCPU's
# node, in vCPU order, '+'-joined) from a board's nodes' cpus= lists, node
# 0's first ("0-1 2-3" -> 0+0+1+1).
model_cpunodes() {
	awk 'BEGIN {
		for (n = 1; n < ARGC; n++) {
			k = split(ARGV[n], part, ",")
			for (i = 1; i <= k; i++) {
				lo = part[i]; hi = part[i]
				if (part[i] ~ /^[0-9]+-[0-9]+$/) { sub(/-.*/, "", lo); sub(/.*-/, "", hi) }
				else if (part[i] !~ /^[0-9]+$/) { print "model_cpunodes: bad cpu list " ARGV[n] > "/dev/stderr"; exit 2 }
				for (c = lo + 0; c <= hi + 0; c++) node[c] = n - 1
				if (hi + 0 > max) max = hi + 0
			}
		}
		for (c = 0; c <= max; c++) {
			if (!(c in node)) { print "model_cpunodes: cpu " c " is in no node" > "/dev/stderr"; exit 2 }
			out = out (c ? "+" : "") node[c]
		}
		print out
	}' "$@"
}

# model_plugin_prepare (run-matrix, prepare_images): when a planned cell
# has memory_model: on (runs_have model on), the
# plugin built for the installed QEMU: MODEL_PLUGIN, its sha256
# MODEL_PLUGIN_SHA and MODEL_QEMU, the QEMU it is for.
# KREPRO_MODEL_PLUGIN=FILE boots another build of the plugin (bench/model-cost.sh
# --before: an older revision's, side by side); model.conf records its sha256.
model_plugin_prepare() {
	runs_have model on || return 0
	if [ -n "${KREPRO_MODEL_PLUGIN:-}" ]; then
		MODEL_PLUGIN=$KREPRO_MODEL_PLUGIN
		note "memory model: the plugin $MODEL_PLUGIN (KREPRO_MODEL_PLUGIN)"
	else
		MODEL_PLUGIN=$("$KREPRO_ROOT/build.sh" model-plugin | tail -n 1)
	fi
	[ -f "$MODEL_PLUGIN" ] || die "memory model: no plugin at '$MODEL_PLUGIN' (${KREPRO_MODEL_PLUGIN:+KREPRO_MODEL_PLUGIN}${KREPRO_MODEL_PLUGIN:-./build.sh model-plugin})"
	MODEL_PLUGIN_SHA=$(sha256sum "$MODEL_PLUGIN" | cut -d' ' -f1)
	MODEL_QEMU=$(qemu-system-x86_64 --version | head -n 1)
}

# model_plugin_arg RUN-DIR KERNEL BOARD: the -plugin argument that boots a cell
# with the memory model on BOARD (board_get): the plugin MODEL_PLUGIN
# (model_plugin_prepare), its report RUN-DIR/memory-model, the board's caches and
# NUMA layout, and the kernel's System.map when it has one (the profile's
# symbols).  Writes RUN-DIR/model.conf, what the run was booted with.
model_plugin_arg() {
	# the board's model; this machine's paths (the report, the System.map)
	# are added below, and model.conf records the rest
	ma_args=l1d=$(board_get "$3" MODEL_L1D),l2=$(board_get "$3" MODEL_L2),llc=$(board_get "$3" MODEL_LLC),line=$(board_get "$3" MODEL_LINE)
	if [ "$(board_get "$3" NODES)" -gt 1 ]; then
		# shellcheck disable=SC2046 # the nodes' sizes, single words
		ma_sizes=$("$H/krepro-value" size $(board_get "$3" NODE_MEMS)) || exit 2
		ma_cpus=$(board_get "$3" NODE_CPUS)
		# shellcheck disable=SC2086 # sizes in bytes and cpu lists, single words
		ma_args=$ma_args,nodes=$(model_node_ranges $ma_sizes),cpunode=$(model_cpunodes $ma_cpus) || exit 2
	fi
	ma=$MODEL_PLUGIN,out=$1/memory-model,$ma_args
	ma_map=$(dirname "$2")/System.map
	[ ! -f "$ma_map" ] || ma=$ma,ksyms=$ma_map
	# the guest's programs with their symbols (Makefile: guest-syms)
	for ma_p in "$KREPRO_OUT"/syms/guest/*; do
		[ ! -f "$ma_p" ] || ma=$ma,uprog=$ma_p
	done
	# QEMU splits -plugin's argument at commas
	case $1$2$MODEL_PLUGIN$KREPRO_OUT in *,*) die "memory model: a path with a comma cannot be passed to QEMU's -plugin: $1" ;; esac
	{
		printf 'plugin_sha256=%s\n' "$MODEL_PLUGIN_SHA"
		printf 'qemu=%s\n' "$MODEL_QEMU"
		printf 'arguments=%s\n' "$ma_args"
		[ ! -f "$ma_map" ] || printf 'ksyms_sha256=%s\n' "$(sha256sum "$ma_map" | cut -d' ' -f1)"
	} >"$1/model.conf"
	printf '%s\n' "$ma"
}
