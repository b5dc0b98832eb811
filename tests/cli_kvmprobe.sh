#!/bin/sh
# shellcheck disable=SC2016 # the scripts kp runs expand in its own shell
# The KVM probe (lib/run/boot.sh pick_accel, issue 36 item 6): a verdict
# within seconds (a KVM that opens but runs no guest once hung it for its
# whole 60 s), no probe where KVM cannot work, and a remembered verdict
# said when it is used.  No kernel boots here: the verdict's logic is fed
# console and QEMU logs, and the probe boot runs a stand-in QEMU.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

KREPRO_ROOT=$PWD
export KREPRO_ROOT
# kp SCRIPT: SCRIPT run with the kit's QEMU backend sourced, a stand-in QEMU
# (T_DIR/bin) first on PATH and the probe's inputs set.
kp() {
	PATH=$T_DIR/bin:$PATH TMPD=$T_DIR/tmp KREPRO_CACHE=$T_DIR/cache sh -c '. lib/shared/common.sh; . lib/run/session.sh; . lib/run/plan.sh; . lib/run/boot.sh
		H=$KREPRO_ROOT/out/host SLOT_TMP=$TMPD B_ACCEL=auto
		B_MACHINE=q35 B_CPU=max B_SMP=2 B_MEMORY=1G B_NUMA=
		single_initrd() { : >"$SLOT_TMP/initrd"; }
		'"$1" >"$T_OUT" 2>&1
}
mkdir -p "$T_DIR/bin" "$T_DIR/tmp" "$T_DIR/cache" "$T_DIR/p"
echo "$T_DIR/bzImage" >"$T_DIR/tmp/kernel.base"
echo "variants base" >"$T_DIR/tmp/plan.facts" # plan_fact, as plan_runs writes it

# The verdict from what a probe boot shows, and when.
verdict() { # NAME WANT SECONDS [exited]: kvm_probe_verdict of T_DIR/p
	kp "kvm_probe_verdict '$T_DIR/p' $3 ${4:-}"
	if [ "$(cat "$T_OUT")" = "$2" ]; then ok "verdict: $1"; else no "verdict: $1: got '$(cat "$T_OUT")', want '$2'"; fi
}
: >"$T_DIR/p/console.log"
: >"$T_DIR/p/qemu.log"
verdict "a silent guest, 2 s: too early" "" 2
verdict "a silent guest, 5 s: TCG" "tcg: no kernel line on the console within 5 s" 5
echo "Linux version 6.12" >"$T_DIR/p/console.log"
verdict "a kernel line, 10 s: not yet" "" 10
verdict "a kernel line, no results in 20 s: TCG" "tcg: the probe guest did not send its results within 20 s" 20
verdict "a kernel line, QEMU gone: TCG" "tcg: the probe guest stopped before it sent its results" 3 exited
echo "$(sed -n 's/^#define KRP_RESULTS_SENT "\(.*\)"$/\1/p' tools/common/contract.h) (ok)" >>"$T_DIR/p/console.log"
verdict "results sent: KVM" "kvm: the probe guest booted and sent its results" 2
echo "KVM internal error. Suberror: 1" >"$T_DIR/p/qemu.log"
verdict "QEMU's KVM error: TCG at once" "tcg: QEMU says 'KVM internal error. Suberror: 1'" 0
: >"$T_DIR/p/console.log"
: >"$T_DIR/p/qemu.log"
verdict "QEMU gone before the kernel: TCG" "tcg: QEMU exited before the kernel's first line" 1 exited

# The probe boot with a stand-in QEMU whose guest never prints (a KVM that
# opens but runs nothing): TCG within seconds, not the 60 s of before.
cat >"$T_DIR/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
[ "$1" != --version ] || { echo "QEMU emulator version 0.0 (stand-in)"; exit 0; }
for a; do case $a in *id=con,path=*) con=${a#*path=} ;; esac; done
[ -z "${STANDIN_SAYS:-}" ] || { echo "Linux version 6.12"; echo "$STANDIN_SAYS"; } >"$con"
[ -z "${STANDIN_SAYS:-}" ] || exit 0
# a guest that never ends: stopped by the probe (STANDIN_STOPPED says so),
# or it would run its 60 s out
trap 'kill "$!"; echo stopped >"$STANDIN_STOPPED"; exit 0' TERM
sleep 60 &
wait $!
EOF
chmod +x "$T_DIR/bin/qemu-system-x86_64"
STANDIN_STOPPED=$T_DIR/stopped kp 'kvm_probe "$TMPD/bzImage"; echo "$KVM_VERDICT: $KVM_WHY after $(boot_guest_said seconds) s"'
expect_in "a silent probe guest: TCG" "$T_OUT" "tcg: no kernel line on the console within 5 s"
# the watch's count of seconds, not the host's clock: 5, where the probe's
# bound (20 s) or the stand-in's own end (60 s) would have said more
expect_in "... at 5 s of the boot's count" "$T_OUT" "within 5 s after 5 s"
assert "... stopping the guest, not waiting for it" grep -qx stopped "$T_DIR/stopped"
STANDIN_SAYS="$(sed -n 's/^#define KRP_RESULTS_SENT "\(.*\)"$/\1/p' tools/common/contract.h) (ok)" \
	kp 'kvm_probe "$TMPD/bzImage"; echo "$KVM_VERDICT: $KVM_WHY"'
expect_in "a probe guest that sends its results: KVM" "$T_OUT" "kvm: the probe guest booted and sent its results"

# pick_accel: no probe without a usable /dev/kvm; a probe's verdict is
# cached and said when used.
kp 'KVM_DEV=$TMPD/no-kvm; pick_accel; echo "accel $ACCEL"'
expect_in "no /dev/kvm: TCG" "$T_OUT" "accel tcg"
expect_in "... without a probe, saying so" "$T_OUT" "KVM: tcg (no $T_DIR/tmp/no-kvm this user can read and write: no probe)"
assert "... nor a cached verdict" test ! -e "$T_DIR/cache/kvm-probe"
: >"$T_DIR/tmp/kvm"
kp 'KVM_DEV=$TMPD/kvm; pick_accel; echo "accel $ACCEL"'
expect_in "a usable /dev/kvm whose guest is silent: TCG" "$T_OUT" "accel tcg"
expect_in "... saying what the probe saw and where it is cached" "$T_OUT" "KVM: tcg (probe boot: no kernel line on the console within 5 s, after 5 s; verdict cached in $T_DIR/cache/kvm-probe)"
rm -rf "$T_DIR/tmp/probe"
kp 'KVM_DEV=$TMPD/kvm; pick_accel; echo "accel $ACCEL"'
expect_in "the next session uses the cached verdict" "$T_OUT" "accel tcg"
expect_in "... and says so, with its date and reason" "$T_OUT" "KVM: tcg (probe verdict of $(date -u +%Y-%m-%d)"
expect_in "... and its reason" "$T_OUT" "UTC: no kernel line on the console within 5 s, cached in"
expect_in "... and where it is" "$T_OUT" "cached in $T_DIR/cache/kvm-probe for this host kernel and QEMU; remove it to probe again)"
assert "... without a probe boot" test ! -e "$T_DIR/tmp/probe"

t_summary
t_clean
exit $T_FAILED
