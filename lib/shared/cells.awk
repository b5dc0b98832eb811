# lib/shared/cells.awk: the one reader of matrix cells ("key=value ..." lines, as
# krepro-matrix writes them): every cell checked against the key table and
# its derived facts, in one process for the whole matrix (a process a cell
# made a 1,000-cell plan take minutes).  lib/shared/cells.sh's cells_awk runs it:
# plan_check (lib/run/plan.sh) for the matrix (check=1), cell_fact for one
# cell (check=0).
#
# Files, in order: KEYS (the key table, lib/shared/cells.sh key_table), BOARDS
# (NAME TYPE ACCEL CPUS CLOCK MEMORY_MODEL MEMORY NODES, MEMORY in bytes,
# NODES its NUMA nodes (1 without), one line a board, made by
# boards_table), the
# matrix (for line numbers; "-" when there is none), krepro-keycheck's
# answer (its refusals of the cells' values, read when KC_CHECK is 1, and
# its value map: the numbers of every size and duration), every
# suites/<name>/meta (their "size" lines: size_rule), the cells.
# The environment (lib/shared/cells.sh cells_awk): KC_CHECK (1: check every
# cell), KC_FIELD (print only this field; 0: the whole line), KC_MATRIX
# (its name in messages), KC_IMPORT_LINE (the line of an imported cell),
# KC_SUITES (|a|b|: suites with a run.sh), KC_MONITORS (|a|b: the
# monitors' meta files' monitor lines), KC_BOARD_DEFAULT,
# KC_BOARD_OVERRIDE, KC_EXACT_RUNS, KC_DEFAULT_RUNS, KC_RESULTS, KC_ROOTFS,
# KC_KCONFIG, KC_COMPILER, KC_TENANT_PREFIX, KC_LAVA_MACHINE (LAVA's runs:
# the board component gets ".lava..."), KC_KNOB_PATH_RE (contract.h's rule
# for a sysctl./sysfs. key's path).
# Output, a line a cell, TAB-separated, no field empty: k, runs, board,
# clock, runtime in seconds (0: none), the first seed ("-" in real mode), the result path, the job's
# defaults (key=value, space-separated, "-" for none), every default
# (host keys too; "-" for none), the memory model (on or off), the size the
# board holds instead of the cell's ("ASKED BYTES SENTENCE", the sentence
# "size 8T scaled to 1.2G for qemu-2node's 2 GiB"; "-" when the cell's size
# is run as it is), the counts given as N% that the board rounds up to one
# CPU ("nr_task 1% of qemu-2node's 2 CPUs is less than one CPU: 1, rounded
# up"; "-" for none), the job (what write_job puts in job.conf before the
# run's own lines: the cell's keys and its defaults but the host keys, a
# count in CPUs, a size in bytes, a duration in seconds, a scaled size's
# asked one as size_asked; space-separated), the matrix forms of its
# counts, sizes and durations ("matrix.KEY=VALUE" words, host.conf's;
# "-" for none), what the guest sizes itself (the suite's parameters the
# cell leaves to the guest, default "-", with their key table text's
# "(default: ...)": "size: a quarter of MemTotal; loops: upstream's"; "-"
# for none), the cell's timeout: in seconds ("-" for none).  The first
# error goes to stderr, exit 2.

function fail(msg) {
	print msg > "/dev/stderr"
	failed = 1
	exit 2
}

# the name of "a|b|c" nearest to w (edit distance; the first of equals)
function closest(w, list,    n, names, i, k, best, bk) {
	n = split(list, names, "|")
	for (i = 1; i <= n; i++) {
		k = dist(w, names[i])
		if (i == 1 || k < bk) { best = names[i]; bk = k }
	}
	return best
}

