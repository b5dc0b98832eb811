# Shared shell helpers for build.sh and run-matrix.sh (sourced, POSIX sh).
# Reads: KREPRO_ROOT, KREPRO_PROG (the driver), TMPD (temp_add: a session's
# traps), KREPRO_DEPS, KREPRO_TEST_DEPS, KREPRO_LAVA_SERVER_DEPS; environment:
# KREPRO_CACHE, KREPRO_OUT, XDG_CACHE_HOME, HOME.  Sets: KREPRO_CACHE and
# KREPRO_OUT (krepro_dirs, exported), H (host_tools), KREPRO_TEMPS,
# KREPRO_DEPS_OK (exported), the three dependency tables.
# Shared (bench/shared-state.sh): H, KREPRO_CACHE, KREPRO_OUT: the kit's folders, set once.

note() { printf '%s: %s\n' "${KREPRO_PROG:-krepro}" "$*" >&2; }
# show_guest_text N: standard input, text from a guest (untrusted), as at
# most N lines of at most 300 characters, printable ASCII and tabs only: a
# hostile guest can neither drive the terminal nor flood a report.
# Credentials are scrubbed first (scrub_secrets), before a line is cut, so
# that no cut can leave half of one.
show_guest_text() {
	head -n "$1" | LC_ALL=C tr -cd '\11\12\40-\176' | scrub_secrets | LC_ALL=C cut -c1-300
}
# scrub_secrets: standard input without credentials, the one filter every
# writer and printer of text from elsewhere (guest consoles, LAVA logs and
# answers, an imported console.log, URLs a user gave) runs it through: a
# URL's user information (scheme://user:password@, a bare scheme://token@,
# a password holding '/', ':' or spaces: everything up to the URL's last
# '@', so a path's '@' takes the host with it), a "user:password@" without
# a scheme, the value after a token, password, passwd, secret or api_key
# word (token=V, "password": "V", \"password\": \"V\", --token V), a signed
# URL's or an environment's secret parameter (X-Amz-Signature=,
# X-Amz-Security-Token=, X-Amz-Credential=, Azure's sig=, key=, PASS=,
# DB_PASSWORD=), GitHub's tokens (ghp_, gho_, ghs_, ghu_, ghr_,
# github_pat_: the prefix is kept) or "Authorization: [Scheme]" (written
# "***").  Control bytes are dropped first: they could hide a secret from
# the patterns.  A value never starts with '=' or '*': the base64 lines of
# a text frame (whose only '=' end them) pass untouched, so a scrubbed log
# still decodes.
scrub_secrets() {
	# ss_e: a byte that ends a word; ss_k: the words a secret follows;
	# ss_q: a quote, JSON-escaped or not; ss_p: a secret parameter's name
	ss_e='[:space:]"'"'"'<>`'
	ss_k='([Tt][Oo][Kk][Ee][Nn]|[Pp][Aa][Ss][Ss][Ww]([Oo][Rr])?[Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Aa][Pp][Ii]_?[Kk][Ee][Yy])'
	ss_q='(\\?["'"'"'])?'
	ss_p='([Xx]-[Aa][Mm][Zz]-([Ss]ignature|[Ss]ecurity-[Tt]oken|[Cc]redential)|[Ss][Ii][Gg]|[Kk][Ee][Yy]|[A-Z_]*PASS(WORD|WD)?)'
	LC_ALL=C tr -d '\0-\10\13-\37\177' | LC_ALL=C sed -E \
		-e "s#([A-Za-z][A-Za-z0-9+.-]*://)[^/?@:$ss_e]+:[^/@\"'<>\`]*@#\\1#g" \
		-e "s#([A-Za-z][A-Za-z0-9+.-]*://)[^$ss_e]*@#\\1#g" \
		-e "s#(^|[$ss_e=(,])[^$ss_e=(,@/:]+:[^$ss_e]*@#\\1#g" \
		-e "s#(--?$ss_k)([[:space:]]+|=)[^$ss_e]+#\\1\\4***#g" \
		-e "s#(${ss_k}${ss_q}[[:space:]]*[:=][[:space:]]*)\\\\\"([^\"\\\\]|\\\\[^\"])*\\\\\"#\\1\\\\\"***\\\\\"#g" \
		-e "s#(${ss_k}${ss_q}[[:space:]]*[:=][[:space:]]*)\"[^\"]*\"#\\1\"***\"#g" \
		-e "s#(${ss_k}${ss_q}[[:space:]]*[:=][[:space:]]*)'[^']*'#\\1'***'#g" \
		-e "s#(${ss_k}${ss_q}[[:space:]]*[:=][[:space:]]*)([^$ss_e*,;&=\\\\][^$ss_e,;&\\\\]*)#\\1***#g" \
		-e "s#((^|[^A-Za-z0-9_-])$ss_p=)[^$ss_e*,;&=][^$ss_e,;&]*#\\1***#g" \
		-e "s#(^|[^A-Za-z0-9_])(gh[pousr]_|github_pat_)[A-Za-z0-9_]+#\\1\\2***#g" \
		-e "s#([Aa]uthorization:[[:space:]]*([A-Za-z]+[[:space:]]+)?)[^$ss_e,;]+#\\1***#g"
}
die() {
	printf '%s: error: %s\n' "${KREPRO_PROG:-krepro}" "$*" >&2
	exit 2
}

