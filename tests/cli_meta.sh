#!/bin/sh
# One metric, one meaning (issue 35, row 9; issue 46 row 10): two meta lines that give one
# metric two directions stop the build naming both files and lines, and a
# meta line that is not safe inside the generated C stops it at its own
# line (tools/meta-tables.awk writes the meaning table).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

copy_checkout "$T_DIR/k"
mkdir -p "$T_DIR/k/monitors/odd"
# meaning_built LINES: the meaning table built with monitors/odd/meta
# holding LINES (the Makefile's own rule; T_OUT has what it said).
meaning_built() {
	printf '%s\n' "$1" >"$T_DIR/k/monitors/odd/meta"
	rm -rf "$T_DIR/o"
	make -s -C "$T_DIR/k" OUT="$T_DIR/o" "$T_DIR/o/gen/meaning_text.c" >"$T_OUT" 2>&1
}
assert "the shipped meta files build the meaning table" meaning_built '# nothing'
assert "and it holds every folder's lines" grep -q '"will-it-scale.per_process_ops higher headline\\n"' "$T_DIR/o/gen/meaning_text.c"

meaning_built 'will-it-scale.per_process_ops lower headline'
assert "another folder saying lower for will-it-scale's headline stops the build" test ! -e "$T_DIR/o/gen/meaning_text.c"
expect_in "naming both files and lines" "$T_OUT" \
	"suites/will-it-scale/meta:$(grep -n '^will-it-scale.per_process_ops ' suites/will-it-scale/meta | cut -d: -f1): will-it-scale.per_process_ops is higher here, but will-it-scale.per_process_ops is lower at monitors/odd/meta:1 (one metric, one meaning)"
meaning_built '# a pattern of another folder
will-it-scale.per_* none'
expect_in "a pattern matching another folder's metric with another direction stops it" "$T_OUT" \
	"will-it-scale.per_process_ops is higher here, but will-it-scale.per_* is none at monitors/odd/meta:2"
meaning_built 'odd.x higher
odd.y lower
odd.x lower'
expect_in "one folder giving one pattern two directions stops it" "$T_OUT" \
	"monitors/odd/meta:3: odd.x is lower here, but odd.x is higher at monitors/odd/meta:1"
assert "one folder's narrower rule before its pattern is its own business" meaning_built 'odd.bad lower
odd.* higher'
assert "the same direction twice is no contradiction" meaning_built 'odd.x higher
odd.x higher'

# One suite's headline belongs to that suite (issue 46 row 10): a meta line
# gives meaning to its own folder's metrics only (the folder's name, its
# monitor, parser, lkp and metrics lines); monitors/odd taking over
# will-it-scale's headline turned a regression into an improvement.
meaning_built 'will-it-scale.workload higher headline'
assert "another folder's metric made a headline stops the build" test ! -e "$T_DIR/o/gen/meaning_text.c"
expect_in "naming the line and whose metrics they are" "$T_OUT" \
	"monitors/odd/meta:1: will-it-scale: metrics of suites/will-it-scale (suites/will-it-scale/meta:1), not of monitors/odd"
meaning_built '# a monitor that is not this folder
vmstat.x lower'
expect_in "so does another monitor's metric, at its line" "$T_OUT" "monitors/odd/meta:2: vmstat: metrics of monitors/stat"
meaning_built 'metrics will-it-scale
will-it-scale.workload higher headline'
expect_in "claiming another folder's metrics stops it" "$T_OUT" "suites/will-it-scale/meta:1: metrics will-it-scale.* are claimed here and at monitors/odd/meta:1"
meaning_built 'nosuch.x higher'
expect_in "a name no folder declares stops it" "$T_OUT" "monitors/odd/meta:1: nosuch: not a metric of monitors/odd"
meaning_built '*.workload higher headline'
expect_in "a pattern of any suite's metrics is never a headline" "$T_OUT" "monitors/odd/meta:1: *.workload: a headline is one of the folder's own metrics, named"
assert "its own metrics and declared ones are the folder's to mean" meaning_built 'metrics oddity
odd.x higher headline
oddity.y lower'

# Every suite names its headline (issue 51 item 1): the metric the summary
# calls, and the one the memory model restates as model.<headline>; a
# pattern starts with the suite's own name (autonuma-benchmark.*.seconds).
for m in suites/*/meta; do
	s=${m#suites/} s=${s%/meta}
	# shellcheck disable=SC2016 # awk's fields
	assert "suite $s names a headline of its own metrics" \
		awk -v s="$s" '$1 !~ /^#/ && index($1, s) == 1 && substr($1, length(s) + 1, 1) ~ /^[.*]$/ { for (i = 2; i <= NF; i++) if ($i == "headline") f = 1 } END { exit !f }' "$m"
done

# Lines not safe in a C string are refused at their line, before any C.
for unsafe in 'odd.x??/ higher' 'odd.\x higher' 'odd."x higher' "$(printf 'odd.x\001 higher')" \
	"$(printf '# caf\303\251')"; do
	meaning_built "# fine
$unsafe"
	assert "unsafe meta line refused: $(printf '%s' "$unsafe" | od -An -c | tr -s ' ' | head -c 60)" \
		test ! -e "$T_DIR/o/gen/meaning_text.c"
	expect_in "at its own line" "$T_OUT" "monitors/odd/meta:2: "
	expect_in "saying why" "$T_OUT" "not safe in the C tables"
done

t_clean
t_summary
[ "$T_FAILED" = 0 ]
