# shellcheck shell=sh
# unixbench suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/unixbench (UnixBench's text lines)
# and its .time file.
#
# Job keys: test (unixbench test names joined by '+', or all/files;
# default all), runtime (seconds per sample), samples (per test), nr_task
# (copies run at once, as UnixBench's Run -c N; job.conf has N, N% resolved
# by the host; default 1); literal defaults are the host's (meta), written
# into job.conf.
suite_run() {
	ub_tests=$(job_get test | tr '+' ' ')
	ub_runtime=$(job_get runtime)
	ub_samples=$(job_get samples)
	ub_copies=$(job_get nr_task)
	mkdir -p /tmp/unixbench
	echo "krepro: unixbench ${ub_tests:-all} ${ub_runtime}s x $ub_samples, ${ub_copies:-1} copies"
	monitors_start
	# shellcheck disable=SC2086 # the test list is split on purpose
	model_window krepro-time -o "$R/unixbench.time" unixbench -t "$ub_runtime" -i "$ub_samples" \
		-c "${ub_copies:-1}" -d /tmp/unixbench ${ub_tests:-all} >"$R/unixbench" 2>"$R/unixbench.stderr"
}