function dist(a, b,    i, j, la, lb, d, c, x, y, z) {
	la = length(a); lb = length(b)
	for (i = 0; i <= la; i++) d[i, 0] = i
	for (j = 0; j <= lb; j++) d[0, j] = j
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			c = substr(a, i, 1) != substr(b, j, 1)
			x = d[i - 1, j] + 1; y = d[i, j - 1] + 1; z = d[i - 1, j - 1] + c
			d[i, j] = x < y ? (x < z ? x : z) : (y < z ? y : z)
		}
	return d[la, lb]
}

# a key of the cell being read ("" if unset; reading cv[k] would set it)
function get(key) { return (key in cv) ? cv[key] : "" }

function digits(s) { return s != "" && s !~ /[^0-9]/ }

# the check of key k in a cell of suite s ("" if none applies)
function check_of(k, s,    i) {
	if (k ~ /^(sysctl|sysfs)\./) {
		# the rule the guest's knobs.sh applies (contract.h)
		if (substr(k, index(k, ".") + 1) !~ knob_path_re)
			fail(where_of(k) ": bad knob '" k "': after " substr(k, 1, index(k, ".")) " come names of a-z, 0-9 and '_' joined by single dots (KRP_KNOB_PATH_RE, tools/common/contract.h)")
		return "path"
	}
	for (i = 1; i <= nrows; i++)
		if (rk[i] == k && (ro[i] == "kit" || ro[i] == s || ro[i] ~ /^monitor:/)) return rc[i]
	return ""
}

function where_of(k) {
	if (import_line != "") return matrix ":" import_line
	return (k in keyline) ? matrix ":" keyline[k] : matrix
}

# check_value: one key=value of cell k (suite s) against the key table.
# The value's grammar is krepro-keycheck's (tools/common/keycheck.c, the
# one the guest's knobs.sh runs), run once over the whole plan: its first
# refusal of each cell is kcerr[cell] (for the word kctok[cell]).  The rest
# is here: unknown keys, knobs' paths and seeds' clock rules.
function check_value(key, val, s, clock,    where, check, owners, params, i, lo, hi) {
	where = where_of(key)
	check = check_of(key, s)
	if (check == "") {
		owners = ""; params = ""
		for (i = 1; i <= nrows; i++) {
			if (rk[i] == key) owners = owners (owners == "" ? "" : ", ") ro[i]
			if (ro[i] == s) params = params (params == "" ? "" : " ") rk[i]
		}
		if (owners != "")
			fail(where ": '" key "' is a parameter of " owners ", not of suite '" s "' (its parameters: " params "; suites/" s "/meta)")
		fail(where ": unknown key '" key "' (did you mean '" closest(key, allkeys) "'? keys: docs/KEYS.md)")
	}
	if ((k in kcerr) && kctok[k] == key "=" val) fail(where ": " kcerr[k])
	if (check == "seeds") {
		lo = val; sub(/-[^-]*$/, "", lo)
		hi = val; sub(/^[^-]*-/, "", hi)
		if (clock != "exact")
			fail(where ": seeds: is for clock: exact (a real-mode boot has no seed to set)")
		if (("runs" in cv) && val != lo && get("runs") != hi - lo + 1)
			fail(where ": seeds: " val " are " (hi - lo + 1) " seeds, runs: says " get("runs"))
	}
}

# A size's bytes and a duration's seconds are krepro-keycheck's (value.h,
# the kit's one reader of them): its value map holds every size and
# duration of the cells and of the key table's defaults (bytes_of,
# secs_of); a size made here (node_default) enters it where it is made.
# A number the plan computed (a scaled size's bytes) is itself.  -1: not a
# size the map holds (keycheck refused it, or it is 1P or more).
function size_bytes(v) {
	if (v in bytes_of) return bytes_of[v] + 0
	return v ~ /^[0-9]+$/ ? v + 0 : -1
}

# bytes as a size with one decimal at most: 1.2G, 307G, 512M
function shown(b,    u, i) {
	split("K M G T P", u, " ")
	for (i = 0; i < 5 && b >= 1024; i++) b /= 1024
	b = sprintf("%.1f", b)
	sub(/\.0$/, "", b)
	return b (i ? u[i] : "")
}

