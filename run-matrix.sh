#!/bin/sh
# run-matrix.sh: matrix -> cells -> boots -> results -> report.
# Options and dispatch; every module is a lib/ file.  Shared with the
# modules (bench/shared-state.sh): KREPRO_ROOT, KREPRO_PROG (messages),
# JOBS (-j), RESULTS (-o) and MATRIX, the session's, set here once; a
# module's own options go through its functions (cells_set, backend_option_kexec,
# lava_option) and the plan's through plan_cells/plan_check/plan_runs.
set -eu

KREPRO_ROOT=$(cd "$(dirname "$0")" && pwd)
KREPRO_PROG=run-matrix
# shellcheck source=lib/shared/common.sh
. "$KREPRO_ROOT/lib/shared/common.sh"
# shellcheck source=lib/shared/cells.sh
. "$KREPRO_ROOT/lib/shared/cells.sh"
# shellcheck source=lib/run/board.sh
. "$KREPRO_ROOT/lib/run/board.sh"
# shellcheck source=lib/run/plan.sh
. "$KREPRO_ROOT/lib/run/plan.sh"
# shellcheck source=lib/run/session.sh
. "$KREPRO_ROOT/lib/run/session.sh"
# shellcheck source=lib/run/images.sh
. "$KREPRO_ROOT/lib/run/images.sh"
# shellcheck source=lib/shared/bundle.sh
. "$KREPRO_ROOT/lib/shared/bundle.sh"
# shellcheck source=lib/shared/root.sh
. "$KREPRO_ROOT/lib/shared/root.sh"
# shellcheck source=lib/run/runs.sh
. "$KREPRO_ROOT/lib/run/runs.sh"
# shellcheck source=lib/run/backend.sh
. "$KREPRO_ROOT/lib/run/backend.sh"
# shellcheck source=lib/run/boot.sh
. "$KREPRO_ROOT/lib/run/boot.sh"
# shellcheck source=lib/run/backends/qemu.sh
. "$KREPRO_ROOT/lib/run/backends/qemu.sh"
# shellcheck source=lib/shared/qemu-plugin.sh
. "$KREPRO_ROOT/lib/shared/qemu-plugin.sh"
# shellcheck source=lib/run/backends/lab.sh
. "$KREPRO_ROOT/lib/run/backends/lab.sh"
# shellcheck source=lib/run/backends/kexec.sh
. "$KREPRO_ROOT/lib/run/backends/kexec.sh"
# shellcheck source=lib/run/backends/lava.sh
. "$KREPRO_ROOT/lib/run/backends/lava.sh"
# shellcheck source=lib/run/from-report.sh
. "$KREPRO_ROOT/lib/run/from-report.sh"
# shellcheck source=lib/run/bisect.sh
. "$KREPRO_ROOT/lib/run/bisect.sh"
# shellcheck source=lib/run/floor.sh
. "$KREPRO_ROOT/lib/run/floor.sh"
# shellcheck source=lib/run/report.sh
. "$KREPRO_ROOT/lib/run/report.sh"

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
       ./run-matrix.sh bisect [-o DIR] [-m MATRIX] [-j N] SERIES|GOOD..BAD METRIC
       ./run-matrix.sh floor [-o DIR] [-j N] [-n SEEDS] [--dry-run] [MATRIX]   (exact A/A)
       ./run-matrix.sh import-lava [-o DIR] [--rerun] LAVA_DIR JOB_NUMBER LOG
       ./run-matrix.sh from-report [-o MATRIX.yaml] [--repo REPO] REPORT.txt   (0-day email -> matrix)

Runs every cell of MATRIX (default: the embedded matrix, same as
jobs/default.yaml: base vs calibration, will-it-scale page_fault3, 3 runs;
8 seeds with --clock exact)
on its board, writes results in the LKP layout under the results directory
and prints the 0-day comparison, also saved as <results>/report.txt.

