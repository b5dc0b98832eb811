#!/bin/sh
# lkp-tests job semantics (issue 28 item 2): later YAML documents inherit
# the first and override it; an empty value is the program's default;
# "<<: FILE" includes come from beside the job or an lkp-tests checkout
# (--lkp-tests DIR), else are refused naming the include and the option;
# unixbench's nr_task is its copies; lkp-tests' autonuma, unixbench-2d
# and hackbench job shapes.
# Fixtures shaped like lkp-tests' jobs/; no kernel is built.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
F=tests/fixtures/lkp

expect_rc "a second document overriding only the program's map" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/unixbench-inherit.yaml"
expect_in "... the first document is a job (its runtime: 300s is lkp's 30 iterations of each test, the kit's samples)" "$T_OUT" "suite=unixbench samples=30 test=spawn"
expect_in "... the second inherits the first (suite, runtime) and overrides test" "$T_OUT" "suite=unixbench samples=30 test=execl monitors=perf-profile"
expect_in "... the runtime's meaning said once" "$T_OUT" "runtime: 300s is what lkp-tests divides into samples of 10 s: samples: 30"
assert "... once" sh -c "[ \$(grep -c 'divides into samples' '$T_OUT') = 1 ]"
expect_in "... the plan times each cell as its 30 samples of 10 s (the boot's limit)" "$T_OUT" "(3 runs x ~315 s)"
expect_in "... 5 cells" "$T_OUT" "5 cells,"
expect_rc "an empty value is the program's default" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/vm-scalability-empty.yaml"
expect_in "... size: empty: no size, the case's own default" "$T_OUT" "suite=vm-scalability runtime=300s test=anon-w-seq monitors=perf-profile"
expect_in "... a later document sets it" "$T_OUT" "suite=vm-scalability runtime=300s test=anon-r-seq size=1G monitors=perf-profile"
expect_in "... and a later empty runtime: unsets the first's" "$T_OUT" "suite=vm-scalability test=lru-shm monitors=perf-profile"

# lkp-tests' names and semantics (issue 36), from the kit's own copies of
# lkp's job shapes: unixbench's copies, its X11 tests, autonuma's
# _HARD_BIND/_INVERSE_BIND, hackbench
expect_rc "unixbench nr_task: 100% expands" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/unixbench-copies.yaml"
expect_in "... as many copies at once as the board's CPUs (the guest's -c N)" "$T_OUT" "cell 1/1: suite=unixbench samples=30 nr_task=100% test=spawn"
expect_in "... in the result path (lkp's runtime as the kit's samples)" "$T_OUT" "unixbench/100%-samples=30-test=spawn/qemu-2node/"
expect_rc "unixbench-2d (2d-aashapes) is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/unixbench-2d.yaml"
expect_in "... naming the key's own line and why" "$T_OUT" "unixbench-2d.yaml:9: test: 2d-aashapes: UnixBench's X11 graphics tests (2d-*, 3d-*, ubgears) need an X server, which the kit's guest does not have"
assert "... in one line, no guess" sh -c "[ \"\$(grep -c . '$T_OUT')\" = 1 ] && ! grep -q 'did you mean' '$T_OUT'"
expect_rc "autonuma-benchmark's _HARD_BIND and _INVERSE_BIND expand" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/autonuma-benchmark.yaml"
expect_in "... _HARD_BIND a cell (numa01, numa02, each also _HARD_BIND: suites/autonuma-benchmark)" "$T_OUT" "cell 1/2: suite=autonuma-benchmark test=_HARD_BIND"
expect_in "... _INVERSE_BIND another" "$T_OUT" "autonuma-benchmark/test=_INVERSE_BIND/qemu-2node/"
expect_rc "an lkp hackbench job expands" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$F/hackbench.yaml"
expect_in "... nr_threads x mode x ipc: 8 cells" "$T_OUT" "8 cells,"
expect_in "... lkp's threads mode is the kit's thread, iterations hackbench's own" "$T_OUT" "cell 8/8: suite=hackbench nr_threads=1600% iterations=8 mode=thread ipc=socket"
printf 'suite: will-it-scale\ntestcase: will-it-scale\ncategory: benchmark\n\nnr_task: 100%%\nwill-it-scale:\n  test: page_fault3\n' >"$T_DIR/wis-nomode.yaml"
expect_rc "will-it-scale without mode expands (suites/will-it-scale/meta: lkp unset)" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/wis-nomode.yaml"
expect_in "... to both builds, as lkp-tests' mode both" "$T_OUT" "cell 2/2: suite=will-it-scale nr_task=100% test=page_fault3 mode=thread"
printf 'suite: will-it-scale\ntestcase: will-it-scale\ncategory: benchmark\n\nwill-it-scale:\n  test:\n    - brk1\n' >"$T_DIR/wis-sweep.yaml"
expect_rc "will-it-scale without nr_task (lkp's own will-it-scale.yaml shape): lkp-tests' sweep" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/wis-sweep.yaml"
expect_in "... one cell a mode, no nr_task in its path" "$T_OUT" "will-it-scale/process-test=brk1/qemu-2node/"
expect_in "... its counts and seconds the guest's (the plan says so)" "$T_OUT" "defaults the guest resolves on its board: nr_task: lkp-tests' sweep"
expect_in "... planned as its counts' runs: 1 and 2 tasks on qemu-2node, (5 + 6) s each, and the boot" "$T_OUT" "(3 runs x ~37 s)"

