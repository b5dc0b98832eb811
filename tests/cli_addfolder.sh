#!/bin/sh
# Issue 36, "what it must show": adding a will-it-scale testcase is adding
# its file, a suite with an lkp-tests alias its folder (its size on a board
# and its report reader's rule too: issue 48 item 5), a monitor with a
# parameter its folder.  Each is done in a scratch copy of the checkout
# (a git repository of its own); what picks it up runs (make of the
# generated tables, --keys, --dry-run) and git status shows no other file
# changed: generated files live in the out folder, outside the copy.  No
# kernel, no guest build, no boot.  The copy keeps the checkout's times and
# builds into its own copy of out/ (what it adds must never reach this
# checkout's tools: cli_lkp once read a "newbench" they had picked up).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

K=$T_DIR/k O=$T_DIR/o
. ./lib/shared/bundle.sh
mkdir -p "$K" "$O"
# shellcheck disable=SC2086 # a list of top-level names
tar cf - $BUNDLE_INPUTS boards jobs | tar xf - -C "$K"
(cd out && tar cf - host gen lib keys guest) | tar xf - -C "$O"
(cd "$K" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm copy) || exit 2
# only PATH: git status of the copy names only PATH (a file or a folder/)
only() {
	(cd "$K" && git status --porcelain --untracked-files=all) >"$T_DIR/st"
	if awk -v p="$1" '{ f = $2 } substr(f, 1, length(p)) != p { bad = 1 } END { exit bad || NR == 0 }' "$T_DIR/st"; then
		ok "nothing changed but $1"
	else
		no "files outside $1 changed:"
		sed 's/^/    | /' "$T_DIR/st"
	fi
}
keys() { (cd "$K" && ./run-matrix.sh --keys) >"$T_DIR/keys" 2>&1; }
dry() { # MATRIX-LINES: --dry-run of them in the copy, with its own out/
	printf '%s\n' "$@" >"$T_DIR/m.yaml"
	(cd "$K" && ./run-matrix.sh -O "$O" --dry-run -o "$T_DIR/r" "$T_DIR/m.yaml") >"$T_OUT" 2>&1
}

# (1) a will-it-scale testcase: its file
cp suites/will-it-scale/tests/getppid1.c "$K/suites/will-it-scale/tests/zz_added1.c"
expect_rc "a new testcase file: make writes the lists" 0 make -s -C "$K" OUT="$O" "$O/gen/wis_tests.h" "$O/gen/will-it-scale.tests"
expect_in "... the runner's table has it" "$O/gen/wis_tests.h" "WIS_TEST(zz_added1)"
expect_in "... and the generated test list" "$O/gen/will-it-scale.tests" "zz_added1"
keys
expect_in "... --keys lists it" "$T_DIR/keys" "|writeseek3|zz_added1 path will-it-scale required"
expect_rc "... --dry-run takes it" 0 dry 'suite: will-it-scale' 'test: zz_added1' 'mode: process' 'nr_task: 1'
expect_in "... in the result path" "$T_OUT" "/will-it-scale/process-1-test=zz_added1/"
only suites/will-it-scale/tests/zz_added1.c
rm "$K/suites/will-it-scale/tests/zz_added1.c"

# (2) a suite with an lkp-tests alias: its folder
mkdir -p "$K/suites/newbench"
printf '%s\n' '# a suite added as its folder' 'lkp new-bench' \
	'param loops int:1:99 path 3 rounds' 'newbench.ops higher headline' \
	'lkp key rounds loops' 'lkp value loops many 99' 'lkp default loops 3' \
	'lkp refuse loops 13|6* its rounds are unlucky' 'param memory size path 64M its memory' \
	'size memory refuse loops=7 2' 'size memory refuse - 1' 'report find 3 krp_report_newbench' >"$K/suites/newbench/meta"
printf '%s\n' '#include <string.h>' '#include "report_params.h"' 'krp_report_find krp_report_newbench;' \
	'int krp_report_newbench(const struct tok *tok, size_t nt, const char *text, size_t len, struct rtest *out)' \
	'{' '	(void)tok, (void)nt;' '	if (!memmem(text, len, "newbench ops:", 13))' '		return 0;' \
	'	strcpy(out->testcase, "newbench");' '	return 1;' '}' >"$K/suites/newbench/report.c"
# shellcheck disable=SC2016 # literal lines of the new files
printf '%s\n' '# shellcheck shell=sh' 'suite_run() { echo "ops: 1" >"$R/newbench"; }' >"$K/suites/newbench/run.sh"
expect_rc "a new suite folder: make writes lkp-tests' names" 0 make -s -C "$K" OUT="$O" "$O/gen/lkp_suites.def"
expect_in "... its alias is there" "$O/gen/lkp_suites.def" 'KRP_LKP_SUITE("new-bench", "newbench")'
keys
expect_in "... --keys has its parameter" "$T_DIR/keys" "loops int:1:99 path newbench 3 rounds"
expect_rc "... --dry-run plans it" 0 dry 'suite: newbench' 'loops: 5'
expect_in "... with its parameter in the path" "$T_OUT" "newbench/5/"
expect_in "... lkp-tests' names and semantics from its meta" "$O/gen/lkp_suites.def" \
	'KRP_LKP_REFUSE("newbench", "loops", "13|6*", "its rounds are unlucky")'
