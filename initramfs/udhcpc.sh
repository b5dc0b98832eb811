#!/bin/sh
# udhcpc event script for lab boards: apply the lease to the interface.
# shellcheck shell=sh disable=SC2154 # udhcpc passes interface, ip, mask, router
case $1 in
bound | renew)
	ip addr flush dev "$interface"
	ip addr add "$ip/${mask:-24}" dev "$interface"
	for r in $router; do
		ip route add default via "$r" dev "$interface" && break
	done
	;;
deconfig) ip addr flush dev "$interface" ;;
esac
exit 0