# A suite's size on a board (docs/BENCHMARKS.md, "Sizes on a board"): the
# first of its meta's "size KEY refuse|scale WHEN SHARE" lines whose WHEN
# holds (tools/meta-tables.awk checks them): its number, 0 for none.  The
# room is 3/5 of the board's memory, to the MiB; SHARE N: the cell holds N
# times KEY there (N processes), /N: a Nth of KEY (room N times), any: none.
function size_rule(s,    i) {
	for (i = 1; i <= nsize; i++)
		if (zs[i] == s && za[i] != "node" && holds(zw[i])) return i
	return 0
}

# "KEY=VALUE" of suite s's "size KEY node WHEN /N" line for a cell that
# leaves KEY out, on board b of 2 or more NUMA nodes: a Nth of a node's
# memory, to the MiB (numa01's two processes first touch one node: a
# quarter of the machine each filled that node); "" when none holds
function node_default(s, b,    i, nd_mb) {
	if (bnodes[b] < 2 || bmem[b] !~ /^[0-9]+$/) return ""
	for (i = 1; i <= nsize; i++)
		if (zs[i] == s && za[i] == "node" && !(zk[i] in cv) && holds(zw[i])) {
			nd_mb = int(bmem[b] / bnodes[b] / zd[i] / 1048576)
			bytes_of[nd_mb "M"] = nd_mb * 1048576
			return zk[i] "=" nd_mb "M"
		}
	return ""
}

# A cell of a suite with a "time KEY NAME=N..." meta line runs each of its
# tests (test's names joined by '+', a set NAME counting N, left out its
# default or all) for runtime x KEY (a sample's seconds x samples, in
# the suite that has one): the seconds of the whole run, for the boot's
# limit and the estimate.  RT is the cell's runtime.
function timed_seconds(s, rt,    k, n, t, parts, i, np) {
	if (!(s in timekey)) return rt
	k = (timekey[s] in cv) ? get(timekey[s]) : default_of(timekey[s], s)
	t = ("test" in cv) ? get("test") : default_of("test", s)
	if (t == "") t = "all"
	np = split(t, parts, "+")
	n = 0
	for (i = 1; i <= np; i++) n += ((s, parts[i]) in timeset) ? timeset[s, parts[i]] : 1
	return rt * (k + 0 > 0 ? k + 0 : 1) * (n > 0 ? n : 1)
}

# A cell of a suite with a "sweep KEY" meta line that leaves KEY out runs
# lkp-tests' sweep of task counts (that suite's run.sh): the seconds of
# the whole run, each count's warmup (+1) and measured seconds (its
# setup_params), the counts lkp's setup_threads_to_iterate picks for the
# board's CPUs and nodes with one thread a core and an L3 a node, as
# QEMU's boards have (the guest reads its own; docs/BENCHMARKS.md).  RT is
# the cell's runtime.
function sweep_seconds(s, b, rt,    cpus, nodes, per, secs, warm, i, n, c, seen) {
	if (!(s in sweepkey) || (sweepkey[s] in cv)) return rt
	cpus = bcpus[b] + 0; nodes = bnodes[b] + 0
	if (nodes < 1) nodes = 1
	if (cpus < 1) cpus = 1
	per = int(cpus / nodes); if (per < 1) per = 1
	secs = int(int(rt / (3 + nodes)) / 2) - 5; if (secs < 5) secs = 5
	warm = ("warmup" in cv) ? get("warmup") : default_of("warmup", s)
	warm = seconds(warm) + 1
	c[1] = 1; c[2] = per
	for (i = 1; i <= nodes; i++) c[2 + i] = i * per
	n = nodes + 2
	if (cpus >= 4) { c[++n] = int(cpus * 3 / 4); c[++n] = cpus }
	for (i = 1; i <= n; i++) seen[c[i]] = 1
	n = 0
	for (i in seen) n++
	return n * (secs + warm)
}

