#!/bin/sh
# lava/local-server.sh: a LAVA server and worker on this machine, as a lab
# runs them, for ./run-matrix.sh --lava (docs/SCALE.md, "A LAVA server").
#
#   lava/local-server.sh start [-p PORT] [-n DEVICES]   install (Debian's
#       lava-server, lava-dispatcher, lavacli, postgresql, gunicorn; no
#       recommends), start the database, the server (gunicorn on
#       127.0.0.1:PORT, default 8000, no apache2), the scheduler and one
#       worker from their units' ExecStart lines (no systemd needed); create
#       the user krepro with a token, the lavacli identity "krepro-local",
#       device type qemu and DEVICES (default 2) qemu devices
#       krepro-qemu-01.. with the kit's dictionary (lava/krepro-qemu.jinja2),
#       each tagged with its own name (real mode pins a matrix to one).
#   lava/local-server.sh stop     stop what start started (not the database)
#
# The token goes from the server into lavacli's configuration and is never
# printed.  Logs: /var/log/lava-server/, /var/log/lava-dispatcher/.
set -eu
KREPRO_ROOT=$(cd "$(dirname "$0")/.." && pwd)
KREPRO_PROG=lava-server
# shellcheck source=lib/shared/common.sh
. "$KREPRO_ROOT/lib/shared/common.sh"

STATE=/run/krepro-lava
PORT=8000
NDEV=2
IDENTITY=krepro-local
WORKER=krepro-worker

# daemon NAME COMMAND...: COMMAND in the background, in its own session,
# its pid in STATE/NAME.pid (stop ends exactly these).
daemon() {
	dn=$1
	shift
	if [ -f "$STATE/$dn.pid" ] && kill -0 "$(cat "$STATE/$dn.pid")" 2>/dev/null; then
		return 0
	fi
	setsid "$@" </dev/null >>"$STATE/$dn.log" 2>&1 &
	echo $! >"$STATE/$dn.pid"
}

# lc ARGS...: lavacli with the kit's identity, its output on stderr only when
# it failed, with any "user:token@" of a URL removed.
lc() {
	if ! lavacli -i "$IDENTITY" "$@" >"$STATE/lavacli.out" 2>&1; then
		sed 's#://[^/@ ]*@#://#g' "$STATE/lavacli.out" | head -n 5 >&2
		return 1
	fi
}

# wait_for WHAT SECONDS COMMAND...: COMMAND succeeds within SECONDS.
wait_for() {
	wf_what=$1 wf_n=$2
	shift 2
	while ! "$@" >/dev/null 2>&1; do
		wf_n=$((wf_n - 1))
		[ "$wf_n" -gt 0 ] || die "$wf_what did not come up (logs: $STATE, /var/log/lava-server)"
		sleep 1
	done
}

