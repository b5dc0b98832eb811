#!/bin/sh
# loopback-board.sh: a lab machine on this host, for exercising the lab
# control path end to end (boards/lab-loopback).  It is a QEMU VM running a
# small "installed system": busybox, Debian's OpenSSH sshd and Debian's
# kexec-tools, with sshd reachable on 127.0.0.1 through QEMU's port forward.
# run-matrix.sh drives it exactly as a lab box: ssh in, upload the variant,
# kexec -l / kexec -e, read the serial console, power-cycle it when it hangs.
# A reboot of the benchmark kernel (after=reboot) resets the VM, which boots
# its installed system again, as a lab box does.
#
#   lab/loopback-board.sh start [KERNEL]  build the image if needed, boot it
#   lab/loopback-board.sh stop | cycle    power off / power-cycle
#   lab/loopback-board.sh console         stream the serial console (tail -F)
#   lab/loopback-board.sh ssh [CMD...]    ssh into the board
#   lab/loopback-board.sh wait [SECONDS]  until its sshd answers (default 120)
#   lab/loopback-board.sh status          running or not
# shellcheck shell=sh
main() {
set -eu
KREPRO_ROOT=$(cd "$(dirname "$0")/.." && pwd)
KREPRO_PROG=loopback-board
# shellcheck source=lib/shared/common.sh
. "$KREPRO_ROOT/lib/shared/common.sh"
krepro_dirs
D=$KREPRO_CACHE/lab-loopback
mkdir -p "$D"

usage() {
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
}

# add_elf PATH: the binary and every shared library ldd names, as list lines.
add_elf() {
	echo "file $1 $1 0755 0 0"
	ldd "$1" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' | while read -r lib; do
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done
}

# image: the board's installed system, rebuilt at every start.
image() {
	need_cmd sshd openssh-server
	need_cmd ssh-keygen openssh-client
	need_cmd kexec kexec-tools
	[ -f "$D/host_key" ] || ssh-keygen -q -t ed25519 -N '' -C krepro-loopback-host -f "$D/host_key"
	[ -f "$D/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C krepro-loopback -f "$D/id_ed25519"
	sshd=$(command -v sshd)
	kexec=$(command -v kexec)
	gic=$KREPRO_OUT/host/gen_init_cpio
	[ -x "$gic" ] || "$KREPRO_ROOT/build.sh" tools >/dev/null
	cat >"$D/init" <<'INIT'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /run/sshd
chmod 0755 /run/sshd
ip link set lo up
ip link set eth0 up
udhcpc -i eth0 -q -n -t 10 -T 2 -s /etc/udhcpc.sh >/dev/null 2>&1 || echo "labos: no DHCP lease"
/usr/sbin/sshd -E /tmp/sshd.log && echo "labos: sshd started"
while :; do sleep 3600; done
INIT
	cat >"$D/sshd_config" <<'CONF'
Port 22
HostKey /etc/ssh/ssh_host_ed25519_key
PermitRootLogin prohibit-password
PubkeyAuthentication yes
AuthorizedKeysFile /root/.ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PidFile /run/sshd.pid
CONF
	printf 'root:x:0:0:root:/root:/bin/sh\nsshd:x:100:65534::/run/sshd:/bin/false\n' >"$D/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$D/group"
	{
		for d in /bin /sbin /dev /proc /sys /tmp /run /etc /etc/ssh /root /root/.ssh \
			/usr /usr/bin /usr/sbin /lib /lib/x86_64-linux-gnu /lib64 /var /var/empty; do
			echo "dir $d 0755 0 0"
		done
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "nod /dev/null 0666 0 0 c 1 3"
		echo "file /bin/busybox /bin/busybox 0755 0 0"
		echo "slink /bin/sh busybox 0777 0 0"
		echo "file /init $D/init 0755 0 0"
		echo "file /etc/udhcpc.sh $KREPRO_ROOT/initramfs/udhcpc.sh 0755 0 0"
		echo "file /etc/passwd $D/passwd 0644 0 0"
		echo "file /etc/group $D/group 0644 0 0"
		echo "file /etc/ssh/sshd_config $D/sshd_config 0644 0 0"
		echo "file /etc/ssh/ssh_host_ed25519_key $D/host_key 0600 0 0"
		echo "file /root/.ssh/authorized_keys $D/id_ed25519.pub 0600 0 0"
		add_elf "$sshd"
		add_elf "$kexec"
	} | awk '!seen[$2]++' >"$D/labos.list"
	# Folders before what goes in them, one entry per path.
	{ grep '^dir ' "$D/labos.list"; grep -v '^dir ' "$D/labos.list"; } >"$D/labos.list.sorted"
	"$gic" -t 0 "$D/labos.list.sorted" | gzip -n >"$D/labos.cpio.gz.tmp"
	mv "$D/labos.cpio.gz.tmp" "$D/labos.cpio.gz"
	host=$(cut -d' ' -f1,2 "$D/host_key.pub")
	echo "krepro-loopback $host" >"$D/known_hosts"
}

write_ssh_config() { # port
	cat >"$D/ssh_config" <<CONF
# written by lab/loopback-board.sh start
Host krepro-loopback
	HostName 127.0.0.1
	Port $1
	User root
	IdentityFile $D/id_ed25519
	IdentitiesOnly yes
	HostKeyAlias krepro-loopback
	UserKnownHostsFile $D/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 10
	LogLevel ERROR
CONF
}

running() {
	[ -f "$D/qemu.pid" ] && kill -0 "$(cat "$D/qemu.pid")" 2>/dev/null
}

boot() {
	kernel=$(cat "$D/kernel")
	port=$(cat "$D/port" 2>/dev/null || echo 10022)
	: >>"$D/console.log"
	tries=0
	while :; do
		if qemu-system-x86_64 -machine pc -accel tcg -cpu qemu64 -smp 2 -m 2G \
			-nodefaults -display none -monitor none \
			-chardev file,id=con,path="$D/console.log",append=on -serial chardev:con \
			-netdev user,id=n0,hostfwd=tcp:127.0.0.1:"$port"-:22 \
			-device virtio-net-pci,netdev=n0 \
			-kernel "$kernel" -initrd "$D/labos.cpio.gz" \
			-append "console=ttyS0,115200 panic=-1 nokaslr" \
			-daemonize -pidfile "$D/qemu.pid" 2>"$D/qemu.log" 9>&-; then
			break
		fi
		tries=$((tries + 1))
		if ! grep -q 'hostfwd\|host forwarding' "$D/qemu.log" || [ "$tries" -ge 50 ]; then
			die "QEMU did not start: $(head -n 3 "$D/qemu.log")"
		fi
		port=$((port + 1))
	done
	echo "$port" >"$D/port"
	write_ssh_config "$port"
	note "board up: QEMU pid $(cat "$D/qemu.pid"), sshd on 127.0.0.1:$port"
}

stop() {
	running || return 0
	terminate "$(cat "$D/qemu.pid")"
	rm -f "$D/qemu.pid"
}

wait_ssh() { # seconds
	end=$(($(date +%s) + $1))
	until ssh -F "$D/ssh_config" krepro-loopback true </dev/null 2>/dev/null; do
		[ "$(date +%s)" -lt "$end" ] || die "no ssh answer from the board within $1 s (console: $D/console.log)"
		sleep 1
	done
}

case ${1:-} in
start)
	if [ -n "${2:-}" ]; then
		readlink -f "$2" >"$D/kernel"
	else
		"$KREPRO_ROOT/build.sh" kernel base | tail -n 1 >"$D/kernel"
	fi
	image
	stop
	boot
	wait_ssh 120
	note "ssh answers (ssh -F $D/ssh_config krepro-loopback)"
	;;
wait) wait_ssh "${2:-120}" ;;
stop) stop ;;
cycle)
	[ -f "$D/kernel" ] || die "the board was never started (lab/loopback-board.sh start)"
	note "power cycle"
	stop
	boot
	;;
console) exec tail -n 0 -F "$D/console.log" ;;
ssh)
	shift
	exec ssh -F "$D/ssh_config" krepro-loopback "$@"
	;;
status)
	if running; then echo "running (pid $(cat "$D/qemu.pid"), port $(cat "$D/port"))"; else echo stopped; fi
	;;
-h | --help) usage ;;
*)
	usage >&2
	exit 2
	;;
esac
}
main "$@"
exit $?
