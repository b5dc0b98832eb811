#!/bin/sh
# The report tools on a small hand-made results tree: krepro-compare's
# failure rows, plots and exports, krepro-index, krepro-pivot, and
# report.html rendered by a real headless browser (Debian's chromium).
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
H=out/host
R=$T_DIR/results/will-it-scale/process-100%-8s-page_fault3/qemu-2node/krepro-initramfs/qemu-minimal/gcc-12

# run VARIANT RUN NR_TASK OPS: one run directory with job.conf and stats.json.
run() {
	d=$R/$1/$2
	[ "$3" = 1 ] && d=$T_DIR/results/will-it-scale/process-1-8s-page_fault3/qemu-2node/krepro-initramfs/qemu-minimal/gcc-12/$1/$2
	mkdir -p "$d"
	printf 'suite=will-it-scale\ntest=page_fault3\nmode=process\nnr_task=%s\nruntime=8\nvariant=%s\n' \
		"$3" "$1" >"$d/job.conf"
	printf '{"will-it-scale.per_process_ops": %s, "meminfo.MemFree": %s, "proc-vmstat.pgfault": 2000}\n' \
		"$4" "$(($4 * 10))" >"$d/stats.json"
	# the matrix said 100% of qemu-2node's 2 CPUs (the host's record)
	[ "$3" = 1 ] || printf 'matrix.nr_task=100%%\nmatrix.runtime=8s\ncontended=0\n' >"$d/host.conf"
}
run base 1 2 100
run base 2 2 104
run base 3 2 98
run calibration 1 2 80
run calibration 2 2 82
run calibration 3 2 79
mkdir -p "$R/calibration/4"
printf 'variant=calibration\nnr_task=2\n' >"$R/calibration/4/job.conf"
printf '{"last_state.failed": 1}\n' >"$R/calibration/4/stats.json"
run base 1 1 200
run base 2 1 210
run calibration 1 1 190

# krepro-compare
expect_rc "compare with a failed run" 0 $H/krepro-compare --json "$T_DIR/c.json" --csv "$T_DIR/c.csv" \
	"$R/base" "$R/calibration"
expect_in "compare counts the failed run" "$T_OUT" "runs: base 3, calibration 4 (1 failed)"
expect_in "compare fail:runs header" "$T_OUT" "       fail:runs  %reproduction    fail:runs"
expect_in "compare fail:runs row" "$T_OUT" "          0:3           25%           1:4     last_state.failed"
expect_in "compare failed run left out" "$T_OUT" "runs 3 vs 3): regression"
expect_in "compare plot legend base" "$T_OUT" "[*] base sample"
expect_in "compare plot legend new" "$T_OUT" "[O] calibration sample"
expect_in "compare csv header" "$T_DIR/c.csv" "kind,metric,new,base_runs,base_mean,base_stddev"
expect_in "compare csv row" "$T_DIR/c.csv" "perf,will-it-scale.per_process_ops,calibration,3,100.6666667,"
expect_in "compare csv failure row" "$T_DIR/c.csv" "failure,last_state.failed,calibration,3,,,4,,,,,,1,0,1,25"
expect_in "compare json" "$T_DIR/c.json" '"failed_runs": 1'

# krepro-index
printf '== k1 ==\nExecl Throughput   2915.4 lps   (29.6 secs, 3 samples)\nShell Scripts (8 concurrent)  1097.7 lpm (60.0 secs, 3 samples)\n' >"$T_DIR/ub.txt"
expect_rc "index from UnixBench text" 0 $H/krepro-index "$T_DIR/ub.txt"
expect_in "index row" "$T_OUT" "Execl Throughput                              43.0      2915.4     678.0"
expect_in "index final score" "$T_OUT" "FINAL SCORE                                                       1113.7"
expect_rc "index from stdin" 0 sh -c "$H/krepro-index - <'$T_DIR/ub.txt'"
mkdir -p "$T_DIR/ubv/1" "$T_DIR/ubv/2"
echo '{"unixbench.execl": 430, "unixbench.shell8": 500}' >"$T_DIR/ubv/1/stats.json"
echo '{"unixbench.execl": 430, "unixbench.shell8": 700}' >"$T_DIR/ubv/2/stats.json"
expect_rc "index from a variant dir" 0 $H/krepro-index "$T_DIR/ubv"
expect_in "index of unixbench.* means" "$T_OUT" "FINAL SCORE                                                        316.2"
expect_rc "index without results" 2 $H/krepro-index /dev/null
expect_in "index says what it wants" "$T_OUT" "no UnixBench result lines"

# krepro-pivot
expect_rc "pivot" 0 $H/krepro-pivot --rows kernel --cols nr_task --metric will-it-scale.per_process_ops \
	--base base "$T_DIR/results"