# refuse_link PATH: stop when PATH is a symbolic link.  Root never writes
# through a link it did not make: a .lock, cells.tsv or result folder
# planted as a link would take the kit's writes into its target.
refuse_link() {
	[ ! -L "$1" ] || die "$1 is a symbolic link: the kit writes no file through a link it did not make (remove it)"
}

# no_links_below BASE PATH: refuse_link for every component of PATH below
# BASE (PATH inside BASE) that exists.
no_links_below() {
	case $2 in "$1"/*) ;; *) return 0 ;; esac
	nl_p=$1
	nl_rest=${2#"$1"/}
	while [ -n "$nl_rest" ]; do
		nl_p=$nl_p/${nl_rest%%/*}
		case $nl_rest in */*) nl_rest=${nl_rest#*/} ;; *) nl_rest= ;; esac
		refuse_link "$nl_p"
	done
}

# opt_arg WHAT OPTION [VALUE ...]: OPTION (the caller's "$@") has a value,
# and not one starting with '-': "-o --dry-run" would make a folder named
# --dry-run and "-m -x" hand an option to a later command.  A name that
# starts with '-' is written ./-NAME.
opt_arg() {
	[ $# -ge 3 ] || die "$2 needs $1"
	case $3 in -*) die "$2 needs $1, not '$3' (an option; a name starting with '-' is written ./$3)" ;; esac
}

# need_file WHAT FILE: FILE (a link to one too) is a regular file, or the
# kit stops saying what it is: not found, or not a regular file (a FIFO or
# a device would block or never end when read; nothing of it is read).
need_file() {
	[ -f "$2" ] && return 0
	[ -e "$2" ] || die "$1 '$2' not found"
	die "$1 '$2' is not a regular file (a FIFO, device or folder): nothing read"
}

# host_tools: the host tools built (build.sh tools: quiet when up to date)
# and H, their folder.  krepro_dirs first.
host_tools() {
	"${KREPRO_ROOT:?}/build.sh" tools >/dev/null || exit 2
	H=$KREPRO_OUT/host
}

# contract_get NAME: a string of tools/common/contract.h, the one home of
# what guest and host say to each other outside the frames (the guest's
# init reads its copy the same way).
contract_get() {
	sed -n "s/^#define $1 \"\([^\"\\]*\)\"\$/\1/p" "${KREPRO_ROOT:?}/tools/common/contract.h"
}

# Kbuild and make cannot build in a folder whose path holds a space or a
# colon: a checkout in such a folder keeps its cache and out/ under
# $XDG_CACHE_HOME/krepro/ instead; -C/-O DIR naming such a folder is refused.
# shellcheck disable=SC2153 # KREPRO_ROOT is set by the sourcing script
krepro_dirs() {
	case $KREPRO_ROOT in
	*[\ :]*)
		kd=${XDG_CACHE_HOME:-$HOME/.cache}/krepro/$(printf '%s' "$KREPRO_ROOT" | sha256sum | cut -c1-12)
		if [ -z "${KREPRO_CACHE:-}" ] || [ -z "${KREPRO_OUT:-}" ]; then
			note "checkout path '$KREPRO_ROOT' holds a space or colon, which make cannot build in: cache and out/ go to $kd"
		fi
		KREPRO_CACHE=${KREPRO_CACHE:-$kd/cache}
		KREPRO_OUT=${KREPRO_OUT:-$kd/out}
		;;
	esac
	KREPRO_CACHE=${KREPRO_CACHE:-$KREPRO_ROOT/cache}
	KREPRO_OUT=${KREPRO_OUT:-$KREPRO_ROOT/out}
	for d in "$KREPRO_CACHE" "$KREPRO_OUT"; do
		case $d in *[\ :]*) die "'$d' holds a space or colon: make and Kbuild cannot build there (-C/-O DIR)" ;; esac
	done
	mkdir -p "$KREPRO_CACHE" "$KREPRO_OUT"
	KREPRO_CACHE=$(cd "$KREPRO_CACHE" && pwd)
	KREPRO_OUT=$(cd "$KREPRO_OUT" && pwd)
	export KREPRO_CACHE KREPRO_OUT
}

