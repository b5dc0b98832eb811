# meta-tables.awk: the C tables the suites' and monitors' folders declare in
# their meta files, so adding a folder is the only edit (docs/ARCHITECTURE.md).
#   awk -v table=monitors -f tools/meta-tables.awk monitors/*/meta
#       "monitor NAME SAMPLER" lines -> KRP_MONITOR("NAME", SAMPLER)
#       and each monitor folder's "param KEY CHECK WHERE DEFAULT TEXT" line
#       -> KRP_MONITOR_PARAM("KEY", "DEFAULT") (krepro-monitor's defaults;
#       the value the job gives reaches it in KREPRO_MONITOR_PARAMS)
#   awk -v table=parse_headers -f tools/meta-tables.awk suites/*/meta monitors/*/meta
#       #include "<folder>/parse.h" for every folder that has one
#   awk -v table=parsers -f tools/meta-tables.awk suites/*/meta monitors/*/meta
#       "parser FILE FUNCTION [named]" lines ->
#       KRP_RAW_FILE("FILE", FUNCTION, NAMED, KRP_RAW_SUITE|KRP_RAW_MONITOR)
#   awk -v table=lkp_suites -f tools/meta-tables.awk suites/*/meta
#       krepro-lkpjob's two tables (under #ifdef KRP_LKP_SUITE and
#       #ifdef KRP_LKP_RULES): every suite folder and its lines
#         lkp NAME                lkp-tests' other name for the suite
#                                 -> KRP_LKP_SUITE("NAME", "<folder>")
#         lkp key LKP-KEY KEY     lkp's name for the suite's parameter KEY
#         lkp value KEY LKP KIT   lkp's value LKP of KEY is the suite's KIT
#         lkp default KEY VALUE   lkp's VALUE of KEY is the suite's default:
#                                 left out, so the path is a kit matrix's
#         lkp refuse KEY PAT|... WHY  values (globs) the kit cannot run,
#                                 refused in one line saying WHY
#         lkp unset KEY A|B       a job that leaves KEY out runs as lkp-tests
#                                 runs it then: KEY A (A|B: the axis "[A, B]")
#         lkp needs KEY WHY       ... or is refused saying what lkp-tests
#                                 does then, which the kit does not
#         lkp per LKP-KEY KEY S   lkp's duration LKP-KEY is KEY counts of S
#                                 seconds (unixbench: runtime/10 iterations)
#       -> KRP_LKP_KEY, KRP_LKP_VALUE, KRP_LKP_DEFAULT, KRP_LKP_REFUSE,
#       KRP_LKP_UNSET (its value NULL for needs, its reason NULL for unset),
#       KRP_LKP_PER
#       (KEY: one of the suite's own param lines)
#   awk -v table=report_rules -f tools/meta-tables.awk suites/*/meta
#       the report reader's rules of a suite (tools/host/lib/input/
#       report_params.h; the functions in suites/<name>/report.c):
#         report find ORDER FUNCTION  a finder of its test in an email no
#                                 other rule found one in, tried by ORDER
#                                 -> KRP_REPORT_FIND(FUNCTION), in ORDER
#         report fix FUNCTION     a change of every test found (its suite's)
#                                 -> KRP_REPORT_FIX(FUNCTION)
#   awk -v table=monitors_md -f tools/meta-tables.awk monitors/*/meta
#       "doc NAME | source | raw sample | metrics | reduced" lines -> the rows
#       of docs/MONITORS.md's table (make docs puts them there)
#   awk -v table=tests -f tools/meta-tables.awk suites/*/meta
#       each suite's "tests SOURCE..." line -> "SUITE NAME" lines: the names
#       its guest programs run, read from them (a "param test" check
#       "enum:@tests" or "words:@tests" is this list: lib/shared/cells.sh's
#       key_table; the Makefile writes out/gen/<suite>.tests).  A SOURCE,
#       relative to the suite's folder, in the order given:
#         DIR/*.c      the name of each file of DIR (will-it-scale's tests/)
#         FILE:TABLE   the C initializer "TABLE[...] = { ... };" in FILE:
#                      each string literal, or each braced row's first;
#                      "" skipped
#         FILE:A*B     each name of table A followed by each of table B
#                      ("" included: A's names themselves)
#         FILE.sh:VAR  the patterns of FILE's "case $VAR in # tests" block
#                      (its lines at the case's own indentation; "*" aside)
#   LC_ALL=C awk -v table=meaning -f tools/meta-tables.awk monitors/*/meta suites/*/meta
#       every line, as the C string krp_meaning_text (core/meaning.h reads
#       the metrics' meaning from it)
# Checked in every table, no table of their own: a suite's "size KEY
# refuse|scale WHEN SHARE" lines, which lib/shared/cells.awk reads from the meta
# files: how much of KEY (one of its param lines) a cell holds in 3/5 of
# its board's memory, the first line whose WHEN holds ("-", or KEY=GLOB|...
# and KEY!=GLOB|... joined by ',', a GLOB's trailing '*' any rest): SHARE N
# (N times KEY: N processes), /N (a Nth of it) or any (none: any size); a
# size above that is refused (refuse) or, a "size" KEY, scaled to it
# (scale: job.conf gets the bytes and size_asked; SHARE 1, /N or any);
# "size KEY node WHEN /N": a cell that leaves KEY out, on a board of 2 or
# more NUMA nodes, gets a Nth of a node's memory (a default the plan says).
# Also "sweep KEY" (lib/shared/cells.awk): a cell without KEY runs lkp-tests'
# sweep of task counts, timed by the counts its board gives; "time KEY
# NAME=N...": each of a cell's tests runs runtime x KEY.
# A bad line or a name given twice stops it naming file and line.  So does
# a line that is not safe inside a C string (a backslash, a double quote,
# "??", which C11 reads as a trigraph, or a byte outside printable ASCII and
# tab), and two meaning lines that give one metric two directions: the same
# pattern, or a plain name and another folder's pattern matching it, say
# higher in one place and lower or none in the other, and a meaning line
# for another folder's metrics (own() below).
function bad(msg) { bad_at(FILENAME ":" FNR, msg) }
function bad_at(where, msg) {
	printf "%s: %s\n", where, msg > "/dev/stderr"
	failed = 1
	exit 2
}
function folder(    p) {
	split(FILENAME, p, "/")
	return p[1] "/" p[2]
}
function once(name, kind) {
	if ((kind, name) in at) bad(kind " " name " again (first at " at[kind, name] ")")
	at[kind, name] = FILENAME ":" FNR
	named[++nnamed] = kind SUBSEP name # in file order: "for (k in at)" is each awk's own
}
# A meaning line's pattern as an anchored regular expression ('*': any run).
function glob_re(p,    r, c, i) {
	r = "^"
	for (i = 1; i <= length(p); i++) {
		c = substr(p, i, 1)
		if (c == "*") r = r ".*"
		else if (index("\\^$.[]|()+?{}/", c)) r = r "[" (c == "^" || c == "\\" || c == "]" ? "\\" c : c) "]"
		else r = r c
	}
	return r "$"
}
# Two folders' lines: the same metric, two directions?
function contradicts(i, j) {
	if (mdir[i] == mdir[j] || mfolder[i] == mfolder[j] && mpat[i] != mpat[j]) return 0
	if (mpat[i] == mpat[j]) return 1
	return (mpat[i] !~ /\*/ && mpat[i] ~ glob_re(mpat[j])) || (mpat[j] !~ /\*/ && mpat[j] ~ glob_re(mpat[i]))
}
{
	if (index($0, "\\") || index($0, "\""))
		bad("a backslash or a double quote: not safe in the C tables")
	if (index($0, "??"))
		bad("\"??\" (a C trigraph): not safe in the C tables")
	if ($0 ~ /[^\t -~]/)
		bad("a control character or a byte outside ASCII: not safe in the C tables")
}
FNR == 1 && table == "meaning" { out = out "\"# file: " FILENAME "\\n\"\n" }
table == "meaning" { out = out "\"" $0 "\\n\"\n" }
# The names a folder's metrics start with are its own (the folder's name,
# its monitor, parser and lkp NAME lines, its "metrics NAME..." line), each
# one folder's: a meaning line gives meaning to its folder's metrics only
# (checked at END, a name may be declared below its use).
function own(name, where) {
	if ((name in owner) && owner[name] != folder())
		bad_at(where, "metrics " name ".* are claimed here and at " owned_at[name] ": one folder's metrics")
	if (!(name in owner)) {
		owner[name] = folder()
		owned_at[name] = where
	}
}
($1 == "monitor" || $1 == "parser" || $1 == "lkp" && NF == 2) && NF >= 2 { own($2, FILENAME ":" FNR) }
$1 == "metrics" {
	if (NF < 2) bad("expected \"metrics NAME...\": the prefixes of this folder's metrics")
	for (i = 2; i <= NF; i++) {
		if ($i !~ /^[a-z][a-z0-9_-]*$/) bad("\"" $i "\": not a metric prefix")
		own($i, FILENAME ":" FNR)
	}
}
# A meaning line: "PATTERN WORD..." (core/meaning.h), its direction if any.
NF >= 2 && $1 !~ /^(#|param$|monitor$|parser$|doc$|lkp$|tests$|metrics$|size$|sweep$|time$|report$)/ {
	# its pattern's name: up to the first '.' or '*'; none ("*.time.*"): a
	# shape any suite's metrics may have, never a headline
	pn = $1
	sub(/[.*].*$/, "", pn)
	nmean++
	mean_name[nmean] = pn; mean_folder[nmean] = folder(); mean_where[nmean] = FILENAME ":" FNR
	if (pn == "" && $0 ~ /[ \t]headline([ \t]|$)/) bad($1 ": a headline is one of the folder's own metrics, named")
	for (i = 2; i <= NF; i++) {
		if ($i !~ /^(higher|lower|none)$/) continue
		nm++
		mpat[nm] = $1; mdir[nm] = $i; mwhere[nm] = FILENAME ":" FNR; mfolder[nm] = folder()
		for (k = 1; k < nm; k++)
			if (contradicts(k, nm))
				bad($1 " is " $i " here, but " mpat[k] " is " mdir[k] " at " mwhere[k] " (one metric, one meaning)")
		break
	}
}
FNR == 1 && table == "parse_headers" {
	d = folder()
	h = d "/parse.h"
	if ((getline line < h) >= 0) {
		close(h)
		sub(/^[^\/]*\//, "", d)
		out = out "#include \"" d "/parse.h\"\n"
	}
}
FNR == 1 && FILENAME ~ /^suites\/[^\/]+\/meta$/ {
	split(FILENAME, sp, "/")
	once(sp[2], "lkp")
	if (table == "lkp_suites") out = out sprintf("KRP_LKP_SUITE(\"%s\", \"%s\")\n", sp[2], sp[2])
}
# (after the lkp name check above: a folder's name that another folder's
# "lkp NAME" took is said as that, not as a claim on its metrics)
FNR == 1 { split(folder(), fp, "/"); own(fp[2], FILENAME ":" FNR) }
# lkp lines: lkp-tests' names and semantics for this suite (the header says
# which forms); KEY must be one of the suite's own param lines (checked at END).
function lkp_key(k, f) {
	if (k !~ /^[a-z][a-z0-9_]*$/) bad("\"" k "\": not a parameter name")
	if (f) lkp_uses[++nlkp] = f SUBSEP k SUBSEP FILENAME ":" FNR
}
function lkp_value(v) {
	if (v !~ /^[A-Za-z0-9_.%:+-]+$/) bad("\"" v "\": a value of [A-Za-z0-9_.%:+-]")
}
$1 == "param" && FILENAME ~ /^suites\/[^\/]+\/meta$/ { suite_param[folder(), $2] = 1 }
$1 == "lkp" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("an lkp line is in suites/<name>/meta")
	split(FILENAME, sp, "/")
	if (NF == 2 && $2 !~ /^(key|value|default|refuse|unset|needs)$/) {
		if ($2 !~ /^[a-z][a-z0-9_.-]*$/) bad("expected \"lkp NAME\" (lkp-tests' name of this suite)")
		once($2, "lkp")
		if (table == "lkp_suites") out = out sprintf("KRP_LKP_SUITE(\"%s\", \"%s\")\n", $2, sp[2])
	} else if ($2 == "key" && NF == 4) {
		lkp_key($3); lkp_key($4, folder())
		once(sp[2] "/" $3, "lkp key")
		lkp_rules = lkp_rules sprintf("KRP_LKP_KEY(\"%s\", \"%s\", \"%s\")\n", sp[2], $3, $4)
	} else if ($2 == "value" && NF == 5) {
		lkp_key($3, folder()); lkp_value($4); lkp_value($5)
		once(sp[2] "/" $3 "=" $4, "lkp value")
		lkp_rules = lkp_rules sprintf("KRP_LKP_VALUE(\"%s\", \"%s\", \"%s\", \"%s\")\n", sp[2], $3, $4, $5)
	} else if ($2 == "default" && NF == 4) {
		lkp_key($3, folder()); lkp_value($4)
		once(sp[2] "/" $3, "lkp default")
		lkp_rules = lkp_rules sprintf("KRP_LKP_DEFAULT(\"%s\", \"%s\", \"%s\")\n", sp[2], $3, $4)
	} else if ($2 == "refuse" && NF >= 5) {
		lkp_key($3, folder())
		if ($4 !~ /^[A-Za-z0-9_.*-]+([|][A-Za-z0-9_.*-]+)*$/) bad("\"" $4 "\": patterns of [A-Za-z0-9_.*-] joined by '|'")
		why = $0
		sub(/^[ \t]*lkp[ \t]+refuse[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", why)
		why_fits(why)
		lkp_rules = lkp_rules sprintf("KRP_LKP_REFUSE(\"%s\", \"%s\", \"%s\", \"%s\")\n", sp[2], $3, $4, why)
	} else if ($2 == "unset" && NF == 4) {
		lkp_key($3, folder())
		n = split($4, vals, "|")
		for (i = 1; i <= n; i++) lkp_value(vals[i])
		once(sp[2] "/" $3, "lkp unset")
		v = $4
		if (n > 1) { gsub(/[|]/, ", ", v); v = "[" v "]" } # the matrix's form of an axis
		lkp_rules = lkp_rules sprintf("KRP_LKP_UNSET(\"%s\", \"%s\", \"%s\", NULL)\n", sp[2], $3, v)
	} else if ($2 == "per" && NF == 5) {
		if ($3 !~ /^[a-z][a-z0-9_]*$/ || $5 !~ /^[1-9][0-9]*$/) bad("expected \"lkp per LKP-KEY KEY SECONDS\" (a name, a parameter, a whole number)")
		lkp_key($4, folder())
		once(sp[2] "/" $3, "lkp per")
		lkp_rules = lkp_rules sprintf("KRP_LKP_PER(\"%s\", \"%s\", \"%s\", \"%s\")\n", sp[2], $3, $4, $5)
	} else if ($2 == "needs" && NF >= 4) {
		lkp_key($3, folder())
		once(sp[2] "/" $3, "lkp unset")
		why = $0
		sub(/^[ \t]*lkp[ \t]+needs[ \t]+[^ \t]+[ \t]+/, "", why)
		why_fits(why)
		lkp_rules = lkp_rules sprintf("KRP_LKP_UNSET(\"%s\", \"%s\", NULL, \"%s\")\n", sp[2], $3, why)
	} else
		bad("expected \"lkp NAME\", \"lkp key LKP-KEY KEY\", \"lkp value KEY LKP-VALUE VALUE\", \"lkp default KEY VALUE\", \"lkp refuse KEY PATTERN|... WHY\", \"lkp unset KEY VALUE|...\", \"lkp needs KEY WHY\" or \"lkp per LKP-KEY KEY SECONDS\"")
}
# size: a suite's size on a board (the header says how; lib/shared/cells.awk reads
# them); KEY is one of its param lines (checked at END, as lkp's are).
$1 == "size" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("a size line is in suites/<name>/meta")
	zc = "[a-z][a-z0-9_]*!?=[A-Za-z0-9_.-]+[*]?([|][A-Za-z0-9_.-]+[*]?)*"
	if (NF != 5 || $3 !~ /^(refuse|scale|node)$/ || ($4 != "-" && $4 !~ ("^" zc "(," zc ")*$")) ||
	    $5 !~ /^(any|[1-9][0-9]*|\/[1-9][0-9]*)$/)
		bad("expected \"size KEY refuse|scale|node WHEN SHARE\" (WHEN: - or KEY=GLOB|... and KEY!=GLOB|... joined by ','; SHARE: N, /N or any)")
	if ($3 == "node" && $5 !~ /^\/[1-9]/)
		bad("a node size is a Nth of a node's memory: SHARE /N")
	if ($3 == "scale" && ($2 != "size" || $5 ~ /^[0-9]/ && $5 != 1))
		bad("a scaled size is the key size, its SHARE 1, /N or any (job.conf's size_asked)")
	lkp_key($2, folder())
}
# sweep KEY: a cell that leaves KEY out runs lkp-tests' sweep of task
# counts (will-it-scale's nr_task): lib/shared/cells.awk times it by the counts
# the board gives; KEY is one of its param lines.
$1 == "sweep" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("a sweep line is in suites/<name>/meta")
	if (NF != 2) bad("expected \"sweep KEY\" (the parameter whose absence is lkp-tests' sweep)")
	split(FILENAME, sp, "/")
	once(sp[2], "sweep")
	lkp_key($2, folder())
}
# time KEY NAME=N...: each of a cell's tests runs runtime x KEY (a set
# NAME of the test parameter counts N tests): lib/shared/cells.awk times the cell
# so; KEY is one of its param lines.
$1 == "time" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("a time line is in suites/<name>/meta")
	if (NF < 2) bad("expected \"time KEY NAME=N...\"")
	for (i = 3; i <= NF; i++) if ($i !~ /^[A-Za-z0-9_.-]+=[1-9][0-9]*$/) bad("\"" $i "\": expected NAME=N, a set of the test parameter and its count of tests")
	split(FILENAME, sp, "/")
	once(sp[2], "time")
	lkp_key($2, folder())
}
# report: the report reader's rules (the header says how).
$1 == "report" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("a report line is in suites/<name>/meta")
	if (!(NF == 3 && $2 == "fix" || NF == 4 && $2 == "find" && $3 ~ /^[1-9][0-9]*$/) || $NF !~ /^[a-z_][a-z0-9_]*$/)
		bad("expected \"report find ORDER FUNCTION\" or \"report fix FUNCTION\" (a C name)")
	once($NF, "report")
	if ($2 == "fix") fixes = fixes sprintf("KRP_REPORT_FIX(%s)\n", $NF)
	else {
		once($3 + 0, "report find")
		find_order[++nfind] = $3 + 0; find_fn[nfind] = $NF
	}
}
# tests: the names a suite's guest programs run (the header says how).
function test_name(n) {
	if (n == "") return
	if (n !~ /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/) bad("test name \"" n "\" from " src ": not a word of [A-Za-z0-9_.-]")
	once(n, "test " tsuite)
	if (table == "tests") out = out tsuite " " n "\n"
	ntests++
}
# c_table FILE NAME ARR: the names of C table NAME in FILE into ARR[1..]
# A refusal's WHY is printed after "KEY: VALUE: " in one message of 256
# bytes (krp_matrix_err): a longer one would be cut short unseen.
function why_fits(why) {
	if (length(why) > 180) bad("a refusal's reason is one line of at most 180 characters (this one: " length(why) "): say it shorter")
}
function c_table(file, name, arr,    line, text, found, n, i, c, depth, row, lit, s) {
	while ((getline line < file) > 0) {
		if (!found && line ~ ("(^|[^A-Za-z0-9_])" name "\\[[^]]*\\][ \t]*=[ \t]*[{]")) {
			found = 1
			sub("^.*" name "\\[[^]]*\\][ \t]*=[ \t]*", "", line)
		}
		if (found) {
			text = text line "\n"
			if (line ~ /^[ \t]*}[ \t]*;/ || line ~ /}[ \t]*;[ \t]*$/) break
		}
	}
	close(file)
	if (!found) bad("no C table " name "[] = { ... } in " file)
	n = 0
	for (i = 1; i <= length(text); i++) {
		c = substr(text, i, 1)
		if (c == "/" && substr(text, i + 1, 1) == "*") {
			s = index(substr(text, i + 2), "*/")
			if (!s) break
			i += s + 2
		} else if (c == "{") {
			if (++depth == 2) row = 1
		} else if (c == "}") {
			if (--depth == 0) break
		} else if (c == "\"") {
			s = index(substr(text, i + 1), "\"")
			lit = substr(text, i + 1, s - 1)
			i += s
			if (depth == 1 || row) arr[++n] = lit
			row = 0
		}
	}
	if (n == 0) bad("C table " name " in " file ": no string literals")
	return n
}
# sh_case FILE VAR: the patterns of FILE's "case $VAR in # tests" block
function sh_case(file, var,    line, found, ind, w, n, i, more) {
	while ((getline line < file) > 0) {
		if (!found) {
			if (line ~ ("^\t*case [$]" var " in # tests$")) {
				found = 1
				ind = line
				sub(/[^\t].*$/, "", ind)
			}
			continue
		}
		if (line == ind "esac") break
		if (!more && (substr(line, 1, length(ind)) != ind || substr(line, length(ind) + 1, 1) ~ /[\t#]/)) continue
		more = line ~ /\\$/
		sub(/\).*$/, "", line)
		gsub(/[\t\\ ]/, "", line)
		n = split(line, w, "|")
		for (i = 1; i <= n; i++) if (w[i] != "*") test_name(w[i])
	}
	close(file)
	if (!found) bad("no \"case $" var " in # tests\" line in " file)
}
function test_source(spec, d,    cmd, f, f2, a, b, na, nb, i, j, parts) {
	src = d "/" spec
	if (spec ~ /^[A-Za-z0-9_.-]+\/\*\.c$/) {
		cmd = "cd '" d "/" substr(spec, 1, length(spec) - 4) "' 2>/dev/null && LC_ALL=C ls"
		while ((cmd | getline f) > 0) if (f ~ /\.c$/) test_name(substr(f, 1, length(f) - 2))
		close(cmd)
	} else if (spec ~ /^[A-Za-z0-9_.-]+\.sh:[A-Za-z_][A-Za-z0-9_]*$/) {
		split(spec, parts, ":")
		sh_case(d "/" parts[1], parts[2])
	} else if (spec ~ /^[A-Za-z0-9_.-]+\.[ch]:[A-Za-z_][A-Za-z0-9_]*(\*[A-Za-z_][A-Za-z0-9_]*)?$/) {
		split(spec, parts, ":")
		f = d "/" parts[1]
		if ((getline i < f) < 0) bad("no file " f)
		close(f)
		f2 = parts[2]
		split(f2, parts, "*")
		na = c_table(f, parts[1], a)
		nb = 1; b[1] = ""
		if (2 in parts) { delete b; nb = c_table(f, parts[2], b) }
		for (i = 1; i <= na; i++) if (a[i] != "") for (j = 1; j <= nb; j++) test_name(a[i] b[j])
	} else
		bad("bad tests source \"" spec "\" (DIR/*.c, FILE:TABLE, FILE:A*B or FILE.sh:VAR)")
}
$1 == "tests" {
	if (FILENAME !~ /^suites\/[^\/]+\/meta$/) bad("a suite's tests are declared in suites/<name>/meta")
	if (NF < 2) bad("expected \"tests SOURCE...\" (the names its guest programs run)")
	split(FILENAME, sp, "/")
	tsuite = sp[2]
	once(tsuite, "tests")
	ntests = 0
	for (ti = 2; ti <= NF; ti++) test_source($ti, folder())
	if (ntests == 0) bad("no test names from " $0)
}
$1 == "param" && FILENAME ~ /^monitors\// && table == "monitors" {
	if (NF < 6 || $2 !~ /^[a-z][a-z0-9_]*$/ || $5 !~ /^[A-Za-z0-9_.:%+-]+$/) bad("expected \"param KEY CHECK WHERE DEFAULT TEXT\"")
	params = params sprintf("KRP_MONITOR_PARAM(\"%s\", \"%s\")\n", $2, $5 == "-" ? "" : $5)
}
$1 == "monitor" {
	if (NF != 3 || $2 !~ /^[a-z][a-z0-9_.-]*$/ || $3 !~ /^[a-z_][a-z0-9_]*$/)
		bad("expected \"monitor NAME SAMPLER\" (a monitor name, a C name)")
	if (FILENAME !~ /^monitors\//) bad("a monitor is declared in monitors/<family>/meta")
	once($2, "monitor")
	if (table == "monitors") out = out sprintf("KRP_MONITOR(\"%s\", %s)\n", $2, $3)
}
$1 == "parser" {
	if ((NF != 3 && NF != 4) || (NF == 4 && $4 != "named") ||
	    $2 !~ /^[a-z][a-z0-9_.-]*$/ || $3 !~ /^[a-z_][a-z0-9_]*$/)
		bad("expected \"parser FILE FUNCTION [named]\" (a raw file's name, a C name)")
	once($2, "parser")
	if (table == "parsers")
		out = out sprintf("KRP_RAW_FILE(\"%s\", %s, %d, %s)\n", $2, $3, NF == 4,
				  FILENAME ~ /^suites\// ? "KRP_RAW_SUITE" : "KRP_RAW_MONITOR")
}
$1 == "doc" {
	row = $0
	sub(/^doc[ \t]+/, "", row)
	if ($2 !~ /^[a-z][a-z0-9_.-]*$/ || $3 != "|" || split(row, cells, " [|] ") != 5)
		bad("expected \"doc NAME | source | raw sample | metrics | reduced\"")
	once($2, "doc")
	sub(/^[^ \t]+/, "| `" $2 "`", row)
	if (table == "monitors_md") out = out row " |\n"
}
END {
	if (failed) exit 2
	for (i = 1; i <= nmean; i++) {
		if (mean_name[i] == "") continue
		if (!(mean_name[i] in owner))
			bad_at(mean_where[i], mean_name[i] ": not a metric of " mean_folder[i] " (a meaning line is for the folder's own metrics: its name, monitor, parser, lkp or metrics lines)")
		if (owner[mean_name[i]] != mean_folder[i])
			bad_at(mean_where[i], mean_name[i] ": metrics of " owner[mean_name[i]] " (" owned_at[mean_name[i]] "), not of " mean_folder[i] " (one folder's metrics are given meaning there only)")
	}
	# a monitor nobody parses or documents is a folder half added
	for (i = 1; i <= nnamed; i++) {
		k = named[i]
		split(k, w, SUBSEP)
		if (w[1] == "monitor" && !(("parser", w[2]) in at)) bad_at(at[k], "monitor " w[2] " has no \"parser\" line")
		if (w[1] == "monitor" && table == "monitors_md" && !(("doc", w[2]) in at)) bad_at(at[k], "monitor " w[2] " has no \"doc\" line")
	}
	for (i = 1; i <= nlkp; i++) {
		split(lkp_uses[i], w, SUBSEP)
		if (!((w[1], w[2]) in suite_param)) bad_at(w[3], w[2] " is not a parameter of " w[1] " (its param lines)")
	}
	if (table == "lkp_suites")
		out = "#ifdef KRP_LKP_SUITE\n" out "#endif\n#ifdef KRP_LKP_RULES\n" lkp_rules "#endif\n"
	if (table == "monitors" && params != "")
		out = out "#ifdef KRP_MONITOR_PARAM\n" params "#endif\n"
	if (table == "report_rules") {
		for (i = 2; i <= nfind; i++) # by ORDER (insertion)
			for (j = i; j > 1 && find_order[j - 1] > find_order[j]; j--) {
				k = find_order[j]; find_order[j] = find_order[j - 1]; find_order[j - 1] = k
				k = find_fn[j]; find_fn[j] = find_fn[j - 1]; find_fn[j - 1] = k
			}
		for (i = 1; i <= nfind; i++) out = out sprintf("KRP_REPORT_FIND(%s)\n", find_fn[i])
		out = "/* Generated by tools/meta-tables.awk from the suites' meta files. */\n" out fixes
	}
	if (table == "monitors_md")
		out = "| monitor | source | raw sample | metrics | reduced |\n|---|---|---|---|---|\n" out
	if (table == "meaning")
		out = "/* Generated by tools/meta-tables.awk from the meta files. */\nconst char krp_meaning_text[] =\n" out "\"\";\n"
	printf "%s", out
}