Options:
  -o DIR       results directory (default: ./results)
  --dry-run    list the cells and their result paths; build, boot and install nothing
  --rerun      run cells again even when complete (old runs kept as <run>.replaced-*)
  --board NAME board file from boards/ (overrides the matrix)
  --clock MODE exact or real (overrides the matrix and the board): exact boots
               QEMU with instruction-counted time, every metric a function of
               the images and the job alone (docs/EXACT.md)
  --lkp-tests DIR  an lkp-tests checkout: a job file's "<<: FILE" includes are
               found there (beside the job first, then DIR, DIR/jobs, DIR/jobs/*)
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
  --keys       print the key table: every matrix key (the kit's, each suite's
               and monitor's parameters) as "KEY CHECK WHERE OWNER DEFAULT
               TEXT" lines, the --keys file of krepro-lkpjob/fromreport
  --keys-md    the same table as docs/KEYS.md
  --export-lava DIR  write one LAVA job definition per planned run (qemu boot
               for QEMU boards, kexec boot for lab boards) with its kernel and
               initrd under DIR/artifacts, instead of booting anything
  --lava-url URL     where DIR will be served from (default file://DIR)
  --lava URL   run the matrix on the LAVA server at URL (docs/SCALE.md): one
               job per run (qemu boards: devices with lava/krepro-qemu.jinja2),
               submitted with lavacli as the identity whose uri is URL's
               (--lava-identity NAME), waited for, imported into
               <board>.lava-HOST-PORT[-TAGS] results, then the report;
               rerunning resumes with the jobs already submitted
  --lava-tags T[,T]  the devices' tags jobs must have; real mode needs them
               (A and B on one machine: a tag one device carries)
  --lava-identity NAME  the lavacli identity to submit as (default: the one
               whose uri is URL's); KREPRO_LAVA_TRIES (3 submissions a run),
               KREPRO_LAVA_POLL (10 s), KREPRO_LAVA_TIMEOUT (1800 + 600 a run)
  -C DIR, -O DIR  cache and output directories, as for build.sh
  -h, --help   this text

Complete run directories are never rewritten: rerunning the same command
resumes where it stopped.

bisect runs base against SERIES@N (its first N patches) by binary search
(or, with a git reference, KREPRO_REFERENCE=git:REPO@REF, GOOD against
each commit of GOOD..BAD: a range without merges, GOOD an ancestor of
BAD; a commit that does not build is skipped and named, as git bisect
skip does), prints a table of its steps (verdict and seconds each),
base booted again beside each step (in DIR/step-N; exact mode shares one),
with the matrix's other parameters (default: the embedded matrix), and names
the first patch after which METRIC changes significantly (Welch t-test,
alpha KREPRO_BISECT_ALPHA=0.01); an inconclusive step (p < 0.25) gets two
more runs per side, up to KREPRO_BISECT_MAX_RUNS=9.  With clock: exact in
the matrix every step shares one base, each side runs 8 seeds (unless the
matrix sets runs:; up to 16 when inconclusive), -j N boots N at once, and
a step is named only when its change clears the seeds' floor at p < 0.01
and carries a tenth of the whole series' change, with its sign (exact mode
sees every instruction: a constant made a boot parameter is a real change
of 0.7%, not the series' step).

floor runs A/A comparisons of one exact cell (default: the embedded
matrix's): base in four disjoint sets of SEEDS seeds (default 8), base
with boot words nothing reads (two lengths), and the noop series (an
unused function that only moves code): 7 sets, 21 comparisons; it prints
each, how many called a change at p < 0.01, and the floor: the smallest
change SEEDS seeds a side (and the default 8) can call there
(DIR/floor.txt, default ./results/floor); with memory_model: on, also for
model.<headline>.  Cost: 7 x SEEDS boots.  Exact mode:
docs/EXACT.md.  floor --dry-run prints the 7 sets' cells, result folders and
boots, and boots nothing.
EOF
}


RESULTS=$KREPRO_ROOT/results
DRY=0
RERUN=0
CLOCK_OVERRIDE=
LKP_TESTS=
BUNDLE=
MATRIX=
JOBS=1
case ${1:-} in
compare | index | pivot | report) report_tool "$@" ;;
from-report) shift; from_report "$@" ;;
bisect) shift; bisect_main "$@" ;;
floor) shift; floor_main "$@" ;;
esac
IMPORT_DIR=
if [ "${1:-}" = import-lava ]; then
	shift
	import_lava_args "$@"
	set --
fi

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o) opt_arg "a directory" "$@"; RESULTS=$2; shift 2 ;;
	--dry-run) DRY=1; deps_name_only; shift ;;
	--rerun) RERUN=1; shift ;;
	-j) opt_arg "a number" "$@"; JOBS=$2; shift 2 ;;
	-j[0-9]*) JOBS=${1#-j}; shift ;;
	--board) opt_arg "a name" "$@"; cells_set board "$2"; shift 2 ;;
	--clock)
		case ${2:-} in exact | real) ;; *) die "--clock: expected exact or real, not '${2:-}'" ;; esac
		CLOCK_OVERRIDE=$2
		shift 2
		;;
	--lkp-tests) opt_arg "an lkp-tests checkout" "$@"; [ -d "$2" ] || die "--lkp-tests needs an lkp-tests checkout (a folder)"; LKP_TESTS=$2; shift 2 ;;
	--bundle) opt_arg "a file" "$@"; BUNDLE=$2; shift 2 ;;
	--bundle-key)
		opt_arg "a signify public key" "$@"
		KREPRO_BUNDLE_KEY=$2
		export KREPRO_BUNDLE_KEY
		shift 2
		;;
	--print-default-matrix) default_matrix; exit 0 ;;
	--keys) key_table; exit $? ;;
	--keys-md) key_table | keys_markdown; exit 0 ;;
	# --kexec is the driver's (lib/run/backend.sh); LAVA's options its own
	--kexec) backend_option_kexec; shift ;;
	--export-lava | --lava-url | --lava | --lava-tags | --lava-identity) lava_option "$@"; opt_arg "a value" "$@"; shift 2 ;;
	-C) opt_arg "a directory" "$@"; KREPRO_CACHE=$2; shift 2 ;;
	-O) opt_arg "a directory" "$@"; KREPRO_OUT=$2; shift 2 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ -z "$MATRIX" ] || die "one matrix file at a time"; MATRIX=$1; shift ;;
	esac
done
case $JOBS in [1-9] | [1-9][0-9]) ;; *) die "-j: expected a number of guests, 1..99, not '$JOBS'" ;; esac
krepro_dirs
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
lava_options
session_start
[ -z "$BUNDLE" ] || open_bundle "$BUNDLE"
plan_cells "$CLOCK_OVERRIDE" "$LKP_TESTS"
plan_check "$DRY"
plan_runs "$RERUN"
if [ "$DRY" = 1 ]; then
	plan_summary
	exit 0
fi
plan_check_boots
lock_results
prepare_images
check_kept_images

if [ -n "$IMPORT_DIR" ]; then
	import_lava_run
	exit
fi
run_plan
backend_reports || exit 0
write_report
}
main "$@"
exit $?
