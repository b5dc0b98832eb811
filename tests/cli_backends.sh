#!/bin/sh
# The backends (lib/run/backend.sh, issue 36 item 4): each cell goes to the first
# backend whose accepts takes it; a cell none takes is refused by --dry-run,
# before anything is built, naming the matrix, the cell and every backend's
# reason.  A plan on two backends runs each one's prepare, runs and collect.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

W='suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 5s\n'
# shellcheck disable=SC2059 # W is the format's head
printf "${W}clock: exact\n" >"$T_DIR/ex.yaml"
# shellcheck disable=SC2059
printf "${W}boot: kexec\n" >"$T_DIR/kx.yaml"
# shellcheck disable=SC2059
printf "${W}clock: exact\nboot: kexec\nvariants: [base, calibration]\n" >"$T_DIR/kxex.yaml"

# refused NAME WANT ARGS...: run-matrix --dry-run ARGS refused, saying WANT.
refused() {
	rf_n=$1 rf_want=$2
	shift 2
	expect_rc "$rf_n: refused by --dry-run" 2 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$@"
	expect_in "$rf_n: names the backend and its reason" "$T_OUT" "$rf_want"
}

refused "exact on a lab board" "  lab: clock: exact needs a QEMU board; board lab-loopback is a lab machine" \
	--board lab-loopback "$T_DIR/ex.yaml"
expect_in "... and says why the others refused" "$T_OUT" "  qemu: board lab-loopback is a lab machine"
expect_in "... naming the matrix's clock line and the cell" "$T_OUT" "$T_DIR/ex.yaml:6: cell 1 (board lab-loopback, clock exact): no backend runs it:"
copy_checkout "$T_DIR/root"
printf 'type: qemu\ncpus: 2\nmemory: 1G\naccel: kvm\n' >"$T_DIR/root/boards/qemu-kvm"
expect_rc "exact on a KVM board: refused" 2 "$T_DIR/root/run-matrix.sh" --dry-run -o "$T_DIR/res" --board qemu-kvm "$T_DIR/ex.yaml"
expect_in "... by qemu, which needs TCG" "$T_OUT" "  qemu: clock: exact needs TCG; board qemu-kvm has accel: kvm"
refused "a kexec chain on a lab board" "  kexec: board lab-brickland3: boot: kexec chains run in one QEMU" \
	--board lab-brickland3 "$T_DIR/kx.yaml"
assert "... and not handed to the lab backend" sh -c "! grep -q '  lab:' '$T_OUT'"
refused "-j 2 with real-mode cells" "  qemu: -j 2: parallel guests need clock: exact" -j 2 suites/will-it-scale/smoke.yaml
refused "-j 2 with a kexec chain" "  kexec: -j 2: a kexec chain is one guest" -j 2 "$T_DIR/kxex.yaml"
refused "-j 2 on a lab board" "  lab: -j 2: a lab board boots one run at a time" -j 2 --board lab-brickland3
refused "an exact LAVA export of a lab board" "  lava_export: clock: exact needs a QEMU board" \
	--export-lava "$T_DIR/lava" --board lab-brickland3 "$T_DIR/ex.yaml"
assert "... nothing exported" test ! -e "$T_DIR/lava"
mkdir -p "$T_DIR/xdg"
printf 'lab:\n  uri: http://lava.example:8080/RPC2\n' >"$T_DIR/xdg/lavacli.yaml"
XDG_CONFIG_HOME=$T_DIR/xdg refused "--lava with real-mode cells and no tags" "  lava_server: --lava: real-mode cells (board qemu-2node) must run on one machine" \
	--lava http://lava.example:8080/ suites/will-it-scale/smoke.yaml
XDG_CONFIG_HOME=$T_DIR/xdg expect_rc "--lava with -j: refused" 2 ./run-matrix.sh --dry-run --lava http://lava.example:8080/ -j 2 "$T_DIR/ex.yaml"
expect_in "... no -j, no --kexec" "$T_OUT" "no -j, no --kexec"

# Accepted plans print what they printed before: no backend line for one.
expect_rc "a plan on one backend" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$T_DIR/kxex.yaml"
assert "... says nothing of backends" sh -c "! grep -q '^backends:' '$T_OUT'"
# A matrix on two backends: each runs its prepare, runs and collect.
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nvariants: [base, calibration]\n---\nnr_task: 1\n---\nnr_task: 2\nboot: kexec\n' >"$T_DIR/two.yaml"
expect_rc "a plan on two backends (boot: kexec for one part)" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$T_DIR/two.yaml"
expect_in "... names both and their cells" "$T_OUT" "backends: 2, each prepared, run and collected in turn: qemu (cells 1 2); kexec (cells 3 4)"
# shellcheck disable=SC2059
printf "${W}board: [qemu-2node, lab-brickland3]\n" >"$T_DIR/two-boards.yaml"
expect_rc "a plan on a QEMU and a lab board" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$T_DIR/two-boards.yaml"
expect_in "... names both" "$T_OUT" "backends: 2, each prepared, run and collected in turn: qemu (cells 1); lab (cells 2)"

