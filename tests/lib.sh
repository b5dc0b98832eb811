# shellcheck shell=sh
# Helpers for shell tests (sourced): each assertion prints PASS or FAIL.
# shellcheck disable=SC2034 # T_FAILED is the sourcing script's exit status
T_FAILED=0
T_NPASS=0
T_NFAIL=0
ok() {
	T_NPASS=$((T_NPASS + 1))
	echo "PASS $*"
}
no() {
	T_NFAIL=$((T_NFAIL + 1))
	echo "FAIL $*"
	T_FAILED=1
}
# t_summary: "N passed, N failed" (a script's last line; not a PASS/FAIL line).
t_summary() { echo "$T_NPASS passed, $T_NFAIL failed"; }
# assert NAME COMMAND...: the command succeeds (output discarded).
assert() {
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else no "$n"; fi
}
# qemu_running TEXT: a QEMU process whose command line holds TEXT.
# shellcheck disable=SC2009 # pgrep -f would also match the shells running it
qemu_running() {
	ps -eo args | grep '^qemu-system-x86_64' | grep -qF -- "$1"
}
# expect_in NAME FILE PATTERN: a fixed string in a file.
expect_in() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else
		no "$1: '$3' not in $2"
		sed 's/^/    | /' "$2" | tail -n 10
	fi
}
# expect_rc NAME WANT COMMAND...: exit status of a command.
expect_rc() {
	n=$1 want=$2
	shift 2
	"$@" >"$T_OUT" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then ok "$n"; else
		no "$n: exit $got, want $want"
		sed 's/^/    | /' "$T_OUT" | tail -n 10
	fi
}
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/krepro-t.XXXXXX")
# t_clean: the test's folder goes when every check passed; a failing
# check's results stay for the reader (its path is printed).
t_clean() {
	if [ "$T_FAILED" = 0 ]; then rm -rf "$T_DIR"; else echo "kept for the failed checks: $T_DIR"; fi
}
T_OUT=$T_DIR/out

# copy_checkout DIR: the files a checkout builds and plans from (the kit's
# inputs a bundle carries, lib/bundle.sh's one list, with boards and jobs),
# copied into DIR (for tests that change its boards or its path).
copy_checkout() {
	# shellcheck source=lib/bundle.sh
	. ./lib/bundle.sh
	mkdir -p "$1"
	# shellcheck disable=SC2086 # a list of top-level names
	cp -r $BUNDLE_INPUTS boards jobs "$1/"
}
