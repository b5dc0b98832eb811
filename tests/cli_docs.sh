#!/bin/sh
# The README stays a newcomer's page and the docs stay true to the tree
# (issue 36, item 6): README.md at most 250 lines, its first two commands
# the main run and what .ci/run runs, no source file over 800 lines (the
# offenders are listed), every relative link and every docs/NAME.md named
# in README.md and docs/*.md an existing file, and every Debian package the
# scripts install (lib/shared/common.sh's tables) in the README's dependency list.
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
. tests/lib.sh

README_MAX=250
SOURCE_MAX=800

n=$(wc -l <README.md)
if [ "$n" -le "$README_MAX" ]; then ok "README.md has $n lines (at most $README_MAX)"; else
	no "README.md has $n lines, more than $README_MAX: measurements go to docs/RESULTS.md, details to docs/"
fi

# The README's first code block: its first two commands, comments cut.
first_cmds=$(awk '/^```/ { if (inb) exit; inb = 1; next }
	inb { sub(/[ \t]*#.*/, ""); if ($0 != "") print }' README.md | head -n 2)
cmd1=$(printf '%s\n' "$first_cmds" | sed -n 1p)
cmd2=$(printf '%s\n' "$first_cmds" | sed -n 2p)
# What CI runs: .ci/run's exec line.
ci_cmd=$(sed -n 's/^exec[ \t][ \t]*//p' .ci/run | tail -n 1)
if [ "$cmd1" = "./run-matrix.sh" ]; then ok "README's first command is ./run-matrix.sh"; else
	no "README's first command is '$cmd1', not ./run-matrix.sh"
fi
if [ -n "$ci_cmd" ] && [ "$cmd2" = "$ci_cmd" ]; then ok "README's second command is what .ci/run runs ($ci_cmd)"; else
	no "README's second command is '$cmd2', .ci/run runs '$ci_cmd'"
fi
if awk 'NR <= 12 && /^```/ { c++ } END { exit c >= 2 ? 0 : 1 }' README.md; then
	ok "the two commands are in README's first lines"
else
	no "README.md: the two commands' block does not close within its first 12 lines"
fi

# No source file over SOURCE_MAX lines: list every offender.
find tools suites monitors lib tests initramfs bench -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.awk' \) >"$T_DIR/src"
printf '%s\n' run-matrix.sh build.sh initramfs/init >>"$T_DIR/src"
: >"$T_DIR/long"
while read -r f; do
	l=$(wc -l <"$f")
	[ "$l" -le "$SOURCE_MAX" ] || echo "$f: $l lines" >>"$T_DIR/long"
done <"$T_DIR/src"
if [ ! -s "$T_DIR/long" ]; then ok "no source file over $SOURCE_MAX lines ($(wc -l <"$T_DIR/src") files)"; else
	no "source files over $SOURCE_MAX lines: $(tr '\n' ';' <"$T_DIR/long")"
fi

# Relative links ([text](target)) resolve from the file's folder; a
# docs/NAME.md named in prose resolves from the top of the tree.
for d in README.md docs/*.md; do
	dir=$(dirname "$d")
	grep -o '\]([^)]*)' "$d" | sed 's/^](//; s/)$//; s/#.*//' | while read -r t; do
		case $t in '' | http://* | https://* | mailto:*) continue ;; esac
		[ -e "$dir/$t" ] || echo "$d: link to '$t': no such file"
	done
	grep -o 'docs/[A-Za-z0-9_-]*\.md' "$d" | sort -u | while read -r t; do
		[ -e "$t" ] || echo "$d: names '$t': no such file"
	done
done | sort -u >"$T_DIR/links"
if [ ! -s "$T_DIR/links" ]; then ok "every link and docs/*.md named in README.md and docs/ exists"; else
	no "dangling: $(tr '\n' ';' <"$T_DIR/links")"
fi

# Every package the scripts install is in the README's dependency table.
deps=$(sh -c '. lib/shared/common.sh; printf "%s\n" "$KREPRO_DEPS" "$KREPRO_TEST_DEPS" "$KREPRO_LAVA_SERVER_DEPS"' |
	awk 'NF == 2 { print $2 }' | sort -u)
awk '/^## Dependencies/ { on = 1; next } /^## / { on = 0 } on' README.md >"$T_DIR/deps"
missing=
for p in $deps; do
	grep -qF "\`$p\`" "$T_DIR/deps" || missing="$missing $p"
done
if [ -z "$missing" ]; then ok "README's dependency table names every package lib/shared/common.sh installs"; else
	no "README's dependency table lacks:$missing (lib/shared/common.sh installs them)"
fi

t_clean
t_summary
exit $T_FAILED