expect_in "pivot header: a count as the matrix and the result path write it (host.conf)" "$T_OUT" "|      kernel|       1|    100%|"
expect_in "pivot means and na" "$T_OUT" "|        base|     205|  100.67|"
expect_in "pivot improvement" "$T_OUT" "| improvement|  -7.32%| -20.20%|"
expect_rc "pivot unknown base" 2 $H/krepro-pivot --rows kernel --cols nr_task --metric will-it-scale.per_process_ops \
	--base nope "$T_DIR/results"
expect_in "pivot names the bad base" "$T_OUT" "--base nope: not a value of kernel"

# Every suite's headline in model time (issue 51): exact runs with the
# memory model's report, made into stats.json by krepro-stats (which adds
# model.<headline>), 3 seeds a side.  Guest time is 1e9 instructions, 4 s
# (KRP_EXACT_ICOUNT_SHIFT 2); model time the report's cycles at 1 GHz.
# mrun DIR SEED SUITE RAW CYCLES: one run
mrun() {
	mkdir -p "$1/$2"
	printf 'suite=%s\nclock=exact\nseed=%s\n' "$3" "$2" >"$1/$2/job.conf"
	printf '%s\n' "$4" >"$1/$2/$3"
	{
		sed -n '1,/^unknown-node /p' monitors/memory-model/fixtures/memory-model |
			sed 's/^config cpus .*/config cpus 1/; s/^config freq-mhz .*/config freq-mhz 1000/'
		printf 'cpu 0 user instructions 1000000000\ncpu 0 user cycles %s\nend\n' "$5"
	} >"$1/$2/memory-model"
	$H/krepro-stats run "$1/$2" >/dev/null
}
# an: VARIANT SECONDS1 CYCLES1 ...: autonuma-benchmark numa01, seeds 1-3
an() {
	v=$T_DIR/an/$1
	shift
	for s in 1 2 3; do
		mrun "$v" "$s" autonuma-benchmark "$(printf 'test: numa01\nelapsed: %s' "$1")" "$2"
		shift 2
	done
}
# balancing off; on: +1.1% in guest time (its scans cost instructions),
# -21% in model time (memory on the node that uses it): seed 003's story
an off 18.00 4000000000 18.02 4010000000 17.98 3990000000
an on 18.20 3120000000 18.22 3130000000 18.18 3110000000
# the same path, memory moved: the plain row sees nothing
an moved 18.00 3120000000 18.02 3130000000 17.98 3110000000
# both rows slower alike
an slower 18.20 4040000000 18.22 4050000000 18.18 4030000000
assert "model: krepro-stats makes autonuma-benchmark's model row" \
	grep -q '"model.autonuma-benchmark.numa01.seconds": ' "$T_DIR/an/on/1/stats.json"
MD='which to trust for which change: docs/MEMORY-MODEL.md, "Plain and model verdicts"'
# The pivot of seed 003 with the model (issue 51): the kernel is a variant
# with NUMA balancing off or on (a key A+B), each row beside its model row.
for s in 1 2 3; do
	printf 'variant=base\nnuma_balancing=0\n' >>"$T_DIR/an/off/$s/job.conf"
	printf 'variant=base\nnuma_balancing=1\n' >>"$T_DIR/an/on/$s/job.conf"
done
expect_rc "model: pivot numa01 with NUMA balancing as part of the kernel" 0 $H/krepro-pivot \
	--rows variant+numa_balancing --cols suite --metric autonuma-benchmark.numa01.seconds \
	--base base+numa_balancing=0 "$T_DIR/an"
expect_in "model pivot: the composite key's rows" "$T_OUT" "|  base+numa_balancing=1|   plain|              18.20|"
expect_in "model pivot: ... each beside its model row" "$T_OUT" "|                       |   model|              14.20|"
expect_in "model pivot: the improvement block has both" "$T_OUT" "|            improvement|   plain|              1.11%|"
expect_in "model pivot: ... the model's under the plain one" "$T_OUT" "|                   from|   model|            -21.13%|"
expect_in "model pivot: says what the model rows are" "$T_OUT" 'measure "model": model.autonuma-benchmark.numa01.seconds, the same work'
expect_rc "model pivot: a part of a key that no run has" 2 $H/krepro-pivot \
	--rows variant+nope --cols suite --metric autonuma-benchmark.numa01.seconds "$T_DIR/an"
# A run with NUMA balancing on that ended before the balancer's first scan
# (issue 51): named in the text and in report.html; a run that scanned,
# and a run with balancing off, are not.
cp -R "$T_DIR/an/on" "$T_DIR/idle"
for s in 1 2 3; do
	sed -i 's/^{/{"proc-vmstat.numa_pte_updates": 0, /' "$T_DIR/idle/$s/stats.json" "$T_DIR/an/off/$s/stats.json"
	sed -i 's/^{/{"proc-vmstat.numa_pte_updates": 4096, /' "$T_DIR/an/on/$s/stats.json"
