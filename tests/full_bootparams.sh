#!/bin/sh
# kernel_cmdline: the boot parameters the kit's series add reach the
# variant's kernel through the matrix, a good value is taken and a bad one
# is refused by the patched kernel itself; each value is its own result path.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
cat >"$T_DIR/bp.yaml" <<'M'
suite: will-it-scale
test: page_fault3
mode: process
nr_task: 1
runtime: 6s
variants: [memcg+autonuma]
runs: 1
memcg: on
kernel_cmdline: [memcg_charge_batch=32+memcg_stats_batch=128+numa_balancing_scan_size_mb=256, memcg_charge_batch=0]
M
expect_rc "a matrix with a kernel_cmdline axis runs" 0 ./run-matrix.sh -o "$R" "$T_DIR/bp.yaml"
W=$R/will-it-scale
good=$(find "$W" -path '*/kernel_cmdline=memcg_charge_batch=32+memcg_stats_batch=128+numa_balancing_scan_size_mb=256-memcg=on-process-1-6s-page_fault3/*/1' -type d)
bad=$(find "$W" -path '*/kernel_cmdline=memcg_charge_batch=0-memcg=on-process-1-6s-page_fault3/*/1' -type d)
assert "each kernel_cmdline value has its own result path" test -d "$good" -a -d "$bad"
expect_in "the parameters reached the kernel" "$good/cmdline" "memcg_charge_batch=32 memcg_stats_batch=128 numa_balancing_scan_size_mb=256"
assert "the patched kernel took them" sh -c "! grep -q 'Malformed early option' '$good/kmsg'"
expect_in "memcg_charge_batch=0 is refused by the patched kernel" "$bad/kmsg" "Malformed early option 'memcg_charge_batch'"
assert "the run still completes" grep -q '"will-it-scale.per_process_ops": [1-9]' "$bad/stats.json"

t_clean
t_summary
exit $T_FAILED
