# shellcheck shell=sh
# lib/run/bisect.sh: run-matrix.sh bisect: binary search for the first step that
# moves METRIC, each step one run-matrix of its own: over SERIES@N (the
# first N patches against base), or over the commits GOOD..BAD of a git
# reference (each commit against GOOD, both variants: lib/build/commits.sh).
# Reads: KREPRO_ROOT, KREPRO_CACHE, KREPRO_OUT (krepro_dirs), exact_runs
# (lib/shared/cells.sh); environment: KREPRO_BISECT_*, KREPRO_REFERENCE.
# Sets: H (host_tools).

# bisect_main [-o DIR] [-m MATRIX] [-j N] SERIES|GOOD..BAD METRIC
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
	[ $# -eq 2 ] || die "bisect: usage: ./run-matrix.sh bisect [-o DIR] [-m MATRIX] [-j N] SERIES|GOOD..BAD METRIC"
	case $bs_j in [1-9] | [1-9][0-9]) ;; *) die "bisect: -j: expected a number of guests, 1..99, not '$bs_j'" ;; esac
	ser=$1 metric=$2
	[ -z "$bs_matrix" ] || need_file "bisect: matrix file" "$bs_matrix"
	krepro_dirs
	host_tools
	# Working files of this bisect only (two bisects on one cache never
	# share them), removed on every exit; its log is kept beside the results.
	temp_dir bs_w "$KREPRO_CACHE/bisect"
	# The steps, one a line: the variant, TAB, what the step adds (a patch
	# file, or a commit's short id and subject); bs_good the side every
	# step is compared with.
	bs_base() { if [ -n "$bs_matrix" ]; then cat "$bs_matrix"; else default_matrix; fi; }
	case $ser in
	*..*)
		bs_what=commit bs_whats=commits
		# the matrix's reference (from-report --repo writes one), unless
		# the environment names it
		if [ -z "${KREPRO_REFERENCE:-}" ]; then
			KREPRO_REFERENCE=$(bs_base | sed -n 's/^reference: *//p' | head -n 1)
			export KREPRO_REFERENCE
		fi
		"$KREPRO_ROOT/build.sh" commit-range "$ser" >"$bs_w/range" || exit 2
		bs_good=$(sed -n '1s/^good [0-9a-f]* //p' "$bs_w/range")
		sed '1d; s/^[0-9a-f]* \([0-9a-f]*\) \(.*\)$/\1	\1 \2/' "$bs_w/range" >"$bs_w/steps"
		;;
	*)
		bs_what=patch bs_whats=patches bs_good=base
		"$KREPRO_ROOT/build.sh" patches "$ser" >"$bs_w/patches" || exit 2
		awk -v s="$ser" '{ n = split($0, p, "/"); print s "@" NR "\t" p[n] }' "$bs_w/patches" >"$bs_w/steps"
		;;
	esac
	total=$(wc -l <"$bs_w/steps")
	[ "$total" -gt 0 ] || die "bisect: $ser holds no $bs_what"
	mkdir -p "$bs_out"
	bs_out=$(cd "$bs_out" && pwd)
	bs_log=$bs_out/bisect.log
	echo "bisect $ser $metric, $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >>"$bs_log"
	bs_m=$bs_w/bisect.yaml
	# verdict K: run bs_good and step K, then 0 if METRIC moved
	# significantly, 4 if step K's kernel does not build (a commit: it is
	# skipped, as git bisect skip does).  An inconclusive answer (alpha <
	# p < 0.25) gets 2 more runs per side, up to KREPRO_BISECT_MAX_RUNS
	# (9): one noisy boot out of 3 must not hide a real step.  Complete
	# runs are kept, so only the new ones boot.  Each step's row goes to
	# the step table (bs_w/table).
	verdict() {
		bs_v=$(sed -n "$1s/	.*//p" "$bs_w/steps")
		bs_label=$(sed -n "$1s/^[^	]*	//p" "$bs_w/steps")
		bs_t0=$(date +%s)
		if [ "$bs_what" = commit ] && ! "$KREPRO_ROOT/build.sh" kernel "$bs_v" >>"$bs_log" 2>&1; then
			note "bisect: $bs_label does not build: skipped (see $bs_log)"
			printf '%s\t%s\t%s\t%s\n' "$1" "$bs_label" "does not build: skipped" $(($(date +%s) - bs_t0)) >>"$bs_w/table"
			return 4
		fi
		bs_runs=$(bs_base | sed -n 's/^runs: *//p' | head -n 1)
		# Exact mode gives the same numbers for a seed every boot, at any
		# time: one bs_good (its seeds) for every step, the steps' runs in
		# parallel (-j).  Real mode: each step measures bs_good again
		# beside step K (A, B, A, B), in a folder of its own: base runs
		# kept from an earlier step were timed on another minute's host (a
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
				echo "variants: [$bs_good, $bs_v]"
				echo "runs: $bs_runs"
			} >"$bs_m"
			note "bisect: running $bs_good vs $bs_v ($bs_label), $bs_runs runs each"
			echo "--- step $1: $bs_good vs $bs_v, $bs_runs runs each" >>"$bs_log"
			"$0" -j "$bs_jobs" -o "$bs_dir" "$bs_m" >>"$bs_log" 2>&1 ||
				note "bisect: some runs of $bs_v failed (see $bs_log)"
			# The result path of this very matrix, not any other step's under -o.
			vd=$("$0" --dry-run -o "$bs_dir" "$bs_m" 2>/dev/null | sed -n 's|^  -> \(.*\)/{1\.\..*|\1|p' | grep "/$bs_v\$" | head -n 1)
			[ -d "${vd:-/nonexistent}" ] || die "bisect: no results for $bs_v (see $bs_log)"
			"$KREPRO_OUT/host/krepro-compare" --alpha "${KREPRO_BISECT_ALPHA:-0.01}" --verdict "$metric" "$(dirname "$vd")/$bs_good" "$vd" >"$bs_w/verdict"
			rc=$?
			note "bisect: $bs_v: $(cat "$bs_w/verdict")"
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
				note "bisect: $bs_v: $bs_ch% is below a tenth of the whole range's $bs_series%: not its step (exact mode)"
				rc=5
				break
			fi
			[ -n "${bs_series:-}" ] || bs_series=$bs_ch
			bs_p=$(sed -n 's/.*p=\([0-9.e-]*\).*/\1/p' "$bs_w/verdict" | head -n 1)
			if [ "$rc" = 3 ] && [ "$bs_runs" -lt "$bs_max" ] &&
				[ -n "$bs_p" ] && awk -v p="$bs_p" 'BEGIN { exit !(p + 0 < 0.25) }'; then
				bs_runs=$((bs_runs + 2))
				note "bisect: inconclusive (p=$bs_p): $bs_runs runs each"
				continue
			fi
			break
		done
		case $rc in
		0) bs_call=moves ;;
		5) bs_call="below a tenth of the whole change" rc=3 ;;
		*) bs_call="does not move" ;;
		esac
		printf '%s\t%s\t%s: %s\t%s\n' "$1" "$bs_label" "$bs_call" "$(sed "s/^$metric: //" "$bs_w/verdict" | head -n 1)" \
			$(($(date +%s) - bs_t0)) >>"$bs_w/table"
		return "$rc"
	}
	# step_table: every step measured, in the order run, with its seconds
	step_table() {
		echo "steps ($metric, $bs_good against each; seconds: build and boots):"
		awk -F '\t' -v n="$total" '{ printf "  %3s/%s  %s\n           %s  (%s s)\n", $1, n, $2, $3, $4 }' "$bs_w/table"
		echo "log: $bs_log"
	}
	: >"$bs_w/table"
	# (verdict's commands run unchecked only as a condition: set -e)
	if verdict "$total"; then bs_rc=0; else bs_rc=$?; fi
	case $bs_rc in
	0) ;;
	4) die "bisect: the last $bs_what of $ser does not build: nothing to compare (see $bs_log)" ;;
	*)
		step_table
		echo "bisect: $metric does not change significantly between $bs_good and $ser ($total $bs_whats): nothing to bisect"
		exit 1
		;;
	esac
	# lo is good, hi moves the metric; a step that does not build is
	# skipped and the nearest untried one between them measured instead
	lo=0 hi=$total skipped=' '
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(awk -v lo="$lo" -v hi="$hi" -v sk="$skipped" 'BEGIN {
			m = int((lo + hi) / 2)
			for (d = 0; d < hi - lo; d++)
				for (s = -1; s <= 1; s += 2) {
					k = m + s * d
					if (k > lo && k < hi && index(sk, " " k " ") == 0) { print k; exit }
				}
		}')
		[ -n "$mid" ] || break
		if verdict "$mid"; then bs_rc=0; else bs_rc=$?; fi
		case $bs_rc in
		0) hi=$mid ;;
		4) skipped="$skipped$mid " ;;
		*) lo=$mid ;;
		esac
	done
	step_table
	hl=$(sed -n "${hi}s/^[^	]*	//p" "$bs_w/steps")
	if [ $((hi - lo)) -gt 1 ]; then
		echo "bisect: the first $bs_what of $ser that moves $metric is one of these (the others between do not build):"
		sed -n "$((lo + 1)),${hi}s/^[^	]*	/    /p" "$bs_w/steps"
		exit 3
	fi
	if [ "$bs_what" = commit ]; then
		echo "first commit of $ser that moves $metric: commit $hi of $total"
		echo "    $(sed -n "$((hi + 1))s/^\([0-9a-f]*\) .*/\1/p" "$bs_w/range")"
		echo "    ${hl#* }"
	else
		echo "first patch of $ser that moves $metric: patch $hi of $total"
		echo "    $hl"
		echo "    $(patch_subject "$(sed -n "${hi}p" "$bs_w/patches")")"
	fi
	exit 0
}
