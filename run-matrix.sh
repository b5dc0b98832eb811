#!/bin/sh
# run-matrix.sh: matrix -> cells -> boots -> results -> report.
set -eu

KREPRO_ROOT=$(cd "$(dirname "$0")" && pwd)
KREPRO_PROG=run-matrix
# shellcheck source=lib/common.sh
. "$KREPRO_ROOT/lib/common.sh"

# The whole script is one function, parsed before it runs: editing this file
# while it runs (a long build, a night of boots) cannot change what runs.
main() {

usage() {
	cat <<'EOF'
usage: ./run-matrix.sh [options] [MATRIX]
       ./run-matrix.sh compare [--all] BASE_DIR NEW_DIR [NEW_DIR...]
       ./run-matrix.sh index [FILE|RESULT_DIR]      (UnixBench INDEX VALUES)
       ./run-matrix.sh pivot --rows K --cols K --metric M [--base V] RESULTS
       ./run-matrix.sh report -o report.html BASE_DIR NEW_DIR...
       ./run-matrix.sh bisect [-o DIR] [-m MATRIX] SERIES METRIC
       ./run-matrix.sh import-lava [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG
       ./run-matrix.sh from-report [-o MATRIX.yaml] REPORT.txt   (0-day email -> matrix)

Runs every cell of MATRIX (default: the embedded matrix, same as
jobs/default.yaml: base vs calibration, will-it-scale page_fault3, 3 runs)
on its board, writes results in the LKP layout under the results directory
and prints the 0-day comparison, also saved as <results>/report.txt.

Options:
  -o DIR       results directory (default: ./results)
  --dry-run    list the cells and their result paths; build and boot nothing
  --rerun      run cells again even when complete (old runs kept as <run>.replaced-*)
  --board NAME board file from boards/ (overrides the matrix)
  --clock MODE exact or real (overrides the matrix and the board): exact boots
               QEMU with instruction-counted time, every metric a function of
               the images and the job alone (docs/EXACT.md)
  -j N         boot up to N guests at once (default 1); only for clock: exact
               cells, whose results do not depend on host load
  --kexec      run each group of variants as one kexec chain in one QEMU
               (A, B, A, B, ...; same as the matrix key "boot: kexec")
  --bundle FILE run the kernels and initramfs of a bundle (./build.sh bundle);
               every hash is checked first, nothing is built; MATRIX defaults
               to the bundle's matrix.yaml
  --bundle-key PUBKEY  the bundle must carry FILE.sig, signed by this
               signify-openbsd key (also KREPRO_BUNDLE_KEY)
  --print-default-matrix  print the embedded default matrix
  --export-lava DIR  write one LAVA job definition per planned run (qemu boot
               for QEMU boards, kexec boot for lab boards) with its kernel and
               initrd under DIR/artifacts, instead of booting anything
  --lava-url URL     where DIR will be served from (default file://DIR)
  -C DIR, -O DIR  cache and output directories, as for build.sh
  -h, --help   this text

Complete run directories are never rewritten: rerunning the same command
resumes where it stopped.

bisect runs base against SERIES@N (its first N patches) by binary search,
base booted again beside each step (in DIR/step-N; exact mode shares one),
with the matrix's other parameters (default: the embedded matrix), and names
the first patch after which METRIC changes significantly (Welch t-test,
alpha KREPRO_BISECT_ALPHA=0.01); an inconclusive step (p < 0.25) gets two
more runs per side, up to KREPRO_BISECT_MAX_RUNS=9.  With clock: exact in
the matrix a step boots once per side (unless it sets runs:) and a change
of 0.5% or more counts if it is at least a tenth of the whole series'
change, with its sign (smaller exact changes are code layout, not the
step).
EOF
}

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

RESULTS=$KREPRO_ROOT/results
DRY=0
RERUN=0
BOARD_OVERRIDE=
CLOCK_OVERRIDE=
BUNDLE=
LAVA_DIR=
LAVA_URL=
BOOT_MODE=
MATRIX=
JOBS=1
DEFAULT_RUNS=3 # runs: of a cell that does not say
runs_of() { # cell -> its runs, the default applied
	ro=$(cell_get "$1" runs)
	echo "${ro:-$DEFAULT_RUNS}"
}

# The report tools on their own: compare, index (UnixBench), pivot, report (HTML).
case ${1:-} in
compare | index | pivot | report)
	tool=krepro-$1
	shift
	krepro_dirs
	"$KREPRO_ROOT/build.sh" tools >/dev/null
	exec "$KREPRO_OUT/host/$tool" "$@"
	;;
from-report)
	# A report email -> the matrix that reproduces it, checked by the
	# matrix parser before it is printed (or written with -o FILE).
	shift
	fr_out=
	if [ "${1:-}" = -o ]; then
		[ $# -ge 2 ] || die "from-report: -o needs a file"
		fr_out=$2
		shift 2
	fi
	case ${1:-} in -h | --help | '') die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] REPORT.txt" ;; esac
	[ $# -eq 1 ] || die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] REPORT.txt"
	[ -f "$1" ] || die "from-report: '$1' not found"
	krepro_dirs
	"$KREPRO_ROOT/build.sh" tools >/dev/null
	fr_tmp=$(mktemp "${TMPDIR:-/tmp}/krepro-report.XXXXXX")
	"$KREPRO_OUT/host/krepro-fromreport" --keys "$KREPRO_ROOT/lib/matrix-keys" "$1" >"$fr_tmp" || {
		rm -f "$fr_tmp"
		exit 2
	}
	"$KREPRO_OUT/host/krepro-matrix" "$fr_tmp" >/dev/null || {
		rm -f "$fr_tmp"
		die "from-report: the matrix written from $1 does not parse (a bug: please report it with the email)"
	}
	if [ -n "$fr_out" ]; then
		[ ! -e "$fr_out" ] || die "from-report: $fr_out exists; not overwriting it"
		mv "$fr_tmp" "$fr_out"
		note "matrix written to $fr_out"
	else
		cat "$fr_tmp"
		rm -f "$fr_tmp"
	fi
	exit 0
	;;
esac
# bisect: binary search over SERIES@N for the first patch that moves METRIC.
if [ "${1:-}" = bisect ]; then
	shift
	bs_out=$KREPRO_ROOT/results bs_matrix=''
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-o) bs_out=$2; shift 2 ;;
		-m) bs_matrix=$2; shift 2 ;;
		-*) die "bisect: unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ $# -eq 2 ] || die "bisect: usage: ./run-matrix.sh bisect [-o DIR] [-m MATRIX] SERIES METRIC"
	ser=$1 metric=$2
	[ -z "$bs_matrix" ] || [ -f "$bs_matrix" ] || die "bisect: matrix file '$bs_matrix' not found"
	krepro_dirs
	"$KREPRO_ROOT/build.sh" tools >/dev/null
	# Working files of this bisect only: two bisects on one cache never
	# share them.
	bs_w=$(mktemp -d "$KREPRO_CACHE/bisect.XXXXXX")
	"$KREPRO_ROOT/build.sh" patches "$ser" >"$bs_w/patches" || exit 2
	total=$(wc -l <"$bs_w/patches")
	mkdir -p "$bs_out"
	bs_out=$(cd "$bs_out" && pwd)
	bs_m=$bs_w/bisect.yaml
	# verdict K: run base and SERIES@K, then 0 if METRIC moved significantly.
	# An inconclusive answer (alpha < p < 0.25) gets 2 more runs per side,
	# up to KREPRO_BISECT_MAX_RUNS (9): one noisy boot out of 3 must not
	# hide a real step.  Complete runs are kept, so only the new ones boot.
	bs_base() { if [ -n "$bs_matrix" ]; then cat "$bs_matrix"; else default_matrix; fi; }
	verdict() {
		bs_runs=$(bs_base | sed -n 's/^runs: *//p' | head -n 1)
		# Exact mode gives the same numbers every boot, at any time: one
		# run per step and one base for every step.  Real mode: each step
		# measures base again beside SERIES@K (A, B, A, B), in a folder of
		# its own: base runs kept from an earlier step were timed on
		# another minute's host (a no-op patch read -19.5%, p=0.006,
		# against base runs two minutes older).
		bs_dir=$bs_out/step-$1
		if bs_base | grep -q '^clock: *exact *$'; then
			bs_dir=$bs_out
			bs_runs=${bs_runs:-1}
		fi
		bs_runs=${bs_runs:-$DEFAULT_RUNS}
		while :; do
			{
				bs_base | grep -v '^variants:\|^runs:'
				echo "variants: [base, $ser@$1]"
				echo "runs: $bs_runs"
			} >"$bs_m"
			note "bisect: running base vs $ser@$1 ($(sed -n "$1p" "$bs_w/patches" | xargs basename)), $bs_runs runs each"
			"$0" -o "$bs_dir" "$bs_m" >"$bs_w/bisect.log" 2>&1 ||
				note "bisect: some runs of $ser@$1 failed (see $bs_w/bisect.log)"
			# The result path of this very matrix, not any $ser@K under -o.
			vd=$("$0" --dry-run -o "$bs_dir" "$bs_m" 2>/dev/null | sed -n 's|^  -> \(.*\)/{1\.\..*|\1|p' | grep "/$ser@$1\$" | head -n 1)
			[ -d "${vd:-/nonexistent}" ] || die "bisect: no results for $ser@$1 (see $bs_w/bisect.log)"
			"$KREPRO_OUT/host/krepro-compare" --alpha "${KREPRO_BISECT_ALPHA:-0.01}" --verdict "$metric" "$(dirname "$vd")/base" "$vd" >"$bs_w/verdict"
			rc=$?
			note "bisect: $ser@$1: $(cat "$bs_w/verdict")"
			[ "$rc" -le 3 ] || exit 2
			[ "$rc" != 2 ] || die "bisect: $metric is not measured by this matrix"
			# Exact mode: any change of the code moves an exact number a
			# little (layout, where ops fall in the 1 s windows: up to
			# about 0.6% at 1 task, docs/EXACT.md), so a step counts only
			# if it carries a tenth of the whole series' change, same sign.
			bs_ch=$(sed -n 's/^[^:]*: \([-+]*[0-9.]*\)%.*/\1/p' "$bs_w/verdict" | head -n 1)
			if [ "$rc" = 0 ] && [ -n "${bs_series:-}" ] && [ -n "$bs_ch" ] && grep -q '(exact' "$bs_w/verdict" &&
				awk -v c="$bs_ch" -v s="$bs_series" 'BEGIN { exit !(c * s <= 0 || (c < 0 ? -c : c) * 10 < (s < 0 ? -s : s)) }'; then
				note "bisect: $ser@$1: $bs_ch% is below a tenth of the series' $bs_series%: not moved (exact mode)"
				rc=3
			fi
			[ -n "${bs_series:-}" ] || bs_series=$bs_ch
			bs_p=$(sed -n 's/.*p=\([0-9.]*\).*/\1/p' "$bs_w/verdict" | head -n 1)
			if [ "$rc" = 3 ] && [ "$bs_runs" -lt "${KREPRO_BISECT_MAX_RUNS:-9}" ] &&
				[ -n "$bs_p" ] && [ "$(echo "$bs_p < 0.25" | bc -l)" = 1 ]; then
				bs_runs=$((bs_runs + 2))
				note "bisect: inconclusive (p=$bs_p): $bs_runs runs each"
				continue
			fi
			return "$rc"
		done
	}
	if ! verdict "$total"; then
		echo "bisect: $metric does not change significantly between base and $ser ($total patches): nothing to bisect"
		exit 1
	fi
	lo=0 hi=$total
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if verdict "$mid"; then hi=$mid; else lo=$mid; fi
	done
	p=$(sed -n "${hi}p" "$bs_w/patches")
	echo "first patch of $ser that moves $metric: patch $hi of $total"
	echo "    $(basename "$p")"
	echo "    $(patch_subject "$p")"
	exit 0
