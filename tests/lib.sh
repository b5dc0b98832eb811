# shellcheck shell=sh
# Helpers for shell tests (sourced): each assertion prints PASS or FAIL.
# shellcheck disable=SC2034 # T_FAILED is the sourcing script's exit status
T_FAILED=0
T_NPASS=0
T_NFAIL=0
ok() {
	T_NPASS=$((T_NPASS + 1))
	echo "PASS $*"
}
no() {
	T_NFAIL=$((T_NFAIL + 1))
	echo "FAIL $*"
	T_FAILED=1
}
# t_summary: "N passed, N failed" (a script's last line; not a PASS/FAIL line).
t_summary() { echo "$T_NPASS passed, $T_NFAIL failed"; }
# assert NAME COMMAND...: the command succeeds (output discarded).
assert() {
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else no "$n"; fi
}
# qemu_running TEXT: a QEMU process whose command line holds TEXT.
# shellcheck disable=SC2009 # pgrep -f would also match the shells running it
qemu_running() {
	ps -eo args | grep '^qemu-system-x86_64' | grep -qF -- "$1"
}
# expect_in NAME FILE PATTERN: a fixed string in a file.
expect_in() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else
		no "$1: '$3' not in $2"
		sed 's/^/    | /' "$2" | tail -n 10
	fi
}
# expect_rc NAME WANT COMMAND...: exit status of a command.
# With T_TIMES set (tests/run.sh, boot tests), a step of 20 s or more
# says how long it took: where CI's time goes.
expect_rc() {
	n=$1 want=$2
	shift 2
	[ -z "${T_TIMES:-}" ] || er_t0=$(date +%s)
	"$@" >"$T_OUT" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then ok "$n"; else
		no "$n: exit $got, want $want"
		sed 's/^/    | /' "$T_OUT" | tail -n 10
	fi
	[ -z "${T_TIMES:-}" ] || {
		er_s=$(($(date +%s) - er_t0))
		[ "$er_s" -lt 20 ] || echo "    ($er_s s)"
	}
}
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/krepro-t.XXXXXX")
# t_clean: the test's folder goes when every check passed; a failing
# check's results stay for the reader (its path is printed).
t_clean() {
	if [ "$T_FAILED" = 0 ]; then rm -rf "$T_DIR"; else echo "kept for the failed checks: $T_DIR"; fi
}
T_OUT=$T_DIR/out

# small_tree DIR NAME: a kernel-shaped tree of the tests' own (never a real
# kernel) in DIR: a Makefile building NAME.o and mm/NAME.c, 40 lines
# "int lineN;" for patches to change.
small_tree() {
	mkdir -p "$1/mm"
	printf 'obj-y += %s.o\n' "$2" >"$1/Makefile"
	st_i=1
	while [ "$st_i" -le 40 ]; do
		echo "int line$st_i;"
		st_i=$((st_i + 1))
	done >"$1/mm/$2.c"
}

# small_repo DIR NAME MESSAGE: small_tree DIR NAME committed in a new git
# repository (MESSAGE); its id in A.
small_repo() {
	small_tree "$1" "$2"
	if ! { git -C "$1" init -q && git -C "$1" add . &&
		git -C "$1" -c user.name=t -c user.email=t@example.org commit -q -m "$3"; }; then
		no "small_repo $1: git failed"
	fi
	A=$(git -C "$1" rev-parse HEAD)
}

