# shellcheck shell=sh
# vm-scalability suite: sourced by /init, which provides job_get, $R,
# monitors_start and fail.  Runs one vm-scalability case with usemem and
# writes $R/vm-scalability (a "./case-<name>" line, then usemem's per-task
# lines, as LKP's parser expects) and its .time file.
#
# Job keys: test (the case: docs/BENCHMARKS.md lists them), nr_task
# (count, default nr_cpu), size (the case's total T, which stands for what
# upstream sizes the case from: ROTATE_BYTES, MemTotal/2, the tmpfs size...;
# the case splits it over its tasks as upstream's script does; default per
# case below), runtime (seconds), fs (knobs.sh: the filesystem of the cases
# that map files on SPARSE_ROOT).  Literal defaults are the host's (meta),
# written into job.conf.

vms_kb() { # /proc/meminfo field in kB
	sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo
}

# Where the sparse files of the cases on SPARSE_ROOT (mmap-*, mremap-*,
# lru-file-*, msync*) live: the filesystem the job names with the fs knob
# (knobs.sh mounts it at $KREPRO_FS_DIR and records fs=... in $R/knobs), so
# that the filesystem is in the result path.  No fs: the run fails saying
# so; it never falls back to another filesystem.
vms_sparse_root() {
	VMS_FS=$(sed -n 's/^fs=//p' "$R/knobs" 2>/dev/null | tail -n 1)
	if [ -z "$VMS_FS" ] || [ -z "${KREPRO_FS_DIR:-}" ]; then
		fail "vm-scalability: $vms_test maps a file: name its filesystem with the job key fs (ext2, xfs or tmpfs; upstream's jobs use xfs, docs/BENCHMARKS.md)"
		return 1
	fi
	VMS_SPARSE=$KREPRO_FS_DIR
}

# vms_total DEFAULT: vms_tot, the case's total T: the job's size, else DEFAULT.
vms_total() {
	vms_tot=${vms_size:-$1}
}

# vms_file_total: vms_tot of a case whose files rotate through memory:
# ROTATE_BYTES, or on tmpfs, whose pages are not reclaimable without swap,
# MemAvailable/4.
vms_file_total() {
	if [ "$VMS_FS" = tmpfs ]; then
		vms_total $((vms_avail / 4))
	else
		vms_total "$vms_rot"
	fi
}

# vms_file PATH BYTES FS: a sparse file, or the run fails saying why.
vms_file() {
	if ! vms_err=$(truncate -s "$2" "$1" 2>&1); then
		fail "vm-scalability: a sparse file of $2 bytes on $3: $vms_err (set size: smaller)"
		return 1
	fi
}

# vms_files PREFIX BYTES FS: one sparse file a task, PREFIX-1..PREFIX-N,
# each mapped by a usemem process of its own (vms_each).
vms_files() {
	vms_i=1
	while [ "$vms_i" -le "$vms_nr" ]; do
		vms_file "$1-$vms_i" "$2" "$3" || return 1
		vms_i=$((vms_i + 1))
	done
	vms_each=$1
}

# vms_hugetlb BYTES: let the 2 MiB huge page pool grow to BYTES, plus a
# page a task and one (upstream's setup_hugetlb, as overcommit pages).
vms_hugetlb() {
	vms_hp=/sys/kernel/mm/hugepages/hugepages-2048kB
	if [ ! -d "$vms_hp" ]; then
		fail "vm-scalability: $vms_test maps 2 MiB huge pages: the kernel has none ($vms_hp; CONFIG_HUGETLBFS)"
		return 1
	fi
	vms_pages=$(($1 / 2097152 + vms_nr + 1))
	if ! printf '%s\n' "$vms_pages" >"$vms_hp/nr_overcommit_hugepages"; then
		fail "vm-scalability: $vms_test: nr_overcommit_hugepages=$vms_pages refused"
		return 1
	fi
	echo "# hugetlb: nr_overcommit_hugepages $vms_pages (2048 kB)" >>"$out"
}

