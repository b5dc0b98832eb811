#!/bin/sh
# lkp-tests job semantics (issue 28 item 2): later YAML documents inherit
# the first and override it; an empty value is the program's default;
# "<<: FILE" includes come from beside the job or an lkp-tests checkout
# (--lkp-tests DIR), else are refused naming the include and the option;
# unixbench's nr_task (copies) is refused in one line saying why unless 1.
# Fixtures shaped like lkp-tests' jobs/; no kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
F=tests/fixtures/lkp

expect_rc "a second document overriding only the program's map" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/unixbench-inherit.yaml"
expect_in "... the first document is a job" "$T_OUT" "suite=unixbench runtime=300s test=spawn"
expect_in "... the second inherits the first (suite, runtime) and overrides test" "$T_OUT" "suite=unixbench runtime=300s test=execl monitors=perf-profile"
expect_in "... 5 cells" "$T_OUT" "5 cells,"
expect_rc "an empty value is the program's default" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/vm-scalability-empty.yaml"
expect_in "... size: empty: no size, the case's own default" "$T_OUT" "suite=vm-scalability runtime=300s test=anon-w-seq monitors=perf-profile"
expect_in "... a later document sets it" "$T_OUT" "suite=vm-scalability runtime=300s test=anon-r-seq size=1G monitors=perf-profile"
expect_in "... and a later empty runtime: unsets the first's" "$T_OUT" "suite=vm-scalability test=lru-shm monitors=perf-profile"

# unixbench's copies
sed 's/^nr_task: 1$/nr_task: 100%/' "$F/unixbench-inherit.yaml" >"$T_DIR/ubn.yaml"
expect_rc "unixbench nr_task: 100% is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/ubn.yaml"
expect_in "... in one line naming the parameter and why" "$T_OUT" "nr_task: 100%: lkp runs UnixBench with that many copies at once (Run -c N, indexed per copy); the kit's unixbench runs one copy"

# includes: <<: FILE, as lkp-tests' own jobs/*-cgroup2.yaml
mkdir -p "$T_DIR/lkp/jobs/shared" "$T_DIR/job"
printf 'memcg: on\n' >"$T_DIR/lkp/jobs/shared/memcg-part.yaml"
printf 'suite: will-it-scale\ntestcase: will-it-scale\ncategory: benchmark\nnr_task: 1\nwill-it-scale:\n  mode: process\n  test: page_fault3\n' >"$T_DIR/job/will-it-scale.yaml"
printf '<<: memcg-part.yaml\n<<: will-it-scale.yaml\n' >"$T_DIR/job/wis-memcg.yaml"
expect_rc "an include not beside the job, no --lkp-tests: refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/job/wis-memcg.yaml"
expect_in "... naming file, line, the include and the option" "$T_OUT" "wis-memcg.yaml:1: <<: memcg-part.yaml includes a part of lkp-tests' jobs: give an lkp-tests checkout with --lkp-tests DIR"
expect_rc "with --lkp-tests DIR: resolved" 0 ./run-matrix.sh --dry-run --lkp-tests "$T_DIR/lkp" -o "$T_DIR/r" "$T_DIR/job/wis-memcg.yaml"
expect_in "... both included parts are the job" "$T_OUT" "memcg=on"
expect_in "... the job's own" "$T_OUT" "test=page_fault3"
printf '<<: nosuch.yaml\n' >"$T_DIR/job/none.yaml"
expect_rc "an include found nowhere is refused" 2 ./run-matrix.sh --dry-run --lkp-tests "$T_DIR/lkp" -o "$T_DIR/r" "$T_DIR/job/none.yaml"
expect_in "... naming it and where it was looked for" "$T_OUT" "<<: nosuch.yaml: not found beside the job nor in $T_DIR/lkp/jobs"
printf 'testcase: will-it-scale\n<<: ../../etc/passwd\n' >"$T_DIR/job/up.yaml"
expect_rc "an include with '..' is refused" 2 ./run-matrix.sh --dry-run --lkp-tests "$T_DIR/lkp" -o "$T_DIR/r" "$T_DIR/job/up.yaml"
expect_in "... saying what an include is" "$T_OUT" "up.yaml:2: <<: '../../etc/passwd': an include is a file of lkp-tests' jobs"
printf '<<: loop.yaml\n' >"$T_DIR/job/loop.yaml"
expect_rc "an include of itself ends" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/job/loop.yaml"
expect_in "... nested 8 deep" "$T_OUT" "includes nested 8 deep"
rm -rf "$T_DIR"
t_summary
