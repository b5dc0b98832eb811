# shellcheck shell=sh
# lib/run/from-report.sh: run-matrix.sh from-report: a 0-day report email into
# the matrix that reproduces it (krepro-fromreport), checked by the matrix
# parser and the kit's own --dry-run before it is printed or written; with
# --repo REPO, the email's commit and its parent in REPO become the
# reference and the two variants, as 0-day compares them.
# Reads: KREPRO_ROOT, KREPRO_OUT; environment: TMPDIR.  Sets: H (host_tools).

# from_report [-o FILE] [--repo REPO] REPORT
from_report() {
	fr_out='' fr_repo=''
	while [ $# -gt 0 ]; do
		case $1 in
		-h | --help) die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] [--repo REPO] REPORT.txt" ;;
		-o) opt_arg "a file" "$@"; fr_out=$2; shift 2 ;;
		--repo) opt_arg "a git repository" "$@"; fr_repo=$2; shift 2 ;;
		-*) die "from-report: unknown option '$1'" ;;
		*) break ;;
		esac
	done
	[ $# -eq 1 ] || die "usage: ./run-matrix.sh from-report [-o MATRIX.yaml] [--repo REPO] REPORT.txt"
	need_file "from-report: report" "$1"
	# refused before any work: -o never replaces a file (issue 35 row 11)
	[ -z "$fr_out" ] || [ ! -e "$fr_out" ] || die "from-report: $fr_out exists; not overwriting it"
	if [ -n "$fr_repo" ]; then
		[ -d "$fr_repo" ] || die "from-report: --repo $fr_repo: no such folder"
		fr_repo=$(cd "$fr_repo" && pwd)
		# it becomes the matrix's reference: (keycheck's reference check)
		case $fr_repo in *[!A-Za-z0-9_.+/:@#%=,~^-]*)
			die "from-report: --repo $fr_repo: the matrix's reference: cannot hold this path (letters, digits and _.-+/:@#%=,~^ only): give a link to it" ;;
		esac
	fi
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
	fr_commits "$1" "$fr_tmp" "$fr_repo"
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

# fr_commits EMAIL MATRIX REPO: MATRIX (krepro-fromreport's) gets the
# email's comparison.  The email names its commit (the "# commit:" line)
# and, over its table, the parent it was measured against (the first of
# two ids whose second starts the commit's; else the commit's first
# parent).  Found in REPO (a git tree, read as data by build.sh: no hook,
# filter or attribute of it runs), they are the matrix's reference (the
# parent) and variants, named by 12 digits as 0-day names them by 10 to
# 16.  Without REPO, or when REPO lacks the commit, the first comment line
# says so and the matrix keeps base.  The email's compiler and kconfig go
# into a "# 0-day build:" line the report compares with the kit's.
fr_commits() {
	fr_c=$(sed -n 's/^# commit: \([0-9a-f]\{40\}\).*/\1/p' "$2" | head -n 1)
	fr_build=$(fr_email_build "$1")
	fr_why=''
	if [ -z "$fr_c" ]; then
		[ -z "$3" ] || fr_why="the email names no commit: base, as without --repo"
	elif [ -z "$3" ]; then
		fr_why="the email's commit $(printf %.12s "$fr_c") is not compared: from-report --repo REPO (a git tree holding it) writes its comparison; base here"
	else
		# the parent over the email's table, when REPO has it
		fr_p=$(head -c 4194304 "$1" | tr -s ' \t\r' '[\n*]' | awk -v c="$fr_c" '
			/^[0-9a-f]+$/ && length($0) >= 7 && length($0) <= 40 {
				if (p != "" && index(c, $0) == 1 && index(c, p) != 1) { print p; exit }
				p = $0; next }
			{ p = "" }')
		fr_err=$fr_d/git.err
		fr_range=''
		for fr_good in ${fr_p:+"$fr_p"} "$fr_c^"; do
			if fr_range=$("$KREPRO_ROOT/build.sh" -R "git:$3@$fr_c" commit-range "$fr_good..$fr_c" 2>"$fr_err"); then
				break
			fi
			fr_range=''
		done
		if [ -z "$fr_range" ]; then
			fr_why="the email's commit $(printf %.12s "$fr_c") is not compared: $(sed -n 's/^build: error: //p' "$fr_err" | head -n 1); base here"
		else
			fr_pf=$(printf '%s\n' "$fr_range" | sed -n '1s/^good \([0-9a-f]*\) .*/\1/p')
			fr_n=$(($(printf '%s\n' "$fr_range" | wc -l) - 1))
			fr_ps=$(printf %.12s "$fr_pf") fr_cs=$(printf %.12s "$fr_c")
			# in the matrix's head, where krepro-fromreport says how to
			# compare a series (or before its first part)
			awk -v ref="git:$3@$fr_pf" -v p="$fr_ps" -v c="$fr_cs" -v n="$fr_n" '
				function head() {
					print "# 0-day compares the commit with its parent (" n " commit" (n == 1 ? "" : "s") " apart): the parent is the reference"
					print "reference: " ref
					print "variants: [" p ", " c "]"
					done = 1 }
				/^# to compare a series: / && !done { head(); next }
				/^---$/ && !done { head() }
				{ print }' "$2" >"$2.new" && mv "$2.new" "$2"
			note "from-report: $fr_ps (the parent) against $fr_cs, from $3"
		fi
	fi
	if [ -n "$fr_why" ]; then
		sed "1s/\$/: $(printf '%s\n' "$fr_why" | sed 's/[\\/&]/\\&/g')/" "$2" >"$2.new" && mv "$2.new" "$2"
		note "from-report: $fr_why"
	fi
	if [ -n "$fr_build" ]; then
		sed "1a\\
# 0-day build: $fr_build (the report says how the kit's differs)" "$2" >"$2.new" && mv "$2.new" "$2"
	fi
}

# fr_email_build EMAIL: "compiler X, kconfig Y" from the email's first
# "compiler/.../testcase:" line and the values under it (each a plain
# word of at most 64 characters, or left out).
fr_email_build() {
	head -c 4194304 "$1" | tr -s ' \t\r' '[\n*]' | awk '
		/^compiler\/.*:$/ && keys == "" { keys = substr($0, 1, length($0) - 1); next }
		keys != "" {
			nk = split(keys, k, "/"); nv = split($0, v, "/")
			if (nk != nv) { keys = ""; next }
			for (i = 1; i <= nk; i++)
				if ((k[i] == "compiler" || k[i] == "kconfig") && v[i] ~ /^[A-Za-z0-9._-]+$/ && length(v[i]) <= 64)
					out = out (out == "" ? "" : ", ") k[i] " " v[i]
			print out
			exit
		}'
}