# a suite with an lkp alias is its folder: the Makefile's table of lkp
# names (tools/meta-tables.awk) from a scratch copy of the suites' meta files
# with one folder added, no other file edited
mkdir -p "$T_DIR/scratch"
cp -R suites "$T_DIR/scratch/"
mkdir -p "$T_DIR/scratch/suites/netperf"
printf 'lkp netperf-tcp\nparam test enum:TCP_RR path - x\n' >"$T_DIR/scratch/suites/netperf/meta"
(cd "$T_DIR/scratch" && awk -v table=lkp_suites -f "$OLDPWD/tools/meta-tables.awk" suites/*/meta) >"$T_DIR/lkp_suites.def"
expect_in "a new folder is a suite krepro-lkpjob knows by its name" "$T_DIR/lkp_suites.def" 'KRP_LKP_SUITE("netperf", "netperf")'
expect_in "... and by its meta's lkp line" "$T_DIR/lkp_suites.def" 'KRP_LKP_SUITE("netperf-tcp", "netperf")'
expect_in "... beside the others'" "$T_DIR/lkp_suites.def" 'KRP_LKP_SUITE("specjbb2015", "specjbb")'
# a bad line of the new folder's meta stops the build naming file, line
# and what is wrong: META (printf's format) TAB what the build says TAB why
long=$(printf '%0200d' 0)
while IFS='	' read -r meta says why; do
	# shellcheck disable=SC2059 # META is the table's format: its \n are lines
	printf "$meta" >"$T_DIR/scratch/suites/netperf/meta"
	(cd "$T_DIR/scratch" && awk -v table=lkp_suites -f "$OLDPWD/tools/meta-tables.awk" suites/*/meta) >/dev/null 2>"$T_DIR/meta.err"
	expect_in "$why" "$T_DIR/meta.err" "$says"
