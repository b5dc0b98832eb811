# shellcheck shell=sh
# vm-scalability suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Runs one vm-scalability case with usemem and
# writes $R/vm-scalability (a "./case-<name>" line, then usemem's per-task
# lines, as LKP's parser expects) and its .time file.
#
# Job keys: test (mmap-pread-rand-mt, lru-shm, anon-w-seq, anon-r-rand),
# nr_task (count, default nr_cpu), size (total bytes the case touches over
# all tasks; default per case below), runtime (seconds), fs (knobs.sh: the
# filesystem of mmap-pread-rand-mt's file).  Literal defaults are the
# host's (meta), written into job.conf.

vms_kb() { # /proc/meminfo field in kB
	sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo
}

# Where the sparse file of mmap-pread-rand-mt lives: the filesystem the job
# names with the fs knob (knobs.sh mounts it at $KREPRO_FS_DIR and records
# fs=... in $R/knobs), so that the filesystem is in the result path.  No
# fs: the run fails saying so; it never falls back to another filesystem.
vms_sparse_root() {
	VMS_FS=$(sed -n 's/^fs=//p' "$R/knobs" 2>/dev/null | tail -n 1)
	if [ -z "$VMS_FS" ] || [ -z "${KREPRO_FS_DIR:-}" ]; then
		fail "vm-scalability: $vms_test maps a file: name its filesystem with the job key fs (ext2, xfs or tmpfs; upstream's jobs use xfs, docs/BENCHMARKS.md)"
		return 1
	fi
	VMS_SPARSE=$KREPRO_FS_DIR
}

suite_run() {
	vms_test=$(job_get test)
	vms_nr=$(job_get nr_task)
	vms_nr=${vms_nr:-$(grep -c '^processor' /proc/cpuinfo)}
	vms_runtime=$(job_get runtime) # the host's default if the matrix has none
	vms_size=$(job_get size)       # bytes: the host resolves K/M/G/T
	vms_mem=$(vms_kb MemTotal)
	VMS_TMPFS=/tmp/vm-scalability-tmp
	mkdir -p "$VMS_TMPFS"
	mount -t tmpfs -o size=100% tmpfs "$VMS_TMPFS" || return 1
	vms_shm=$(df -k "$VMS_TMPFS" | awk 'NR == 2 { print $2 * 1024 }')
	out=$R/vm-scalability
	: >"$out"
	case $vms_test in
	mmap-pread-rand-mt)
		vms_sparse_root || return 1
		if [ "$VMS_FS" = tmpfs ]; then
			# tmpfs pages are not reclaimable: keep the file within memory
			rot=$(($(vms_kb MemAvailable) << 8))
		else
			# ROTATE_BYTES = min(4 TiB, 256 x MemAvailable), split over the tasks
			rot=$(($(vms_kb MemAvailable) << 18))
			[ "$rot" -le $((1 << 42)) ] || rot=$((1 << 42))
		fi
		fsz=$((rot / vms_nr))
		[ -z "$vms_size" ] || fsz=$((vms_size / vms_nr))
		echo "# fs: $VMS_FS file_size: $fsz" >>"$out"
		if ! err=$(truncate -s "$fsz" "$VMS_SPARSE/sparse-mmap-pread-rand-mt" 2>&1); then
			fail "vm-scalability: a sparse file of $fsz bytes on $VMS_FS: $err (set size: smaller)"
			return 1
		fi
		set -- -t "$vms_nr" -f "$VMS_SPARSE/sparse-mmap-pread-rand-mt" --readonly --random "$fsz"
		;;
	lru-shm)
		per=$((vms_shm / vms_nr / 2))
		[ -z "$vms_size" ] || per=$((vms_size / vms_nr))
		i=1
		while [ "$i" -le "$vms_nr" ]; do
			truncate -s "$vms_shm" "$VMS_TMPFS/sparse-lru-shm-$i" || return 1
			i=$((i + 1))
		done
		echo "# fs: tmpfs per_task: $per" >>"$out"
		;;
	anon-w-seq)
		per=$((vms_mem * 1024 / vms_nr / 4))
		[ -z "$vms_size" ] || per=$((vms_size / vms_nr))
		set -- -n "$vms_nr" "$per"
		;;
	anon-r-rand)
		per=$((vms_mem * 1024 / vms_nr / 4))
		[ -z "$vms_size" ] || per=$((vms_size / vms_nr))
		set -- -n "$vms_nr" --readonly --random "$per"
		;;
	*)
		fail "vm-scalability: unknown test '$vms_test'"
		return 1
		;;
	esac
	echo "krepro: vm-scalability $vms_test nr_task=$vms_nr runtime=${vms_runtime}s"
	echo "./case-$vms_test" >>"$out"
	monitors_start
	if [ "$vms_test" = lru-shm ]; then
		# nr_task independent processes, one tmpfs file each, read once
		# shellcheck disable=SC2016 # expanded by the inner sh
		krepro-time -o "$R/vm-scalability.time" sh -c '
			i=1
			while [ "$i" -le "$1" ]; do
				usemem --runtime "$2" -f "$3/sparse-lru-shm-$i" --readonly "$4" &
				i=$((i + 1))
			done
			wait' sh "$vms_nr" "$vms_runtime" "$VMS_TMPFS" "$per" \
			>>"$out" 2>"$R/vm-scalability.stderr"
	else
		krepro-time -o "$R/vm-scalability.time" usemem --runtime "$vms_runtime" "$@" \
			>>"$out" 2>"$R/vm-scalability.stderr"
	fi
	rc=$?
	rm -f "$VMS_TMPFS"/sparse-lru-shm-* "${VMS_SPARSE:-$VMS_TMPFS}"/sparse-* 2>/dev/null
	return "$rc"
}
