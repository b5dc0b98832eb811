#!/bin/sh
# vm-scalability's guest programs refuse hostile options, naming them, and
# run on the host (they are static): usemem, numapol.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
U=out/guest/usemem
N=out/guest/numapol
for c in "--nproc:-n 0 1M" "--nproc:-n 4097 1M" "--thread:-t x 1M" "--runtime:--runtime -1 1M" \
	"--runtime:--runtime 2147483648 1M" "--sleep:--sleep 1x 1M" "--sleep:--sleep 99999999999999999999 1M" \
	"--pid-file:--pid-file $T_DIR/p 1M" "--detach:--detach -t 2 1M"; do
	opt=${c%%:*} args=${c#*:}
	# shellcheck disable=SC2086 # args: words
	expect_rc "usemem $args is refused" 1 "$U" $args
	expect_in "... naming $opt" "$T_OUT" "$opt"
done
assert "usemem --pid-file without --detach wrote no file" test ! -e "$T_DIR/p"
expect_rc "usemem --runtime 1 1M runs" 0 "$U" --runtime 1 1M
expect_in "... and reports lkp-tests' line" "$T_OUT" "bytes / "
for c in "1x 0 0" "0 0 0" "1 0-x 0" "1 0 99" "1 5-2 0" "1 0 0,,1"; do
	# shellcheck disable=SC2086 # c: words
	expect_rc "numapol migrate $c is refused" 1 "$N" migrate $c
done
expect_rc "numapol with no command prints its usage" 2 "$N"
expect_in "... to standard error" "$T_OUT" "usage: numapol"
t_summary
exit "$T_NFAIL"
