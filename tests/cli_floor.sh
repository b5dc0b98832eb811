#!/bin/sh
# run-matrix.sh floor with the memory model (issue 37), no boot: --dry-run
# of an exact cell with memory_model: on plans every A/A set under
# <board>.exact.model; then floor run on result folders made here (every
# set's runs complete, so nothing boots and no image is built) gives a
# floor for the headline and one for the model's throughput of it
# (model.<headline>), each from its own spread; without model rows, one.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

cat >"$T_DIR/model.yaml" <<'EOF'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 2
runtime: 5s
board: qemu-2node
variants: base
clock: exact
memory_model: on
EOF
grep -v '^memory_model:' "$T_DIR/model.yaml" >"$T_DIR/plain.yaml"

expect_rc "dry-run: a model cell's floor is planned" 0 ./run-matrix.sh floor --dry-run -n 3 -o "$T_DIR/fm" "$T_DIR/model.yaml"
cp "$T_OUT" "$T_DIR/dry.out"
assert "dry-run: 7 sets, each one result folder" test "$(grep -c '^  -> ' "$T_DIR/dry.out")" = 7
assert "dry-run: every set's runs under qemu-2node.exact.model" \
	test "$(grep -c '^  -> .*/qemu-2node\.exact\.model/krepro-initramfs/.*{1\.\.3}' "$T_DIR/dry.out")" = 7
expect_in "dry-run: says both floors come" "$T_DIR/dry.out" "memory model on (L1d 32K/8, L2 1M/16, LLC 8M/16 a node, 64-byte lines): a floor for the headline and one for its model throughput (model.<headline>)"
expect_in "dry-run: 21 boots" "$T_DIR/dry.out" "plan: 7 sets of 3 seeds, 21 A/A comparisons, 21 boots; nothing booted (--dry-run)"
expect_rc "dry-run: a plain exact cell's floor is planned" 0 ./run-matrix.sh floor --dry-run -n 3 -o "$T_DIR/fp" "$T_DIR/plain.yaml"
assert "dry-run: plain exact runs under qemu-2node.exact" \
	test "$(grep -c '^  -> .*/qemu-2node\.exact/krepro-initramfs/' "$T_OUT")" = 7
assert "dry-run: no model line without the model" sh -c "! grep -q '^memory model' '$T_OUT'"

# fill DRY-OUTPUT MODEL: each set's 3 runs, complete, in the folder and
# with the seeds its dry-run names.  The headline is 999, 1000, 1001 in
# every set (one seed's spread 0.10% of 1000, no A/A called); the model's
# throughput 1980, 2000, 2020 (1.00% of 2000), 10% higher in noop (a
# change in model time alone: the 6 pairs with noop are called).
fill() {
	sed -n 's/^\([a-z0-9]*\): [a-z]*, seeds \([0-9]*\)-.*/\1 \2/p' "$1" >"$T_DIR/sets"
	sed -n 's|^  -> \(.*\)/{1\.\.3}.*|\1|p' "$1" >"$T_DIR/vds"
	paste -d' ' "$T_DIR/sets" "$T_DIR/vds" | while read -r set first vd; do
		for r in 1 2 3; do
			mkdir -p "$vd/$r"
			printf 'suite=will-it-scale\nclock=exact\nseed=%d\n' "$((first + r - 1))" >"$vd/$r/job.conf"
			m=$((1980 + 20 * (r - 1)))
			[ "$set" != noop ] || m=$((m * 11 / 10))
			{
				echo '{'
				[ "$2" = 0 ] || printf '  "model.will-it-scale.per_process_ops": %d,\n' "$m"
				printf '  "will-it-scale.per_process_ops": %d\n}\n' "$((998 + r))"
			} >"$vd/$r/stats.json"
		done
	done
}
fill "$T_DIR/dry.out" 1
expect_rc "floor on complete sets boots nothing and reports" 0 ./run-matrix.sh floor -n 3 -o "$T_DIR/fm" "$T_DIR/model.yaml"
cp "$T_OUT" "$T_DIR/model.out"
expect_in "report: the headline's A/A" "$T_DIR/model.out" "metric: will-it-scale.per_process_ops; exact with the memory model, 3 seeds a side, Welch at p<0.01"
expect_in "report: the model throughput's A/A" "$T_DIR/model.out" "metric: model.will-it-scale.per_process_ops; exact with the memory model, 3 seeds a side, Welch at p<0.01"
assert "report: 21 pairs each" test "$(grep -c '^  [a-z0-9 ]* vs ' "$T_DIR/model.out")" = 42
assert "report: the headline, no A/A called; the model, the noop pairs" \
	test "$(grep '^A/A: ' "$T_DIR/model.out" | tr '\n' '/')" = "A/A: 0 of 21 called a change at p<0.01/A/A: 6 of 21 called a change at p<0.01/"
expect_in "report: the headline's floor, from its spread" "$T_DIR/model.out" "one seed's spread 0.10% of 1000, pooled over 4 base sets)"
expect_in "report: the model's floor, from its own" "$T_DIR/model.out" "one seed's spread 1.00% of 2000, pooled over 4 base sets)"
assert "report: two floors at the default seeds" test "$(grep -c '^floor at 8 seeds a side (the default): ' "$T_DIR/model.out")" = 2
assert "report: kept in floor.txt" grep -q '^metric: model\.will-it-scale' "$T_DIR/fm/floor.txt"
expect_in "no set booted (kept)" "$T_DIR/fm/noop.log" "its 3 runs are complete, kept: nothing booted"

./run-matrix.sh floor --dry-run -n 3 -o "$T_DIR/fp" "$T_DIR/plain.yaml" >"$T_DIR/fp.dry" 2>&1
fill "$T_DIR/fp.dry" 0
expect_rc "floor without the model reports" 0 ./run-matrix.sh floor -n 3 -o "$T_DIR/fp" "$T_DIR/plain.yaml"
expect_in "plain: the headline, as before" "$T_OUT" "metric: will-it-scale.per_process_ops; exact, 3 seeds a side, Welch at p<0.01"
assert "plain: one metric, one floor" test "$(grep -c '^floor: ' "$T_OUT")" = 1
t_summary
t_clean
exit "$T_FAILED"