done
expect_rc "balancer idle: compare" 0 $H/krepro-compare --json "$T_DIR/idle.json" "$T_DIR/an/off" "$T_DIR/an/on" "$T_DIR/idle"
expect_in "balancer idle: its runs named, with the reason" "$T_OUT" \
	"BALANCER IDLE: runs 1, 2, 3 of idle had NUMA balancing on, but no page was scanned in the window (proc-vmstat.numa_pte_updates 0): the benchmark ended before the balancer's first scan"
assert "balancer idle: one line, for that variant alone" test "$(grep -c 'BALANCER IDLE' "$T_OUT")" = 1
assert "balancer idle: report.json lists the runs of that variant alone" \
	test "$(tr -d ' \n' <"$T_DIR/idle.json" | grep -o '"balancer_idle_runs":\[[^]]*\]' | tr '\n' ' ')" = '"balancer_idle_runs":[] "balancer_idle_runs":[] "balancer_idle_runs":["1","2","3"] '

expect_rc "balancer idle: report.html" 0 $H/krepro-report -o "$T_DIR/idle.html" "$T_DIR/an/off" "$T_DIR/idle"
expect_in "balancer idle: report.html names them" "$T_DIR/idle.html" '<pre class="balancer-idle">BALANCER IDLE: runs 1, 2, 3 of idle'
expect_rc "model: compare numa01 on vs off" 0 $H/krepro-compare --json "$T_DIR/an.json" "$T_DIR/an/off" "$T_DIR/an/on"
cp "$T_OUT" "$T_DIR/an.out"
expect_in "model: the plain row says regression" "$T_DIR/an.out" "autonuma-benchmark.numa01.seconds: +1.1% ("
assert "... called a regression" grep -q '^autonuma-benchmark.numa01.seconds: +1.1% (.*exact, 3 vs 3 seeds.*): regression$' "$T_DIR/an.out"
assert "model: the model row under it says improvement" \
	grep -q '^model.autonuma-benchmark.numa01.seconds: -21.[0-9]% (.*): improvement$' "$T_DIR/an.out"
assert "model: the model row follows the plain one" \
	sh -c "grep -A1 '^autonuma-benchmark.numa01.seconds: ' '$T_DIR/an.out' | grep -q '^model.autonuma-benchmark.numa01.seconds: '"
expect_in "model: one line says they disagree and what each measures" "$T_DIR/an.out" \
	"plain and model disagree on autonuma-benchmark.numa01.seconds: the plain row says regression (the benchmark's own figure, in exact mode a function of the path length), the model row improvement (the same work in memory-system time); $MD"
assert "model: exactly one disagreement line" test "$(grep -c 'plain and model disagree' "$T_DIR/an.out")" = 1
expect_in "model: report.json carries it" "$T_DIR/an.json" '"model_metric": "model.autonuma-benchmark.numa01.seconds"'
expect_in "model: ... with both verdicts" "$T_DIR/an.json" '"plain_verdict": -1,'
expect_in "model: ... and the line" "$T_DIR/an.json" "the model row improvement (the same work in memory-system time)"
expect_rc "model: report.html" 0 $H/krepro-report -o "$T_DIR/an.html" "$T_DIR/an/off" "$T_DIR/an/on"
expect_in "model: report.html carries it" "$T_DIR/an.html" \
	"<p class=\"disagreement\">plain and model disagree on autonuma-benchmark.numa01.seconds: the plain row says regression"
expect_rc "model: memory moved, the path alike" 0 $H/krepro-compare "$T_DIR/an/off" "$T_DIR/an/moved"
expect_in "model: one called and the other not disagree too" "$T_OUT" \
	"plain and model disagree on autonuma-benchmark.numa01.seconds: the plain row says no significant change ("
expect_rc "model: both slower" 0 $H/krepro-compare --json "$T_DIR/agree.json" "$T_DIR/an/off" "$T_DIR/an/slower"
assert "model: both rows called alike" test "$(grep -c '): regression$' "$T_OUT")" = 2
assert "model: agreement, no disagreement line" sh -c "! grep -q 'disagree' '$T_OUT'"
expect_in "model: ... and none in report.json" "$T_DIR/agree.json" '"disagreements": []'
expect_rc "model: A/A" 0 $H/krepro-compare "$T_DIR/an/off" "$T_DIR/an/off"
assert "model: A/A, no verdict on either row" test "$(grep -c '): no significant change$' "$T_OUT")" = 2
assert "model: A/A, no disagreement line" sh -c "! grep -q 'disagree' '$T_OUT'"
# UnixBench (its index, UnixBench's FINAL SCORE of the tests run) and
# specjbb (bops): model rows under their headlines
for s in 1 2 3; do
	mrun "$T_DIR/ub/a" "$s" unixbench "Execl Throughput 2915.$s lps (29.6 secs, 3 samples)" 4000000000
	mrun "$T_DIR/ub/b" "$s" unixbench "Execl Throughput 2815.$s lps (29.6 secs, 3 samples)" 4100000000
	mrun "$T_DIR/jbb/a" "$s" specjbb "$(printf 'warehouses: 2\nbops: 29144%s' "$s")" 4000000000
	mrun "$T_DIR/jbb/b" "$s" specjbb "$(printf 'warehouses: 2\nbops: 28144%s' "$s")" 4100000000