# vms_sysctl NAME VALUE: what lkp-tests' run sets before every case, unless
# the job sets the same sysctl.* key.
vms_sysctl() {
	[ -z "$(job_get "sysctl.$1")" ] || return 0
	printf '%s\n' "$2" >"/proc/sys/$(echo "$1" | tr . /)" 2>/dev/null
}

# The cases that run no usemem, as upstream's scripts run them (each in a
# shell of its own under krepro-time, which sources this file for them).
# vms_case_dd RUNTIME READERS PREFIX N: READERS `dd bs=4k` (ddread) at a
# time over each of PREFIX-1..N, stopped by SIGINT after RUNTIME seconds;
# their summaries printed in upstream's order (dd-output-[R-]I).
vms_case_dd() {
	vms_i=1
	while [ "$vms_i" -le "$4" ]; do
		vms_r=1
		while [ "$vms_r" -le "$2" ]; do
			vms_o=dd-output-$vms_r-$vms_i
			[ "$2" != 1 ] || vms_o=dd-output-$vms_i
			timeout -s INT "$1" ddread "$3-$vms_i" >"$VMS_TMPFS/$vms_o" 2>&1 &
			vms_r=$((vms_r + 1))
		done
		vms_i=$((vms_i + 1))
	done
	wait
	vms_rc=0
	for vms_o in "$VMS_TMPFS"/dd-output-*; do
		[ -s "$vms_o" ] || {
			echo "vm-scalability: dd output file empty: $vms_o" >&2
			vms_rc=1
		}
		cat "$vms_o"
		rm -f "$vms_o"
	done
	return "$vms_rc"
}

# vms_case_truncate SEQ TOTAL PREFIX N: N sparse files of TOTAL/N read
# into the page cache (cat), then removed, all at once; SEQ=1 (truncate-seq)
# also times the reading ("faulted") and removes them in one rm.  Prints
# the two clock readings as upstream does; lkp-tests subtracts them.
# Upstream's cat is GNU cat, which reads 128 KiB at a time into its buffer
# and writes it to /dev/null; busybox's cat would sendfile(2) the file,
# filling the page cache without the copies: busybox's dd does cat's reads
# and writes.
vms_case_truncate() {
	[ "$1" = 0 ] || vms_t0=$(nanotime)
	vms_i=1
	while [ "$vms_i" -le "$4" ]; do
		truncate -s $(($2 / $4)) "$3-$vms_i" || return 1
		dd if="$3-$vms_i" of=/dev/null bs=131072 2>/dev/null || return 1
		vms_i=$((vms_i + 1))
	done
	if [ "$1" = 1 ]; then
		vms_t1=$(nanotime)
		echo "$2 bytes faulted in $vms_t1-$vms_t0 seconds"
	fi
	vms_t0=$(nanotime)
	if [ "$1" = 1 ]; then
		rm "$3"-*
	else
		vms_i=1
		while [ "$vms_i" -le "$4" ]; do
			rm "$3-$vms_i" &
			vms_i=$((vms_i + 1))
		done
		wait
	fi
	vms_t1=$(nanotime)
	echo "$2 bytes truncated in $vms_t1-$vms_t0 seconds"
}