start() {
	t0=$(date +%s)
	need_lava_server_deps
	t1=$(date +%s)
	mkdir -p "$STATE"
	# The database (Debian's cluster, started as its unit would).
	pgv=$(find /etc/postgresql -mindepth 1 -maxdepth 1 -name "[0-9]*" -printf "%f\n" | sort -n | tail -n 1)
	[ -n "$pgv" ] || die "no PostgreSQL cluster in /etc/postgresql"
	pg_isready -q || pg_ctlcluster "$pgv" main start
	wait_for PostgreSQL 60 pg_isready -q
	# lava-server's own configuration step: the database, its role and
	# migrations (skipped at install time when PostgreSQL was not running).
	if [ ! -f "$STATE/configured" ]; then
		/usr/bin/python3 /usr/share/lava-server/postinst.py >"$STATE/postinst.log" 2>&1 ||
			die "lava-server's postinst.py failed (see $STATE/postinst.log)"
		touch "$STATE/configured"
	fi
	# The units' ExecStart lines (lava-server-gunicorn, lava-scheduler,
	# lava-worker), with this machine's sizes: 2 gunicorn workers.
	daemon gunicorn gunicorn3 lava_server.wsgi --log-level INFO --log-file /var/log/lava-server/gunicorn.log \
		-u lavaserver -g lavaserver --worker-class eventlet --workers 2 --bind "127.0.0.1:$PORT" --timeout 120
	daemon scheduler lava-server manage lava-scheduler --level INFO --log-file /var/log/lava-server/lava-scheduler.log
	wait_for "the server on 127.0.0.1:$PORT" 120 python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$PORT/api/v0.2/system/version/', timeout=5)"
	# A user and its token; lavacli's identity holds it (never printed).
	if ! lavacli -i "$IDENTITY" system version >/dev/null 2>&1; then
		lava-server manage users list 2>/dev/null | grep -q '\bkrepro\b' ||
			lava-server manage users add --superuser --staff --passwd "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" krepro >/dev/null
		tok=$(lava-server manage tokens add --user krepro 2>/dev/null | tail -n 1)
		case $tok in '' | *[!A-Za-z0-9]*) die "lava-server did not give a token" ;; esac
		lavacli identities add --uri "http://127.0.0.1:$PORT/RPC2" --username krepro --token "$tok" "$IDENTITY" >/dev/null
		tok=
		lc system version || die "lavacli cannot reach the server as identity $IDENTITY"
	fi
	# The worker registers itself (the server takes workers from 127.0.0.0/8).
	# It asks for work every 5 s (default 20: up to 20 s more per job).
	daemon worker lava-worker --level INFO --log-file /var/log/lava-dispatcher/lava-worker.log \
		--url "http://127.0.0.1:$PORT/" --name "$WORKER" --ping-interval 5
	wait_for "worker $WORKER" 120 sh -c "lavacli -i '$IDENTITY' workers list 2>/dev/null | grep -q '$WORKER'"
	lc device-types list
	grep -q '^\* qemu\b' "$STATE/lavacli.out" || lc device-types add qemu
	i=1
	while [ "$i" -le "$NDEV" ]; do
		d=krepro-qemu-$(printf '%02d' "$i")
		lc devices list --all
		grep -q "^\* $d\b" "$STATE/lavacli.out" || lc devices add --type qemu --worker "$WORKER" "$d"
		lc devices dict set "$d" "$KREPRO_ROOT/lava/krepro-qemu.jinja2"
		lc tags list
		grep -q "^\* $d\b" "$STATE/lavacli.out" || lc tags add "$d"
		lc devices tags list "$d"
		grep -q "^\* $d\$" "$STATE/lavacli.out" || lc devices tags add "$d" "$d"
		lc devices update --health GOOD "$d"
		i=$((i + 1))
	done
	wait_for "the worker online" 120 sh -c "lavacli -i '$IDENTITY' workers show '$WORKER' 2>/dev/null | grep -qi 'state *: *Online'"
	t2=$(date +%s)
	note "LAVA on http://127.0.0.1:$PORT/ (lavacli identity $IDENTITY), $NDEV qemu devices; install $((t1 - t0)) s, setup $((t2 - t1)) s"
}

stop() {
	for n in worker scheduler gunicorn; do
		[ -f "$STATE/$n.pid" ] || continue
		p=$(cat "$STATE/$n.pid")
		# setsid made each its own process group: the group goes (10 s to
		# stop, then KILL: a restart needs the port and the devices free).
		if kill -0 "-$p" 2>/dev/null; then terminate "-$p" 100; else terminate "$p" 100; fi
		rm -f "$STATE/$n.pid"
	done
}

cmd=${1:-}
[ $# -eq 0 ] || shift
while [ $# -gt 0 ]; do
	case $1 in
	-p) PORT=${2:-}; shift 2 ;;
	-n) NDEV=${2:-}; shift 2 ;;
	*) die "unknown option '$1'" ;;
	esac
done
case $PORT in '' | *[!0-9]*) die "-p: a port number" ;; esac
case $NDEV in [1-9]) ;; *) die "-n: 1 to 9 devices" ;; esac
case $cmd in
start) start ;;
stop) stop ;;
*) die "usage: lava/local-server.sh start [-p PORT] [-n DEVICES] | stop" ;;
esac
