#!/bin/bash
# down.sh: remove the testbed's namespaces and relay, and give the init
# namespace its congestion control back ("keep-cc": leave it, for up.sh).
for n in srv cli rtr; do ip netns del $n 2>/dev/null || true; done
pkill -f "testbed/delay" 2>/dev/null || true
if [ "$1" != keep-cc ] && [ -f /run/tcp-testbed.cc ]; then
    sysctl -qw net.ipv4.tcp_congestion_control="$(cat /run/tcp-testbed.cc)"
    rm -f /run/tcp-testbed.cc
fi
exit 0
