# shellcheck shell=sh
# specjbb suite (a specjbb2005-like transaction workload): sourced by /init,
# which provides job_get, $R, monitors_start and fail.  Writes $R/specjbb
# and its .time file.
#
# Job keys: warehouses (default nr_cpu), threads (workers per warehouse),
# memory (all warehouses, bytes or K/M/G/T; above one node's memory the
# tenant no longer "fits"), runtime (measured seconds), rampup (seconds).
# Literal defaults are the host's (meta), written into job.conf.
suite_run() {
	sj_w=$(job_get warehouses)
	sj_t=$(job_get threads)
	sj_m=$(job_get memory)
	sj_s=$(job_get runtime)
	sj_r=$(job_get rampup)
	echo "krepro: specjbb warehouses=${sj_w:-nr_cpu} threads=$sj_t memory=$sj_m ${sj_s}s"
	monitors_start
	model_window krepro-time -o "$R/specjbb.time" specjbb ${sj_w:+-w "$sj_w"} -t "$sj_t" \
		-m "$sj_m" -s "$sj_s" -r "$sj_r" >"$R/specjbb" 2>"$R/specjbb.stderr"
}
