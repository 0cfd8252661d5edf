#!/bin/bash
# up.sh RATE TO_CLIENT_US TO_SERVER_US QUEUE_BYTES
#
# Three network namespaces on this machine's own kernel:
#   srv (10.9.1.1, the data sender) -- rtr -- cli (10.9.2.1, the receiver)
# rtr routes every packet through two tun devices, where `delay` holds it for
# the one-way delay of its direction (a stand-in for netem, which this
# machine's kernel lacks), then through a tbf of RATE whose QUEUE_BYTES are
# the drop-tail bottleneck queue on the way to the client.
#
# Needs root. The hosts' congestion control is the init namespace's default
# when the namespaces are made; up.sh sets it to cubic (down.sh restores it),
# because a socket switched to CUBIC after BBR initialised it keeps BBR's
# internal pacing (sk_pacing_status stays SK_PACING_NEEDED).
set -e
here=$(cd "$(dirname "$0")" && pwd)
RATE=$1; DC=$2; DS=$3; Q=$4
[ -x "$here/delay" ] || gcc -O2 -o "$here/delay" "$here/delay.c"
"$here/down.sh" keep-cc
[ -f /run/tcp-testbed.cc ] || sysctl -n net.ipv4.tcp_congestion_control > /run/tcp-testbed.cc
sysctl -qw net.ipv4.tcp_congestion_control=cubic
for n in srv cli rtr; do ip netns add $n; ip -n $n link set lo up; done
ip link add s0 netns srv type veth peer name rs netns rtr
ip link add c0 netns cli type veth peer name rc netns rtr
ip -n srv addr add 10.9.1.1/24 dev s0; ip -n srv link set s0 up; ip -n srv route add default via 10.9.1.254
ip -n cli addr add 10.9.2.1/24 dev c0; ip -n cli link set c0 up; ip -n cli route add default via 10.9.2.254
ip -n rtr addr add 10.9.1.254/24 dev rs; ip -n rtr link set rs up
ip -n rtr addr add 10.9.2.254/24 dev rc; ip -n rtr link set rc up
ip netns exec rtr sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
ip netns exec rtr "$here/delay" "$DC" "$DS" > /tmp/tcp-testbed-delay.log 2>&1 &
for i in $(seq 1 50); do ip -n rtr link show tout >/dev/null 2>&1 && break; sleep 0.1; done
for t in tin tout; do ip -n rtr link set $t up; ip netns exec rtr sysctl -qw net.ipv4.conf.$t.rp_filter=0; done
ip netns exec rtr sysctl -qw net.ipv4.conf.rs.rp_filter=0 net.ipv4.conf.rc.rp_filter=0
# Whatever comes in from either host goes to the relay; what the relay writes
# back is routed by destination.
ip -n rtr route add default dev tin table 100
ip -n rtr rule add iif rs lookup 100
ip -n rtr rule add iif rc lookup 100
ip netns exec rtr tc qdisc add dev rc root tbf rate "$RATE" burst 3028 limit "$Q"