fi

# import-lava: a LAVA job's console log back into the result layout.
IMPORT_DIR=
if [ "${1:-}" = import-lava ]; then
	shift
	while [ $# -gt 3 ]; do
		case $1 in
		-o) RESULTS=$2; shift 2 ;;
		--rerun) RERUN=1; shift ;;
		*) die "import-lava: unknown option '$1'" ;;
		esac
	done
	[ $# -eq 3 ] || die "usage: ./run-matrix.sh import-lava [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG"
	IMPORT_DIR=$1 IMPORT_N=$2 IMPORT_LOG=$3
	[ -f "$IMPORT_DIR/cells.tsv" ] || die "$IMPORT_DIR: no cells.tsv (not an --export-lava folder)"
	[ -f "$IMPORT_LOG" ] || die "log '$IMPORT_LOG' not found"
	IMPORT_LINE=$(awk -F '\t' -v n="$IMPORT_N" '$1 == n' "$IMPORT_DIR/cells.tsv")
	[ -n "$IMPORT_LINE" ] || die "$IMPORT_DIR/cells.tsv: no job $IMPORT_N"
	set --
fi

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) [ $# -ge 2 ] || die "-o needs a directory"; RESULTS=$2; shift 2 ;;
	--dry-run) DRY=1; shift ;;
	--rerun) RERUN=1; shift ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; JOBS=$2; shift 2 ;;
	-j[0-9]*) JOBS=${1#-j}; shift ;;
	--board) [ $# -ge 2 ] || die "--board needs a name"; BOARD_OVERRIDE=$2; shift 2 ;;
	--clock) [ $# -ge 2 ] || die "--clock needs exact or real"; CLOCK_OVERRIDE=$2; shift 2 ;;
	--bundle) [ $# -ge 2 ] || die "--bundle needs a file"; BUNDLE=$2; shift 2 ;;
	--bundle-key)
		[ $# -ge 2 ] || die "--bundle-key needs a signify public key"
		KREPRO_BUNDLE_KEY=$2
		export KREPRO_BUNDLE_KEY
		shift 2
		;;
	--print-default-matrix) default_matrix; exit 0 ;;
	--kexec) BOOT_MODE=kexec; shift ;;
	--export-lava) [ $# -ge 2 ] || die "--export-lava needs a directory"; LAVA_DIR=$2; shift 2 ;;
	--lava-url) [ $# -ge 2 ] || die "--lava-url needs a URL"; LAVA_URL=$2; shift 2 ;;
	-C) KREPRO_CACHE=$2; shift 2 ;;
	-O) KREPRO_OUT=$2; shift 2 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ -z "$MATRIX" ] || die "one matrix file at a time"; MATRIX=$1; shift ;;
	esac
done
case $JOBS in [1-9] | [1-9][0-9]) ;; *) die "-j: expected a number of guests, 1..99, not '$JOBS'" ;; esac
case $CLOCK_OVERRIDE in '' | exact | real) ;; *) die "--clock: expected exact or real, not '$CLOCK_OVERRIDE'" ;; esac
krepro_dirs
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)

# Temp folders of run-matrix processes that were killed outright go first.
for d in "${TMPDIR:-/tmp}"/krepro.*; do
	[ -f "$d/pid" ] || continue
	kill -0 "$(cat "$d/pid")" 2>/dev/null || rm -rf "$d"
done
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/krepro.XXXXXX")
echo $$ >"$TMPD/pid"
SLOT_TMP=$TMPD
SLOT_PIDS=
QEMU_PID=
# The most a guest may write to its results or console port (krepro-listen's
# bound for lab boards too); more fails the run and stops the guest.
GUEST_OUTPUT_MAX=${KREPRO_GUEST_OUTPUT_MAX:-268435456}
case $GUEST_OUTPUT_MAX in '' | *[!0-9]*) die "KREPRO_GUEST_OUTPUT_MAX must be bytes" ;; esac
stop_pid() { # pid: terminate, then reap
	[ -n "$1" ] || return 0
	terminate "$1"
	wait "$1" 2>/dev/null || true
}
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	for p in $SLOT_PIDS; do kill -TERM "$p" 2>/dev/null || true; done
	for p in $SLOT_PIDS; do wait "$p" 2>/dev/null || true; done
	stop_pid "$QEMU_PID"
	for p in ${CONSOLE_PID:-} ${LISTEN_PID:-}; do kill -TERM "$p" 2>/dev/null || true; done
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'note "interrupted; completed runs are kept, rerun to resume"; exit 130' INT TERM HUP