# run_plan over two backends (stand-in backends a and b, no boot): each
# prepares once before its runs and collects once after them, in the
# plan's order.
mkdir -p "$T_DIR/rp"
printf 'name two\n' >"$T_DIR/rp/plan.facts"
# the run table's rows (backend: cells 1 and 3 a, cell 2 b), one kept
{
	printf 'run\tcell\tstate\tbackend\n'
	for r in 1 2; do
		printf '%s\t1\tpending\ta\n%s\t2\tpending\tb\n%s\t3\tpending\ta\n' "$r" "$r" "$r"
	done
	printf '3\t2\tkept\tb\n'
} >"$T_DIR/rp/runs.tsv"
# shellcheck disable=SC2016 # expanded by the inner sh
KREPRO_ROOT=$PWD TMPD=$T_DIR/rp RESULTS=$T_DIR/rp/res sh -c '. lib/shared/common.sh; . lib/run/runs.sh; . lib/run/backend.sh; . lib/run/plan.sh
	JOBS=1
	for b in a b; do
		eval "${b}_facts() { :; }; ${b}_prepare() { echo $b prepare; }; ${b}_collect() { echo $b collect; }
			${b}_run_one() { echo $b run \$1 cell \$2; }"
	done
	run_plan' >"$T_DIR/rp/got" 2>&1
printf '%s\n' "a prepare" "a run 1 cell 1" "a run 1 cell 3" "a run 2 cell 1" "a run 2 cell 3" "a collect" \
	"b prepare" "b run 1 cell 2" "b run 2 cell 2" "b collect" >"$T_DIR/rp/want"
assert "run_plan: each backend prepared, run and collected, as the run table says (a kept run not booted)" cmp -s "$T_DIR/rp/want" "$T_DIR/rp/got"
# shellcheck disable=SC2016 # expanded by the inner sh
assert "run_plan keeps the run table in the results (plans/DATE-MATRIX.tsv)" \
	sh -c 'for f in "$1"/plans/*-two.tsv; do cmp -s "$f" "$2"; done' sh "$T_DIR/rp/res" "$T_DIR/rp/runs.tsv"
[ "$T_FAILED" = 0 ] || diff "$T_DIR/rp/want" "$T_DIR/rp/got"

# A backend is one file (issue 48 item 3): each of lib/run/backends/ is
# named in BACKENDS (lava: lava_server and lava_export), defines the verbs,
# and names no function another backend file defines; what they share is
# lib/run/boot.sh's.
bk=lib/run/backends
awk '/^[a-z_][a-z0-9_]*\(\)/ { n = $0; sub(/\(.*/, "", n); print FILENAME, n }' "$bk"/*.sh >"$T_DIR/bk.defs"
for f in "$bk"/*.sh; do
	b=$(basename "$f" .sh)
	for verb in accepts facts check prepare run_one collect stop; do
		case $b in lava) names="lava_server_$verb lava_export_$verb" ;; *) names="${b}_$verb" ;; esac
		for n in $names; do
			grep -q "^$f $n\$" "$T_DIR/bk.defs" || no "$f defines $n"
		done
	done
	# the functions of the other backend files, named outside comments here
	awk -v f="$f" '$1 != f { print $2 }' "$T_DIR/bk.defs" >"$T_DIR/bk.others"
	sed 's/#.*//' "$f" | grep -owFf "$T_DIR/bk.others" | sort -u >"$T_DIR/bk.calls" || true
	if [ -s "$T_DIR/bk.calls" ]; then
		no "$f calls another backend's functions: $(tr '\n' ' ' <"$T_DIR/bk.calls")"
	else
		ok "$f calls no other backend's function"
	fi
done
# shellcheck disable=SC2016 # expanded by the inner sh
assert "every backend of BACKENDS has its file" sh -c '. ./lib/shared/common.sh 2>/dev/null; . ./lib/run/backend.sh; for b in $BACKENDS; do case $b in lava_*) b=lava ;; esac; test -f lib/run/backends/$b.sh || exit 1; done'

t_summary
t_clean
exit $T_FAILED
