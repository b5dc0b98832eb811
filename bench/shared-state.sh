#!/bin/sh
# bench/shared-state.sh [ROOT]: the shell variables one module of the kit's
# drivers sets and another reads (issue 36: "state as data").  The modules
# are lib/**/*.sh, run-matrix.sh and build.sh.  A variable counts when a module
# assigns it (NAME=, NAME+chained assignments, read NAME, for NAME in,
# export NAME=, ${NAME:=...}; load_board's B_* variables are lib/run/board-keys'
# names, set by lib/run/board.sh) and a module that never assigns it reads it
# ($NAME, ${NAME...}, a bare name in $((...)); in a here-document only
# $NAME reads, and nothing when its delimiter is quoted).  A name every module that
# reads it also assigns (a scratch variable like i or key) is not shared.
# Prints "shared N" and then one line a variable: NAME SETTERS -> READERS;
# then "scratch N" and a line a file under $TMPD that two or more modules
# name ($TMPD/NAME, NAME up to the first expansion, less its dots there):
# NAME MODULES.
# POSIX sh and awk, no process a file: it reads the whole kit in one awk.
set -eu
root=${1:-$(dirname "$0")/..}
cd "$root"
# shellcheck disable=SC2046 # the modules' paths hold no blanks
awk '
function modname(f) { sub(/^.*\//, "", f); return f }
function setvar(name, m) { if (!((name, m) in sets)) { sets[name, m] = 1; setters[name] = setters[name] " " m } ; anyset[name] = 1 }
function readvar(name, m) { if (!((name, m) in reads)) { reads[name, m] = 1; readers[name] = readers[name] " " m } }
# words(s): split s at unquoted blanks and separators into w[1..nw]; a
# separator (; & | && || ( ) and newline) is its own word.
function words(s,    i, c, cur, q, depth, n) {
	nw = 0; cur = ""; q = ""; depth = 0; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (q == "\047") { cur = cur c; if (c == "\047") q = ""; continue }
		if (q == "\"") { cur = cur c; if (c == "\\") { cur = cur substr(s, ++i, 1); continue } if (c == "\"" && depth == 0) q = ""; continue }
		if (c == "\\") { cur = cur c substr(s, ++i, 1); continue }
		if (depth > 0) { cur = cur c; if (c == "(") depth++; else if (c == ")") depth--; continue }
		if (c == "$" && substr(s, i + 1, 1) == "(") { cur = cur "$("; i++; depth = 1; continue }
		if (c == "\047" || c == "\"") { q = c; cur = cur c; continue }
		if (c == " " || c == "\t") { if (cur != "") w[++nw] = cur; cur = ""; continue }
		if (c == ";" || c == "&" || c == "|" || c == "(" || c == ")" || c == "{" || c == "}") {
			if (cur != "" && !(c == "}" && cur ~ /\$\{/)) { w[++nw] = cur; cur = "" }
			else if (cur != "") { cur = cur c; continue }
			w[++nw] = ";"; continue
		}
		cur = cur c
	}
	if (cur != "") w[++nw] = cur
}
# clean(s): s without comments and with single-quoted text emptied (an awk
# program field $1 is not a shell variable); sq carries an open quote to the next line.
function clean(s,    i, c, n, out, prev) {
	n = length(s); out = ""; prev = " "
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (sq) { if (c == "\047") { sq = 0; out = out c } prev = c; continue }
		if (dq) { out = out c; if (c == "\\") { out = out substr(s, ++i, 1); continue } if (c == "\"") dq = 0; prev = c; continue }
		if (c == "\\") { out = out c substr(s, ++i, 1); prev = "x"; continue }
		if (c == "#" && (prev == " " || prev == "\t" || prev == ";")) break
		if (c == "\047") sq = 1
		else if (c == "\"") dq = 1
		out = out c; prev = c
	}
	return out
}
FNR == 1 { sq = 0; dq = 0; doc = ""; m = modname(FILENAME); if (FILENAME ~ /board-keys$/) m = "board.sh" }
FILENAME ~ /board-keys$/ { if ($0 !~ /^#/ && NF >= 2) setvar($2, m); next }
# a here-document body is text: never assignments; its $NAME are reads
# unless its delimiter is quoted (then nothing expands)
doc != "" {
	t = $0
	if (doctabs) sub(/^\t+/, "", t)
	if (t == doc) { doc = ""; next }
	if (docquoted) next
	s = $0
	while (match(s, /\$\{?#?[A-Za-z_][A-Za-z0-9_]*/)) {
		v = substr(s, RSTART, RLENGTH); gsub(/[${#]/, "", v); readvar(v, m)
		s = substr(s, RSTART + RLENGTH)
	}
	next
}
{
	line = clean($0)
	# a here-document opener outside a comment and arithmetic (1 << n);
	# clean() emptied a single-quoted delimiter: it is read from the raw line
	if (index(line, "<<") && line !~ /\$\(\(/ && match($0, /<<-?[ \t]*[\047"]?[A-Za-z_][A-Za-z0-9_]*/)) {
		d = substr($0, RSTART, RLENGTH); doctabs = (d ~ /^<<-/)
		sub(/^<<-?[ \t]*/, "", d); docquoted = (d ~ /^[\047"]/)
		gsub(/[\047"]/, "", d); doc = d
	}
	# reads: $NAME, ${NAME, ${#NAME, and bare names inside $((...))
	s = line
	while (match(s, /\$\{?#?[A-Za-z_][A-Za-z0-9_]*/)) {
		v = substr(s, RSTART, RLENGTH); gsub(/[${#]/, "", v); readvar(v, m)
		s = substr(s, RSTART + RLENGTH)
	}
	s = line
	while (match(s, /\$\(\([^)]*\)\)/)) {
		a = substr(s, RSTART + 3, RLENGTH - 5); s = substr(s, RSTART + RLENGTH)
		gsub(/\$\{[^}]*\}/, "", a)
		if (a ~ /[$"]/) continue # a command inside: its words are not names
		while (match(a, /[A-Za-z_][A-Za-z0-9_]*/)) { readvar(substr(a, RSTART, RLENGTH), m); a = substr(a, RSTART + RLENGTH) }
	}
	s = line
	while (match(s, /\$\{[A-Za-z_][A-Za-z0-9_]*:?=/)) {
		v = substr(s, RSTART + 2, RLENGTH - 2); sub(/:?=$/, "", v); setvar(v, m); s = substr(s, RSTART + RLENGTH)
	}
	# scratch files: $TMPD/NAME (NAME a file name to the first expansion,
	# less its dots there: "kernel.$v.sha256" is kernel), quoted text too
	s = line
	while (match(s, /\$\{?TMPD\}?\/[A-Za-z_][A-Za-z0-9_.-]*/)) {
		v = substr(s, RSTART, RLENGTH); sub(/^.*\//, "", v); sub(/\.+$/, "", v)
		if (!((v, m) in fmods)) { fmods[v, m] = 1; fusers[v] = fusers[v] " " m; fcount[v]++ }
		s = substr(s, RSTART + RLENGTH)
	}
	# assignments: at a command start, NAME=... (chained), read NAMES, for NAME
	words(line)
	start = 1
	for (i = 1; i <= nw; i++) {
		x = w[i]
		if (x == ";" ) { start = 1; continue }
		if (!start) continue
		if (x ~ /^(then|do|else|elif|if|while|until|!|time)$/) continue
		if (x ~ /^(export|readonly|local)$/) { for (i++; i <= nw && w[i] != ";"; i++) if (match(w[i], /^[A-Za-z_][A-Za-z0-9_]*/)) setvar(substr(w[i], 1, RLENGTH), m); i--; start = 0; continue }
		if (match(x, /^[A-Za-z_][A-Za-z0-9_]*=/)) { setvar(substr(x, 1, RLENGTH - 1), m); continue }
		if (x == "read") { for (i++; i <= nw && w[i] != ";"; i++) if (w[i] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) setvar(w[i], m); i--; start = 0; continue }
		if (x == "for" && i < nw) { setvar(w[i + 1], m); i++; start = 0; continue }
		start = 0
	}
}
END {
	n = 0
	for (v in readers) {
		if (!(v in anyset)) continue
		k = split(readers[v], r, " "); out = ""
		for (j = 1; j <= k; j++) if (!((v, r[j]) in sets)) out = out " " r[j]
		if (out == "") continue
		list[++n] = v " " substr(setters[v], 2) " ->" out
	}
	print "shared " n
	# sorted by name (insertion sort: a few hundred lines at most)
	for (i = 2; i <= n; i++) { t = list[i]; for (j = i - 1; j >= 1 && list[j] > t; j--) list[j + 1] = list[j]; list[j + 1] = t }
	for (i = 1; i <= n; i++) print list[i]
	# the scratch files under TMPD that more than one module names
	n = 0
	for (v in fcount) if (fcount[v] > 1) flist[++n] = v substr(fusers[v], 1)
	print "scratch " n
	for (i = 2; i <= n; i++) { t = flist[i]; for (j = i - 1; j >= 1 && flist[j] > t; j--) flist[j + 1] = flist[j]; flist[j + 1] = t }
	for (i = 1; i <= n; i++) print flist[i]
}' lib/run/board-keys $(find lib -name '*.sh' | LC_ALL=C sort) run-matrix.sh build.sh # (paths without blanks)