# WHEN: "-", or KEY=GLOB|... and KEY!=GLOB|... joined by ',' (a GLOB's
# trailing '*': any rest) on the cell's values
function holds(when,    n, c, i, k, neg, ng, g, j, v, m) {
	if (when == "-") return 1
	n = split(when, c, ",")
	for (i = 1; i <= n; i++) {
		k = c[i]; sub(/!?=.*/, "", k)
		neg = substr(c[i], length(k) + 1, 1) == "!"
		ng = split(substr(c[i], length(k) + 2 + neg), g, "|")
		v = get(k); m = 0
		for (j = 1; j <= ng; j++) {
			if (g[j] ~ /[*]$/) { if (substr(v, 1, length(g[j]) - 1) == substr(g[j], 1, length(g[j]) - 1)) m = 1 }
			else if (v == g[j]) m = 1
		}
		if (m == neg) return 0
	}
	return 1
}

function room_of(mem) { return int(mem * 3 / 5 / 1048576) * 1048576 }

# A size above the room, the matrix's or the default, of a "refuse" rule
# is refused naming the most the board takes.
function size_check(s, b,    i, key, n, v, sz, room, most, m) {
	i = size_rule(s)
	if (!i || za[i] != "refuse" || zm[i] == "any") return
	key = zk[i]; n = zm[i]
	v = (key in cv) ? get(key) : default_of(key, s)
	if (v == "" || bmem[b] !~ /^[0-9]+$/) return
	room = room_of(bmem[b]) * zd[i]
	sz = size_bytes(v)
	if (sz >= 0 && sz * n <= room) return
	most = int(room / n / 1048576)
	m = shown(bmem[b])
	fail(where_of(key) ": " key ": " v ((key in cv) ? "" : " (the default)") \
		(n > 1 ? " a process, " n " processes of " get("test") "," : "") " is more than board " b "'s " \
		substr(m, 1, length(m) - 1) " " substr(m, length(m)) "iB can hold (a cell holds at most 3/5 of its board's memory: " \
		key ": " most "M at most; docs/BENCHMARKS.md, sizes on a board)")
}

# the cell's size of a "scale" rule scaled to its board b: "ASKED BYTES
# SENTENCE", or "-"
function scaled(s, b,    i, sz, room, m) {
	i = size_rule(s)
	if (!i || za[i] != "scale") return "-"
	sz = get(zk[i])
	if (sz == "" || bmem[b] !~ /^[0-9]+$/ || zm[i] == "any") return "-"
	room = room_of(bmem[b]) * zd[i]
	if (size_bytes(sz) <= room) return "-"
	m = shown(bmem[b])
	return sz " " sprintf("%.0f", room) " " zk[i] " " sz " scaled to " shown(room) " for " b "'s " \
		substr(m, 1, length(m) - 1) " " substr(m, length(m)) "iB"
}

# the cell's counts (count: keys) given as N% that are less than one of
# board b's CPUs: the plan says each is rounded up to 1 (guest_count)
function count_notes(s, b,    i, key, v, out) {
	out = ""
	for (i = 1; i <= ntok; i++) {
		key = tok[i]; sub(/=.*/, "", key)
		v = substr(tok[i], length(key) + 2)
		if (v !~ /^[0-9]+%$/ || bcpus[b] !~ /^[0-9]+$/ || check_of(key, s) !~ /^count:/) continue
		if (int(substr(v, 1, length(v) - 1) * bcpus[b] / 100) >= 1) continue
		out = out (out == "" ? "" : "; ") key " " v " of " b "'s " bcpus[b] " CPUs is less than one CPU: 1, rounded up"
	}
	return out == "" ? "-" : out
}

