#!/bin/sh
# One value, one written form (issue 36 item 2): the plan, the result path,
# host.conf's matrix forms, job.yaml and the pivot write a count, a size and
# a duration as the matrix did (100%, 64M, 10s); job.conf, the guest's input,
# holds what the guest ran with (the count of the board's CPUs, bytes,
# seconds), resolved in one place (lib/shared/cells.awk, with value.h's
# numbers: krepro-keycheck's value map).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

printf '%s\n' 'suite: vm-scalability' 'test: anon-w-seq-mt' 'nr_task: 100%' 'size: 64M' 'runtime: 10s' \
	'variants: [base]' 'runs: 1' >"$T_DIR/m.yaml"
expect_rc "a matrix with a count, a size and a duration is planned" 0 \
	./run-matrix.sh --dry-run -o "$T_DIR/res" "$T_DIR/m.yaml"
expect_in "the plan writes them as the matrix did" "$T_OUT" "nr_task=100% size=64M runtime=10s"
P=$(sed -n 's|^  -> \(.*\)/base/{1\.\.1}.*|\1|p' "$T_OUT")
case $P in
*/vm-scalability/100%-10s-64M-anon-w-seq-mt/*) ok "the result path too ($P)" ;;
*) no "the result path writes them otherwise: '$P'" ;;
esac

# A run's files, written by the functions prepare_run calls.
D=$T_DIR/run
mkdir -p "$D"
# shellcheck disable=SC2016 # expanded by the inner sh
KREPRO_ROOT=$PWD H=$PWD/out/host TMPD=$T_DIR/tmpd sh -c '. lib/shared/common.sh; . lib/run/board.sh; . lib/shared/cells.sh; . lib/run/runs.sh
	mkdir -p "$TMPD"; load_key_classes
	c="suite=vm-scalability test=anon-w-seq-mt nr_task=100% size=64M runtime=10s variant=base board=qemu-2node"
	r=$(cell_record "$c" 1) && write_job "$r" "$1/job.conf" 0123 && write_matrix_forms "$r" "$1/host.conf" &&
		write_job_yaml "$1/job.conf" qemu-2node "$1/job.yaml"' sh "$D" >"$T_OUT" 2>&1
assert "the run's files are written" test -s "$D/host.conf"
for kv in nr_task=2 size=67108864 runtime=10; do
	assert "job.conf: $kv, what the guest ran with on qemu-2node's 2 CPUs" grep -qx "$kv" "$D/job.conf"
done
for kv in nr_task=100% size=64M runtime=10s; do
	assert "host.conf: matrix.$kv" grep -qx "matrix.$kv" "$D/host.conf"
	assert "job.yaml: ${kv%%=*}: '${kv#*=}', as lkp-tests writes it" grep -qx "${kv%%=*}: '${kv#*=}'" "$D/job.yaml"
done
# A size its board cannot hold: job.conf the scaled bytes (and size_asked),
# job.yaml the matrix's 8T once, so that it reads back as the same job.
mkdir -p "$D.big"
# shellcheck disable=SC2016 # expanded by the inner sh
KREPRO_ROOT=$PWD H=$PWD/out/host TMPD=$T_DIR/tmpd sh -c '. lib/shared/common.sh; . lib/run/board.sh; . lib/shared/cells.sh; . lib/run/runs.sh
	load_key_classes
	c="suite=vm-scalability test=anon-w-seq-mt size=8T variant=base board=qemu-2node"
	r=$(cell_record "$c" 1) && write_job "$r" "$1/job.conf" 0123 && write_matrix_forms "$r" "$1/host.conf" &&
		write_job_yaml "$1/job.conf" qemu-2node "$1/job.yaml"' sh "$D.big" >"$T_OUT" 2>&1
# A boot's limit (run_timeout): the board's boot timeout + 2 x runtime,
# three times that with the memory model (two of seed 003's model boots at
# once overran the plain limit); a cell's timeout: wins.
# shellcheck disable=SC2016 # expanded by the inner sh
KREPRO_ROOT=$PWD H=$PWD/out/host TMPD=$T_DIR/tmpd sh -c '. lib/shared/common.sh; . lib/run/board.sh; . lib/shared/cells.sh; . lib/run/runs.sh
	load_key_classes
	for m in off on; do
		run_timeout "$(cell_record "suite=specjbb runtime=10s clock=exact memory_model=$m variant=base board=qemu-2node" 1)"
	done
	run_timeout "$(cell_record "suite=specjbb runtime=10s clock=exact memory_model=on timeout=5m variant=base board=qemu-2node" 1)"' \
	sh >"$T_DIR/tmo" 2>&1
assert "a boot's limit: 120 + 2 x 10 s, with the model 3 x 140 s, a cell's timeout: 300 s" \
	test "$(tr '\n' ' ' <"$T_DIR/tmo")" = "140 420 300 "
assert "8T on 2 GiB: job.conf runs the scaled size" grep -qx "size=1287651328" "$D.big/job.conf"
assert "... job.yaml: size: '8T', once" test "$(grep -c "^size" "$D.big/job.yaml")" = 1
assert "... it is the matrix's" grep -qx "size: '8T'" "$D.big/job.yaml"
assert "the variant is host.conf's, not job.conf's (the guest's input: a name must not move exact digits)" \
	sh -c "grep -qx variant=base '$D/host.conf' && ! grep -q '^variant' '$D/job.conf'"
assert "host.conf holds nothing job.conf does not resolve" sh -c "! grep -q '^matrix\\.\\(test\\|suite\\)=' '$D/host.conf'"

# The pivot of two such runs: its columns are the path's values.
for v in base new; do
	mkdir -p "$T_DIR/piv/$v/1"
	cp "$D/job.conf" "$T_DIR/piv/$v/1/job.conf"
	sed "s/^variant=.*/variant=$v/" "$D/host.conf" >"$T_DIR/piv/$v/1/host.conf"
	echo '{"vm-scalability.throughput": 100}' >"$T_DIR/piv/$v/1/stats.json"
done
mkdir -p "$T_DIR/piv/old/1"
# an older kit's run: the variant in job.conf, no host.conf
cp "$D/job.conf" "$T_DIR/piv/old/1/job.conf"
echo variant=old >>"$T_DIR/piv/old/1/job.conf"
echo '{"vm-scalability.throughput": 100}' >"$T_DIR/piv/old/1/stats.json"
expect_rc "pivot by kernel and nr_task" 0 out/host/krepro-pivot --rows kernel --cols nr_task \
	--metric vm-scalability.throughput "$T_DIR/piv"
expect_in "... the column is 100%, as the path; a run without host.conf (an older kit's) is job.conf's 2" \
	"$T_OUT" "|      kernel|      2|   100%|"
expect_in "... the runs with host.conf are under 100%" "$T_OUT" "|         new|     na|    100|"
expect_rc "pivot by size" 0 out/host/krepro-pivot --rows kernel --cols size \
	--metric vm-scalability.throughput "$T_DIR/piv"
expect_in "... 64M and the older run's bytes" "$T_OUT" "|      kernel|      64M| 67108864|"

t_clean
t_summary
[ "$T_FAILED" = 0 ]