if [ -n "$BUNDLE" ]; then
	case $BUNDLE in /*) ;; *) BUNDLE=$PWD/$BUNDLE ;; esac
	BUNDLE_DIR=$KREPRO_CACHE/bundles/$(sha256sum "$BUNDLE" 2>/dev/null | cut -c1-16)
	"$KREPRO_ROOT/build.sh" -C "$KREPRO_CACHE" unpack-bundle "$BUNDLE" "$BUNDLE_DIR" || exit 2
	BUNDLE_DIR=$BUNDLE_DIR/krepro-bundle
	note "bundle $BUNDLE: every file matches MANIFEST.sha256"
	[ -n "$MATRIX" ] || MATRIX=$BUNDLE_DIR/matrix.yaml
fi
if [ -n "$IMPORT_DIR" ]; then
	MATRIX=$IMPORT_DIR/cells.tsv
	MATRIX_NAME=import
elif [ -z "$MATRIX" ]; then
	default_matrix >"$TMPD/default.yaml"
	MATRIX=$TMPD/default.yaml
	MATRIX_NAME=default
else
	[ -f "$MATRIX" ] || die "matrix file '$MATRIX' not found"
	MATRIX_NAME=$(basename "$MATRIX" .yaml)
fi

"$KREPRO_ROOT/build.sh" tools >/dev/null
H=$KREPRO_OUT/host
if [ -n "$IMPORT_DIR" ]; then
	printf '%s\n' "$IMPORT_LINE" | cut -f3 >"$TMPD/cells"
else
	# An lkp-tests job file (0-day's job.yaml: testcase, nested program maps,
	# block lists) is read by libyaml and run as the matrix it describes.
	if grep -Eq '^(testcase|category):|^[[:space:]]+[^[:space:]#]|^- |^:#!' "$MATRIX"; then
		"$H/krepro-lkpjob" --keys "$KREPRO_ROOT/lib/matrix-keys" "$MATRIX" >"$TMPD/lkp-matrix.yaml" || exit 2
		note "$MATRIX: an lkp-tests job file, run as this matrix:"
		grep -v '^#' "$TMPD/lkp-matrix.yaml" | sed 's/^/    /' >&2
		MATRIX=$TMPD/lkp-matrix.yaml
	fi
	"$H/krepro-matrix" "$MATRIX" >"$TMPD/cells" || exit 2
	if [ -n "$CLOCK_OVERRIDE" ]; then
		sed "s/^clock=[^ ]* //; s/ clock=[^ ]*//; s/\$/ clock=$CLOCK_OVERRIDE/" "$TMPD/cells" >"$TMPD/cells.clock"
		mv "$TMPD/cells.clock" "$TMPD/cells"
	fi
fi
[ -s "$TMPD/cells" ] || die "$MATRIX: no cells"

# --- boards -----------------------------------------------------------------

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
		case $B_ADDRESS in '' | *.*.*.*) ;; *) die "boards/$1: address must be the board's IPv4 address" ;; esac
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

# --- cells ------------------------------------------------------------------

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

nr_task_of() { # value cpus ("" stays "")
	case $1 in
	'') return 0 ;;
	*[!0-9]*%) die "$MATRIX: bad nr_task '$1'" ;;
	*%) n=$((${1%\%} * $2 / 100)) ;;
	*[!0-9]*) die "$MATRIX: bad nr_task '$1'" ;;
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

RESERVED=" suite variants variant runs board interval monitors warmup timeout boot clock "
path_params() { # cell -> LKP path_params: benchmark options sorted by key
	for kv in $1; do
		case "$RESERVED" in *" ${kv%%=*} "*) continue ;; esac
		echo "$kv"
	done | sort | sed 's/^[^=]*=//' | tr '\n' '-' | sed 's/-$//; s/[^-a-zA-Z0-9+=:.%]/_/g'
}

COMPILER=gcc-$(gcc -dumpversion 2>/dev/null | cut -d. -f1)
KCONFIG=qemu-minimal
ROOTFS=krepro-initramfs

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
	b=${BOARD_OVERRIDE:-$(cell_get "$1" board)}
	b=${b:-qemu-2node}
	# Exact-mode results are another machine: "<board>.exact".
	vd_clock=$(cell_get "$1" clock)
	[ -n "$vd_clock" ] || vd_clock=$(sed -n 's/^clock: *//p' "$KREPRO_ROOT/boards/$b" 2>/dev/null | head -n 1)
	[ "$vd_clock" != exact ] || b=$b.exact
	printf '%s/%s/%s/%s/%s/%s/%s/%s\n' "$RESULTS" "$(cell_get "$1" suite)" \
		"$(path_params "$vd_cell")" "$b" "$ROOTFS" "$KCONFIG" "$COMPILER" "$v"
}

NCELLS=$(wc -l <"$TMPD/cells")
TOTAL_RUNS=0
VARIANTS=
k=0
while IFS= read -r cell; do
	k=$((k + 1))
	suite=$(cell_get "$cell" suite)
	case $suite in
	'' | *[!a-z0-9_-]*) die "$MATRIX: cell $k: bad or missing suite '$suite'" ;;
	esac
	[ -f "$KREPRO_ROOT/initramfs/suites/$suite.sh" ] ||
		die "$MATRIX: cell $k: unknown suite '$suite' (no initramfs/suites/$suite.sh)"
	b=${BOARD_OVERRIDE:-$(cell_get "$cell" board)}
	load_board "${b:-qemu-2node}"
	[ -n "$IMPORT_DIR" ] || check_cell "$cell"
	runs=$(runs_of "$cell")
	case $runs in *[!0-9]* | '' | 0) die "$MATRIX: runs must be a positive number" ;; esac
	to_seconds "$(cell_get "$cell" runtime)" >/dev/null
	rt=$(to_seconds "$(cell_get "$cell" runtime)")
	nr_task_of "$(cell_get "$cell" nr_task)" "$B_CPUS" >/dev/null
	kernel_args "$cell" >/dev/null
	check_clock "$cell" "${b:-qemu-2node}"
	# Two cells with one result path would boot the same runs twice.
	vd=$(variant_dir "$cell")
	if [ -f "$TMPD/vdirs" ] && grep -qxF "$vd" "$TMPD/vdirs"; then
		die "$MATRIX: cell $k repeats an earlier cell (same variant and parameters: ${vd#"$RESULTS"/}); is a variant listed twice?"
	fi
	echo "$vd" >>"$TMPD/vdirs"
	TOTAL_RUNS=$((TOTAL_RUNS + runs))
	v=$(basename "$(variant_dir "$cell")")
	case " $VARIANTS " in *" $v "*) ;; *) VARIANTS="$VARIANTS $v" ;; esac
	if [ "$DRY" = 1 ]; then
		printf 'cell %d/%d: %s\n  board %s: %s, %s cpus, %s, clock %s\n  -> %s/{1..%d}  (%d runs x ~%d s)\n' \
			"$k" "$NCELLS" "$cell" "${b:-qemu-2node}" "${B_MODEL:-$B_TYPE}" "$B_CPUS" "$B_MEMORY" "$(cell_clock "$cell")" \
			"$(variant_dir "$cell")" "$runs" "$runs" "$((${rt:-0} + 15))"
	fi
done <"$TMPD/cells"
# Plan: runs outer, cells inner (A, B, A, B, ...) so drift hits every variant
# alike; complete runs are skipped.  Lines: "<run> <cell number>".
# MAXRUNS with every cell's default applied (a cell without runs: next to
# one with runs: 1 got 1 run while --dry-run counted 3).
MAXRUNS=$(while IFS= read -r c; do runs_of "$c"; done <"$TMPD/cells" | sort -n | tail -n 1)
r=1
while [ "$r" -le "$MAXRUNS" ]; do
	k=0
	while IFS= read -r cell; do
		k=$((k + 1))
		[ "$r" -le "$(runs_of "$cell")" ] || continue
		if [ -d "$(variant_dir "$cell")/$r" ] && [ "$RERUN" = 0 ]; then
			note "$(basename "$(variant_dir "$cell")") run $r: complete, kept"
			continue
		fi
		echo "$r $k"
	done <"$TMPD/cells"
	r=$((r + 1))
done >"$TMPD/plan"
PENDING=$(wc -l <"$TMPD/plan")
if [ "$DRY" = 1 ]; then
	echo "$NCELLS cells, $TOTAL_RUNS runs, variants:$VARIANTS"
	echo "plan: $PENDING boots ($((TOTAL_RUNS - PENDING)) runs complete, kept)"
	exit 0
fi