# The job's words (the facts' job column): words, then the defaults
# ("-": none), each value in the guest's form; sc, the cell's scaled size
# (scaled); forms: 1 for the matrix forms instead (forms column).
function job_words(words, dflt, b, sc, forms,    n, w, i, key, v, c, out) {
	n = split(words (dflt == "-" ? "" : " " dflt), w, " ")
	out = ""
	for (i = 1; i <= n; i++) {
		key = w[i]; sub(/=.*/, "", key)
		v = substr(w[i], length(key) + 2)
		if (firstwhere[key] == "host") continue
		c = firstclass[key]
		if (forms) {
			if (c == "count" || c == "size" || c == "duration") out = out (out == "" ? "" : " ") "matrix." w[i]
			continue
		}
		if (c == "count") v = guest_count(v, bcpus[b])
		if (key == "size" && sc != "-") {
			out = out (out == "" ? "" : " ") "size_asked=" v
			v = sc; sub(/^[^ ]* /, "", v); sub(/ .*/, "", v)
		}
		if (c == "size" && v != "") v = sprintf("%.0f", size_bytes(v))
		if (c == "duration") v = seconds(v)
		out = out (out == "" ? "" : " ") key "=" v
	}
	return out == "" ? "-" : out
}

# N, or N% of the board's cpus, at least 1 ("" stays "")
function guest_count(v, cpus,    n) {
	if (v == "") return ""
	n = v ~ /%$/ ? int(substr(v, 1, length(v) - 1) * cpus / 100) : v
	return n + 0 >= 1 ? n : 1
}

function seconds(v) {
	if (v == "") return ""
	if (!(v in secs_of)) fail(matrix ": bad duration '" v "'")
	return secs_of[v] + 0
}

# the cell's defaults: keys it does not set that have one (its suite's,
# the kit's, its monitors'), in table order; host keys only if host
function defaults(s, host,    i, out, mons) {
	mons = "+" get("monitors") "+"
	out = ""
	for (i = 1; i <= nrows; i++) {
		if (rd[i] == "-" || rd[i] == "required" || (rk[i] in cv) || (rw[i] == "host" && !host)) continue
		if (ro[i] == s || ro[i] == "kit" || (ro[i] ~ /^monitor:/ && index(mons, "+" substr(ro[i], 9) "+")))
			out = out (out == "" ? "" : " ") rk[i] "=" rd[i]
	}
	return out == "" ? "-" : out
}

# what the guest sizes itself: suite s's parameters the cell leaves out
# whose default the guest resolves (rg: "a quarter of MemTotal"), but
# host_key (node_default's)
function guest_defaults(s, host_key,    i, out) {
	out = ""
	for (i = 1; i <= nrows; i++)
		if (ro[i] == s && (i in rg) && !(rk[i] in cv) && rk[i] != host_key) out = out (out == "" ? "" : "; ") rk[i] ": " rg[i]
	return out == "" ? "-" : out
}

function default_of(key, s,    i) {
	for (i = 1; i <= nrows; i++)
		if (rk[i] == key && rd[i] != "-" && rd[i] != "required" && (ro[i] == s || ro[i] == "kit")) return rd[i]
	return ""
}

# The result path's parameters (docs/ARCHITECTURE.md, Result layout): the
# path keys sorted by key=value, joined by '-'.  Suite s's own parameters
# are LKP's bare values while the cell sets each of s's path parameters
# before them in key order; once it leaves one out, the later ones are
# key=value, so an absent parameter cannot pass another's value as its own
# (their values are the key table's numbers, sizes, durations and names).
# Every other key (the kit's knobs, sysctl.*, sysfs.*, kernel_cmdline, a
# monitor's, the tenant) is key=value, its value with each byte outside
# [A-Za-z0-9_.+=:] as %XX: '-' stays the separator and '/' never appears.
function path_params(tok, ntok, s,    i, j, n, p, t, k, v, out, gap) {
	n = 0
	for (i = 1; i <= ntok; i++) {
		k = tok[i]; sub(/=.*/, "", k)
		if (k in nonpath) continue
		p[++n] = tok[i]
	}
	for (i = 2; i <= n; i++) {
		t = p[i]
		for (j = i - 1; j >= 1 && p[j] > t; j--) p[j + 1] = p[j]
		p[j + 1] = t
	}
	out = ""
	for (i = 1; i <= n; i++) {
		k = p[i]; sub(/=.*/, "", k)
		v = substr(p[i], length(k) + 2)
		if ((k, s) in suitepath) {
			gap = 0
			for (j = 1; j <= nrows; j++)
				if (ro[j] == s && rw[j] == "path" && rk[j] < k && !(rk[j] in cv)) gap = 1
			t = v; gsub(/[^-a-zA-Z0-9+=:.%]/, "_", t)
			if (gap) t = k "=" t
		} else t = k "=" escaped(v)
		out = out (i > 1 ? "-" : "") t
	}
	return out
}

