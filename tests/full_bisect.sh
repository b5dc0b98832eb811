#!/bin/sh
# Bisection against an effect of known size and place: the calibration
# series adds a page-fault delay knob (patch 1, off) and turns it on
# (patch 2); bisect must name patch 2.  The search runs in exact mode (3
# seeds a side, two boots at once, one base for every step); real mode is
# checked on the full series: its statistics and its own base per step.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
cat >"$T_DIR/m.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 7s
clock: exact
runs: 3
M
expect_rc "bisect calibration on per_process_ops (exact)" 0 ./run-matrix.sh bisect -j 2 -o "$T_DIR/res" -m "$T_DIR/m.yaml" \
	calibration will-it-scale.per_process_ops
expect_in "names the patch that turns the delay on" "$T_OUT" "0002-mm-turn-the-calibration-fault-delay-on-3-us.patch"
expect_in "says which patch of how many" "$T_OUT" "patch 2 of 3"
expect_in "the full series moved the metric" "$T_OUT" "calibration@3: will-it-scale.per_process_ops"
expect_in "exact mode: three seeds a side" "$T_OUT" "3 runs each"
expect_in "exact mode: the verdicts are over seeds, with their floor" "$T_OUT" "(exact, seeds 3 vs 3, p="
assert "exact mode: one base for every step" sh -c "[ \$(find '$T_DIR/res' -type d -name base | wc -l) = 1 ] && [ ! -e '$T_DIR/res/step-3' ]"
assert "exact mode: no step booted more than its seeds" test ! -d "$(find "$T_DIR/res" -type d -name 4 | head -n 1)"

# Real mode: 3 runs a side, and base is timed again beside every step (a
# base kept from an earlier step once made patch 1 read -19.5% on a host
# that had slowed down meanwhile).
sed 's/^clock: exact/clock: real/; s/^runtime: 7s/runtime: 5s/' "$T_DIR/m.yaml" >"$T_DIR/real.yaml"
expect_rc "real mode: a metric the series does not move: nothing to bisect" 1 ./run-matrix.sh bisect \
	-o "$T_DIR/real" -m "$T_DIR/real.yaml" calibration meminfo.MemTotal
expect_in "says so" "$T_OUT" "nothing to bisect"
expect_in "real mode: 3 runs a side" "$T_OUT" "3 runs each"
assert "real mode: the step measured its own base" \
	test -d "$(find "$T_DIR/real/step-3" -type d -name base | head -n 1)"
t_clean
t_summary
exit $T_FAILED
