#!/bin/sh
# The one value checker (tools/common/keycheck.c) on both sides: the plan's
# krepro-keycheck (a line for each refused cell, its first refusal, one
# process for the whole plan; and the numbers of every size and duration)
# and the guest's krepro-knobcheck; krepro-value, value.h for the shell.
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
# the value map: the numbers the plan computes with (lib/shared/cells.awk
# reads sizes and durations nowhere else)
expect_in "a cell's duration, in seconds" "$T_DIR/kc.out" "=${tab}duration${tab}10s${tab}10"
expect_in "a default of the table, in bytes (specjbb's memory)" "$T_DIR/kc.out" "=${tab}size${tab}256M${tab}268435456"
printf 'suite=vm-scalability test=anon-w-seq size=2g runtime=1h\nsuite=vm-scalability size=9T1 runtime=5x\n' >"$T_DIR/vcells"
"$K" --keys "$T_DIR/keys" <"$T_DIR/vcells" >"$T_DIR/v.out" 2>&1
expect_in "... sizes in either case" "$T_DIR/v.out" "=${tab}size${tab}2g${tab}2147483648"
expect_in "... hours" "$T_DIR/v.out" "=${tab}duration${tab}1h${tab}3600"
assert "... no number for a value the grammar refuses" sh -c "! grep -q '^=.*\\(9T1\\|5x\\)' '$T_DIR/v.out'"
expect_in "... which is refused" "$T_DIR/v.out" "2${tab}size=9T1${tab}"
# a table line's text may be long: its default still enters the map
{ cat "$T_DIR/keys"; printf 'zlong duration path will-it-scale 7m %s\n' "$(head -c 3000 /dev/zero | tr '\0' x)"; } >"$T_DIR/keys.long"
"$K" --keys "$T_DIR/keys.long" <"$T_DIR/vcells" >"$T_DIR/vl.out" 2>&1
expect_in "a default on a table line of 3 KB is in the map" "$T_DIR/vl.out" "=${tab}duration${tab}7m${tab}420"
# krepro-value: the shell's tables (a board's memory, its nodes') read the
# same header, one process for all their words
V=out/host/krepro-value
expect_rc "krepro-value: sizes" 0 "$V" size 2G 512M 4096 16k
assert "... in bytes, a line each" test "$(tr '\n' ' ' <"$T_OUT")" = "2147483648 536870912 4096 16384 "
printf '1h 30s\n5m\n' >"$T_DIR/durs"
expect_rc "krepro-value: durations from standard input" 0 sh -c "'$V' duration <'$T_DIR/durs'"
assert "... in seconds" test "$(tr '\n' ' ' <"$T_OUT")" = "3600 30 300 "
expect_rc "krepro-value: a word the grammar refuses" 2 "$V" size 2X
expect_in "... named" "$T_OUT" "bad size '2X'"
expect_rc "krepro-value: a size past 64 bits" 2 "$V" size 99999999999999999999T
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
