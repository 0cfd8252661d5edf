#!/bin/bash
# rule4.sh [SECONDS] [TAG]: one CUBIC bulk transfer over 100 Mbit/s and 200 ms
# with a drop-tail queue of 0.1 BDP (250 kB), no random loss. iperf3's client
# (the data sender) runs in srv, so its JSON (cap/TAG.json) has the sender's
# cwnd and retransmissions per second; `ss -tin` samples the sender every
# 100 ms (cap/TAG.ss); both directions are captured where the sender's
# packets enter the router (cap/TAG-in.pcap) and where they leave the
# bottleneck (cap/TAG-out.pcap), for lost.py and prr.py.
here=$(cd "$(dirname "$0")" && pwd); T=${1:-35}; TAG=${2:-rule4}; mkdir -p "$here/cap"
"$here/up.sh" 100mbit 100000 100000 250000
ip netns exec cli iperf3 -s -1 -B 10.9.2.1 >/dev/null 2>&1 &
ip netns exec rtr tcpdump --immediate-mode -Z root -i rs -n -s 80 -U -w "$here/cap/$TAG-in.pcap" tcp port 5201 2>/dev/null &
ip netns exec rtr tcpdump --immediate-mode -Z root -i rc -n -s 80 -U -w "$here/cap/$TAG-out.pcap" tcp port 5201 2>/dev/null &
sleep 1.5
ip netns exec srv iperf3 -c 10.9.2.1 -t "$T" -i 1 -C cubic -J > "$here/cap/$TAG.json" &
IP=$!
while kill -0 $IP 2>/dev/null; do
    echo "T $(date +%s.%N)"
    ip netns exec srv ss -tin dst 10.9.2.1 | grep -o "cwnd:[0-9]*\|ssthresh:[0-9]*\|retrans:[0-9/]*\|lost:[0-9]*\|rtt:[0-9./]*" | tr '\n' ' '
    echo; sleep 0.1
done > "$here/cap/$TAG.ss"
sleep 1; pkill -f "tcpdump --immediate-mode -Z root -i r[sc]"; wait 2>/dev/null
for d in in out; do tcpdump -tt -n -r "$here/cap/$TAG-$d.pcap" 2>/dev/null > "$here/cap/$TAG-$d.txt"; done
python3 "$here/r4show.py" "$here/cap/$TAG.json"