# pinned_repo DIR SERIES: a bare git repository DIR holding the pinned
# reference tree (cache/reference, unpacked already) as one commit, its id
# in A, and branch "series": SERIES' patches on it, a commit each, by git
# am in a sparse worktree DIR.wt (only the files the patches touch are
# written; fixed dates: the same ids every time).  As a kernel developer's
# tree holding a series they applied.
pinned_repo() {
	pr_ref=$(find cache/reference -mindepth 2 -maxdepth 2 -name 'linux-source-*' -type d | head -n 1)
	pr_g() { GIT_AUTHOR_DATE='1700000000 +0000' GIT_COMMITTER_DATE='1700000000 +0000' \
		git -c user.name=krepro -c user.email=krepro@localhost -c core.compression=0 \
		-c core.looseCompression=0 -c gc.auto=0 -c maintenance.auto=false "$@"; }
	pr_paths=$(sed -n 's#^+++ b/##p; s#^--- a/##p' patches/"$2"/*.patch | sort -u)
	# shellcheck disable=SC2086 # one path a word (the kernel's have no space)
	if ! { [ -d "$pr_ref" ] && git init -q --bare "$1" &&
		GIT_DIR=$1 GIT_WORK_TREE=$pr_ref pr_g add -A -f . &&
		GIT_DIR=$1 GIT_WORK_TREE=$pr_ref pr_g rm -q --cached .krepro-complete &&
		GIT_DIR=$1 GIT_WORK_TREE=$pr_ref pr_g commit -q -m "the pinned reference" &&
		pr_g --git-dir="$1" worktree add -q --no-checkout -b series "$1.wt" HEAD &&
		pr_g -C "$1.wt" sparse-checkout set --no-cone $pr_paths &&
		pr_g -C "$1.wt" checkout -q series; }; then
		no "pinned_repo $1: git failed"
		return 1
	fi
	A=$(git --git-dir="$1" rev-parse HEAD)
	pr_list=$(grep -v '^#' "patches/$2/series" | sed "s#^\([^ ]*\).*#$PWD/patches/$2/\1#")
	# shellcheck disable=SC2086 # one patch a word
	pr_g -C "$1.wt" am -q --committer-date-is-author-date $pr_list || no "pinned_repo $1: git am failed"
}

# zero_day_email COMMIT PARENT OUT: seed 002's excerpt (a real 0-day email)
# with its ids made COMMIT's (the commit it reports) and PARENT's (over its
# table), full ids both, as an email about a tree of the tests' own.
zero_day_email() {
	sed -e "s/6f12c591f0ac4a63bb7f451c0bbb5f4c81a81147/$1/; s/6f12c591f0ac4a63bb7f451c0b/$(printf %.26s "$1")/" \
		-e "s/0b6db939a1a57c03/$(printf %.16s "$2")/; s/6f12c591f0/$(printf %.10s "$1")/g; s/0b6db939a1/$(printf %.10s "$2")/g" \
		tests/fixtures/reports/seed002-excerpt.txt >"$3"
}

# copy_checkout DIR: the files a checkout builds and plans from (the kit's
# inputs a bundle carries, lib/shared/bundle.sh's one list, with boards and jobs),
# copied into DIR (for tests that change its boards or its path).
copy_checkout() {
	# shellcheck source=lib/shared/bundle.sh
	. ./lib/shared/bundle.sh
	mkdir -p "$1"
	# shellcheck disable=SC2086 # a list of top-level names
	cp -r $BUNDLE_INPUTS boards jobs "$1/"
}

# krp_frame KIND NAME FILE: FILE as one KRP1 frame (docs/ARCHITECTURE.md,
# "Guest to host protocol") on stdout; the CRC-32 is gzip's own (its
# trailer holds the IEEE CRC-32 of the data, little-endian).
krp_frame() {
	kf_crc=$(gzip -c <"$3" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
	printf 'KRP1 %s %d %s %s\n' "$1" "$(wc -c <"$3")" "$kf_crc" "$2"
	cat "$3"
	echo
}
# krp_stream DIR NAME...: the files DIR/NAME as file frames, then the end
# frame "files=<n> status=ok" (KRP_END_EXTRA appended, e.g. " step=2").
krp_stream() {
	ks_d=$1
	shift
	for ks_n; do krp_frame file "$ks_n" "$ks_d/$ks_n"; done
	printf 'files=%d status=ok%s' $# "${KRP_END_EXTRA:-}" >"$ks_d/.end"
	krp_frame end end "$ks_d/.end"
}
