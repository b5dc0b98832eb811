# shellcheck shell=sh
# membench suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/membench and its .time file.
#
# Job keys: test (chase, numa-local, numa-remote, counters-shared,
# counters-padded, numa-migrate), size (bytes), loops (steps, lines or
# increments a thread), runtime (numa-migrate's scan, seconds).  The host
# writes the defaults (meta) into job.conf; the program's own are the same.
suite_run() {
	mb_test=$(job_get test)
	mb_size=$(job_get size)
	mb_loops=$(job_get loops)
	mb_runtime=$(job_get runtime)
	echo "krepro: membench ${mb_test:-chase} size=${mb_size:-default} loops=${mb_loops:-default} runtime=${mb_runtime:-default}"
	monitors_start
	krepro-time -o "$R/membench.time" membench -t "${mb_test:-chase}" ${mb_size:+-s "$mb_size"} \
		${mb_loops:+-l "$mb_loops"} ${mb_runtime:+-r "$mb_runtime"} \
		>"$R/membench" 2>"$R/membench.stderr"
}