done <<EOF
lkp specjbb\n	suites/specjbb/meta:1: lkp specjbb again (first at suites/netperf/meta:1)	an lkp name given twice
param test enum:TCP_RR path - x\nlkp value tset TCP TCP_RR\n	suites/netperf/meta:2: tset is not a parameter of suites/netperf (its param lines)	an lkp line for a key the suite lacks
param test enum:TCP_RR path - x\nlkp rename test TCP TCP_RR\n	suites/netperf/meta:2: expected "lkp NAME", "lkp key LKP-KEY KEY"	an lkp line of no known form
param test enum:TCP_RR path - x\nlkp refuse test TCP_* $long\n	suites/netperf/meta:2: a refusal's reason is one line of at most 180 characters (this one: 200)	a refusal's reason too long for the one line it is printed in (krp_matrix_err)
param test enum:TCP_RR path - x\nsweep nr_task\n	suites/netperf/meta:2: nr_task is not a parameter of suites/netperf	a sweep line for a key the suite lacks
param test enum:TCP_RR path - x\nsweep test twice\n	suites/netperf/meta:2: expected "sweep KEY"	a sweep line of another form
param test enum:TCP_RR path - x\nlkp per runtime test ten\n	suites/netperf/meta:2: expected "lkp per LKP-KEY KEY SECONDS"	an lkp per line without whole seconds
param test enum:TCP_RR path - x\ntime test all=0\n	suites/netperf/meta:2: "all=0": expected NAME=N	a time line with a set of no tests
param size size path - x\nsize size node - 4\n	suites/netperf/meta:2: a node size is a Nth of a node's memory: SHARE /N	a size of a node that is not a Nth
EOF

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
# issue 46 row 6: an include planted as a link to a file the user cannot
# read (/etc/shadow's shape) is refused unread; a file that is not a job
# is said to be one, never echoed
mkdir -p "$T_DIR/sh/sub"
i=0
while [ "$i" -lt 24 ]; do
	i=$((i + 1))
	echo "user$i:\$6\$salt$i\$SECRETHASH$i:19000:0:99999:7:::"