# variant_stack_problem NAME: what is wrong with the stack NAME
# (PART[+PART...], PART = SERIES or SERIES@N) beyond its characters, or
# nothing: each series once (calibration+calibration would apply its
# patches twice) and N a number without a leading zero.
variant_stack_problem() {
	vs_seen=+
	for vs_part in $(printf '%s\n' "$1" | tr '+' ' '); do
		vs_ser=${vs_part%%@*}
		case $vs_part in *@*) case ${vs_part#*@} in '' | 0* | *[!0-9]*)
			echo "'$vs_part' needs SERIES@N, N a number from 1 (no leading zero)"
			return 0
			;; esac ;; esac
		case $vs_seen in *"+$vs_ser+"*)
			echo "series '$vs_ser' twice (a stack names each series once)"
			return 0
			;; esac
		vs_seen=$vs_seen$vs_ser+
	done
}

# Temp files and folders of this process go on every exit path (success,
# die, a failed command under set -e, INT/TERM/HUP): temp_add PATH
# registers one; the first sets the traps, unless run-matrix's session
# (lib/run/session.sh) has its own, whose cleanup calls temps_remove.
KREPRO_TEMPS=
temp_add() {
	if [ -z "$KREPRO_TEMPS" ] && [ -z "${TMPD:-}" ]; then
		trap temps_remove EXIT
		trap 'exit 130' INT TERM HUP
	fi
	KREPRO_TEMPS="$KREPRO_TEMPS
$1"
}
# temp_dir VAR PREFIX: a new private folder PREFIX.<random> named in VAR,
# removed on every exit, signals too.  The name is registered (temp_add)
# before mkdir makes the folder (mkdir refuses a name that exists), so a
# signal at any moment leaves nothing behind; with mktemp, one between its
# mkdir and temp_add left the folder.
temp_dir() {
	td_d=$2.$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
	temp_add "$td_d"
	mkdir -m 700 "$td_d" || die "cannot make the temporary folder $td_d"
	eval "$1=\$td_d"
}

# shellcheck disable=SC2317 # called from the EXIT trap
temps_remove() {
	printf '%s\n' "$KREPRO_TEMPS" | while IFS= read -r tr_p; do
		[ -z "$tr_p" ] || rm -rf -- "$tr_p"
	done
	KREPRO_TEMPS=
}

# written FILE CMD...: CMD, which writes FILE; 0 when it succeeded and said
# nothing on standard error, else 1 and a kit message naming FILE, why (the
# end of what CMD said: a full disk makes the shell say "echo: I/O error"
# and awk "close failed") and the room left on FILE's filesystem.  CMD runs
# in a subshell: what it sets is not kept.
written() {
	wr_f=$1
	shift
	if wr_err=$("$@" 2>&1 >/dev/null) && [ -z "$wr_err" ]; then return 0; fi
	wr_why=$(printf '%s\n' "$wr_err" | grep -v '^[[:space:]]*$' | tail -n 1 | show_guest_text 1)
	wr_free=$(df -Pk "$(dirname "$wr_f")" 2>/dev/null | awk 'NR == 2 { print $4 }')
	printf '%s: error: cannot write %s: %s%s\n' "${KREPRO_PROG:-krepro}" "$wr_f" \
		"${wr_why##*: }" "${wr_free:+ ($wr_free KiB free on its filesystem)}" >&2
	return 1
}

# conf_get FILE KEY: value of a key=value line (first match).
conf_get() {
	v=$(sed -n "s/^$2=//p" "$1" | head -n 1)
	[ -n "$v" ] || die "$1: no '$2=' line"
	printf '%s\n' "$v"
}

# patch_subject FILE: the Subject of a patch mail, unfolded (git
# format-patch folds long subjects onto continuation lines that start with
# white space, RFC 5322).
patch_subject() {
	awk 'in_subj && /^[ \t]/ { s = $0; sub(/^[ \t]+/, " ", s); v = v s; next }
		in_subj || /^$/ { exit }
		/^Subject: / { v = substr($0, 10); in_subj = 1 }
		END { if (v != "") print v }' "$1"
}

# terminate PID [TENTHS]: TERM, up to TENTHS tenths of a second (default
# 50) to exit, then KILL (the caller reaps its own children with wait);
# PID -N is process group N.
terminate() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null || true
	tm_i=0
	while kill -0 "$1" 2>/dev/null && [ "$tm_i" -lt "${2:-50}" ]; do
		sleep 0.1
		tm_i=$((tm_i + 1))
	done
	kill -KILL "$1" 2>/dev/null || true
}

