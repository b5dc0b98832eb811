# shellcheck shell=sh
# lib/bisect.sh: run-matrix.sh bisect: binary search over SERIES@N for the first patch
# that moves METRIC, each step one run-matrix of its own.
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT (krepro_dirs), exact_runs
# (lib/cells.sh); environment: KREPRO_BISECT_*.  Sets: H (host_tools).

# bisect_main [-o DIR] [-m MATRIX] [-j N] SERIES METRIC
bisect_main() {
	bs_out=$KREPRO_ROOT/results bs_matrix='' bs_j=1
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-o) opt_arg "a directory" "$@"; bs_out=$2; shift 2 ;;
		-m) opt_arg "a matrix file" "$@"; bs_matrix=$2; shift 2 ;;
		-j) opt_arg "a number" "$@"; bs_j=$2; shift 2 ;;
		-*) die "bisect: unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ $# -eq 2 ] || die "bisect: usage: ./run-matrix.sh bisect [-o DIR] [-m MATRIX] [-j N] SERIES METRIC"
	case $bs_j in [1-9] | [1-9][0-9]) ;; *) die "bisect: -j: expected a number of guests, 1..99, not '$bs_j'" ;; esac
	ser=$1 metric=$2
	[ -z "$bs_matrix" ] || need_file "bisect: matrix file" "$bs_matrix"
	krepro_dirs
	host_tools
	# Working files of this bisect only (two bisects on one cache never
	# share them), removed on every exit; its log is kept beside the results.
	temp_dir bs_w "$KREPRO_CACHE/bisect"
	"$KREPRO_ROOT/build.sh" patches "$ser" >"$bs_w/patches" || exit 2
	total=$(wc -l <"$bs_w/patches")
	mkdir -p "$bs_out"
	bs_out=$(cd "$bs_out" && pwd)
	bs_log=$bs_out/bisect.log
	bs_m=$bs_w/bisect.yaml
	# verdict K: run base and SERIES@K, then 0 if METRIC moved significantly.
	# An inconclusive answer (alpha < p < 0.25) gets 2 more runs per side,
	# up to KREPRO_BISECT_MAX_RUNS (9): one noisy boot out of 3 must not
	# hide a real step.  Complete runs are kept, so only the new ones boot.
	bs_base() { if [ -n "$bs_matrix" ]; then cat "$bs_matrix"; else default_matrix; fi; }
	verdict() {
		bs_runs=$(bs_base | sed -n 's/^runs: *//p' | head -n 1)
		# Exact mode gives the same numbers for a seed every boot, at any
		# time: one base (its seeds) for every step, the steps' runs in
		# parallel (-j).  Real mode: each step measures base again beside
		# SERIES@K (A, B, A, B), in a folder of its own: base runs kept
		# from an earlier step were timed on another minute's host (a
		# no-op patch read -19.5%, p=0.006, against base runs two minutes
		# older).
		bs_dir=$bs_out/step-$1 bs_jobs=1 bs_max=${KREPRO_BISECT_MAX_RUNS:-9}
		if bs_base | grep -q '^clock: *exact *$'; then
			bs_dir=$bs_out bs_jobs=$bs_j bs_max=${KREPRO_BISECT_MAX_RUNS:-$((2 * $(exact_runs)))}
			bs_runs=${bs_runs:-$(exact_runs)}
		fi
		bs_runs=${bs_runs:-$(kit_default runs)}
		while :; do
			{
				bs_base | grep -v '^variants:\|^runs:'
				echo "variants: [base, $ser@$1]"
				echo "runs: $bs_runs"
			} >"$bs_m"
			note "bisect: running base vs $ser@$1 ($(sed -n "$1p" "$bs_w/patches" | xargs basename)), $bs_runs runs each"
			"$0" -j "$bs_jobs" -o "$bs_dir" "$bs_m" >"$bs_log" 2>&1 ||
				note "bisect: some runs of $ser@$1 failed (see $bs_log)"
			# The result path of this very matrix, not any $ser@K under -o.
			vd=$("$0" --dry-run -o "$bs_dir" "$bs_m" 2>/dev/null | sed -n 's|^  -> \(.*\)/{1\.\..*|\1|p' | grep "/$ser@$1\$" | head -n 1)
			[ -d "${vd:-/nonexistent}" ] || die "bisect: no results for $ser@$1 (see $bs_log)"
			"$KREPRO_OUT/host/krepro-compare" --alpha "${KREPRO_BISECT_ALPHA:-0.01}" --verdict "$metric" "$(dirname "$vd")/base" "$vd" >"$bs_w/verdict"
			rc=$?
			note "bisect: $ser@$1: $(cat "$bs_w/verdict")"
			[ "$rc" -le 3 ] || exit 2
			[ "$rc" != 2 ] || die "bisect: $metric is not measured by this matrix"
			# Exact mode: the seeds' spread is the layout scatter every
			# code change brings (docs/EXACT.md): a step below the floor
			# that spread sets is not significant.  And exact mode sees
			# every instruction: a step that turns a constant into a boot
			# parameter is a real, small change of the path (memcg@2:
			# -0.71%, p=0.004, 10 seeds a side), not the step that makes
			# the series' change: a step counts only if it carries a
			# tenth of the whole series' change, with its sign; one below
			# it, significant or not, gets no more seeds either.
			bs_ch=$(sed -n 's/^[^:]*: \([-+]*[0-9.]*\)%.*/\1/p' "$bs_w/verdict" | head -n 1)
			if [ -n "${bs_series:-}" ] && [ -n "$bs_ch" ] && grep -q '(exact' "$bs_w/verdict" &&
				awk -v c="$bs_ch" -v s="$bs_series" 'BEGIN { exit !(c * s <= 0 || (c < 0 ? -c : c) * 10 < (s < 0 ? -s : s)) }'; then
				note "bisect: $ser@$1: $bs_ch% is below a tenth of the series' $bs_series%: not the series' step (exact mode)"
				return 3
			fi
			[ -n "${bs_series:-}" ] || bs_series=$bs_ch
			bs_p=$(sed -n 's/.*p=\([0-9.e-]*\).*/\1/p' "$bs_w/verdict" | head -n 1)
			if [ "$rc" = 3 ] && [ "$bs_runs" -lt "$bs_max" ] &&
				[ -n "$bs_p" ] && awk -v p="$bs_p" 'BEGIN { exit !(p + 0 < 0.25) }'; then
				bs_runs=$((bs_runs + 2))
				note "bisect: inconclusive (p=$bs_p): $bs_runs runs each"
				continue
			fi
			return "$rc"
		done
	}
	if ! verdict "$total"; then
		echo "bisect: $metric does not change significantly between base and $ser ($total patches): nothing to bisect"
		exit 1
	fi
	lo=0 hi=$total
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if verdict "$mid"; then hi=$mid; else lo=$mid; fi
	done
	p=$(sed -n "${hi}p" "$bs_w/patches")
	echo "first patch of $ser that moves $metric: patch $hi of $total"
	echo "    $(basename "$p")"
	echo "    $(patch_subject "$p")"
	exit 0
}
