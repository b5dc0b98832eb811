#!/bin/sh
# Hostile and mistaken matrices (tests/hostile/matrices): each is refused by
# --dry-run, before anything is built, with the line its "# expect:" names;
# a matrix without runtime: is planned without shell arithmetic errors.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh
for m in tests/hostile/matrices/*.yaml; do
	hm=$(basename "$m" .yaml)
	hwant=$(sed -n 's/^# expect: //p' "$m")
	expect_rc "hostile matrix $hm: refused by --dry-run" 2 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$m"
	expect_in "hostile matrix $hm: says why" "$T_OUT" "$hwant"
	expect_in "hostile matrix $hm: names the file" "$T_OUT" "$m"
done
assert "no result written by a refused matrix" test ! -e "$T_DIR/res/will-it-scale"
assert "nothing written outside -o" test ! -e "$T_DIR/outside"
./run-matrix.sh --dry-run -o "$T_DIR/res" tests/hostile/matrices/unknown-key.yaml >"$T_OUT" 2>&1
expect_in "an unknown key names file and line" "$T_OUT" "tests/hostile/matrices/unknown-key.yaml:6: unknown key 'nr_tasks'"

printf 'suite: autonuma-benchmark\ntest: numa01\nsize: 64M\nloops: 2\nvariants: [base]\n' >"$T_DIR/nort.yaml"
expect_rc "a matrix without runtime: is planned" 0 ./run-matrix.sh --dry-run -o "$T_DIR/res" "$T_DIR/nort.yaml"
assert "without arithmetic errors" sh -c "! grep -q 'arithmetic\|Illegal number' '$T_OUT'"

rm -rf "$T_DIR"
exit $T_FAILED