while IFS= read -r cell; do
	b=${BOARD_OVERRIDE:-$(cell_get "$cell" board)}
	load_board "${b:-qemu-2node}"
	if [ "$B_TYPE" = lab ] && [ "${BOOT_MODE:-$(cell_get "$cell" boot)}" = kexec ] && [ -z "$LAVA_DIR" ]; then
		die "board ${b}: boot: kexec chains run in one QEMU; a lab board kexecs every run from its own system anyway"
	fi
	[ "$B_TYPE" = qemu ] || [ -n "$LAVA_DIR" ] || need_cmd ssh openssh-client
	# No boot starts without QEMU (a bundle run builds nothing, so nothing
	# else asks for it).
	[ "$B_TYPE" != qemu ] || [ -n "$LAVA_DIR" ] || [ -n "$IMPORT_DIR" ] ||
		need_cmd qemu-system-x86_64 qemu-system-x86
	if [ "$JOBS" -gt 1 ] && { [ "$(cell_clock "$cell")" != exact ] || [ "${BOOT_MODE:-$(cell_get "$cell" boot)}" = kexec ]; }; then
		die "-j $JOBS: parallel guests need clock: exact and one boot per run (real-mode timings depend on host load; a kexec chain is one guest)"
	fi
done <"$TMPD/cells"

# One run-matrix per results tree at a time.  The lock file names its
# holder: a run-matrix killed outright leaves children (a sleep, a slot
# between runs) holding the lock for a moment after it is gone, and a
# rerun waits for them instead of refusing.
exec 9>>"$RESULTS/.lock"
if command -v flock >/dev/null 2>&1 && ! flock -n 9; then
	holder=$(head -c 20 "$RESULTS/.lock" | tr -cd 0-9)
	if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then
		note "run-matrix $holder is gone; waiting up to 30 s for what it left running to release $RESULTS/.lock"
		flock -w 30 9 || die "$RESULTS/.lock is still held by leftovers of run-matrix $holder (see: fuser $RESULTS/.lock)"
	else
		die "$RESULTS is in use by another run-matrix${holder:+ (pid $holder)} (lock $RESULTS/.lock)"
	fi
fi
echo $$ >"$RESULTS/.lock"

# --- build ------------------------------------------------------------------

GIC=$KREPRO_OUT/host/gen_init_cpio
if [ -n "$IMPORT_DIR" ]; then
	: # nothing to build: the run happened in the lab
elif [ -n "$BUNDLE" ]; then
	INITRAMFS=$BUNDLE_DIR/initramfs.cpio.gz
	for v in $VARIANTS; do
		[ -f "$BUNDLE_DIR/kernels/$v/bzImage" ] || die "bundle has no kernel '$v' (it has: $(cd "$BUNDLE_DIR/kernels" && echo *))"
		echo "$BUNDLE_DIR/kernels/$v/bzImage" >"$TMPD/kernel.$v"
	done
	# A bundle's code never runs here: its gen_init_cpio.c is compiled only
	# when it is the pinned reference's own file.
	if [ ! -x "$GIC" ]; then
		gic_want=$(conf_get "$KREPRO_ROOT/patches/reference.conf" gen_init_cpio_sha256)
		gic_got=$(sha256sum "$BUNDLE_DIR/inputs/gen_init_cpio.c" | cut -d' ' -f1)
		[ "$gic_got" = "$gic_want" ] ||
			die "bundle: inputs/gen_init_cpio.c is not the reference's (sha256 $gic_got); build the kit's own first: ./build.sh initramfs"
		mkdir -p "$(dirname "$GIC")"
		cc -O2 -o "$GIC" "$BUNDLE_DIR/inputs/gen_init_cpio.c" || die "cannot build gen_init_cpio"
	fi
else
	# shellcheck disable=SC2086 # variant names are single words
	"$KREPRO_ROOT/build.sh" preflight $VARIANTS
	INITRAMFS=$("$KREPRO_ROOT/build.sh" initramfs | tail -n 1)
	for v in $VARIANTS; do
		"$KREPRO_ROOT/build.sh" kernel "$v" | tail -n 1 >"$TMPD/kernel.$v"
	done
fi
# An import boots nothing here: its job.conf came with the LAVA export.
INITRAMFS_SHA=
[ -n "$IMPORT_DIR" ] || INITRAMFS_SHA=$(sha256sum "$INITRAMFS" | cut -d' ' -f1)

# --- boot -------------------------------------------------------------------

GUEST_CMDLINE="console=ttyS0,115200 panic=-1 oops=panic softlockup_panic=1 nokaslr printk.devkmsg=on"
EXACT_QEMU_ARGS="-icount shift=2,sleep=off,align=off -rtc base=2026-01-01T00:00:00,clock=vm"

# single_initrd JOBCONF: the initramfs plus a small cpio holding the job.
# Written under SLOT_TMP (TMPD, or a parallel slot's own folder).
single_initrd() {
	# gen_init_cpio's list splits at spaces: the job goes via SLOT_TMP.
	[ "$1" = "$SLOT_TMP/job.conf" ] || cp "$1" "$SLOT_TMP/job.conf"
	printf 'dir /job 0755 0 0\nfile /job/job.conf %s 0644 0 0\n' "$SLOT_TMP/job.conf" >"$SLOT_TMP/job.list"
	"$GIC" -t 0 "$SLOT_TMP/job.list" | gzip -n >"$SLOT_TMP/job.cpio.gz"
	cat "$INITRAMFS" "$SLOT_TMP/job.cpio.gz" >"$SLOT_TMP/initrd"
}

# accel_args ACCEL: QEMU's accelerator and CPU options for a boot (and for a
# LAVA job, so that it boots the same machine).  Exact mode: guest time is
# the count of executed instructions (one thread runs every vCPU in turn,
# idle time is skipped) and the RTC starts at a fixed date on that clock, so
# nothing the guest can read depends on the host (docs/EXACT.md).
accel_args() {
	if [ "${BOOT_CLOCK:-real}" = exact ]; then
		echo "-accel tcg,thread=single -cpu $B_CPU $EXACT_QEMU_ARGS"
	elif [ "$1" = kvm ]; then
		echo "-accel kvm -cpu host"
	else
		echo "-accel tcg -cpu $B_CPU"
	fi
}

# boot_guest KERNEL INITRD DIR TIMEOUT ACCEL [CMDLINE_EXTRA]: boot, collect
# frames.bin and console.log in DIR; sets BOOT_REASON on failure, returns 0
# on a clean exit.
boot_guest() {
	bg_kernel=$1 bg_initrd=$2 bg_dir=$3 bg_tmo=$4 bg_accel=$5 bg_extra=${6:-}
	: >"$bg_dir/console.log"
	: >"$bg_dir/frames.bin"
	bg_acc=$(accel_args "$bg_accel")
	cmdline="$GUEST_CMDLINE$bg_extra"
	# shellcheck disable=SC2086 # B_NUMA and acc are argument lists
	set -- qemu-system-x86_64 -machine "$B_MACHINE" $bg_acc -smp "$B_SMP" -m "$B_MEMORY" $B_NUMA \
		-nodefaults -display none -no-reboot -monitor none \
		-chardev file,id=con,path="$bg_dir/console.log" -serial chardev:con \
		-chardev file,id=res,path="$bg_dir/frames.bin" -serial chardev:res \
		-kernel "$bg_kernel" -initrd "$bg_initrd" -append "$cmdline"
	printf '%s\n' "$*" >"$bg_dir/qemu.cmd"
	# timeout(1) bounds QEMU even if this script is killed outright; our own
	# kills go to timeout as TERM, which it passes on to QEMU.
	# krepro-die-with-parent: timeout dies with this shell and QEMU with
	# timeout, even when run-matrix is killed with SIGKILL.
	"$H/krepro-die-with-parent" timeout -s KILL "$((bg_tmo + 30))" \
		"$H/krepro-die-with-parent" "$@" >"$bg_dir/qemu.log" 2>&1 9>&- &
	QEMU_PID=$!
	t=0
	BOOT_REASON=
	while kill -0 "$QEMU_PID" 2>/dev/null && kill -0 "$$" 2>/dev/null; do
		if [ "$t" -ge "$bg_tmo" ]; then
			BOOT_REASON="timeout after $bg_tmo s (hang)"
			break
		fi
		if grep -q 'KVM internal error\|emulation failure' "$bg_dir/qemu.log" 2>/dev/null; then
			BOOT_REASON="kvm emulation failure"
			break
		fi
		for f in frames.bin console.log; do
			if [ "$(stat -c %s "$bg_dir/$f" 2>/dev/null || echo 0)" -gt "$GUEST_OUTPUT_MAX" ]; then
				BOOT_REASON="guest wrote more than $GUEST_OUTPUT_MAX bytes to $f"
			fi
		done
		[ -z "$BOOT_REASON" ] || break
		sleep 1
		t=$((t + 1))
	done
	stop_pid "$QEMU_PID"
	# A parallel slot whose run-matrix was killed leaves the run staged.
	kill -0 "$$" 2>/dev/null || exit 1
	QEMU_PID=
	BOOT_SECONDS=$t
	[ -n "$BOOT_REASON" ] || BOOT_REASON=$(console_fault "$bg_dir/console.log")
	[ -z "$BOOT_REASON" ]
}

