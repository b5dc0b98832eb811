# shellcheck shell=sh
# lib/report.sh: run-matrix.sh's reports: the comparison of every cell's variants
# after a run (report.txt, report.html, JSON/CSV beside each comparison), the
# report tools on their own, and a report email back into a matrix.
# Reads: KREPRO_ROOT, KREPRO_OUT, RESULTS, TMPD, the plan's name, runs and
# variants (plan_fact), the bundle (bundle_dir), TENANT_PREFIX
# (lib/runs.sh), the runs' failures and time (runs_failed, runs_elapsed);
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

# from_report [-o FILE] REPORT: a report email -> the matrix that reproduces
# it, checked by the matrix parser before it is printed (or written to FILE).
from_report() {
	fr_out=
	if [ "${1:-}" = -o ]; then
		opt_arg "a file" "$@"
		fr_out=$2
		shift 2
	fi
	case ${1:-} in -h | --help | '') die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] REPORT.txt" ;; esac
	[ $# -eq 1 ] || die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] REPORT.txt"
	need_file "from-report: report" "$1"
	# refused before any work: -o never replaces a file (issue 35 row 11)
	[ -z "$fr_out" ] || [ ! -e "$fr_out" ] || die "from-report: $fr_out exists; not overwriting it"
	krepro_dirs
	host_tools
	# Its work files in one folder that goes on every exit, signals too.
	temp_dir fr_d "${TMPDIR:-/tmp}/krepro-report"
	fr_tmp=$fr_d/matrix
	key_table >"$fr_tmp.keys" || exit 2
	"$KREPRO_OUT/host/krepro-fromreport" --keys "$fr_tmp.keys" "$1" >"$fr_tmp" || {
		rm -f "$fr_tmp" "$fr_tmp.keys"
		exit 2
	}
	rm -f "$fr_tmp.keys"
	"$KREPRO_OUT/host/krepro-matrix" "$fr_tmp" >/dev/null || {
		rm -f "$fr_tmp"
		die "from-report: the matrix written from $1 does not parse (a bug: please report it with the email)"
	}
	# What it writes runs: the kit's own --dry-run plans it, or nothing is
	# written and the plan's refusal says why.
	if ! "$KREPRO_ROOT/run-matrix.sh" --dry-run -o "$fr_tmp.res" "$fr_tmp" >"$fr_tmp.plan" 2>&1; then
		fr_why=$(grep 'error:' "$fr_tmp.plan" | head -n 1 | sed "s/^run-matrix: error: //; s|$fr_tmp|the matrix|")
		rm -rf "$fr_tmp" "$fr_tmp.plan" "$fr_tmp.res"
		die "from-report: the matrix from $1 does not pass --dry-run, not written: ${fr_why:-see ./run-matrix.sh --dry-run}"
	fi
	# a size the default board cannot hold: said as the plan says it
	# (and a count of N% rounded up to one CPU)
	sed -n -e 's/^run-matrix: .*: \(cell [0-9]*: size [^ ]* scaled to .*\)$/\1/p' \
		-e 's/^run-matrix: .*: \(cell [0-9]*: [a-z_]* [0-9]*% of .* rounded up\)$/\1/p' "$fr_tmp.plan" >"$fr_tmp.scaled"
	while IFS= read -r fr_l; do note "from-report: the matrix's $fr_l"; done <"$fr_tmp.scaled"
	rm -rf "$fr_tmp.plan" "$fr_tmp.res" "$fr_tmp.scaled"
	if [ -n "$fr_out" ]; then
		[ ! -e "$fr_out" ] || die "from-report: $fr_out exists; not overwriting it"
		mv "$fr_tmp" "$fr_out"
		note "matrix written to $fr_out"
	else
		cat "$fr_tmp"
		rm -f "$fr_tmp"
	fi
	exit 0
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
		# a commit of a git reference, by its full id (lib/commits.sh)
		manifest_commits "$cn_m" | while read -r _ cn_full cn_part; do
			echo "variant $cn_v: $cn_part is commit $cn_full"
		done
	done
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
		# the other tenants' of a multi-tenant cell (the table holds the first's)
		while IFS= read -r c; do
			t=$(cell_get "$c" tenants)
			i=2
			while [ "$i" -le "${t:-1}" ]; do
				dirname "$(variant_dir "$c tenant=$TENANT_PREFIX$i")"
				i=$((i + 1))
			done
		done <"$TMPD/cells"
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
		context_notes $(for cn_d in "$@"; do basename "$cn_d"; done) >"$TMPD/report.notes"
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
