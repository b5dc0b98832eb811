#!/bin/sh
# The one value checker (tools/common/keycheck.c) on both sides: the plan's
# krepro-keycheck (a line for each refused cell, its first refusal, one
# process for the whole plan) and the guest's krepro-knobcheck.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

./run-matrix.sh --keys >"$T_DIR/keys" || exit 2
K=out/host/krepro-keycheck
G=out/guest/krepro-knobcheck

printf '%s\n' 'suite=will-it-scale test=page_fault3 mode=process nr_task=2 runtime=10s' \
	'suite=will-it-scale test=page_fault3 nr_task=0 runs=08' \
	'suite=hackbench bogus=1 iterations=x' \
	'suite=will-it-scale monitors=meminfo+uptme' >"$T_DIR/cells"
"$K" --keys "$T_DIR/keys" --monitors '|meminfo|uptime' <"$T_DIR/cells" >"$T_DIR/kc.out" 2>&1
assert "krepro-keycheck exits 0 over refused cells" test $? = 0
tab=$(printf '\t')
assert "a cell that passes has no line" sh -c "! grep -q '^1$tab' '$T_DIR/kc.out'"
expect_in "a cell's first refusal, its word and the plan's message" "$T_DIR/kc.out" \
	"2${tab}nr_task=0${tab}bad value '0' for 'nr_task': expected N (1..4096) or N% of the board's CPUs"
assert "... only the first" test "$(grep -c '^2' "$T_DIR/kc.out")" = 1
expect_in "a key the table lacks is left to lib/shared/cells.awk" "$T_DIR/kc.out" \
	"3${tab}iterations=x${tab}bad value 'x' for 'iterations': expected a whole number from 1 to 100000"
expect_in "monitors name the closest" "$T_DIR/kc.out" \
	"4${tab}monitors=meminfo+uptme${tab}unknown monitor 'uptme' in 'meminfo+uptme' (did you mean 'uptime'?"
expect_rc "no --keys is a usage error" 2 "$K"
expect_rc "an unreadable table is an error" 2 "$K" --keys "$T_DIR/none"

# the guest's side: the message knobs.sh prints, exit 1; nothing, exit 0
"$G" "$T_DIR/keys" hackbench "variant clock" iterations 0 >"$T_DIR/g.out"
assert "krepro-knobcheck refuses with exit 1" test $? = 1
expect_in "... in knobs.sh's words" "$T_DIR/g.out" "iterations must be from 1 to 100000, not 0"
expect_rc "a host-added key passes" 0 "$G" "$T_DIR/keys" hackbench "variant clock" clock exact
expect_rc "a bad command line is exit 2" 2 "$G" "$T_DIR/keys" hackbench

# the plan: a matrix's refused value names its line, by the same message
printf '%s\n' 'suite: hackbench' 'iterations: 0' 'variants: [base]' >"$T_DIR/m.yaml"
expect_rc "the plan refuses the value" 2 ./run-matrix.sh --dry-run "$T_DIR/m.yaml"
expect_in "... naming the matrix's line" "$T_OUT" \
	"m.yaml:2: bad value '0' for 'iterations': expected a whole number from 1 to 100000"

t_clean
t_summary
[ "$T_FAILED" = 0 ]
