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
	if [ -z "$(job_get nr_task)" ]; then
		wis_sweep
		return
	fi
	monitors_start
	echo "krepro: will-it-scale $(job_get test) $(job_get mode) nr_task=$(job_get nr_task) ${wis_warmup}+${wis_duration}s"
	# warmup is lkp-tests' WARMUP_ITERATIONS: upstream's main.c discards
	# samples 0 to WARMUP_ITERATIONS, one more than it names.
	krepro-time -o "$R/will-it-scale.time" "$wis_bin" -t "$(job_get test)" \
		-m "$(job_get mode)" -n "$(job_get nr_task)" -s "$wis_duration" -w "$((wis_warmup + 1))" \
		>"$R/will-it-scale" 2>"$R/will-it-scale.stderr"
}

# No nr_task: lkp-tests' sweep (its programs/will-it-scale/run): the task
# counts from the guest's topology and each count's measured seconds, its
# setup_params' (the runner's --sweep-counts: will-it-scale.counts holds
# both lines, will-it-scale.sweep their sources), one CSV block a count,
# linear the 1-task average times the count (-L), as its runtest.py.
wis_sweep() {
	"$wis_bin" --sweep-counts "$(job_get runtime)" >"$R/will-it-scale.counts" 2>"$R/will-it-scale.sweep" ||
		fail "will-it-scale: $(tail -n 1 "$R/will-it-scale.sweep")"
	{
		read -r wis_counts
		read -r wis_secs
	} <"$R/will-it-scale.counts"
	monitors_start
	echo "krepro: will-it-scale $(job_get test) $(job_get mode) sweep of $wis_counts tasks, ${wis_warmup}+${wis_secs}s each"
	# shellcheck disable=SC2016,SC2086 # the loop runs in the timed shell; the counts are words
	krepro-time -o "$R/will-it-scale.time" sh -c 'bin=$1 test=$2 mode=$3 secs=$4 warm=$5 one=0
		shift 5
		for n in "$@"; do
			"$bin" -t "$test" -m "$mode" -n "$n" -s "$secs" -w "$warm" -L "$one" >/tmp/wis.one
			rc=$?
			cat /tmp/wis.one
			[ "$rc" = 0 ] || exit "$rc"
			[ "$n" != 1 ] || one=$(sed -n "s/^average://p" /tmp/wis.one)
		done' wis "$wis_bin" "$(job_get test)" "$(job_get mode)" "$wis_secs" "$((wis_warmup + 1))" \
		$wis_counts >"$R/will-it-scale" 2>"$R/will-it-scale.stderr"
}
