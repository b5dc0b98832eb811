#!/bin/sh
# The kit's awk programs give the same bytes under mawk (Debian's default
# awk), gawk and busybox awk (issue 47 item 1): each awk in turn is the
# first "awk" in PATH while the kit writes its key table (--keys, the
# guest's /etc/krepro/keys, --keys-md), every table of tools/meta-tables.awk
# (the Makefile's own rules: the .def files, the test lists, both generated
# docs), the plan of every shipped matrix and of the default one with
# lib/shared/cells.awk's facts of each cell, a run's job.conf, host.conf and
# job.yaml, and the memory model's plugin arguments; the outputs are
# compared byte for byte, a difference named with its awk and program.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$PWD

AWKS="mawk gawk busybox"
# awk_bin NAME: the awk's command (busybox's is an applet)
awk_bin() {
	case $1 in
	busybox) echo "$(command -v busybox) awk" ;;
	*) command -v "$1" ;;
	esac
}
# An awk folder holds "awk", which runs that awk; lib/shared/cells.awk's output
# (the plan's facts, kept in run-matrix's session folder only) is also
# appended to $AWK_CELLS.
for a in $AWKS; do
	if ! command -v "$a" >/dev/null 2>&1; then
		pkg=$a
		[ "$a" != busybox ] || pkg=busybox-static
		no "$a is not installed (Debian package $pkg): the three awks are compared"
		t_summary
		t_clean
		exit 1
	fi
	bin=$(awk_bin "$a")
	mkdir -p "$T_DIR/$a/bin"
	cat >"$T_DIR/$a/bin/awk" <<EOF
#!/bin/sh
case " \$* " in
*/lib/shared/cells.awk\ *)
	f=\$(mktemp) || exit 2
	$bin "\$@" >"\$f"
	rc=\$?
	cat "\$f" >>"\${AWK_CELLS:-/dev/null}"
	cat "\$f"
	rm -f "\$f"
	exit "\$rc"
	;;
esac
exec $bin "\$@"
EOF
	chmod +x "$T_DIR/$a/bin/awk"
done

# A matrix beside the shipped ones: a size its board cannot hold (scaled),
# exact seeds, a knob, boot parameters and tenants.
printf '%s\n' 'variants: [base, calibration]' '---' 'suite: vm-scalability' 'test: [anon-w-seq-mt, anon-r-seq]' \
	'size: [64M, 8T]' 'runtime: 10s' 'clock: exact' 'seeds: 3-5' 'sysctl.vm.swappiness: 10' \
	'kernel_cmdline: [quiet+mitigations=off]' '---' 'suite: will-it-scale' 'test: page_fault3' 'mode: thread' 'nr_task: 1' \
	'tenants: 2' >"$T_DIR/extra.yaml"
