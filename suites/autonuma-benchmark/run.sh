# shellcheck shell=sh
# autonuma-benchmark suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/autonuma-benchmark and its .time file.
#
# Job keys: test (numa01, numa01_THREAD_ALLOC, numa02, numa02_SMT, each
# also _HARD_BIND or _INVERSE_BIND; or lkp-tests' _HARD_BIND or
# _INVERSE_BIND: numa01 and numa02, each also with the suffix), size (bytes per
# process, K/M/G/T suffix; default a quarter of MemTotal, so the two numa01
# processes use half the machine), loops (passes; default upstream's).
suite_run() {
	an_test=$(job_get test)
	an_size=$(job_get size)
	if [ -z "$an_size" ]; then
		an_size=$(($(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo) / 4))K
	fi
	an_loops=$(job_get loops)
	echo "krepro: autonuma-benchmark ${an_test:-?} size=$an_size loops=${an_loops:-default}"
	monitors_start
	model_window krepro-time -o "$R/autonuma-benchmark.time" autonuma-benchmark -t "$an_test" -s "$an_size" \
		${an_loops:+-l "$an_loops"} >"$R/autonuma-benchmark" 2>"$R/autonuma-benchmark.stderr"
}
