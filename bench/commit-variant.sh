#!/bin/sh
# A commit as a variant against the same patches as a series (issue 49
# item 5): the pinned reference tree committed in a git repository of the
# bench's own, the series on it with git am (a commit a patch), then with
# that repository as the reference (-R git:REPO@TAG): base, the series
# (incremental from base), base again, the commit at the series' tip
# (incremental from base).  Prints the two builds' times side by side,
# their ratio, and whether the two kernels are the same bytes.  With
# --bisect METRIC, then bisects the series and the commits (exact mode,
# -j 2, MATRIX or page_fault3 in a memory cgroup, 100% of the CPUs, 10 s:
# docs/RESULTS.md's memcg bisect), every kernel built (no kernel store),
# and prints each one's step table (seconds a step) and wall time.
# usage: bench/commit-variant.sh [--bisect METRIC [MATRIX]] [SERIES]   (default memcg)
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BM='' BX=''
case ${1:-} in
-h | --help)
	sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
--bisect)
	BM=${2:?--bisect METRIC}
	shift 2
	case ${1:-} in *.yaml) BX=$1 && shift ;; esac
	;;
esac
S=${1:-memcg}
[ -f "$ROOT/patches/$S/series" ] || { echo "bench/commit-variant.sh: no series patches/$S/series" >&2 && exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-commit.XXXXXX")
RID=none
# the repository is the bench's own: what the kit cached of it goes too
trap 'rm -rf "$W" "$ROOT/cache/reference/$RID" "$ROOT/cache/variants/$RID" "$ROOT/cache/commits/$RID" "$ROOT/cache/reference/$RID.lock" "$ROOT/cache/reference/$RID.tree"' EXIT
"$ROOT/build.sh" reference >/dev/null
REF=$(find "$ROOT/cache/reference" -mindepth 2 -maxdepth 2 -type d -name 'linux-source-*' | head -n 1)
[ -f "$REF/.krepro-complete" ] || { echo "bench/commit-variant.sh: no reference tree under cache/reference" >&2 && exit 2; }
R=$W/linux
g() { git -C "$R" -c user.name=bench -c user.email=bench@example.org -c core.compression=0 "$@"; }
t0=$(date +%s)
mkdir -p "$R"
cp -a "$REF/." "$R/" # a copy: git am writes the tree
rm -f "$R/.krepro-complete"
g init -q
g add -f -A
g commit -q -m "the pinned reference"
g tag ref
RID=git-$(g rev-parse ref | cut -c1-16)
grep -v '^#' "$ROOT/patches/$S/series" | cut -d' ' -f1 | while read -r p; do
	[ -z "$p" ] || g am -q --keep-cr "$ROOT/patches/$S/$p"
done
TIP=$(g rev-parse HEAD | cut -c1-10)
echo "repository: the reference and $(g rev-list --count ref..HEAD) commits of $S ($(($(date +%s) - t0)) s to make)"
O=$W/out
B() { "$ROOT/build.sh" -O "$O" -R "git:$R@ref" kernel "$1" >/dev/null; }
B base
t1=$(date +%s)
B "$S"
t2=$(date +%s)
# base again in the work tree (its kernel removed, or it is up to date and
# the tree keeps the series): the commit then builds from base's tree too
rm -rf "$O/kernels/base"
B base
t3=$(date +%s)
B "$TIP"
t4=$(date +%s)
echo "series $S after base: $((t2 - t1)) s"
echo "commit $TIP (the series' tip) after base: $((t4 - t3)) s"
echo "ratio commit/series: $(awk -v a=$((t2 - t1)) -v b=$((t4 - t3)) 'BEGIN { printf "%.2f", b / (a ? a : 1) }')"
if cmp -s "$O/kernels/$S/bzImage" "$O/kernels/$TIP/bzImage"; then
	echo "bzImage: the same bytes ($(sha256sum "$O/kernels/$TIP/bzImage" | cut -c1-16))"
else
	echo "bzImage: DIFFERENT"
fi
[ -n "$BM" ] || exit 0
if [ -n "$BX" ]; then cp "$BX" "$W/m.yaml"; else
	printf 'suite: will-it-scale\ntest: page_fault3\nmode: process\nnr_task: 100%%\nruntime: 10s\nmemcg: on\nclock: exact\n' >"$W/m.yaml"
fi
BI() { # NAME RANGE-OR-SERIES: one bisect, its step table and wall time
	b0=$(date +%s)
	env KREPRO_OUT="$O" KREPRO_REFERENCE="git:$R@ref" "$ROOT/run-matrix.sh" bisect -j 2 -o "$W/$1" -m "$W/m.yaml" "$2" "$BM" >"$W/$1.out" 2>&1 || :
	echo "== $1 bisect ($2): $(($(date +%s) - b0)) s"
	sed -n '/^steps (/,$p' "$W/$1.out"
}
BI series "$S"
BI commit "ref..HEAD"
