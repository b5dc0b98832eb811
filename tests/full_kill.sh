#!/bin/sh
# Killing things mid-matrix: a second run-matrix on the same results is
# locked out (a second initramfs build waits); run-matrix killed with
# SIGKILL leaves no half-written run and no QEMU behind, and rerunning
# resumes; a QEMU killed mid-run fails that run with a reason while the
# matrix goes on.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
R=$T_DIR/res
printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 1\nruntime: 8s\nvariants: base\nruns: 2\n' >"$T_DIR/m.yaml"
./build.sh initramfs >/dev/null 2>&1

# Two initramfs builds into one output folder at once (two bench scripts
# started together): the second waits for the first, both succeed.
./build.sh initramfs >"$T_DIR/ib1" 2>&1 &
ib1=$!
./build.sh initramfs >"$T_DIR/ib2" 2>&1
ib2rc=$?
wait "$ib1"
ib1rc=$?
assert "two initramfs builds at once both succeed (rc $ib1rc $ib2rc)" test "$ib1rc$ib2rc" = 00
assert "... and leave a whole image" gzip -t "$(tail -n 1 "$T_DIR/ib2")"

# Parallel slots (exact mode, -j 2) are subshells: they must stop, and let go
# of the results lock, when run-matrix is killed with SIGKILL.
cp "$T_DIR/m.yaml" "$T_DIR/mj.yaml"
echo 'clock: exact' >>"$T_DIR/mj.yaml"
./run-matrix.sh -j 2 -o "$R" "$T_DIR/mj.yaml" >"$T_DIR/first.log" 2>&1 &
first=$!
n=0
until ls -d "$R"/will-it-scale/*/*/*/*/*/base/2.tmp >/dev/null 2>&1 || [ "$n" -ge 120 ]; do
	sleep 0.5
	n=$((n + 1))
done
expect_rc "a second run-matrix on the same results is refused" 2 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/mj.yaml"
expect_in "the refusal names the lock" "$T_OUT" "in use by another run-matrix"
kill -KILL "$first"
wait "$first" 2>/dev/null
V=$(ls -d "$R"/will-it-scale/*/*/*/*/*/base)
assert "no run directory completed by the killed run-matrix" test ! -e "$V/1"
# QEMU dies with run-matrix (PR_SET_PDEATHSIG), not at its timeout.
n=0
while qemu_running "$V/" && [ "$n" -lt 5 ]; do
	sleep 1
	n=$((n + 1))
done
if qemu_running "$V/"; then no "its QEMUs outlived run-matrix by 5 s"; else ok "its QEMUs died with run-matrix"; fi
stale=$(grep -lx "$first" "${TMPDIR:-/tmp}"/krepro.*/pid 2>/dev/null | head -n 1)
assert "the killed run-matrix left its temp folder" test -n "$stale"
expect_rc "rerunning at once resumes and completes" 0 ./run-matrix.sh -j 2 -o "$R" "$T_DIR/mj.yaml"
assert "the next start removed that temp folder" test ! -e "${stale:-/nonexistent}"
assert "run 1 complete" test -s "$V/1/stats.json"
assert "run 2 complete" test -s "$V/2/stats.json"
assert "no staging directory left" sh -c "! ls -d '$V'/*.tmp 2>/dev/null"

# Kill QEMU itself in the middle of run 1 of a fresh matrix.
R2=$T_DIR/res2
./run-matrix.sh -o "$R2" "$T_DIR/m.yaml" >"$T_DIR/second.log" 2>&1 &
second=$!
n=0
until qemu_running "$R2/" || [ "$n" -ge 120 ]; do
	sleep 0.5
	n=$((n + 1))
done
sleep 3
pkill -KILL -f "^qemu-system-x86_64.*$R2/.*/base/1.tmp"
wait "$second"
rc=$?
assert "the matrix reports the failed run" test "$rc" = 1
V2=$(ls -d "$R2"/will-it-scale/*/*/*/*/*/base)
expect_in "the killed run is recorded failed with a reason" "$V2/1/FAILED" "reason:"
expect_in "the reason is the missing results" "$V2/1/FAILED" "no end frame"
assert "the next run still ran" grep -q '"will-it-scale.per_process_ops": [1-9]' "$V2/2/stats.json"
t_clean
t_summary
exit $T_FAILED
