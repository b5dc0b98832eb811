# shellcheck shell=sh
# lib/run/floor.sh: run-matrix.sh floor: the smallest change an exact cell can
# call, measured with A/A comparisons of kernels that do not differ: base
# against base with other seeds, with an unused boot word, and against the
# noop series (an unused function that only moves code).
# Reads: KREPRO_ROOT, KREPRO_OUT (krepro_dirs), exact_runs (lib/shared/cells.sh);
# environment: TMPDIR.  Sets: H (host_tools).

# floor_main [-o DIR] [-j N] [-n SEEDS] [--dry-run] [MATRIX]: --dry-run
# plans every set (its cell, seeds, boot word and result folder) and the
# boots they need, and boots nothing.
floor_main() {
	fl_out=$KREPRO_ROOT/results/floor fl_j=1 fl_n=$(exact_runs) fl_matrix='' fl_dry=0 fl_boots=0
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) usage; exit 0 ;;
		-o) opt_arg "a directory" "$@"; fl_out=$2; shift 2 ;;
		-j) opt_arg "a number" "$@"; fl_j=$2; shift 2 ;;
		-n) opt_arg "a number of seeds" "$@"; fl_n=$2; shift 2 ;;
		--dry-run) fl_dry=1; deps_name_only; shift ;;
		-*) die "floor: unknown option '$1' (see --help)" ;;
		*) [ -z "$fl_matrix" ] || die "floor: one matrix file at a time"; fl_matrix=$1; shift ;;
		esac
	done
	case $fl_j in [1-9] | [1-9][0-9]) ;; *) die "floor: -j: expected a number of guests, 1..99, not '$fl_j'" ;; esac
	case $fl_n in [3-9] | [1-9][0-9]) ;; *) die "floor: -n: expected 3..99 seeds a side, not '$fl_n'" ;; esac
	[ -z "$fl_matrix" ] || need_file "floor: matrix file" "$fl_matrix"
	krepro_dirs
	host_tools
	mkdir -p "$fl_out"
	fl_out=$(cd "$fl_out" && pwd)
	temp_dir fl_w "${TMPDIR:-/tmp}/krepro-floor"
	# A set's run-matrix (its builds and boots, maybe an hour) runs in a
	# process group of its own, waited for with wait, which a signal
	# interrupts (a foreground child would hold the trap until it ended):
	# TERM, INT or HUP stop the whole group, its make and QEMU too.
	need_cmd setsid util-linux
	fl_pg=
	trap 'note "floor: interrupted; completed runs are kept"; fl_stop; exit 130' INT TERM HUP
	fl_base() { if [ -n "$fl_matrix" ]; then cat "$fl_matrix"; else default_matrix; fi; }
	fl_cmdline=$(fl_base | sed -n 's/^kernel_cmdline: *//p' | head -n 1)
	# The sets: NAME VARIANT FIRST-SEED [BOOT-WORD]; four disjoint seed
	# sets of base, base with boot words nothing reads (two lengths, on
	# the first two sets' seeds), and the noop series: 7 sets, 21 A/A
	# comparisons.
	fl_sets="aa1 base 1
