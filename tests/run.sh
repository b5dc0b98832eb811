#!/bin/sh
# The test suite.  --quick: everything but kernel builds and boots.
# Every check prints PASS or FAIL; the last line is "N passed, N failed".
set -u
KREPRO_ROOT=$(cd "$(dirname "$0")/.." && pwd)
KREPRO_PROG=tests
# shellcheck source=lib/shared/common.sh
. "$KREPRO_ROOT/lib/shared/common.sh"

QUICK=0
for a in "$@"; do
	case $a in
	--quick) QUICK=1 ;;
	-h | --help)
		echo "usage: tests/run.sh [--quick]   (--quick skips kernel builds and boots)"
		exit 0
		;;
	*) die "unknown option '$a'" ;;
	esac
done

cd "$KREPRO_ROOT" || exit 2
need_test_deps
PASS=0
FAIL=0
LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/krepro-tests.XXXXXX")
export LOGDIR

pass() { PASS=$((PASS + 1)); echo "PASS $*"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $*"; }

# check NAME COMMAND...: one check from a command's exit status.
check() {
	name=$1
	shift
	log="$LOGDIR/$(echo "$name" | tr -c 'A-Za-z0-9._\n-' _).log"
	if "$@" >"$log" 2>&1; then
		pass "$name"
	else
		fail "$name (log: $log)"
		tail -n 15 "$log" | sed 's/^/    | /'
	fi
}

# count_output NAME COMMAND...: a program printing PASS/FAIL lines itself.
count_output() {
	name=$1
	shift
	log="$LOGDIR/$name.log"
	t0=$(date +%s)
	"$@" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	grep '^FAIL ' "$log" | sed "s/^/$name: /"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		fail "$name exited with $rc (log: $log)"
		tail -n 15 "$log" | sed 's/^/    | /'
	fi
	echo "$name: $p passed, $f failed ($secs s)"
}

# The pinned root (lib/shared/root.sh) every image is built in: made (on a fresh
# machine: the .debs the test packages left in apt's cache, the rest
# downloaded, then mmdebstrap) while the host-side checks below run.
./build.sh root >"$LOGDIR/root.log" 2>&1 &
ROOT_PID=$!
# The kernels the boot tests share, built while the host-side checks and
# tests run (those are one process at a time; a build takes the other
# core): the first waits for the pinned root on its lock, each is built
# once, and every boot test finds it up to date (one asking for a kernel
# still building waits on that kernel's lock).
BOOT_KERNELS="base calibration memcg+autonuma memcg memcg@4 memcg@3 memcg@2 contended noop"
KERNELS_PID=
if [ "$QUICK" = 0 ]; then
	(for v in $BOOT_KERNELS; do ./build.sh kernel "$v" || exit 1; done) >"$LOGDIR/kernels.log" 2>&1 &
	KERNELS_PID=$!
fi
check "build: host tools, unit tests, fuzzers" make -s OUT=out host unit fuzz
check "docs/MONITORS.md and docs/KEYS.md are what the meta files make (make docs)" make -s OUT=out docs-check
# meta_refused LINES MESSAGE: a monitors/x/meta of LINES stops the tables
# with MESSAGE (file and line first).
meta_refused() {
	d=$(mktemp -d) && mkdir -p "$d/monitors/x" && printf '%s\n' "$1" >"$d/monitors/x/meta" &&
		(cd "$d" && ! awk -v table=monitors -f "$KREPRO_ROOT/tools/meta-tables.awk" monitors/x/meta 2>err &&
			grep -qxF "$2" err)
	rc=$?
	rm -rf "$d"
	return $rc
}
check "meta tables: a monitor without its parser is refused, naming file and line" \
	meta_refused 'monitor x krp_sampler_x' 'monitors/x/meta:1: monitor x has no "parser" line'
check "meta tables: a monitor named twice is refused" meta_refused 'monitor x a
parser x b
monitor x c' 'monitors/x/meta:3: monitor x again (first at monitors/x/meta:1)'
check "meta tables: a parser line that is not a C name is refused" meta_refused 'parser x b;rm' \
	'monitors/x/meta:1: expected "parser FILE FUNCTION [named]" (a raw file'"'"'s name, a C name)'
# A fuzz target replays its seed corpus and the fixtures that are inputs of
# its parsers (kept once, beside what they test).
fixtures_of() { # fuzz target -> its fixture folders
	case $1 in
	parse_bench) echo suites/*/fixtures ;;
	parse_monitors) echo monitors/*/fixtures ;;
	report_read) echo tests/fixtures/reports ;;
	lkpjob) echo tests/fixtures/lkp ;;
	esac
}
for f in out/fuzz/fuzz_*; do
	[ -x "$f" ] || continue
	t=$(basename "$f" | sed 's/^fuzz_//')
	dirs=
	for d in "tests/fuzz/corpus/$t" $(fixtures_of "$t"); do
		[ ! -d "$d" ] || dirs="$dirs $d"
	done
	# shellcheck disable=SC2086 # a list of folders without spaces
	check "fuzz corpus replay: $(basename "$f")" "$f" -runs=0 $dirs
done
# A lib/ module sets globals another one reads: checked on its own
# without SC2034 (unused) and SC2154 (unassigned), which see one file only.
check "shellcheck: lib modules" shellcheck -x -s sh -e SC2034,SC2154 lib/*/*.sh lib/*/*/*.sh
check "shellcheck" shellcheck -x -s sh build.sh run-matrix.sh initramfs/init initramfs/knobs.sh initramfs/udhcpc.sh lab/loopback-board.sh \
	suites/*/run.sh tests/run.sh tests/*.sh bench/*.sh bench/upstream/*.sh lava/*.sh .ci/run
check "clang-format" sh -c 'clang-format --dry-run --Werror tools/*/*.[ch] tools/host/lib/*/*.[ch] suites/*/*.[ch] suites/*/tests/*.c monitors/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c'
t0=$(date +%s)
check "the pinned root (./build.sh root, made while the checks above ran; log: $LOGDIR/root.log)" wait "$ROOT_PID"
echo "the pinned root: waited $(($(date +%s) - t0)) s for it"
# Guest programs need the reference tree's UAPI headers (musl has none).
UAPI=$(./build.sh uapi 2>"$LOGDIR/uapi.log" | tail -n 1)
check "build: guest tools (the UAPI headers from the pinned root)" make -s OUT=out UAPI="$UAPI" guest guest-syms
# (after the guest tools: model_test reads out/guest and out/syms/guest)
for t in out/unit/*_test; do
	[ -x "$t" ] && count_output "$(basename "$t")" "$t"
done

for s in tests/cli_*.sh; do
	[ -f "$s" ] && count_output "$(basename "$s" .sh)" sh "$s"
done
if [ "$QUICK" = 0 ]; then
	t0=$(date +%s)
	check "the boot tests' kernels ($BOOT_KERNELS; built while the checks above ran; log: $LOGDIR/kernels.log)" wait "$KERNELS_PID"
	echo "the boot tests' kernels: waited $(($(date +%s) - t0)) s for them"
	# Boot tests time their long steps (tests/lib.sh), for the CI log.
	for s in tests/full_*.sh; do
		[ -f "$s" ] && T_TIMES=1 count_output "$(basename "$s" .sh)" sh "$s"
	done
fi

echo "logs: $LOGDIR"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