# need_cmd COMMAND PACKAGE: fail (or install as root) when missing.
need_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	install_packages "$2"
	command -v "$1" >/dev/null 2>&1 || die "missing '$1': install Debian package $2"
}

# deps_name_only: from now on a missing package is named, never installed
# (run-matrix --dry-run: KREPRO_NO_INSTALL, exported to build.sh too).
deps_name_only() {
	KREPRO_NO_INSTALL=1
	export KREPRO_NO_INSTALL
}

install_packages() { # packages...
	# KREPRO_NO_INSTALL=1 (run-matrix --dry-run): name them, install nothing
	[ -z "${KREPRO_NO_INSTALL:-}" ] ||
		die "missing Debian package(s): $* (--dry-run installs nothing; a real run installs them as root, or: apt-get install $*)"
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		note "installing Debian packages: $*"
		# KREPRO_APT_NO_RECOMMENDS=1: the packages and their dependencies
		# only (the LAVA server: no apache2, no lava-coordinator).
		set -- ${KREPRO_APT_NO_RECOMMENDS:+--no-install-recommends} "$@"
		if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1; then
			apt-get update -q >/dev/null 2>&1 || true
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 ||
				die "apt-get install $* failed"
		fi
		return 0
	fi
	die "missing Debian package(s): $* (run: apt-get install $*)"
}

# One table: what we need, how to detect it, which Debian package has it.
KREPRO_DEPS='
cmd:make make
cmd:gcc gcc
cmd:cc gcc
cmd:flex flex
cmd:bison bison
cmd:bc bc
cmd:perl perl
cmd:ccache ccache
cmd:musl-gcc musl-tools
cmd:xz xz-utils
cmd:file file
cmd:git git
cmd:rsync rsync
cmd:qemu-system-x86_64 qemu-system-x86
cmd:bwrap bubblewrap
cmd:mmdebstrap mmdebstrap
file:/usr/include/libelf.h libelf-dev
file:/usr/include/openssl/opensslv.h libssl-dev
file:/usr/include/jansson.h libjansson-dev
file:/usr/include/yaml.h libyaml-dev
file:/bin/busybox busybox-static
'
KREPRO_TEST_DEPS='
cmd:clang clang
cmd:shellcheck shellcheck
cmd:clang-format clang-format
cmd:chromium chromium
cmd:ssh openssh-client
file:/usr/sbin/sshd openssh-server
file:/usr/sbin/kexec kexec-tools
cmd:signify-openbsd signify-openbsd
cmd:b4 b4
cmd:lava-run lava-dispatcher
cmd:mawk mawk
cmd:gawk gawk
file:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev
'

# missing_deps LIST: the packages of LIST whose command or file is absent.
missing_deps() {
	printf '%s\n' "$1" | while read -r what pkg; do
		[ -n "$what" ] || continue
		case $what in
		cmd:*) command -v "${what#cmd:}" >/dev/null 2>&1 || echo "$pkg" ;;
		file:*) [ -e "${what#file:}" ] || echo "$pkg" ;;
		esac
	done | sort -u | tr '\n' ' '
}

# check_deps LIST: install or name whatever is missing; a package that
# "installed" but still leaves its command or file missing stops here.
check_deps() {
	missing=$(missing_deps "$1")
	[ -z "$missing" ] && return 0
	# shellcheck disable=SC2086 # a list of package names
	install_packages $missing
	still=$(missing_deps "$1")
	[ -z "$still" ] || die "still missing after installing: $still(check PATH and the packages' files)"
}

need_build_deps() {
	[ -n "${KREPRO_DEPS_OK:-}" ] && return 0
	check_deps "$KREPRO_DEPS"
	file -L /bin/busybox | grep -q 'statically linked' ||
		install_packages busybox-static
	KREPRO_DEPS_OK=1
	export KREPRO_DEPS_OK
}

# A LAVA server on this machine (tests/full_lava_server.sh, docs/SCALE.md):
# the database, the server (gunicorn serves it; no apache2), the worker and
# LAVA's client, without recommends.
KREPRO_LAVA_SERVER_DEPS='
cmd:pg_ctlcluster postgresql
cmd:lava-server lava-server
cmd:gunicorn gunicorn
cmd:lava-worker lava-dispatcher
cmd:lavacli lavacli
'
need_lava_server_deps() {
	KREPRO_APT_NO_RECOMMENDS=1 check_deps "$KREPRO_LAVA_SERVER_DEPS"
}

need_test_deps() {
	need_build_deps
	check_deps "$KREPRO_TEST_DEPS"
}