aa2 base $((fl_n + 1))
aa3 base $((2 * fl_n + 1))
aa4 base $((3 * fl_n + 1))
pad base 1 krepro_floor_pad=1
pad2 base $((fl_n + 1)) krepro_floor_pad=4444
noop noop 1"
	while read -r name var first word; do
		{
			fl_base | grep -v '^variants:\|^variant:\|^runs:\|^seeds:\|^clock:\|^kernel_cmdline:'
			echo "variants: [$var]"
			echo "clock: exact"
			echo "seeds: $first-$((first + fl_n - 1))"
			if [ -n "$word" ]; then
				echo "kernel_cmdline: ${fl_cmdline:+$fl_cmdline+}$word"
			elif [ -n "$fl_cmdline" ]; then
				echo "kernel_cmdline: $fl_cmdline"
			fi
		} >"$fl_w/$name.yaml"
		"$0" --dry-run -o "$fl_out/$name" "$fl_w/$name.yaml" >"$fl_w/cell.$name" 2>&1 ||
			die "floor: $(tail -n 1 "$fl_w/cell.$name")"
		grep -q '^1 cells,' "$fl_w/cell.$name" || die "floor measures one cell; the matrix has $(sed -n 's/^\([0-9]*\) cells,.*/\1/p' "$fl_w/cell.$name")"
		if [ "$fl_dry" = 1 ]; then
			echo "$name: $var, seeds $first-$((first + fl_n - 1))${word:+, boot word $word}: $(sed -n 's/^plan: //p' "$fl_w/cell.$name")"
			sed -n '/^  -> /p' "$fl_w/cell.$name"
			fl_boots=$((fl_boots + $(sed -n 's/^plan: \([0-9]*\) boots.*/\1/p' "$fl_w/cell.$name")))
			continue
		fi
		note "floor: $name: $var, seeds $first-$((first + fl_n - 1))${word:+, boot word $word}"
		# A set whose runs are all complete (an earlier floor's, kept)
		# boots nothing and needs no image: it is not planned again.
		if grep -q '^plan: 0 boots' "$fl_w/cell.$name"; then
			echo "floor: $name: its $fl_n runs are complete, kept: nothing booted" >"$fl_w/$name.log"
		else
			fl_set "$name" || note "floor: some runs of $name failed (see $fl_out/$name.log)"
		fi
		cp "$fl_w/$name.log" "$fl_out/$name.log"
		vd=$(sed -n 's|^  -> \(.*\)/{1\.\..*|\1|p' "$fl_w/cell.$name" | head -n 1)
		[ -d "${vd:-/nonexistent}" ] || die "floor: no results for $name (see $fl_out/$name.log)"
		echo "$name $vd" >>"$fl_w/dirs"
	done <<EOF