# console_fault LOG: what the console shows went wrong, or nothing.
console_fault() {
	if grep -q 'Kernel panic' "$1"; then
		echo "kernel panic: $(grep -m1 'Kernel panic' "$1" | cut -c1-160)"
	elif grep -q 'Out of memory\|invoked oom-killer' "$1"; then
		echo "out of memory"
	fi
}

# The accelerator: KVM only when a probe guest really boots under it.
ACCEL_CACHE=
pick_accel() { # sets ACCEL
	[ "${BOOT_CLOCK:-real}" != exact ] || { ACCEL=tcg; return 0; }
	case $B_ACCEL in tcg | kvm) ACCEL=$B_ACCEL; return 0 ;; esac
	if [ -n "$ACCEL_CACHE" ]; then ACCEL=$ACCEL_CACHE; return 0; fi
	ACCEL_CACHE=tcg
	# The probe's verdict is kept per host kernel and QEMU version.
	pkey="$(uname -r) $(qemu-system-x86_64 --version | head -n 1)"
	pfile=$KREPRO_CACHE/kvm-probe
	if [ -f "$pfile" ] && [ "$(sed -n 1p "$pfile")" = "$pkey" ]; then
		ACCEL_CACHE=$(sed -n 2p "$pfile")
		ACCEL=$ACCEL_CACHE
		return 0
	fi
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		mkdir -p "$TMPD/probe"
		echo probe=1 >"$TMPD/probe.conf"
		firstv=${VARIANTS# }
		first=$(cat "$TMPD/kernel.${firstv%% *}")
		single_initrd "$TMPD/probe.conf"
		if boot_guest "$first" "$SLOT_TMP/initrd" "$TMPD/probe" 60 kvm; then
			mkdir -p "$TMPD/probe/got"
			if "$H/krepro-recv" -o "$TMPD/probe/got" "$TMPD/probe/frames.bin" >/dev/null 2>&1; then
				ACCEL_CACHE=kvm
			else
				BOOT_REASON="the probe guest sent no results"
			fi
		fi
		note "KVM probe boot: ${BOOT_REASON:-ok}; using $ACCEL_CACHE"
	fi
	printf '%s\n%s\n' "$pkey" "$ACCEL_CACHE" >"$pfile"
	ACCEL=$ACCEL_CACHE
}

# --- run --------------------------------------------------------------------

write_job() { # cell file: every cell key the guest needs, values mapped
	{
		for kv in $1; do
			key=${kv%%=*} val=${kv#*=}
			case $key in
			variants | variant | runs | board | timeout | boot | clock) continue ;;
			nr_task) val=$(nr_task_of "$val" "$B_CPUS") ;;
			runtime | warmup | interval) val=$(to_seconds "$val") ;;
			esac
			echo "$key=$val"
		done
		echo "variant=$(basename "$(variant_dir "$1")")"
		echo "clock=$(cell_clock "$1")"
		echo "initramfs_sha256=$INITRAMFS_SHA"
	} >"$2"
}

# write_job_yaml JOB.CONF BOARD OUT: the run's job in lkp-tests' job.yaml form
# (suite and testcase, the program's map with test and mode, the rest at the
# top), so that lkp-tests' tools can read a krepro results tree.
write_job_yaml() {
	awk -F= -v board="$2" '
	function q(v) { gsub(/\047/, "\047\047", v); return "\047" v "\047" }
	{ k = $1; v = substr($0, length(k) + 2) }
	k == "suite" { suite = v; next }
	k == "test" || k == "mode" { prog = prog "  " k ": " q(v) "\n"; next }
	k == "variant" { commit = v; next }
	k == "initramfs_sha256" { rootfs = "krepro-initramfs-" substr(v, 1, 16); next }
	k == "result_port" { next }
	k == "monitors" { n = split(v, ms, "+"); for (i = 1; i <= n; i++) mons = mons ms[i] ":\n"; next }
	k == "runtime" { v = v "s" }
	{ top = top k ": " q(v) "\n" }
	END {
		print "# krepro: this run as an lkp-tests job (commit: the kit variant)"
		print "suite: " q(suite); print "testcase: " q(suite); print "category: benchmark"
		printf "%s", top
		if (prog != "") printf "%s:\n%s", suite, prog
		printf "%s", mons
		print "commit: " q(commit); print "rootfs: " q(rootfs)
		print "testbox: " q(board); print "tbox_group: " q(board)
	}' "$1" >"$3"
}

fail_run() { # rdir reason
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
	printf '{"last_state.failed": 1}\n' >"$1/stats.json"
	note "run failed: $2"
	sed 's/^/    | /' "$1/FAILED" >&2
}

# finish_run RDIR SESSION REASON: receive and parse RDIR.tmp's frames (one
# session of a chain when SESSION > 0), record a failure with its reason and
# console tail, then move RDIR.tmp into place.  A run is complete only here.
finish_run() {
	fr=$1 fr_session=$2 fr_reason=$3
	set --
	# An imported LAVA log holds the console inside LAVA's records.
	[ -z "$IMPORT_DIR" ] || set -- --lava-log
	[ "$fr_session" = 0 ] || set -- "$@" --session "$fr_session"
	if [ -n "$fr_reason" ] && [ "$fr_session" = 0 ]; then
		fail_run "$fr.tmp" "$fr_reason"
	elif ! "$H/krepro-recv" "$@" -o "$fr.tmp" "$fr.tmp/frames.bin" >"$fr.tmp/recv.log" 2>&1; then
		fail_run "$fr.tmp" "${fr_reason:+$fr_reason; }results: $(tail -n 1 "$fr.tmp/recv.log")"
	elif ! split_tenants "$fr"; then
		:
	elif ! "$H/krepro-stats" run "$fr.tmp" >"$fr.tmp/stats.log" 2>&1; then
		fail_run "$fr.tmp" "stats: $(head -n 1 "$fr.tmp/stats.log")"
	else
		note "    ok${BOOT_SECONDS:+ in ${BOOT_SECONDS}s}: $(cat "$fr.tmp/recv.log")"
	fi
	[ -f "$fr.tmp/FAILED" ] && failed_runs=$((failed_runs + 1))
	# --rerun keeps the replaced run beside the new one: nothing is lost.
	[ -d "$fr" ] && mv "$fr" "$fr.replaced-$(date +%Y%m%d-%H%M%S)"
	mv "$fr.tmp" "$fr"
}