done >"$T_DIR/sh/secret"
chmod 600 "$T_DIR/sh/secret"
ln -s "$T_DIR/sh/secret" "$T_DIR/sh/part.yaml"
printf 'suite: will-it-scale\nnr_task: 1\n<<: part.yaml\n' >"$T_DIR/sh/job.yaml"
expect_rc "an include that is a symbolic link is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/sh/job.yaml"
expect_in "... naming the job's line and the link" "$T_OUT" "job.yaml:3: <<: part.yaml: $T_DIR/sh/part.yaml: a link or not a regular file"
assert "... never quoting the file it points at" sh -c "! grep -q SECRETHASH '$T_OUT'"
ln -s "$T_DIR/sh" "$T_DIR/sh/sub/up"
printf 'suite: will-it-scale\nnr_task: 1\n<<: sub/up/secret\n' >"$T_DIR/sh/job2.yaml"
expect_rc "... and so is one reached through a linked folder" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/sh/job2.yaml"
expect_in "... saying so" "$T_OUT" "job2.yaml:3: <<: sub/up/secret: $T_DIR/sh/sub/up/secret: a link or not a regular file"
cp "$T_DIR/sh/secret" "$T_DIR/sh/sub/copy.yaml"
printf 'suite: will-it-scale\nnr_task: 1\n<<: sub/copy.yaml\n' >"$T_DIR/sh/job3.yaml"
expect_rc "an include that is not a job is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/sh/job3.yaml"
expect_in "... naming the include's file and line, and the job" "$T_OUT" "sub/copy.yaml:1 (included by $T_DIR/sh/job3.yaml): a key that is not a name: not a YAML job of lkp-tests"
assert "... without echoing its lines" sh -c "! grep -q SECRETHASH '$T_OUT'"
# issue 46 row 16: a key one map gives twice in one file kept the last
# without a word; it is refused naming both lines.  A key of the job after
# an include's is lkp-tests' override and stays.
printf 'suite: will-it-scale\nnr_task: 1\nwill-it-scale:\n  mode: process\n  test: page_fault3\nnr_task: 2\n' >"$T_DIR/job/dup.yaml"
expect_rc "a key twice in one map of the job is refused" 2 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/job/dup.yaml"
expect_in "... naming both lines" "$T_OUT" "dup.yaml:6: nr_task: twice in one map, at $T_DIR/job/dup.yaml:2 and $T_DIR/job/dup.yaml:6: a file sets a key once"
printf 'memcg: on\nmemcg: off\n' >"$T_DIR/lkp/jobs/shared/memcg-twice.yaml"
printf '<<: memcg-twice.yaml\n<<: will-it-scale.yaml\n' >"$T_DIR/job/inc-dup.yaml"
expect_rc "a key twice in one include is refused" 2 ./run-matrix.sh --dry-run --lkp-tests "$T_DIR/lkp" -o "$T_DIR/r" "$T_DIR/job/inc-dup.yaml"
expect_in "... naming the include's file and line" "$T_OUT" "memcg-twice.yaml:2 (included by $T_DIR/job/inc-dup.yaml): memcg: twice in one map, at "
expect_in "... and both its lines" "$T_OUT" "/jobs/shared/memcg-twice.yaml:1 and ...$(printf %s "$T_DIR/lkp/jobs/shared/memcg-twice.yaml" | tail -c 45):2: a file sets a key once"
printf '<<: will-it-scale.yaml\nnr_task: 2\n' >"$T_DIR/job/override.yaml"
expect_rc "the job's key over its include's is taken" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$T_DIR/job/override.yaml"
expect_in "... as the job's value" "$T_OUT" "nr_task=2 "
# lkp-tests' own job files (issue 50 item 4): every job file of the kit's
# suites at a recorded commit (tests/fixtures/lkp-tests/SOURCE), each test
# value either planned or refused in one line that names the file, its
# line and why (no "did you mean": a guess is not a reason).  A refusal
# naming a value drops that value and the job is planned again; one that
# names none refuses the file's values that are left.  The counts are
# docs/BENCHMARKS.md's.  Each try is the plan's own first step, the job
# read by krepro-lkpjob (lib/run/plan.sh), where most refusals are, then the
# dry run of what it accepts (a process start is slow here).
L=tests/fixtures/lkp-tests
./run-matrix.sh --keys >"$T_DIR/keys"
lkp_try() { # JOB -> its try's output in $T_DIR/one; fails when refused
	out/host/krepro-lkpjob --keys "$T_DIR/keys" --lkp-tests "$T_DIR/lkpt" "$T_DIR/lkpt/$1" \
		>/dev/null 2>"$T_DIR/one" &&
		./run-matrix.sh --dry-run --lkp-tests "$T_DIR/lkpt" -o "$T_DIR/r" "$T_DIR/lkpt/$1" >"$T_DIR/one" 2>&1
}
assert "the fixture is lkp-tests' files, byte for byte (SOURCE's blobs)" sh -c "cd $L && tail -n +10 SOURCE | while read -r b p; do [ \"\$(git hash-object \"\$p\")\" = \"\$b\" ] || exit 1; done"
cp -R "$L" "$T_DIR/lkpt"
: >"$T_DIR/counts"
for job in $(cd "$L" && find jobs -name '*.yaml' ! -name cgroup2.yaml | sort); do
	# the values of the program's test key: inline, [a, b] or a block list
	awk '/^[ \t]*#/ { next }
		t && /^[ \t]*- / { v = $0; sub(/^[ \t]*- */, "", v); sub(/[ \t]*#.*/, "", v); print v; next }
		t && !/^[ \t]*$/ { t = 0 }
		/^[ \t]*test:/ { v = $0; sub(/^[ \t]*test:[ \t]*/, "", v); sub(/[ \t]*#.*/, "", v)
			if (v == "") { t = 1; next }
			gsub(/[][,]/, " ", v); n = split(v, w, " "); for (i = 1; i <= n; i++) print w[i] }' "$T_DIR/lkpt/$job" >"$T_DIR/vals"
	planned=0 refused=0 bad=
	while :; do
		if lkp_try "$job"; then
			# each value a cell's test=VALUE (lkp value lines map some: their cells')
			bad="$bad$(awk 'FILENAME == ARGV[1] { want[$0] = 1; next }
				{ for (i = 1; i <= NF; i++) if ($i ~ /^test=/) seen[substr($i, 6)] = 1 }
				END { for (v in want) if (!(v in seen) && !(("lkp-" v) in seen)) printf " %s(not planned)", v }' \
				"$T_DIR/vals" "$T_DIR/one")"
			planned=$((planned + $(grep -c . "$T_DIR/vals")))
			[ -s "$T_DIR/vals" ] || planned=$((planned + 1))
			break
		fi
		why=$(tail -n 1 "$T_DIR/one")
		case $why in *"did you mean"* | "") bad="$bad [$why]" ;; esac
		case $why in *.yaml:[0-9]*:*) ;; *) bad="$bad [no file and line: $why]" ;; esac
		hit=
		while read -r v; do
			case $why in *"test: $v: "* | *"test '$v'"*) hit=$v ;; esac
		done <"$T_DIR/vals"
		printf '%s\t%s\n' "$job" "${why#*: }" >>"$T_DIR/reasons"
		if [ -z "$hit" ]; then
			refused=$((refused + $(grep -c . "$T_DIR/vals")))
			[ -s "$T_DIR/vals" ] || refused=$((refused + 1))
			break
		fi
		refused=$((refused + 1))
		grep -vx "$hit" "$T_DIR/vals" >"$T_DIR/vals.left"
		mv "$T_DIR/vals.left" "$T_DIR/vals"
		awk -v v="$hit" '!($0 ~ "^[ \t]*- *" v "[ \t]*(#.*)?$")' "$T_DIR/lkpt/$job" >"$T_DIR/job.left"
		cat "$T_DIR/job.left" >"$T_DIR/lkpt/$job"
		[ -s "$T_DIR/vals" ] || break
	done
	[ -z "$bad" ] || no "$job: every value planned or refused in one line:$bad"
	printf '%s %s %s\n' "$job" "$planned" "$refused" >>"$T_DIR/counts"
