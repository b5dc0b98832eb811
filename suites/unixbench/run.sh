# shellcheck shell=sh
# unixbench suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/unixbench (UnixBench's text lines)
# and its .time file.
#
# Job keys: test (unixbench test names joined by '+', or all/files;
# default all), runtime (seconds per sample, default 10), samples (per
# test, default 3).
suite_run() {
	ub_tests=$(job_get test | tr '+' ' ')
	ub_runtime=$(job_get runtime)
	ub_samples=$(job_get samples)
	mkdir -p /tmp/unixbench
	echo "krepro: unixbench ${ub_tests:-all} ${ub_runtime:-10}s x ${ub_samples:-3}"
	monitors_start
	# shellcheck disable=SC2086 # the test list is split on purpose
	krepro-time -o "$R/unixbench.time" unixbench -t "${ub_runtime:-10}" -i "${ub_samples:-3}" \
		-d /tmp/unixbench ${ub_tests:-all} >"$R/unixbench" 2>"$R/unixbench.stderr"
}
