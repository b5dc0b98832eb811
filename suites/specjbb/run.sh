# shellcheck shell=sh
# specjbb suite (a specjbb2005-like transaction workload): sourced by /init,
# which provides job_get, $R, monitors_start and fail.  Writes $R/specjbb
# and its .time file.
#
# Job keys: warehouses (default nr_cpu), threads (workers per warehouse,
# default 1), memory (all warehouses, K/M/G/T suffix, default 256M; above
# one node's memory the tenant no longer "fits"), runtime (measured
# seconds, default 30), rampup (seconds, default 3).
suite_run() {
	sj_w=$(job_get warehouses)
	sj_t=$(job_get threads)
	sj_m=$(job_get memory)
	sj_s=$(job_get runtime)
	sj_r=$(job_get rampup)
	echo "krepro: specjbb warehouses=${sj_w:-nr_cpu} threads=${sj_t:-1} memory=${sj_m:-256M} ${sj_s:-30}s"
	monitors_start
	krepro-time -o "$R/specjbb.time" specjbb ${sj_w:+-w "$sj_w"} -t "${sj_t:-1}" \
		-m "${sj_m:-256M}" -s "${sj_s:-30}" -r "${sj_r:-3}" >"$R/specjbb" 2>"$R/specjbb.stderr"
}
