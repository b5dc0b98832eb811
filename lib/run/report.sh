# shellcheck shell=sh
# lib/run/report.sh: run-matrix.sh's reports: the comparison of every cell's variants
# after a run (report.txt, report.html, JSON/CSV beside each comparison), the
# report tools on their own (an email back into a matrix: lib/run/from-report.sh).
# Reads: KREPRO_ROOT, KREPRO_OUT, RESULTS, TMPD, the plan's name, runs and
# variants (plan_fact), the bundle (bundle_dir), TENANT_PREFIX
# (lib/run/runs.sh), the runs' failures and time (runs_failed, runs_elapsed);
# environment: TMPDIR.  Sets:
# H (host_tools), REPORT, HTML, report_failed (failed comparisons).

# report_tool NAME ARGS...: compare, index (UnixBench), pivot or report
# (HTML) on their own.
report_tool() {
	tool=krepro-$1
	shift
	krepro_dirs
	host_tools
	exec "$H/$tool" "$@"
}

# context_notes VARIANT...: a line for each series a variant's kernel
# applied with less than full context, from its manifest (patches/S.apply;
# docs: README, series): "variant V: series S applied with N lines ...",
# and for each commit of a git reference it was built from.
context_notes() {
	for cn_v in "$@"; do
		cn_m=$KREPRO_OUT/kernels/$cn_v/manifest.json
		cn_b=$(bundle_dir)
		[ -z "$cn_b" ] || cn_m=$cn_b/kernels/$cn_v/manifest.json
		[ -f "$cn_m" ] || continue
		sed -n 's/^  "apply_context": \[\(.*\)\],$/\1/p' "$cn_m" | tr '}' '\n' |
			sed -n "s/.*\"series\": \"\([^\"]*\)\".*\"text\": \"\([^\"]*\)\".*/variant $cn_v: series \1 \2/p"
		# a commit of a git reference, by its full id (lib/build/commits.sh)
		manifest_commits "$cn_m" | while read -r _ cn_full cn_part; do
			echo "variant $cn_v: $cn_part is commit $cn_full"
		done
	done
}

# build_notes MATRIX VARIANT: when MATRIX came from a 0-day email (its
# "# 0-day build: compiler X, kconfig Y" line, lib/run/from-report.sh), a line
# for each of the two that differs from what built VARIANT's kernel (its
# manifest): another compiler or config is another kernel, and a change
# may move otherwise.
build_notes() {
	[ -f "$1" ] || return 0
	bn_m=$KREPRO_OUT/kernels/$2/manifest.json
	bn_b=$(bundle_dir)
	[ -z "$bn_b" ] || bn_m=$bn_b/kernels/$2/manifest.json
	[ -f "$bn_m" ] || return 0
	sed -n 's/^# 0-day build: \([^(]*\) (.*/\1/p' "$1" | head -n 1 | tr ',' '\n' | awk -v m="$bn_m" '
	BEGIN { while ((getline l < m) > 0) {
		if (l ~ /^  "compiler": /) { cc = l; sub(/^  "compiler": "/, "", cc); sub(/",?$/, "", cc) }
		if (l ~ /^  "kconfig": /) { kc = l; sub(/^  "kconfig": "/, "", kc); sub(/",?$/, "", kc) } } }
	$1 == "compiler" && cc != "" {
		# gcc-7 against "gcc (Debian 12.2.0-14) 12.2.0": the major versions
		v = $2; sub(/^gcc-/, "", v); kv = cc; sub(/.* /, "", kv); sub(/\..*/, "", kv)
		if ($2 !~ /^gcc-/ || cc !~ /^gcc / || v != kv)
			print "0-day built with " $2 ", the kit with " cc ": another compiler, another kernel"
	}
	$1 == "kconfig" && kc != "" && $2 != kc {
		print "0-day built with kconfig " $2 ", the kit with configs/" kc ".config: another config, another kernel"
	}'
}

