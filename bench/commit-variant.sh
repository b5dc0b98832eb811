#!/bin/sh
# A commit as a variant against the same patches as a series (issue 49
# item 5): the pinned reference tree committed in a git repository of the
# bench's own, the series on it with git am (a commit a patch), then with
# that repository as the reference (-R git:REPO@TAG): base, the series
# (incremental from base), base again, the commit at the series' tip
# (incremental from base).  Prints the two builds' times side by side,
# their ratio, and whether the two kernels are the same bytes.
# usage: bench/commit-variant.sh [SERIES]   (default memcg)
set -eu
# builds measured or compared: never the kernel store's bytes
export KREPRO_KERNEL_STORE=off
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case ${1:-} in -h | --help)
	sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
S=${1:-memcg}
[ -f "$ROOT/patches/$S/series" ] || { echo "bench/commit-variant.sh: no series patches/$S/series" >&2 && exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/krepro-commit.XXXXXX")
RID=none
# the repository is the bench's own: what the kit cached of it goes too
trap 'rm -rf "$W" "$ROOT/cache/reference/$RID" "$ROOT/cache/variants/$RID" "$ROOT/cache/commits/$RID" "$ROOT/cache/reference/$RID.lock"' EXIT
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
