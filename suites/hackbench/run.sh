# shellcheck shell=sh
# hackbench suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/hackbench (every round's output) and
# its .time file.
#
# Job keys, as lkp-tests' hackbench: nr_threads (groups of 20 senders and
# 20 receivers, default nr_cpu; the host turns N% into a count), mode
# (process or thread), ipc (pipe, else UNIX sockets), loops (default
# 30000 * nr_cpu / groups, as lkp-tests), and the rounds: iterations (that
# many), else runtime (rounds until it is past).  Literal defaults are the
# host's (meta), written into job.conf.
suite_run() {
	hb_cpus=$(nproc)
	hb_g=$(job_get nr_threads)
	hb_g=${hb_g:-$hb_cpus}
	hb_l=$(job_get loops)
	hb_l=${hb_l:-$((30000 * hb_cpus / hb_g))}
	[ "$hb_l" -ge 1 ] || hb_l=1
	hb_mode=$(job_get mode)
	hb_ipc=
	[ "$(job_get ipc)" != pipe ] || hb_ipc=--pipe
	HB_ITERATIONS=$(job_get iterations) HB_RUNTIME=$(job_get runtime)
	export HB_ITERATIONS HB_RUNTIME
	echo "krepro: hackbench $hb_mode ${hb_ipc:-socket} groups=$hb_g loops=$hb_l ${HB_ITERATIONS:+$HB_ITERATIONS rounds}"
	monitors_start
	# shellcheck disable=SC2016 # the round loop's own variables
	model_window krepro-time -o "$R/hackbench.time" sh -c '
		n=0 t0=$(date +%s)
		while :; do
			n=$((n + 1))
			hackbench "$@" || exit
			if [ -n "$HB_ITERATIONS" ]; then
				[ "$n" -lt "$HB_ITERATIONS" ] || break
			elif [ $(($(date +%s) - t0)) -gt "$HB_RUNTIME" ]; then
				break
			fi
		done' hackbench -g "$hb_g" -f 20 "--$hb_mode" $hb_ipc -l "$hb_l" -s 100 \
		>"$R/hackbench" 2>"$R/hackbench.stderr"
}
