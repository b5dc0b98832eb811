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
exit $T_FAILED