$fl_sets
EOF
	if [ "$fl_dry" = 1 ]; then
		echo "floor of $(sed -n 's/^cell 1\/1: //p' "$fl_w/cell.aa1" | head -n 1)"
		! grep -q '^  memory model: ' "$fl_w/cell.aa1" ||
			echo "memory model on ($(sed -n 's/^  memory model: \(.*\) (docs.*/\1/p' "$fl_w/cell.aa1" | head -n 1)): a floor for the headline and one for its model throughput (model.<headline>)"
		echo "plan: 7 sets of $fl_n seeds, 21 A/A comparisons, $fl_boots boots; nothing booted (--dry-run)"
		exit 0
	fi
	dir_of() { sed -n "s/^$1 //p" "$fl_w/dirs"; }
	# The headline metric, as compare's summary names it.
	metric=$("$KREPRO_OUT/host/krepro-compare" "$(dir_of aa1)" "$(dir_of aa2)" | sed -n '/^summary (/{n;s/: .*//p;}' | head -n 1)
	[ -n "$metric" ] || die "floor: no benchmark metric in $(dir_of aa1)"
	echo "floor of $(sed -n 's/^cell 1\/1: //p' "$fl_w/cell.aa1" | head -n 1)" >"$fl_w/report"
	# With the memory model, the model's throughput of the headline
	# (analyze/model_rate.c) has a floor of its own: model time moves with
	# the layout in other ways than the instruction count.
	fl_model=$(sed -n 's/^#define KRP_MODEL_RATE_PREFIX "\(.*\)"$/\1/p' "$KREPRO_ROOT/tools/host/lib/core/meaning.h")$metric
	grep -qF "\"$fl_model\": " "$(dir_of aa1)"/[0-9]*/stats.json 2>/dev/null || fl_model=
	for fl_m in "$metric" $fl_model; do
		{
			echo "metric: $fl_m; exact${fl_model:+ with the memory model}, $fl_n seeds a side, Welch at p<0.01"
			called=0 total=0
			# shellcheck disable=SC2013 # one word a line: set names
			for pair in $(awk '{ s[NR] = $1 } END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) print s[i] ":" s[j] }' "$fl_w/dirs"); do
				set -- "${pair%:*}" "${pair#*:}"
				rc=0
				v=$("$KREPRO_OUT/host/krepro-compare" --alpha 0.01 --verdict "$fl_m" "$(dir_of "$1")" "$(dir_of "$2")") || rc=$?
				[ "$rc" = 0 ] || [ "$rc" = 3 ] || die "floor: cannot compare $1 with $2 on $fl_m"
				total=$((total + 1))
				[ "$rc" = 3 ] || called=$((called + 1))
				printf '  %-4s vs %-4s %s\n' "$1" "$2" "${v#"$fl_m": }"
			done
			echo "A/A: $called of $total called a change at p<0.01"
		} >>"$fl_w/report"
		# The floor: the change n seeds a side call at p<0.01 given the
		# layout spread of the four base sets (their pooled variance), and
		# never below compare's minimum exact effect; for the sets' n and for
		# the default seeds a side.
		for s in aa1 aa2 aa3 aa4; do
			for f in "$(dir_of "$s")"/[0-9]*/stats.json; do
				printf '%s %s\n' "$s" "$(sed -n "s/.*\"$fl_m\": \([-0-9.e+]*\).*/\1/p" "$f")"
			done
		done | awk -v n="$fl_n" -v d="$(exact_runs)" -v min="$(sed -n 's/^#define KRP_EXACT_MIN_EFFECT //p' "$KREPRO_ROOT/tools/host/lib/analyze/compare.h")" '
		# the change k seeds a side call at p<0.01 (t quantile 0.995 at
		# 2(k-1) degrees of freedom, Cornish-Fisher from z = 2.5758);
		# products and root(), not "^" and sqrt(): busybox awk built
		# without math (Debian'"'"'s) has neither
		function floor_at(k,   df, z, z2, t, f) {
			df = 2 * (k - 1); z = 2.5758; z2 = z * z
			t = z + (z2 + 1) * z / (4 * df) + ((5 * z2 + 16) * z2 + 3) * z / (96 * df * df) \
				+ (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * df * df * df)
			f = 100 * t * root(2 * v / k) / m
			return f > min ? f : min
		}
		# the square root of x >= 0 by Newton'"'"'s steps from above, to where
		# they stop falling
		function root(x,    r, y) {
			if (x <= 0) return 0
			r = x > 1 ? x : 1
			for (;;) { y = (r + x / r) / 2; if (y >= r) return r; r = y }
		}
		$2 != "" { if (!($1 in k)) set[++nset] = $1; k[$1]++; s[$1] += $2; q[$1] += $2 * $2; all += $2; cnt++ }
		END {
			# the sets in their order ("for (g in k)" is each awk'"'"'s own order)
			for (i = 1; i <= nset; i++) {
				g = set[i]
				if (k[g] < 2) exit 1
				v += (q[g] - s[g] * s[g] / k[g]) / (k[g] - 1); sets++
			}
			if (!sets) exit 1
			v /= sets; m = all / cnt
			printf "floor: %.2f%% (%d seeds a side call a change this large at p<0.01; one seed'"'"'s spread %.2f%% of %.0f, pooled over %d base sets)\n", \
				floor_at(n), n, 100 * root(v) / m, m, sets
			if (d != n)
				printf "floor at %d seeds a side (the default): %.2f%%\n", d, floor_at(d)
		}' >>"$fl_w/report" || echo "floor: unknown (too few runs of base)" >>"$fl_w/report"
	done
	cp "$fl_w/report" "$fl_out/floor.txt"
	cat "$fl_out/floor.txt"
	note "floor: report in $fl_out/floor.txt, results under $fl_out"
	exit 0
}

# fl_set NAME: set NAME's runs (floor_main's fl_j, fl_out, fl_w), its
# run-matrix alone in a new session (setsid: its process group is its PID).
fl_set() {
	setsid "$0" -j "$fl_j" -o "$fl_out/$1" "$fl_w/$1.yaml" >"$fl_w/$1.log" 2>&1 </dev/null &
	fl_pg=$!
	fl_rc=0
	wait "$fl_pg" || fl_rc=$?
	fl_pg=
	return "$fl_rc"
}

# fl_stop: the running set's process group stopped (TERM, then KILL after 5 s).
fl_stop() {
	[ -n "${fl_pg:-}" ] || return 0
	terminate "-$fl_pg"
	wait "$fl_pg" 2>/dev/null || true
	fl_pg=
}
