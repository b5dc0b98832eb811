# shellcheck shell=sh
# will-it-scale suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Writes $R/will-it-scale and its .time file.
suite_run() {
	# Defaults are the host's (suites/will-it-scale/meta): job.conf has them.
	wis_warmup=$(job_get warmup)
	wis_duration=$(($(job_get runtime) - wis_warmup))
	[ "$wis_duration" -ge 1 ] || wis_duration=1
	wis_bin=will-it-scale # one build per mode, as upstream's (will-it-scale.c)
	[ "$(job_get mode)" != thread ] || wis_bin=will-it-scale-threads
	# fallocate1's file is on /dev/shm, upstream's path (a tmpfs wherever
	# systemd boots); the initramfs mounts none.
	if [ "$(job_get test)" = fallocate1 ] && ! grep -q '^[^ ]* /dev/shm ' /proc/mounts; then
		{ mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 tmpfs /dev/shm; } ||
			fail "will-it-scale: cannot mount a tmpfs on /dev/shm"
	fi
	monitors_start
	echo "krepro: will-it-scale $(job_get test) $(job_get mode) nr_task=$(job_get nr_task) ${wis_warmup}+${wis_duration}s"
	# warmup is lkp-tests' WARMUP_ITERATIONS: upstream's main.c discards
	# samples 0 to WARMUP_ITERATIONS, one more than it names.
	krepro-time -o "$R/will-it-scale.time" "$wis_bin" -t "$(job_get test)" \
		-m "$(job_get mode)" -n "$(job_get nr_task)" -s "$wis_duration" -w "$((wis_warmup + 1))" \
		>"$R/will-it-scale" 2>"$R/will-it-scale.stderr"
}