function escaped(v,    i, c, out) {
	out = ""
	for (i = 1; i <= length(v); i++) {
		c = substr(v, i, 1)
		out = out (c ~ /[A-Za-z0-9_.+=:]/ ? c : sprintf("%%%02X", ord[c]))
	}
	return out
}

BEGIN {
	check = ENVIRON["KC_CHECK"] == 1; field = ENVIRON["KC_FIELD"] + 0
	matrix = ENVIRON["KC_MATRIX"]; import_line = ENVIRON["KC_IMPORT_LINE"]
	suites = ENVIRON["KC_SUITES"]; board_default = ENVIRON["KC_BOARD_DEFAULT"]
	monitors = ENVIRON["KC_MONITORS"]
	board_override = ENVIRON["KC_BOARD_OVERRIDE"]; exact_runs = ENVIRON["KC_EXACT_RUNS"]
	default_runs = ENVIRON["KC_DEFAULT_RUNS"]; results = ENVIRON["KC_RESULTS"]
	rootfs = ENVIRON["KC_ROOTFS"]; kconfig = ENVIRON["KC_KCONFIG"]
	compiler = ENVIRON["KC_COMPILER"]; tenant_prefix = ENVIRON["KC_TENANT_PREFIX"]
	lava_machine = ENVIRON["KC_LAVA_MACHINE"]
	for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
	knob_path_re = ENVIRON["KC_KNOB_PATH_RE"]
	if (knob_path_re == "") fail("KRP_KNOB_PATH_RE is missing from tools/common/contract.h")
	for (i = 5; i < ARGC - 1; i++) metafile[ARGV[i]] = 1
}
FILENAME == ARGV[1] {
	rk[++nrows] = $1; rc[nrows] = $2; rw[nrows] = $3; ro[nrows] = $4; rd[nrows] = $5
	# a default the guest resolves is said in the row's text: "(default: ...)"
	if ($5 == "-" && match($0, /\(default: [^)]*\)/)) rg[nrows] = substr($0, RSTART + 10, RLENGTH - 11)
	if (!($1 in firstwhere)) {
		firstwhere[$1] = $3
		# a key's class is its first row's (lib/shared/cells.sh load_key_classes)
		firstclass[$1] = $2 ~ /^count:/ ? "count" : $2
		allkeys = allkeys (allkeys == "" ? "" : "|") $1
		# the path names every key that changes a run: a job key too
		# (warmup, interval), not a host one (the board, clock and model
		# are their own components; runs and seeds are runs), nor the
		# monitors, which lkp-tests' paths leave out too (every 0-day job
		# lists a dozen): a kept run's are checked instead (plan.sh)
		if ($3 == "host" || $1 == "suite" || $1 == "monitors") nonpath[$1] = 1
	}
	if ($3 == "path" && $4 !~ /^(kit|monitor:)/) suitepath[$1, $4] = 1
	next
}
FILENAME == ARGV[2] { btype[$1] = $2; baccel[$1] = $3; bcpus[$1] = $4; bclock[$1] = $5; bmodel[$1] = $6; bmem[$1] = $7; bnodes[$1] = $8 + 0; next }
FILENAME == ARGV[4] {
	# krepro-keycheck's value map: = TAB duration|size TAB VALUE TAB NUMBER
	if (substr($0, 1, 2) == "=\t") {
		split($0, f, "\t")
		if (f[2] == "duration") secs_of[f[3]] = f[4]; else bytes_of[f[3]] = f[4]
		next
	}
	# krepro-keycheck's answer: CELL TAB KEY=VALUE TAB MESSAGE
	i = index($0, "\t"); c = substr($0, 1, i - 1); v = substr($0, i + 1)
	i = index(v, "\t"); kctok[c] = substr(v, 1, i - 1); kcerr[c] = substr(v, i + 1)
	next
}
FILENAME == ARGV[3] {
	key = $0
	if (sub(/ *:.*/, "", key) && key != "" && !(key in keyline)) keyline[key] = FNR
	next
}
FILENAME in metafile {
	# the folder's suite (suites/<name>/meta), whose lines these are
	if (FNR == 1) { ms = FILENAME; sub(/\/meta$/, "", ms); sub(/.*\//, "", ms) }
	# sweep KEY: the suite's cells without KEY sweep the task count
	# (sweep_seconds)
	if ($1 == "sweep") { sweepkey[ms] = $2; next }
	# time KEY NAME=N...: each test runs runtime x KEY (timed_seconds)
	if ($1 == "time") {
		timekey[ms] = $2
		for (i = 3; i <= NF; i++) { tn = $i; sub(/=.*/, "", tn); timeset[ms, tn] = substr($i, length(tn) + 2) + 0 }
		next
	}
	# size KEY refuse|scale WHEN SHARE (size_rule), of the folder's suite
	if ($1 != "size") next
	zs[++nsize] = ms
	zk[nsize] = $2; za[nsize] = $3; zw[nsize] = $4; zm[nsize] = 1; zd[nsize] = 1
	# node: the default of a cell that leaves KEY out, on a board of 2 or
	# more NUMA nodes (node_default); refuse and scale: size_rule
	if ($5 == "any") zm[nsize] = "any"
	else if ($5 ~ /^\//) zd[nsize] = substr($5, 2) + 0
	else zm[nsize] = $5 + 0
	next
}
{
	k++
	delete cv
	ntok = split($0, tok, " ")
	for (i = 1; i <= ntok; i++) {
		key = tok[i]; sub(/=.*/, "", key)
		val = substr(tok[i], length(key) + 2)
		if (!(key in cv)) cv[key] = val
	}
	s = get("suite")
	if (check) {
		if (s == "" || s ~ /[^a-z0-9_-]/) fail(matrix ": cell " k ": bad or missing suite '" s "'")
		if (index(suites, "|" s "|") == 0) fail(matrix ": cell " k ": unknown suite '" s "' (no suites/" s "/run.sh)")
	}
	b = board_override != "" ? board_override : ("board" in cv) ? get("board") : board_default
	if (!(b in btype)) fail("board '" b "' was not loaded (a bug: please report it)")
	clock = ("clock" in cv) ? get("clock") : bclock[b]
	if (clock == "") clock = "real"
	if (check)
		for (i = 1; i <= ntok; i++) {
			key = tok[i]; sub(/=.*/, "", key)
			check_value(key, substr(tok[i], length(key) + 2), s, clock)
		}
	# runs: runs:, else the seeds' count, else 8 seeds (exact), else the default
	runs = get("runs")
	if (runs == "" && get("seeds") ~ /-/) { lo = get("seeds"); sub(/-.*/, "", lo); hi = get("seeds"); sub(/.*-/, "", hi); runs = hi - lo + 1 }
	if (runs == "" && clock == "exact") runs = exact_runs
	if (runs == "") runs = default_runs
	if (check && (!digits(runs) || runs + 0 == 0)) fail(matrix ": runs must be a positive number")
	rt = ("runtime" in cv) ? get("runtime") : default_of("runtime", s)
	rt = sweep_seconds(s, b, timed_seconds(s, seconds(rt) + 0))
	if (check) {
		if (get("kernel_cmdline") != "") {
			nw = split(get("kernel_cmdline"), ws, "+")
			for (i = 1; i <= nw; i++) {
				if (ws[i] == "") continue
				if (ws[i] !~ /^[a-z]/ || ws[i] ~ /[^A-Za-z0-9_.=,-]/) fail(matrix ": kernel_cmdline: bad boot parameter '" ws[i] "'")
				if (ws[i] ~ /^(krepro\.|console=|panic=|oops=)/) fail(matrix ": kernel_cmdline: '" ws[i] "' is set by run-matrix")
			}
		}
		# which boards keep which clock: the backends' accepts (lib/run/backend.sh)
		if (clock != "exact" && clock != "real") fail(matrix ": clock must be real or exact, not '" get("clock") "'")
	}
	# the memory model: the cell's memory_model:, else its board's (which
	# backend can boot it: the backends' accepts)
	model = ("memory_model" in cv) ? get("memory_model") : bmodel[b]
	if (model == "") model = "off"
	if (check && model == "on" && clock != "exact")
		fail((("memory_model" in cv) ? where_of("memory_model") : matrix ": board " b) ": memory_model: on needs clock: exact (the model counts a deterministic instruction stream; docs/MEMORY-MODEL.md)")
	if (check) {
		# a parameter its suite cannot run without (default "required" in
		# its meta): refused here, not in the guest after the build and boot
		for (i = 1; i <= nrows; i++)
			if (ro[i] == s && rd[i] == "required" && !(rk[i] in cv))
				fail(where_of("suite") ": suite '" s "' needs '" rk[i] "' (required by suites/" s "/meta; docs/KEYS.md)")
		# a size its board cannot hold: refused here or scaled (scaled),
		# as its suite's meta says (size_rule)
		size_check(s, b)
	}
	seed = "-"
	if (clock == "exact") { seed = get("seeds") == "" ? 1 : get("seeds"); sub(/-.*/, "", seed) }
	# the result path; each tenant of a multi-tenant cell has its own (vm_1
	# by default)
	sc = scaled(s, b); dj = defaults(s, 0); nd = node_default(s, b)
	if (nd != "") { dj = (dj == "-" ? "" : dj " ") nd; ndkey = nd; sub(/=.*/, "", ndkey) } else ndkey = ""
	job = job_words($0, dj, b, sc, 0); forms = job_words($0, dj, b, sc, 1)
	if (("tenants" in cv) && get("tenants") != 1 && !("tenant" in cv)) tok[++ntok] = "tenant=" tenant_prefix "1"
	v = get("variants") != "" ? get("variants") : get("variant") != "" ? get("variant") : "base"
	# every variant of a matrix builds on one reference (lib/run/plan.sh)
	if (check && get("reference") != "") {
		if (reference != "" && get("reference") != reference) fail(matrix ": one reference a matrix: '" reference "' and '" get("reference") "'")
		reference = get("reference")
	}
	# LAVA's runs are another machine (<board>.lava...), exact ones too,
	# and so are the memory model's (<board>.exact.model)
	vd = results "/" s "/" path_params(tok, ntok, s) "/" b (lava_machine != "" ? "." lava_machine : "") \
		(clock == "exact" ? ".exact" : "") (model == "on" ? ".model" : "") "/" rootfs "/" kconfig "/" compiler "/" v
	if (check) {
		if (vd in seen) fail(matrix ": cell " k " repeats an earlier cell (same variant and parameters: " substr(vd, length(results) + 2) "); is a variant listed twice?")
		seen[vd] = 1
	}
	line = k "\t" runs "\t" b "\t" clock "\t" rt "\t" seed "\t" vd "\t" dj "\t" defaults(s, 1) "\t" model "\t" sc "\t" count_notes(s, b) "\t" job "\t" forms "\t" guest_defaults(s, ndkey) \
		"\t" (("timeout" in cv) ? seconds(get("timeout")) : "-")
	if (field) { split(line, f, "\t"); print f[field] } else print line
}
END { if (failed) exit 2 }
