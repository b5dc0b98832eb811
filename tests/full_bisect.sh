#!/bin/sh
# Bisection against an effect of known size and place: the calibration
# series adds a page-fault delay knob (patch 1, off) and turns it on
# (patch 2); bisect must name patch 2.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
cat >"$T_DIR/m.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 7s
runs: 3
M
expect_rc "bisect calibration on per_process_ops" 0 ./run-matrix.sh bisect -o "$T_DIR/res" -m "$T_DIR/m.yaml" \
	calibration will-it-scale.per_process_ops
expect_in "names the patch that turns the delay on" "$T_OUT" "0002-mm-turn-the-calibration-fault-delay-on-3-us.patch"
expect_in "says which patch of how many" "$T_OUT" "patch 2 of 3"
expect_in "the full series moved the metric" "$T_OUT" "calibration@2: will-it-scale.per_process_ops"
assert "patch 1 alone did not" grep -q "calibration@1: will-it-scale.per_process_ops: .*: not significant" "$T_OUT"
# base is timed again beside every step (a base kept from an earlier step
# once made patch 1 read -19.5% on a host that had slowed down meanwhile)
for k in 1 2 3; do
	assert "step $k measured its own base" test -d "$(find "$T_DIR/res/step-$k" -type d -name base | head -n 1)"
done
expect_rc "a metric the series does not move: nothing to bisect" 1 ./run-matrix.sh bisect -o "$T_DIR/res" \
	-m "$T_DIR/m.yaml" calibration meminfo.MemTotal
expect_in "says so" "$T_OUT" "nothing to bisect"
rm -rf "$T_DIR"
exit $T_FAILED