expect_rc "... an lkp job of it by its alias expands" 0 dry 'suite: new-bench' 'testcase: new-bench' 'rounds: [5, many]'
expect_in "... its lkp key and value are the suite's" "$T_OUT" "cell 2/2: suite=newbench loops=99"
expect_rc "... lkp's value that is its default" 0 dry 'suite: new-bench' 'testcase: new-bench' 'rounds: 3'
expect_rc "... is left out of the cell" 1 grep -q "suite=newbench loops" "$T_OUT"
expect_rc "... a value its meta refuses" 2 dry 'suite: new-bench' 'testcase: new-bench' 'rounds: 64'
expect_in "... in one line naming the key's line and why" "$T_OUT" "m.yaml:3: loops: 64: its rounds are unlucky"
expect_rc "... a size its board cannot hold, by its meta's size line" 2 dry 'suite: newbench' 'memory: 2G'
expect_in "... is refused naming the most the board takes" "$T_OUT" \
	"m.yaml:2: memory: 2G is more than board qemu-2node's 2 GiB can hold (a cell holds at most 3/5 of its board's memory: memory: 1228M at most;"
expect_rc "... its next size line where the first's WHEN holds" 2 dry 'suite: newbench' 'memory: 700M' 'loops: 7'
expect_in "... (two processes)" "$T_OUT" "memory: 700M a process, 2 processes of ,"
expect_rc "... and where it does not" 0 dry 'suite: newbench' 'memory: 700M' 'loops: 8'
expect_rc "... the report reader's finder is in the table, after the others (its ORDER)" 0 \
	awk 'p && /^KRP_REPORT_FIND[(]krp_report_newbench[)]$/ { f = 1 } { p = /krp_report_tenant_pivot/ } END { exit !f }' "$O/gen/report_rules.def"
printf 'newbench ops: 5\n' >"$T_DIR/nb.txt"
(cd "$K" && KREPRO_OUT=$O ./run-matrix.sh from-report "$T_DIR/nb.txt") >"$T_OUT" 2>&1
expect_in "... and reads an email of it (from-report)" "$T_OUT" "suite: newbench"
only suites/newbench/
(cd "$K" && git add -A && git -c user.name=t -c user.email=t@t commit -qm newbench) || exit 2

# (3) a monitor with a parameter: its folder
mkdir -p "$K/monitors/newmon"
# shellcheck disable=SC2016 # a literal line
printf '%s\n' 'newmon.* monitor' 'param newmon_depth int:1:9 path 2 how deep it looks' \
	'monitor newmon krp_sampler_newmon' 'parser newmon krp_parse_kv_mean named' \
	'doc newmon | somewhere | a line | `newmon.<x>` | mean' >"$K/monitors/newmon/meta"
expect_rc "a new monitor folder: make writes krepro-monitor's table" 0 make -s -C "$K" OUT="$O" "$O/gen/monitors.def"
expect_in "... with the monitor" "$O/gen/monitors.def" 'KRP_MONITOR("newmon", krp_sampler_newmon)'
expect_in "... and its parameter's default" "$O/gen/monitors.def" 'KRP_MONITOR_PARAM("newmon_depth", "2")'
keys
expect_in "... --keys has its parameter" "$T_DIR/keys" "newmon_depth int:1:9 path monitor:newmon 2 how deep it looks"
expect_rc "... --dry-run plans a cell with it" 0 dry 'suite: newbench' 'monitors: meminfo+newmon' 'newmon_depth: 4'
expect_in "... its value in the path" "$T_OUT" "newmon_depth=4"
only monitors/newmon/

# (4) the rules of a suite are in its folder only: the plan's awk and the
# report reader name none, and the reader's parts do not include each other
expect_rc "lib/shared/cells.awk names no suite" 1 grep -E 'vm-scalability|autonuma|specjbb|membench|unixbench|hackbench|will-it-scale' lib/shared/cells.awk
expect_rc "the report reader names no suite" 1 grep -E '"(vm-scalability|autonuma-benchmark|specjbb|membench|unixbench|hackbench|will-it-scale)[0-9]*"' \
	tools/host/lib/input/report_read.c tools/host/lib/input/report_params.c tools/host/lib/input/report_keys.c
expect_rc "report_params.[ch] include nothing of report_read.c" 1 grep -E '#include "report_(read|keys)' \
	tools/host/lib/input/report_params.c tools/host/lib/input/report_params.h
rm -rf "$T_DIR"
t_summary
