#!/bin/sh
# membench, the memory model's guest suite, run on the host (the guest
# binary is static; the window marks are no-ops here): each test does its
# fixed work and says so, the NUMA tests fail saying why on a one-node
# host, bad arguments are refused, and the binary carries both marks.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
M=out/guest/membench
assert "membench is built (make guest)" test -x "$M"

expect_rc "chase over 16 KiB, 1000 steps" 0 "$M" -t chase -l 1000
expect_in "... reports the test" "$T_OUT" "test: chase"
expect_in "... and its steps" "$T_OUT" "ops: 1000"
expect_rc "chase over 1 MiB" 0 "$M" -t chase -s 1M -l 5000
expect_in "... the size in bytes" "$T_OUT" "size: 1048576"
for t in counters-shared counters-padded; do
	expect_rc "$t, 100000 increments a thread" 0 "$M" -t "$t" -l 100000
	expect_in "... both threads' increments" "$T_OUT" "ops: 200000"
done
expect_rc "numa-local, 1 MiB bound to node 0" 0 "$M" -t numa-local -s 1M -l 1000
expect_in "... memory on node 0" "$T_OUT" "memory_node: 0"
if grep -q '^local_pages_pct:' "$T_OUT"; then
	expect_in "... every page on node 0" "$T_OUT" "local_pages_pct: 100.00"
fi
nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)
if [ "$nodes" -le 1 ]; then
	for t in numa-remote numa-migrate; do
		expect_rc "$t on a one-node host fails" 1 "$M" -t "$t"
		expect_in "... saying it needs two nodes" "$T_OUT" \
			"membench: $t needs two NUMA nodes, this machine has 1 (/sys/devices/system/node)"
	done
else
	expect_rc "numa-remote on a $nodes-node host" 0 "$M" -t numa-remote -s 1M -l 1000
	expect_in "... no page on node 0" "$T_OUT" "local_pages_pct: 0.00"
	expect_rc "numa-migrate on a $nodes-node host, 1 s" 0 "$M" -t numa-migrate -s 1M -r 1
	expect_in "... starts with no page on node 0" "$T_OUT" "local_pages_pct_before: 0.00"
fi

expect_rc "an unknown test is refused" 2 "$M" -t chase2
expect_in "... naming it" "$T_OUT" "membench: -t: unknown test 'chase2'"
expect_rc "a size below two lines is refused" 2 "$M" -t chase -s 100
expect_in "... naming it" "$T_OUT" "-s: '100' is not a size of 128 bytes to 256G"
expect_rc "zero loops are refused" 2 "$M" -t chase -l 0
expect_rc "a runtime that is not a number is refused" 2 "$M" -t numa-migrate -r 1x
expect_rc "no test: usage" 2 "$M"
expect_in "... printed" "$T_OUT" "Usage: membench -t TEST"

# nopl 0x4b524d01(%rax) and nopl 0x4b524d02(%rax): 0f 1f 80, then the
# displacement little-endian ("\001MRK", "\002MRK")
for n in 1 2; do
	assert "the binary holds the window mark $n" \
		sh -c "LC_ALL=C grep -qaF \"\$(printf '\\017\\037\\200\\00${n}MRK')\" '$M'"
done
t_clean
t_summary
exit $T_FAILED