MATRICES="$(ls jobs/*.yaml) $T_DIR/extra.yaml"
# monitors without their parser lines (tools/meta-tables.awk's END)
mkdir -p "$T_DIR/bad/monitors/x"
printf 'monitor %s krp_x\n' b a c >"$T_DIR/bad/monitors/x/meta"
TEST_LISTS=$(grep -l '^tests ' suites/*/meta | sed 's|^suites/\(.*\)/meta$|gen/\1.tests|')
GEN_FILES="gen/monitors.def gen/raw_files.def gen/parse_headers.h gen/lkp_suites.def gen/report_rules.def gen/meaning_text.c
gen/MONITORS.md gen/KEYS.md $TEST_LISTS"

# run_all AWK: the kit's outputs with AWK first in PATH, in $T_DIR/AWK/out;
# a failing command is a line of $T_DIR/AWK/failed (the awks run at once:
# a background shell's FAIL would not count), its output's tail after it.
failed() {
	echo "$aw: $1" >>"$T_DIR/$aw/failed"
	[ -z "${2:-}" ] || tail -n 5 "$2" | sed 's/^/    | /' >>"$T_DIR/$aw/failed"
}
run_all() {
	aw=$1
	o=$T_DIR/$aw/out
	mkdir -p "$o"
	P=$T_DIR/$aw/bin:$PATH
	# its own temp folder: a run-matrix removes others' it finds stale
	TMPDIR=$T_DIR/$aw/tmp
	export TMPDIR
	mkdir -p "$TMPDIR"
	# shellcheck disable=SC2046,SC2086 # a list of make targets
	PATH=$P make -s OUT="$T_DIR/$aw/make" $(printf "$T_DIR/$aw/make/%s " $GEN_FILES) >"$o/make.log" 2>&1 ||
		failed "make of the meta tables and docs failed" "$o/make.log"
	for f in $GEN_FILES; do
		cp "$T_DIR/$aw/make/$f" "$o/$(basename "$f")" 2>/dev/null
	done
	PATH=$P ./run-matrix.sh --keys >"$o/keys" 2>"$o/keys.err" || failed "./run-matrix.sh --keys failed" "$o/keys.err"
	PATH=$P ./run-matrix.sh --keys-md >"$o/keys-md" 2>"$o/keys.err" || failed "./run-matrix.sh --keys-md failed" "$o/keys.err"
	# the guest's /etc/krepro/keys (lib/build/initramfs.sh: the table without its texts)
	PATH=$P awk '{ print $1, $2, $3, $4, $5 }' "$o/keys" >"$o/etc-krepro-keys"
	for m in default $MATRICES exact; do
		case $m in
		default) set -- ;;
		exact) set -- --clock exact ;;
		*) set -- "$m" ;;
		esac
		n=$(basename "$m" .yaml)
		: >"$o/$n.cells"
		AWK_CELLS=$o/$n.cells PATH=$P ./run-matrix.sh --dry-run -o "$T_DIR/res" "$@" >"$o/$n.plan" 2>&1 ||
			failed "./run-matrix.sh --dry-run $* failed" "$o/$n.plan"
	done
	# a run's files (prepare_run's functions), for a scaled size and a count
	for c in "suite=vm-scalability test=anon-w-seq-mt size=8T runtime=10s variant=base board=qemu-2node clock=exact seeds=3-5" \
		"suite=will-it-scale test=page_fault3 mode=process nr_task=100% runtime=1m variant=base board=qemu-2node tenants=2"; do
		n=${c#* test=}
		n=${n%% *}
		mkdir -p "$o/$n"
		# shellcheck disable=SC2016 # expanded by the inner sh
		KREPRO_ROOT=$PWD H=$PWD/out/host TMPD=$T_DIR/$aw/tmpd PATH=$P sh -c '. lib/shared/common.sh; . lib/run/board.sh; . lib/shared/cells.sh; . lib/run/runs.sh
			mkdir -p "$TMPD"; load_key_classes
			r=$(cell_record "$1" 2) && write_job "$r" "$2/job.conf" 0123 && write_matrix_forms "$r" "$2/host.conf" &&
				write_job_yaml "$2/job.conf" qemu-2node "$2/job.yaml"' sh "$c" "$o/$n" >"$o/$n.log" 2>&1 ||
			failed "a run's job files failed" "$o/$n.log"
	done
	# a refusal names the first of several bad lines, whatever the awk
	(cd "$T_DIR/bad" && PATH=$P awk -v table=monitors -f "$R/tools/meta-tables.awk" monitors/x/meta) \
		>/dev/null 2>"$o/meta-refusal"
	# the memory model's nodes= and cpunode= (their bytes move exact digits)
	# shellcheck disable=SC2016 # expanded by the inner sh
	PATH=$P sh -c '. lib/shared/common.sh; . lib/shared/qemu-plugin.sh; G=1073741824
		model_node_ranges $G $G; model_node_ranges $((3 * G)) $((5 * G)) $((8 * G))
		model_cpunodes 0-1 2-3; model_cpunodes 0,2 1,3-5' >"$o/model-args" 2>&1 ||
		failed "the memory model's arguments failed" "$o/model-args"
}
# The host tools first, once: run-matrix makes them when a source changed,
# and three at once would race in one folder.
./build.sh tools >"$T_OUT" 2>&1 || { no "./build.sh tools failed"; tail -n 5 "$T_OUT"; }
for a in $AWKS; do
	run_all "$a" &
done
wait
for a in $AWKS; do
	[ -f "$T_DIR/$a/failed" ] || continue
	while IFS= read -r l; do
		case $l in "    |"*) echo "$l" ;; *) no "$l" ;; esac
	done <"$T_DIR/$a/failed"
done

# program NAME: which program makes output NAME
program() {
	case $1 in
	monitors.def | MONITORS.md) echo "tools/meta-tables.awk table=monitors(_md) (and the Makefile's docs awk)" ;;
	raw_files.def) echo "tools/meta-tables.awk table=parsers" ;;
	parse_headers.h) echo "tools/meta-tables.awk table=parse_headers" ;;
	lkp_suites.def) echo "tools/meta-tables.awk table=lkp_suites" ;;
	meaning_text.c) echo "tools/meta-tables.awk table=meaning" ;;
	*.tests) echo "tools/meta-tables.awk table=tests" ;;
	keys | etc-krepro-keys) echo "lib/shared/cells.sh key_table (and tools/meta-tables.awk table=tests)" ;;
	keys-md | KEYS.md) echo "lib/shared/cells.sh keys_markdown and key_table" ;;
	*.cells) echo "lib/shared/cells.awk" ;;
	*.plan) echo "lib/run/plan.sh and lib/shared/cells.awk (./run-matrix.sh --dry-run)" ;;
	*/job.yaml) echo "lib/run/runs.sh write_job_yaml" ;;
	*/*) echo "lib/run/runs.sh write_job, write_matrix_forms and lib/shared/cells.awk" ;;
	model-args) echo "lib/shared/qemu-plugin.sh model_node_ranges, model_cpunodes" ;;
	meta-refusal) echo "tools/meta-tables.awk's END (a monitor without a parser)" ;;
	*) echo "?" ;;
	esac
}

label() { if [ "$1" = busybox ]; then echo "busybox awk"; else echo "$1"; fi; }
# Every output of mawk's run, compared with gawk's and busybox awk's.
n=0
for f in $(cd "$T_DIR/mawk/out" && find . -type f ! -name '*.log' ! -name '*.err' | sed 's|^\./||' | LC_ALL=C sort); do
	n=$((n + 1))
	same=1
	[ -s "$T_DIR/mawk/out/$f" ] || { no "$f is empty under mawk ($(program "$f"))"; continue; }
	for a in gawk busybox; do
		if ! cmp -s "$T_DIR/mawk/out/$f" "$T_DIR/$a/out/$f"; then
			same=0
			no "$f: $(label "$a") and mawk differ ($(program "$f"))"
			diff "$T_DIR/mawk/out/$f" "$T_DIR/$a/out/$f" 2>&1 | sed 's/^/    | /' | head -n 6
		fi
	done
	[ "$same" = 0 ] || ok "$f: mawk, gawk and busybox awk give the same bytes ($(program "$f"))"
done
if [ "$n" -ge 40 ]; then ok "$n outputs compared"; else no "only $n outputs compared"; fi

# mawk evaluates "a[k] = (k in a) ? ..." with a[k] already made: the key
# table once held an empty first test name (enum:|_HARD_BIND|...).
if grep -q 'enum:|\|words:|' "$T_DIR/mawk/out/etc-krepro-keys"; then
	no "the key table under mawk has an empty first test name (lib/shared/cells.sh key_table)"
	grep 'enum:|\|words:|' "$T_DIR/mawk/out/etc-krepro-keys" | sed 's/^/    | /' | head -n 3
else
	ok "the key table under mawk names every suite's first test (no enum:|)"
fi
t_summary
t_clean
