#!/bin/bash
# rule3.sh GRO(on|off) RMEM1 [TAG]: seed 004's 512 KiB push over 7 ms and
# 1 Gbit/s on this kernel, the client's tcp_rmem[1] = RMEM1 and its GRO on or
# off. Prints the completion time and the data segments per flight seen after
# the bottleneck (capture in cap/TAG.pcap).
here=$(cd "$(dirname "$0")" && pwd); TAG=${3:-rule3}; mkdir -p "$here/cap"
"$here/up.sh" 1gbit 3500 3500 1500000
ip netns exec cli sysctl -qw net.ipv4.tcp_rmem="4096 $2 33554432"
ip netns exec cli ethtool -K c0 gro "$1" >/dev/null
ip netns exec srv python3 "$here/push.py" server 524288 & SP=$!
rm -f "$here/cap/$TAG.pcap"
# --immediate-mode: without it a capture stopped soon after the transfer can
# lose the packets still in the kernel's ring buffer.
ip netns exec rtr tcpdump --immediate-mode -Z root -i rc -n -s 100 -U -w "$here/cap/$TAG.pcap" tcp 2>/dev/null &
for i in $(seq 1 50); do [ -s "$here/cap/$TAG.pcap" ] && break; sleep 0.1; done
sleep 1
ip netns exec cli python3 "$here/push.py" client 0
sleep 1; pkill -f "tcpdump --immediate-mode -Z root -i rc"; kill $SP; wait 2>/dev/null
tcpdump -tt -n -r "$here/cap/$TAG.pcap" 2>/dev/null > "$here/cap/$TAG.txt"
python3 "$here/flights.py" "$here/cap/$TAG.txt" 2