done
awk '{ p += $2; r += $3; printf "  %-55s %3d planned, %3d refused\n", $1, $2, $3 } END { printf "  lkp-tests job files: %d, test values planned %d, refused %d (a file without a test key counts one)\n", NR, p, r }' "$T_DIR/counts"
expect_in "every job file of the five suites was tried" "$T_DIR/counts" "jobs/will-it-scale/will-it-scale.yaml "
assert "... 27 of them" sh -c "[ \$(grep -c . '$T_DIR/counts') = 27 ]"
expect_in "unixbench.yaml: its 28 tests but C and grep planned (UnixBench's single tests)" "$T_DIR/counts" "jobs/unixbench/unixbench.yaml 28 2"
expect_in "... C refused saying why" "$T_DIR/reasons" "test: C: UnixBench's C test times the system's C compiler"
expect_in "unixbench-2d.yaml: its 11 X11 tests refused" "$T_DIR/counts" "jobs/unixbench/unixbench-2d.yaml 0 11"
expect_in "autonuma-benchmark.yaml: all 6 planned (lkp-tests' sets of upstream's programs)" "$T_DIR/counts" "jobs/autonuma-benchmark.yaml 6 0"
expect_rc "lkp-tests' autonuma-benchmark.yaml plans" 0 ./run-matrix.sh --dry-run -o "$T_DIR/r" "$L/jobs/autonuma-benchmark.yaml"
expect_in "... its numa01_THREAD_ALLOC the set start_bench.sh -t runs (numa01, numa01_THREAD_ALLOC, numa02)" "$T_OUT" "cell 4/6: suite=autonuma-benchmark test=lkp-numa01_THREAD_ALLOC"
expect_in "... minimal_thread_per_numa (-m), a quarter of a node a process as numa01's" "$T_OUT" "autonuma-benchmark/test=minimal_thread_per_numa/qemu-2node/"
expect_in "vm-scalability.yaml: all 41 planned" "$T_DIR/counts" "jobs/vm-scalability/vm-scalability.yaml 41 0"
expect_in "vm-scalability-swap.yaml: its swap tests refused (no swap device)" "$T_DIR/counts" "jobs/vm-scalability/vm-scalability-swap.yaml 0 4"
expect_in "will-it-scale.yaml: its 60 tests planned (lkp-tests' sweep)" "$T_DIR/counts" "jobs/will-it-scale/will-it-scale.yaml 60 0"
rm -rf "$T_DIR"
t_summary
