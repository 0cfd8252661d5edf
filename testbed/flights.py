# flights.py PCAP_TEXT: data segments per flight from `tcpdump -tt -n` lines
# taken between the bottleneck and the client: a flight ends at a gap over GAP ms.
import sys, re
gap = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 0.002
flights, last, cur = [], None, 0
for line in open(sys.argv[1]):
    m = re.match(r"(\d+\.\d+) IP 10\.9\.1\.1\.8080 > .*length (\d+)", line)
    if not m or int(m.group(2)) == 0: continue
    t, n = float(m.group(1)), int(m.group(2))
    segs = (n + 1447) // 1448
    if last is not None and t - last > gap:
        flights.append(cur); cur = 0
    cur += segs; last = t
flights.append(cur)
print(flights)