# split_tenants RDIR: RDIR.tmp holds vm_I.* files of every tenant of $CELL;
# tenants 2..N get their own complete run directories (their files, the main
# tenant's system-wide monitors, the shared console and kernel files), then
# RDIR.tmp keeps tenant 1's.  Returns 0; a broken tenant is recorded failed.
split_tenants() {
	st_n=$(cell_get "$CELL" tenants)
	[ "${st_n:-1}" -gt 1 ] || return 0
	st_suite=$(cell_get "$CELL" suite)
	st_run=$(basename "$1")
	i=$st_n
	while [ "$i" -ge 1 ]; do
		if [ "$i" = 1 ]; then td=$1; else td=$(variant_dir "$CELL tenant=vm_$i")/$st_run; fi
		mkdir -p "$td.tmp"
		for f in "$1.tmp"/*; do
			name=$(basename "$f")
			case $name in
			"vm_$i".*) mv "$f" "$td.tmp/${name#vm_"$i".}" ;;
			vm_1.*)
				case ${name#vm_1.} in "$st_suite" | "$st_suite".*) ;; *) cp "$f" "$td.tmp/${name#vm_1.}" ;; esac
				;;
			vm_*) ;;
			job.conf) { cat "$f"; echo "tenant=vm_$i"; } >"$td.tmp/job.conf.new" ;;
			*) [ "$i" = 1 ] || cp "$f" "$td.tmp/$name" ;;
			esac
		done
		mv "$td.tmp/job.conf.new" "$td.tmp/job.conf"
		if [ "$i" != 1 ]; then
			if ! "$H/krepro-stats" run "$td.tmp" >"$td.tmp/stats.log" 2>&1; then
				fail_run "$td.tmp" "tenant vm_$i: stats: $(head -n 1 "$td.tmp/stats.log")"
				failed_runs=$((failed_runs + 1))
			fi
			[ -d "$td" ] && mv "$td" "$td.replaced-$(date +%Y%m%d-%H%M%S)"
			mv "$td.tmp" "$td"
		fi
		i=$((i - 1))
	done
	return 0
}

cell_timeout() { # cell -> seconds for one boot running it
	ct=$(cell_get "$1" timeout)
	[ -n "$ct" ] && ct=$(to_seconds "$ct")
	ct_rt=$(to_seconds "$(cell_get "$1" runtime)")
	echo "${ct:-$((B_BOOT_TIMEOUT + ${ct_rt:-0} * 2))}"
}

if [ -n "$IMPORT_DIR" ]; then
	RDIR=$RESULTS/$(printf '%s\n' "$IMPORT_LINE" | cut -f2)
	case $RDIR in *..*) die "$IMPORT_DIR/cells.tsv: bad result path" ;; esac
	[ ! -d "$RDIR" ] || [ "${RERUN:-0}" = 1 ] ||
		die "$RDIR is complete already; nothing imported (--rerun imports this log and keeps the old run beside it)"
	CELL=$(cat "$TMPD/cells")
	failed_runs=0
	mkdir -p "$(dirname "$RDIR")"
	rm -rf "$RDIR.tmp"
	mkdir "$RDIR.tmp"
	cp "$IMPORT_DIR/jobs/$IMPORT_N.conf" "$RDIR.tmp/job.conf"
	cp "$IMPORT_LOG" "$RDIR.tmp/console.log"
	cp "$IMPORT_LOG" "$RDIR.tmp/frames.bin"
	finish_run "$RDIR" 0 ""
	"$H/krepro-stats" unite "$(dirname "$RDIR")" >/dev/null || true
	echo "$RDIR"
	[ "$failed_runs" = 0 ]
	exit
fi

START=$(date +%s)
done_runs=0
failed_runs=0
BOOT_MODE=${BOOT_MODE:-$(cell_get "$(head -n 1 "$TMPD/cells")" boot)}
case ${BOOT_MODE:-each} in each | kexec) ;; *) die "$MATRIX: boot must be each or kexec" ;; esac

# prepare_run PLAN-LINE: sets CELL V RDIR and a fresh RDIR.tmp with its job.
prepare_run() {
	CELL=$(sed -n "${2}p" "$TMPD/cells")
	BOARD_NAME=${BOARD_OVERRIDE:-$(cell_get "$CELL" board)}
	BOARD_NAME=${BOARD_NAME:-qemu-2node}
	load_board "$BOARD_NAME"
	BOOT_CLOCK=$(cell_clock "$CELL")
	RDIR=$(variant_dir "$CELL")/$1
	V=$(basename "$(dirname "$RDIR")")
	mkdir -p "$(dirname "$RDIR")"
	rm -rf "$RDIR.tmp"
	mkdir "$RDIR.tmp"
	write_job "$CELL" "$RDIR.tmp/job.conf"
	write_job_yaml "$RDIR.tmp/job.conf" "$BOARD_NAME" "$RDIR.tmp/job.yaml"
}

# export_lava: one LAVA job per planned run, instead of booting (docs/SCALE.md).
export_lava() {
	mkdir -p "$LAVA_DIR/artifacts" "$LAVA_DIR/jobs"
	LAVA_DIR=$(cd "$LAVA_DIR" && pwd)
	url=${LAVA_URL:-file://$LAVA_DIR}
	: >"$LAVA_DIR/cells.tsv"
	j=0
	while read -r r k; do
		j=$((j + 1))
		jn=$(printf '%03d' "$j")
		CELL=$(sed -n "${k}p" "$TMPD/cells")
		BOARD_NAME=${BOARD_OVERRIDE:-$(cell_get "$CELL" board)}
		BOARD_NAME=${BOARD_NAME:-qemu-2node}
		load_board "$BOARD_NAME"
		V=$(basename "$(variant_dir "$CELL")")
		write_job "$CELL" "$LAVA_DIR/jobs/$jn.conf"
		echo "result_port=console" >>"$LAVA_DIR/jobs/$jn.conf"
		[ -f "$LAVA_DIR/artifacts/$V.bzImage" ] || cp "$(cat "$TMPD/kernel.$V")" "$LAVA_DIR/artifacts/$V.bzImage"
		single_initrd "$LAVA_DIR/jobs/$jn.conf"
		cp "$SLOT_TMP/initrd" "$LAVA_DIR/artifacts/$jn-initrd.cpio.gz"
		ksha=$(sha256sum "$LAVA_DIR/artifacts/$V.bzImage" | cut -d' ' -f1)
		isha=$(sha256sum "$LAVA_DIR/artifacts/$jn-initrd.cpio.gz" | cut -d' ' -f1)
		rel=$(variant_dir "$CELL")/$r
		rel=${rel#"$RESULTS"/}
		printf '%s\t%s\t%s\n' "$jn" "$rel" "$CELL" >>"$LAVA_DIR/cells.tsv"
		mins=$((($(cell_timeout "$CELL") + 59) / 60 + 5))
		append=$GUEST_CMDLINE$(kernel_args "$CELL")
		{
			echo "# krepro cell $k, run $r: $CELL"
			echo "# import: ./run-matrix.sh import-lava $LAVA_DIR $jn LOG  (LOG: the job's console log)"
			echo "job_name: krepro $(cell_get "$CELL" suite) $V run $r ($jn)"
			echo "timeouts:"
			echo "  job: {minutes: $((mins + 10))}"
			echo "  action: {minutes: $mins}"
			echo "priority: medium"
			echo "visibility: public"
			echo "metadata:"
			echo "  krepro.job: '$jn'"
			echo "  krepro.result: '$rel'"
			if [ "$B_TYPE" = qemu ]; then
				BOOT_CLOCK=$(cell_clock "$CELL")
				# LAVA's qemu template runs "-cpu host -enable-kvm" for amd64
				# unless no_kvm is set, and ignores cpu: there: the board's
				# CPU model and accelerator go in extra_options.
				lava_acc=tcg
				[ "$B_ACCEL" != kvm ] || [ "$BOOT_CLOCK" = exact ] || lava_acc=kvm
				echo "device_type: qemu"
				echo "context:"
				echo "  arch: amd64"
				echo "  machine: $B_MACHINE"
				echo "  cpu: $B_CPU"
				[ "$lava_acc" = kvm ] || echo "  no_kvm: true"
				echo "  memory: $(printf '%s' "$B_MEMORY" | awk '/G$/ { print $0 * 1024; next } { print $0 + 0 }')"
				echo "  extra_options:"
				[ "$lava_acc" = kvm ] || echo "  - $(accel_args tcg)"
				echo "  - -smp $B_SMP"
				# shellcheck disable=SC2086 # one option and its value per pair
				set -- $B_NUMA
				while [ $# -ge 2 ]; do
					echo "  - $1 $2"
					shift 2
				done
				echo "  - -no-reboot"
				echo "actions:"
				echo "- deploy:"
				echo "    to: tmpfs"
				echo "    timeout: {minutes: 5}"
				echo "    images:"
				echo "      kernel:"
				echo "        url: $url/artifacts/$V.bzImage"
				echo "        sha256sum: $ksha"
				echo "        image_arg: -kernel {kernel} -append \"$append\""
				echo "      initrd:"
				echo "        url: $url/artifacts/$jn-initrd.cpio.gz"
				echo "        sha256sum: $isha"
				echo "        image_arg: -initrd {initrd}"
				echo "- boot:"
				echo "    method: qemu"
				echo "    media: tmpfs"
				echo "    timeout: {minutes: $mins}"
			else
				echo "device_type: x86"
				echo "# The device runs its own good kernel with a shell on its console"
				echo "# (the lab's boot method before this job's actions); LAVA fetches"
				echo "# the variant and the initramfs from --lava-url onto it and kexecs."
				echo "context:"
				echo "  boot_character_delay: 0"
				echo "actions:"
				echo "- deploy:"
				echo "    to: downloads"
				echo "    timeout: {minutes: 5}"
				echo "    images:"
				echo "      kernel:"
				echo "        url: $url/artifacts/$V.bzImage"
				echo "        sha256sum: $ksha"
				echo "      initrd:"
				echo "        url: $url/artifacts/$jn-initrd.cpio.gz"
				echo "        sha256sum: $isha"
				echo "- boot:"
				echo "    method: kexec"
				echo "    kernel: /tmp/$V.bzImage"
				echo "    initrd: /tmp/$jn-initrd.cpio.gz"
				echo "    deploy: true"
				echo "    options: ['--append=\"$append\"']"
				echo "    boot_message: Linux version"
				echo "    parameters: {kernel-start-message: 'Kernel command line:'}"
				echo "    timeout: {minutes: $mins}"
			fi
			echo "    prompts: ['krepro: results sent']"
		} >"$LAVA_DIR/$jn.yaml"
	done <"$TMPD/plan"
	note "LAVA: $j job definitions in $LAVA_DIR (cells.tsv maps each to its result path)"
}

progress() { # what [plan index, for parallel slots]
	done_runs=$((done_runs + 1))
	pg_i=${2:-$done_runs}
	el=$(($(date +%s) - START))
	left=
	[ "$pg_i" -gt 1 ] && left=", ~$((el * (PENDING - pg_i + 1) / (pg_i - 1)))s left"
	note "[$pg_i/$PENDING] $1, elapsed ${el}s$left"
}

if [ -n "$LAVA_DIR" ]; then
	export_lava
	exit 0
fi

# --- lab boards: ssh, the board's own kexec-tools, results over TCP ---------

# lab_ssh ARGS...: one command on the board, never prompting.
lab_ssh() {
	# shellcheck disable=SC2086 # the optional -F pair
	ssh ${B_SSH_CONFIG:+-F "$B_SSH_CONFIG"} -o BatchMode=yes -o ConnectTimeout=10 \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3 "$B_SSH" "$@" 9>&-
}

# lab_wait_ssh SECONDS: 0 once the board's own system answers over ssh.
lab_wait_ssh() {
	lw_end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$lw_end" ]; do
		lab_ssh true </dev/null >/dev/null 2>&1 && return 0
		sleep 2
	done
	return 1
}

# lab_power_cycle: the board's power_cycle command, then wait for ssh.
lab_power_cycle() {
	note "    power-cycling $BOARD_NAME: $B_POWER"
	(cd "$KREPRO_ROOT" && sh -c "$B_POWER") </dev/null >>"$TMPD/power.log" 2>&1 9>&- ||
		note "    power_cycle command failed: $(tail -n 1 "$TMPD/power.log")"
	lab_wait_ssh "$B_BOOT_TIMEOUT"
}

# run_lab: one planned run on a lab board.  The board runs its own system
# with sshd; the variant's kernel and the initramfs with the job are copied
# over, loaded with the board's kexec-tools and executed.  The guest sends
# its frames to a krepro-listen on this controller and reboots into the
# board's system; the console command's output is the run's console.log.
# A board that does not answer, hangs or panics is power-cycled.
run_lab() {
	if ! lab_wait_ssh "$B_BOOT_TIMEOUT"; then
		note "    $BOARD_NAME does not answer ssh ($B_SSH)"
		lab_power_cycle || {
			BOOT_REASON="board $BOARD_NAME unreachable over ssh, even after a power cycle"
			return 1
		}
	fi
	tmo=$(cell_timeout "$CELL")
	(cd "$KREPRO_ROOT" && exec sh -c "exec $B_CONSOLE") </dev/null >"$RDIR.tmp/console.log" 2>&1 9>&- &
	CONSOLE_PID=$!
	rm -f "$TMPD/port"
	# Only the board may send results (board key address:).
	"$H/krepro-listen" -b "$B_LISTEN" ${B_ADDRESS:+-a "$B_ADDRESS"} -P "$TMPD/port" -t "$((tmo + B_BOOT_TIMEOUT))" \
		-o "$RDIR.tmp/frames.bin" 2>"$RDIR.tmp/listen.log" 9>&- &
	LISTEN_PID=$!
	i=0
	while [ ! -s "$TMPD/port" ] && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$TMPD/port" ] || die "krepro-listen did not start: $(cat "$RDIR.tmp/listen.log")"
	{
		echo "result_port=tcp:$B_CONTROLLER:$(cat "$TMPD/port")"
		echo "net=$B_NET"
		echo "after=reboot"
	} >>"$RDIR.tmp/job.conf"
	single_initrd "$RDIR.tmp/job.conf"
	cmdline="$GUEST_CMDLINE$B_CMDLINE$(kernel_args "$CELL")"
	echo "ssh $B_SSH: kexec -l $V.bzImage --append='$cmdline'" >"$RDIR.tmp/boot.cmd"
	BOOT_REASON=
	t0=$(date +%s)
	if ! lab_ssh 'mkdir -p /tmp/krepro && cat >/tmp/krepro/bzImage' <"$(cat "$TMPD/kernel.$V")" ||
		! lab_ssh 'cat >/tmp/krepro/initrd' <"$SLOT_TMP/initrd"; then
		BOOT_REASON="could not copy the kernel and initrd to $B_SSH"
	elif ! lab_ssh "kexec -s -l /tmp/krepro/bzImage --initrd=/tmp/krepro/initrd --append='$cmdline' ||
		kexec -l /tmp/krepro/bzImage --initrd=/tmp/krepro/initrd --append='$cmdline'" \
		</dev/null >"$RDIR.tmp/kexec.log" 2>&1; then
		BOOT_REASON="kexec -l failed on the board: $(tail -n 1 "$RDIR.tmp/kexec.log")"
	else
		# Detached, so this ssh session ends cleanly before the kernel goes.
		lab_ssh '(sleep 1; kexec -e) </dev/null >/dev/null 2>&1 &' </dev/null >/dev/null 2>&1 || true
		t=0
		while kill -0 "$LISTEN_PID" 2>/dev/null; do
			if [ "$t" -ge "$tmo" ]; then
				BOOT_REASON="timeout after $tmo s (hang)"
				break
			fi
			BOOT_REASON=$(console_fault "$RDIR.tmp/console.log")
			[ -z "$BOOT_REASON" ] || break
			if [ "$(grep -c 'Linux version' "$RDIR.tmp/console.log")" -ge 2 ]; then
				BOOT_REASON="early reboot: the board rebooted before sending results"
				break
			fi
			sleep 1
			t=$((t + 1))
		done
	fi
	if [ -z "$BOOT_REASON" ]; then
		wait "$LISTEN_PID" || BOOT_REASON="results: $(tail -n 1 "$RDIR.tmp/listen.log")"
	else
		stop_pid "$LISTEN_PID"
	fi
	LISTEN_PID=
	BOOT_SECONDS=$(($(date +%s) - t0))
	sleep 2 # the last console lines
	stop_pid "$CONSOLE_PID"
	CONSOLE_PID=
	[ -n "$BOOT_REASON" ] || BOOT_REASON=$(console_fault "$RDIR.tmp/console.log")
	[ -f "$RDIR.tmp/frames.bin" ] || : >"$RDIR.tmp/frames.bin"
	if [ -n "$BOOT_REASON" ]; then
		# panic=-1 reboots a panicked board at once; a hung one needs power.
		case $BOOT_REASON in
		timeout*) lab_power_cycle ;;
		*) lab_wait_ssh "$B_BOOT_TIMEOUT" || lab_power_cycle ;;
		esac || note "    $BOARD_NAME still does not answer"
		return 1
	fi
	return 0
}

# run_planned RUN CELL [INDEX]: one planned run, booted and stored.
run_planned() {
	prepare_run "$1" "$2"
	if [ "$B_TYPE" = lab ]; then
		progress "$V run $1 on $BOARD_NAME (lab: ssh $B_SSH, kexec)" "${3:-}"
		run_lab || true
		finish_run "$RDIR" 0 "$BOOT_REASON"
		return 0
	fi
	pick_accel
	progress "$V run $1 on $BOARD_NAME ($ACCEL, clock $BOOT_CLOCK)" "${3:-}"
	single_initrd "$RDIR.tmp/job.conf"
	boot_guest "$(cat "$TMPD/kernel.$V")" "$SLOT_TMP/initrd" "$RDIR.tmp" "$(cell_timeout "$CELL")" "$ACCEL" \
		"$(kernel_args "$CELL")" || true
	finish_run "$RDIR" 0 "$BOOT_REASON"
}

if [ "${BOOT_MODE:-each}" = each ] && [ "$JOBS" -gt 1 ]; then
	# Slot I boots plan lines I, I+N, ... in order; exact results do not
	# depend on which slot ran them or on what ran beside them.
	i=1
	while [ "$i" -le "$JOBS" ]; do
		awk -v n="$JOBS" -v s="$i" '(NR - s) % n == 0 { print NR, $0 }' "$TMPD/plan" >"$TMPD/plan.$i"
		(
			trap - EXIT
			trap 'stop_pid "$QEMU_PID"; exit 130' INT TERM HUP
			SLOT_TMP=$TMPD/slot$i
			mkdir -p "$SLOT_TMP"
			# shellcheck disable=SC2030 # the slot's count goes back through a file
			failed_runs=0
			while read -r idx r k; do
				# A slot outlives a run-matrix killed with SIGKILL: it
				# starts nothing more once its parent is gone.
				kill -0 "$$" 2>/dev/null || exit 1
				run_planned "$r" "$k" "$idx"
			done <"$TMPD/plan.$i"
			echo "$failed_runs" >"$TMPD/failed.$i"
		) &
		SLOT_PIDS="$SLOT_PIDS $!"
		i=$((i + 1))
	done
	for p in $SLOT_PIDS; do wait "$p" || true; done
	SLOT_PIDS=
	i=1
	while [ "$i" -le "$JOBS" ]; do
		[ -f "$TMPD/failed.$i" ] || die "parallel slot $i stopped before its runs were done"
		# shellcheck disable=SC2031 # the parent's own count, plus the slot's
		failed_runs=$((failed_runs + $(cat "$TMPD/failed.$i")))
		i=$((i + 1))
	done
elif [ "${BOOT_MODE:-each}" = each ]; then
	while read -r r k; do
		run_planned "$r" "$k"
	done <"$TMPD/plan"
else
	# One QEMU per group of cells that differ only by variant: the guest
	# kexecs from step to step, A, B, A, B, ... in one machine.
	while read -r r k; do
		echo "$(dirname "$(variant_dir "$(sed -n "${k}p" "$TMPD/cells")")") $r $k"
	done <"$TMPD/plan" >"$TMPD/plan.grouped"
	for g in $(cut -d' ' -f1 "$TMPD/plan.grouped" | uniq | sort -u); do
		rm -rf "$TMPD/chain" "$TMPD/chainrun"
		mkdir -p "$TMPD/chain" "$TMPD/chainrun"
		printf 'dir /chain 0755 0 0\ndir /chain/kernels 0755 0 0\nfile /chain/plan %s 0644 0 0\n' \
			"$TMPD/chain/plan" >"$TMPD/chain.list"
		step=0 tmo=0 first=
		grep "^$g " "$TMPD/plan.grouped" | while read -r _ r k; do echo "$r $k"; done >"$TMPD/chain/steps"
		while read -r r k; do
			step=$((step + 1))
			prepare_run "$r" "$k"
			[ -n "$first" ] || first=$V
			echo "$step $V" >>"$TMPD/chain/plan"
			cp "$RDIR.tmp/job.conf" "$TMPD/chain/job-$step.conf"
			echo "file /chain/job-$step.conf $TMPD/chain/job-$step.conf 0644 0 0" >>"$TMPD/chain.list"
			grep -q " /chain/kernels/$V.bzImage " "$TMPD/chain.list" ||
				echo "file /chain/kernels/$V.bzImage $(cat "$TMPD/kernel.$V") 0644 0 0" >>"$TMPD/chain.list"
			tmo=$((tmo + $(cell_timeout "$CELL")))
		done <"$TMPD/chain/steps"
		"$GIC" -t 0 "$TMPD/chain.list" | gzip -n >"$TMPD/chain.cpio.gz"
		cat "$INITRAMFS" "$TMPD/chain.cpio.gz" >"$TMPD/initrd"
		pick_accel
		note "kexec chain of $step boots in one QEMU ($ACCEL): $(cut -d' ' -f2 "$TMPD/chain/plan" | tr '\n' ' ')"
		# kernel_cmdline is part of the result path, so every step of a
		# group shares it; the guest hands its own command line on.
		boot_guest "$(cat "$TMPD/kernel.$first")" "$TMPD/initrd" "$TMPD/chainrun" "$tmo" "$ACCEL" \
			" krepro.step=1$(kernel_args "$CELL")" || true
		note "kexec chain ran ${BOOT_SECONDS}s${BOOT_REASON:+: $BOOT_REASON}"
		BOOT_SECONDS=
		step=0
		while read -r r k; do
			step=$((step + 1))
			prepare_run "$r" "$k"
			progress "$V run $r (chain step $step)"
			cp "$TMPD/chainrun/frames.bin" "$TMPD/chainrun/qemu.cmd" "$RDIR.tmp/"
			cp "$TMPD/chainrun/console.log" "$RDIR.tmp/console-chain.log"
			awk -v s="$step" '/krepro: chain step [0-9]+ of/ { cur = $4 + 0 } cur == s' \
				"$TMPD/chainrun/console.log" >"$RDIR.tmp/console.log"
			finish_run "$RDIR" "$step" "${BOOT_REASON:+chain: $BOOT_REASON}"
		done <"$TMPD/chain/steps"
	done
fi

# --- report -----------------------------------------------------------------

REPORT=$RESULTS/report.txt
report_failed=0
: >"$TMPD/report"
HTML=
while IFS= read -r c; do
	t=$(cell_get "$c" tenants)
	i=1
	while [ "$i" -le "${t:-1}" ]; do
		if [ "${t:-1}" = 1 ]; then dirname "$(variant_dir "$c")"; else dirname "$(variant_dir "$c tenant=vm_$i")"; fi
		i=$((i + 1))
	done
done <"$TMPD/cells" | sort -u >"$TMPD/report.dirs"
# One line per directory: paths may hold spaces.
while IFS= read -r vd; do
	set --
	for v in $VARIANTS; do
		if [ -d "$vd/$v" ]; then
			"$H/krepro-stats" unite "$vd/$v" >/dev/null || note "unite $vd/$v failed"
			set -- "$@" "$vd/$v"
		fi
	done
	{
		echo "${vd#"$RESULTS"/}"
		echo
		if [ $# -ge 2 ]; then
			# No stale sibling survives a comparison that fails.
			rm -f "$vd/report.json" "$vd/report.csv"
			if ! "$H/krepro-compare" --json "$vd/report.json" --csv "$vd/report.csv" "$@" 2>"$TMPD/compare.err"; then
				echo "(comparison failed: $(tail -n 1 "$TMPD/compare.err"))"
				report_failed=1
			fi
			if "$H/krepro-report" -o "$vd/report.html" "$@" >/dev/null 2>"$TMPD/html.log"; then
				[ -n "$HTML" ] || HTML=$vd/report.html
			else
				note "report.html for $vd failed: $(head -n 1 "$TMPD/html.log")"
			fi
		else
			echo "(only one variant: nothing to compare)"
		fi
		echo
	} >>"$TMPD/report"
done <"$TMPD/report.dirs"
{ cp "$TMPD/report" "$REPORT.tmp" && mv "$REPORT.tmp" "$REPORT"; } ||
	die "cannot write $REPORT (the runs themselves are complete)"
if [ -n "$HTML" ]; then
	cp "$HTML" "$RESULTS/report.html.tmp"
	mv "$RESULTS/report.html.tmp" "$RESULTS/report.html"
fi
# A result that differs between exact boots is shown in red on a terminal.
if [ -t 1 ]; then
	sed "s/^NOT DETERMINISTIC: .*/$(printf '\033[1;31m')&$(printf '\033[0m')/" "$REPORT"
else
	cat "$REPORT"
fi
note "matrix $MATRIX_NAME: $TOTAL_RUNS runs ($failed_runs failed) in $(($(date +%s) - START)) s; results in $RESULTS"
note "report: $REPORT${HTML:+, $RESULTS/report.html (and report.json, report.csv beside each comparison)}"
[ "$report_failed" = 0 ] || note "some comparisons failed: see $REPORT"
[ "$failed_runs" = 0 ] && [ "$report_failed" = 0 ]
}
main "$@"
exit $?