# vms_usecs S.N: vms_us, the clock reading in microseconds (upstream's
# `date +%s%N` with three digits cut), without another process.
vms_usecs() {
	vms_ns=${1#*.}
	vms_us=$((${1%.*} * 1000000 + 1${vms_ns%???} - 1000000))
}

# vms_case_migrate RUNTIME FILE UNIT NODES: upstream's case-migrate.  A
# usemem reads UNIT bytes of FILE mapped, its memory interleaved over the
# nodes (numactl --interleave=all), and detaches; then, until RUNTIME
# seconds have passed, its pages move node to node, one `migratepages PID
# I-1 I%NODES` a step (numapol migrate), the clock read after each.
vms_case_migrate() {
	vms_pidf=${2%/*}/migrate.pid # upstream's PIDFILE, beside the file
	rm -f "$vms_pidf"
	numapol interleave usemem --runtime "$1" -f "$2" --readonly "$3" --detach \
		--sleep $(($1 * 2)) --pid-file "$vms_pidf" || return 1
	read -r vms_pid <"$vms_pidf" || return 1
	rm -f "$vms_pidf" "$2"
	vms_usecs "$(nanotime)"
	vms_start=$vms_us vms_count=0
	while :; do
		vms_i=1
		while [ "$vms_i" -le "$4" ]; do
			numapol migrate "$vms_pid" $((vms_i - 1)) $((vms_i % $4)) || return 1
			vms_usecs "$(nanotime)"
			vms_count=$((vms_count + 1))
			vms_el=$((vms_us - vms_start))
			[ "$vms_el" -gt $(($1 * 1000000)) ] && break 2
			vms_i=$((vms_i + 1))
		done
	done
	echo "$vms_count * $3 bytes migrated, $vms_el usecs, $((vms_count * $3 / vms_el)) MB/s"
	kill -INT "$vms_pid"
	# upstream's wait for it to go; a zombie has gone too (its new parent,
	# init, may not reap it while it waits for this case)
	while [ -d "/proc/$vms_pid" ] && [ "$(cat "/proc/$vms_pid/comm" 2>/dev/null)" = usemem ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$vms_pid/status" 2>/dev/null; do
		sleep 0.1
	done
}

suite_run() {
	vms_test=$(job_get test)
	vms_nr=$(job_get nr_task)
	vms_nr=${vms_nr:-$(grep -c '^processor' /proc/cpuinfo)}
	vms_runtime=$(job_get runtime) # the host's default if the matrix has none
	vms_size=$(job_get size)       # bytes: the host resolves K/M/G/T
	vms_mem=$(($(vms_kb MemTotal) << 10))
	vms_avail=$(($(vms_kb MemAvailable) << 10))
	# PTE_LIMIT = 256 x MemAvailable (page tables within half of it);
	# ROTATE_BYTES = min(4 TiB, PTE_LIMIT)
	vms_pte=$((vms_avail << 8))
	vms_rot=$vms_pte
	[ "$vms_rot" -le $((1 << 42)) ] || vms_rot=$((1 << 42))
	VMS_TMPFS=/tmp/vm-scalability-tmp
	mkdir -p "$VMS_TMPFS"
	mount -t tmpfs -o size=100% tmpfs "$VMS_TMPFS" || return 1
	vms_shm=$(df -k "$VMS_TMPFS" | awk 'NR == 2 { print $2 * 1024 }')
	vms_sysctl vm.overcommit_memory 1
	vms_sysctl vm.max_map_count $((1 << 30))
	vms_sysctl kernel.threads-max $((1 << 20))
	out=$R/vm-scalability
	: >"$out"
	vms_each= # per-task files: PREFIX-1..PREFIX-N, one usemem process each
	vms_own= # the case runs its own command (vms_case_*), not usemem
	vms_opt=-n
	case $vms_test in *-mt) vms_opt=-t ;; esac # -mt: threads of one process
	vms_rand=
	case $vms_test in *-rand*) vms_rand=--random ;; esac
	case $vms_test in # tests
	# anonymous memory
	anon-w-seq | anon-r-rand)
		# the kit's default T: MemTotal/4 (upstream: MemTotal/2 and
		# ROTATE_BYTES)
		vms_total $((vms_mem / 4))
		set -- -n "$vms_nr" $((vms_tot / vms_nr))
		[ "$vms_test" = anon-w-seq ] || set -- --readonly "$@"
		;;
	anon-w-seq-mt | anon-w-rand | anon-w-rand-mt)
		vms_total $((vms_mem / 2))
		set -- "$vms_opt" "$vms_nr" $((vms_tot / vms_nr))
		;;
	anon-wx-rand-mt)
		vms_total $((vms_mem / 2))
		set -- -t "$vms_nr" --prealloc $((vms_tot / vms_nr))
		;;
	anon-wx-seq-mt)
		vms_total $((vms_mem / 2))
		set -- -t "$vms_nr" --prealloc "$vms_tot"
		;;
	anon-r-rand-mt)
		vms_total "$vms_rot"
		set -- -t "$vms_nr" --readonly $((vms_tot / vms_nr))
		;;
	anon-r-seq)
		# PTE_LIMIT split, each at most the 64 TiB address space
		vms_total "$vms_pte"
		vms_per=$((vms_tot / vms_nr))
		[ "$vms_per" -le $((1 << 46)) ] || vms_per=$((1 << 46))
		set -- -n "$vms_nr" --readonly "$vms_per"
		;;
	anon-r-seq-mt)
		vms_total "$vms_pte"
		[ "$vms_tot" -le $((1 << 46)) ] || vms_tot=$((1 << 46))
		set -- -t "$vms_nr" --readonly $((vms_tot / vms_nr))
		;;
	anon-rx-rand-mt)
		vms_total "$vms_rot"
		set -- -t "$vms_nr" --prealloc --readonly $((vms_tot / vms_nr))
		;;
	anon-rx-seq-mt)
		vms_total "$vms_rot"
		set -- -t "$vms_nr" --prealloc --readonly "$vms_tot"
		;;
	anon-cow-seq | anon-cow-rand)
		# one prefaulted mapping, written by nr_task children: copy on write
		vms_total $((vms_mem / 2))
		set -- -n "$vms_nr" --prealloc --prefault $((vms_tot / (vms_nr + 1)))
		;;
	anon-cow-seq-mt | anon-cow-rand-mt)
		vms_total $((vms_mem / 4))
		set -- -t "$vms_nr" --prealloc --prefault "$vms_tot"
		;;
	anon-w-seq-hugetlb | anon-w-rand-hugetlb)
		vms_total $((vms_mem / 2))
		vms_hugetlb "$vms_tot" || return 1
		set -- -n "$vms_nr" --hugetlb $((vms_tot / vms_nr))
		;;
	anon-cow-seq-hugetlb | anon-cow-rand-hugetlb)
		vms_total $((vms_mem / 2))
		vms_hugetlb "$vms_tot" || return 1
		set -- -n "$vms_nr" --prealloc --prefault --hugetlb $((vms_tot / (vms_nr + 1)))
		;;
	small-allocs | small-allocs-mt)
		# chunks of 10 pages, each a VMA; T: ROTATE_BYTES halved until
		# its VMAs (21 to a 4 KiB slab page) fit in a third of MemTotal
		vms_page=$(sed -n 's/^KernelPageSize: *\([0-9]*\) kB/\1/p' /proc/self/smaps | head -n 1)
		vms_unit=$((${vms_page:-4} * 10240))
		vms_tot=$vms_rot
		while [ $((vms_tot / vms_unit)) -gt $((21 * (vms_mem / 3) / 4096)) ]; do
			vms_tot=$((vms_tot >> 1))
		done
		vms_total "$vms_tot"
		echo "# unit: $vms_unit" >>"$out"
		set -- "$vms_opt" "$vms_nr" --readonly --unit "$vms_unit" $((vms_tot / vms_nr))
		;;
	# tmpfs (shm) files
	lru-shm | lru-shm-rand)
		# one tmpfs file a task, each as large as the tmpfs, read once
		vms_total $((vms_shm / 2))
		vms_files "$VMS_TMPFS/sparse-$vms_test" "$vms_shm" tmpfs || return 1
		echo "# fs: tmpfs per_task: $((vms_tot / vms_nr))" >>"$out"
		set -- --readonly $((vms_tot / vms_nr))
		;;
	shm-pread-seq | shm-pread-seq-mt | shm-pread-rand | shm-pread-rand-mt | \
		shm-xread-seq | shm-xread-seq-mt | shm-xread-rand | shm-xread-rand-mt)
		# one tmpfs file as large as the tmpfs; every task maps its
		# first T bytes (upstream's unit_size), -xread- once for all
		vms_total $((vms_shm / 2))
		vms_fsz=$vms_shm
		[ "$vms_tot" -le "$vms_fsz" ] || vms_fsz=$vms_tot
		vms_file "$VMS_TMPFS/sparse-$vms_test" "$vms_fsz" tmpfs || return 1
		echo "# fs: tmpfs file_size: $vms_fsz" >>"$out"
		set -- "$vms_opt" "$vms_nr" -f "$VMS_TMPFS/sparse-$vms_test" --readonly "$vms_tot"
		case $vms_test in shm-x*) set -- --prealloc "$@" ;; esac
		;;
	# files on the filesystem of the job's fs key
	mmap-pread-rand | mmap-pread-rand-mt | mmap-pread-seq | mmap-pread-seq-mt | \
		mmap-xread-rand-mt | mmap-xread-seq-mt | mremap-xread-rand-mt | \
		lru-file-mmap-read | lru-file-mmap-read-rand)
		vms_sparse_root || return 1
		vms_file_total
		vms_f=$VMS_SPARSE/sparse-$vms_test
		case $vms_test in
		mmap-pread-rand | mmap-pread-rand-mt | mmap-xread-rand-mt)
			vms_fsz=$((vms_tot / vms_nr)) vms_per=$((vms_tot / vms_nr))
			;;
		mmap-pread-seq | mremap-xread-rand-mt)
			vms_fsz=$vms_tot vms_per=$((vms_tot / vms_nr))
			;;
		mmap-pread-seq-mt | mmap-xread-seq-mt)
			vms_fsz=$vms_tot vms_per=$((vms_tot >> 3))
			;;
		lru-file-*)
			vms_per=$((vms_tot / vms_nr))
			vms_files "$vms_f" "$vms_per" "$VMS_FS" || return 1
			echo "# fs: $VMS_FS per_task: $vms_per" >>"$out"
			;;
		esac
		if [ -z "$vms_each" ]; then
			echo "# fs: $VMS_FS file_size: $vms_fsz" >>"$out"
			vms_file "$vms_f" "$vms_fsz" "$VMS_FS" || return 1
			set -- "$vms_opt" "$vms_nr" -f "$vms_f" --readonly "$vms_per"
		else
			set -- --readonly "$vms_per"
		fi
		case $vms_test in
		mmap-xread-*) set -- --prealloc "$@" ;;
		mremap-*) set -- --remap --prealloc "$@" ;;
		esac
		;;
	lru-file-readonce | lru-file-readtwice)
		# one sparse file a task, read to its end by dd (twice at once:
		# -readtwice) until the runtime's SIGINT
		vms_sparse_root || return 1
		vms_file_total
		vms_per=$((vms_tot / vms_nr))
		vms_files "$VMS_SPARSE/sparse-$vms_test" "$vms_per" "$VMS_FS" || return 1
		echo "# fs: $VMS_FS per_task: $vms_per" >>"$out"
		vms_readers=1
		[ "$vms_test" = lru-file-readonce ] || vms_readers=2
		set -- vms_case_dd "$vms_runtime" "$vms_readers" "$vms_each" "$vms_nr"
		vms_each='' vms_own=1
		;;
	truncate | truncate-seq)
		# T (upstream: MemTotal) in one file a task, read and removed
		vms_sparse_root || return 1
		vms_total "$vms_mem"
		echo "# fs: $VMS_FS per_task: $((vms_tot / vms_nr))" >>"$out"
		vms_seq=0
		[ "$vms_test" = truncate ] || vms_seq=1
		set -- vms_case_truncate "$vms_seq" "$vms_tot" "$VMS_SPARSE/sparse-$vms_test" "$vms_nr"
		vms_own=1
		;;
	migrate)
		# a sparse file of T (upstream: MemTotal); usemem holds
		# T/nodes/2 of it, moved between the nodes until the runtime
		vms_sparse_root || return 1
		vms_total "$vms_mem"
		vms_nodes=$(echo /sys/devices/system/node/node* | wc -w)
		vms_unit=$((vms_tot / vms_nodes / 2))
		echo "# fs: $VMS_FS file_size: $vms_tot unit: $vms_unit nodes: $vms_nodes" >>"$out"
		vms_file "$VMS_SPARSE/sparse-migrate" "$vms_tot" "$VMS_FS" || return 1
		set -- vms_case_migrate "$vms_runtime" "$VMS_SPARSE/sparse-migrate" "$vms_unit" "$vms_nodes"
		vms_own=1
		;;
	msync | msync-mt)
		# files of MemTotal written through shared mappings and msync'ed;
		# T (upstream: MemTotal/2) at most half the filesystem's free space
		vms_sparse_root || return 1
		vms_free=$(df -k "$VMS_SPARSE" | awk 'NR == 2 { print $4 * 1024 }')
		vms_total $((vms_mem / 2))
		[ -n "$vms_size" ] || [ "$vms_tot" -le $((vms_free / 2)) ] || vms_tot=$((vms_free / 2))
		vms_per=$vms_tot
		[ "$vms_test" = msync-mt ] || vms_per=$((vms_tot / vms_nr))
		vms_fsz=$vms_mem
		[ "$vms_per" -le "$vms_fsz" ] || vms_fsz=$vms_per
		echo "# fs: $VMS_FS file_size: $vms_fsz per_task: $vms_per" >>"$out"
		if [ "$vms_test" = msync ]; then
			vms_files "$VMS_SPARSE/sparse-msync" "$vms_fsz" "$VMS_FS" || return 1
			set -- --msync --prefault --prealloc --open-rw "$vms_per"
		else
			vms_file "$VMS_SPARSE/sparse-msync-mt" "$vms_fsz" "$VMS_FS" || return 1
			set -- -t "$vms_nr" -f "$VMS_SPARSE/sparse-msync-mt" --msync --prefault \
				--prealloc --open-rw "$vms_per"
		fi
		;;
	*)
		fail "vm-scalability: unknown test '$vms_test'"
		return 1
		;;
	esac
	[ -z "$vms_rand" ] || [ -n "$vms_own" ] || set -- --random "$@"
	echo "krepro: vm-scalability $vms_test nr_task=$vms_nr runtime=${vms_runtime}s"
	echo "./case-$vms_test" >>"$out"
	monitors_start
	if [ -n "$vms_own" ]; then
		export VMS_TMPFS # the inner sh's (a prefix assignment would be model_window's)
		# shellcheck disable=SC2016 # expanded by the inner sh
		model_window krepro-time -o "$R/vm-scalability.time" sh -c \
			'. /etc/krepro/suites/vm-scalability.sh && "$@"' sh "$@" \
			>>"$out" 2>"$R/vm-scalability.stderr"
	elif [ -n "$vms_each" ]; then
		# nr_task independent processes, one file each; fails if one does
		# shellcheck disable=SC2016 # expanded by the inner sh
		model_window krepro-time -o "$R/vm-scalability.time" sh -c '
			n=$1 f=$2 pids= rc=0
			shift 2
			i=1
			while [ "$i" -le "$n" ]; do
				usemem -f "$f-$i" "$@" &
				pids="$pids $!"
				i=$((i + 1))
			done
			for p in $pids; do
				wait "$p" || rc=1
			done
			exit "$rc"' sh "$vms_nr" "$vms_each" --runtime "$vms_runtime" "$@" \
			>>"$out" 2>"$R/vm-scalability.stderr"
	else
		model_window krepro-time -o "$R/vm-scalability.time" usemem --runtime "$vms_runtime" "$@" \
			>>"$out" 2>"$R/vm-scalability.stderr"
	fi
	rc=$?
	rm -f "$VMS_TMPFS"/sparse-* "${VMS_SPARSE:-$VMS_TMPFS}"/sparse-* 2>/dev/null
	return "$rc"
}