done
expect_rc "model: compare unixbench" 0 $H/krepro-compare "$T_DIR/ub/a" "$T_DIR/ub/b"
assert "model: unixbench's headline is its index" grep -q '^unixbench.index: -3.4% (.*): regression$' "$T_OUT"
assert "model: ... its model row under it" grep -q '^model.unixbench.index: -5.8% (.*): regression$' "$T_OUT"
assert "model: ... each test's model row is made" grep -q '"model.unixbench.execl": ' "$T_DIR/ub/a/1/stats.json"
expect_rc "model: compare specjbb" 0 $H/krepro-compare "$T_DIR/jbb/a" "$T_DIR/jbb/b"
assert "model: specjbb's headline" grep -q '^specjbb.bops: -3.4% (.*): regression$' "$T_OUT"
assert "model: ... its model row under it" grep -q '^model.specjbb.bops: -5.8% (.*): regression$' "$T_OUT"

# krepro-report and chromium
expect_rc "report" 0 $H/krepro-report -o "$T_DIR/report.html" --pivot "$T_DIR/results" --rows kernel \
	--cols nr_task --metric will-it-scale.per_process_ops "$R/base" "$R/calibration"
expect_in "report text has the table" "$T_OUT" "will-it-scale.per_process_ops"
expect_in "report text has the pivot" "$T_OUT" "| improvement|"
if grep -qiE '(src|href)=|@import|url\(' "$T_DIR/report.html"; then
	no "report.html is self-contained"
else
	ok "report.html is self-contained"
fi
CHROME="chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync"
# shellcheck disable=SC2086 # the option list
HOME=$T_DIR timeout 120 $CHROME --user-data-dir="$(mktemp -d "$T_DIR/chrome.XXXXXX")" \
	--dump-dom "file://$T_DIR/report.html" >"$T_DIR/dom.html" 2>"$T_DIR/chrome.log"
expect_in "browser: title" "$T_DIR/dom.html" "<title>krepro report: base vs calibration</title>"
expect_in "browser: metrics row" "$T_DIR/dom.html" '<tr class="metric-row sig-regression" data-metric="will-it-scale.per_process_ops">'
expect_in "browser: failure row" "$T_DIR/dom.html" '<tr class="failure-row"><td class="name">last_state.failed</td><td>0:3</td><td>25%</td><td>1:4</td></tr>'
expect_in "browser: comparison text" "$T_DIR/dom.html" "fail:runs  %reproduction    fail:runs"
expect_in "browser: sample chart" "$T_DIR/dom.html" '<svg class="chart" xmlns="http://www.w3.org/2000/svg"'
n=$(grep -o '<circle class="sample"' "$T_DIR/dom.html" | wc -l)
# ops, MemFree: 3 + 3 samples each (the failed run left out)
if [ "$n" -eq 12 ]; then ok "browser: 12 sample points"; else no "browser: $n sample points, want 12"; fi
expect_in "browser: pivot heat map" "$T_DIR/dom.html" '<svg id="pivot-heatmap"'
n=$(grep -o '<rect class="cell' "$T_DIR/dom.html" | wc -l)
if [ "$n" -eq 4 ]; then ok "browser: 4 heat map cells"; else no "browser: $n heat map cells, want 4"; fi
expect_in "browser: pivot text" "$T_DIR/dom.html" '<pre id="pivot-text">'
# shellcheck disable=SC2086 # the option list
HOME=$T_DIR timeout 120 $CHROME --user-data-dir="$(mktemp -d "$T_DIR/chrome.XXXXXX")" \
	--window-size=1200,1600 --screenshot="$T_DIR/shot.png" "file://$T_DIR/report.html" \
	>>"$T_DIR/chrome.log" 2>&1
s=$(wc -c <"$T_DIR/shot.png" 2>/dev/null || echo 0)
if [ "$s" -gt 20000 ]; then ok "browser: screenshot rendered ($s bytes)"; else
	no "browser: screenshot $s bytes"
	tail -n 5 "$T_DIR/chrome.log"
fi

rm -rf "$T_DIR"
t_summary
exit $T_FAILED