# write_report: compare every result folder the cells wrote, save and print
# the report; 0 when every comparison worked.
write_report() {
	REPORT=$RESULTS/report.txt
	report_failed=0
	wr_vs=$(plan_fact variants)
	: >"$TMPD/report"
	HTML=
	{
		# each run's comparison folder: its result's, less variant and run
		runs_column result | sed 's|/[^/]*/[^/]*$||'
		# the other tenants' of a multi-tenant cell (the table holds the
		# first's; a cell's words, once a cell)
		runs_column words | awk '!seen[$0]++' | while IFS= read -r c; do
			t=$(cell_get "$c" tenants)
			i=2
			while [ "$i" -le "${t:-1}" ]; do
				dirname "$(variant_dir "$c tenant=$TENANT_PREFIX$i")"
				i=$((i + 1))
			done
		done
	} | sort -u >"$TMPD/report.dirs"
	# One line per directory: paths may hold spaces.
	while IFS= read -r vd; do
		set --
		for v in $wr_vs; do
			if [ -d "$vd/$v" ]; then
				if ! "$H/krepro-stats" unite "$vd/$v" >/dev/null; then
					note "unite $vd/$v failed"
					report_failed=1
				fi
				set -- "$@" "$vd/$v"
			fi
		done
		# how each variant's series were applied when not strictly: under
		# the comparison's header, in report.txt and report.html alike
		# shellcheck disable=SC2046 # variant names are single words
		{
			context_notes $(for cn_d in "$@"; do basename "$cn_d"; done)
			[ $# -eq 0 ] || build_notes "${MATRIX:-}" "$(basename "$1")"
		} >"$TMPD/report.notes"
		if [ $# -ge 2 ]; then
			tac "$TMPD/report.notes" >"$TMPD/report.notes.rev"
			while IFS= read -r cn_l; do
				set -- --note "$cn_l" "$@"
			done <"$TMPD/report.notes.rev"
		fi
		{
			echo "${vd#"$RESULTS"/}"
			echo
			if [ $# -ge 2 ]; then
				# No stale sibling survives a comparison that fails.
				rm -f "$vd/report.json" "$vd/report.csv" "$vd/report.html"
				if ! "$H/krepro-compare" --json "$vd/report.json" --csv "$vd/report.csv" "$@" 2>"$TMPD/compare.err"; then
					echo "(comparison failed: $(tail -n 1 "$TMPD/compare.err"))"
					report_failed=1
				fi
				if "$H/krepro-report" -o "$vd/report.html" "$@" >/dev/null 2>"$TMPD/html.log"; then
					[ -n "$HTML" ] || HTML=$vd/report.html
				else
					rm -f "$vd/report.html"
					note "report.html for $vd failed: $(head -n 1 "$TMPD/html.log")"
					report_failed=1
				fi
			else
				echo "(only one variant: nothing to compare)"
				cat "$TMPD/report.notes"
			fi
			echo
		} >>"$TMPD/report"
	done <"$TMPD/report.dirs"
	# Written whole or not at all: no *.tmp and no older report.html beside
	# a newer report.txt.
	temp_add "$REPORT.tmp"
	temp_add "$RESULTS/report.html.tmp"
	if ! { cp "$TMPD/report" "$REPORT.tmp" && mv "$REPORT.tmp" "$REPORT"; }; then
		rm -f "$REPORT.tmp" "$REPORT" "$RESULTS/report.html"
		die "cannot write $REPORT (the runs themselves are complete)"
	fi
	if [ -z "$HTML" ]; then
		rm -f "$RESULTS/report.html"
	elif ! { cp "$HTML" "$RESULTS/report.html.tmp" && mv "$RESULTS/report.html.tmp" "$RESULTS/report.html"; }; then
		rm -f "$RESULTS/report.html.tmp" "$RESULTS/report.html"
		die "cannot write $RESULTS/report.html (the runs themselves are complete)"
	fi
	# A result that differs between exact boots is shown in red on a terminal.
	if [ -t 1 ]; then
		sed "s/^NOT DETERMINISTIC: .*/$(printf '\033[1;31m')&$(printf '\033[0m')/" "$REPORT"
	else
		cat "$REPORT"
	fi
	note "matrix $(plan_fact name): $(plan_fact runs) runs ($(runs_failed) failed) in $(runs_elapsed) s; results in $RESULTS"
	note "report: $REPORT${HTML:+, $RESULTS/report.html (and report.json, report.csv beside each comparison)}"
	[ "$report_failed" = 0 ] || note "some comparisons failed: see $REPORT"
	[ "$(runs_failed)" = 0 ] && [ "$report_failed" = 0 ]
}
