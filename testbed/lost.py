# lost.py IN.txt OUT.txt: the bulk connection's segments as they enter the
# router (IN, the sender's GSO skbs) and as they leave the bottleneck (OUT,
# one segment each), from `tcpdump -tt -n -r`. A copy is lost at the
# bottleneck when no copy of its sequence number leaves within the path's
# one-way delay plus the queue's longest wait. Prints the losses per 50 ms,
# the retransmissions, and snd_nxt when the first retransmission left (the
# first recovery's high_seq).
import itertools, re, sys
from collections import Counter, defaultdict

DELAY, QUEUE_WAIT = 0.100, 0.035


def segments(path):
    rows = []
    for line in open(path):
        m = re.match(r"(\S+) IP 10\.9\.1\.1\.(\d+) > 10\.9\.2\.1\.\d+: Flags \[[^\]]*\], seq (\d+):(\d+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))))
    return rows


ins, outs = segments(sys.argv[1]), segments(sys.argv[2])
port = Counter(r[1] for r in ins).most_common(1)[0][0]
ins = [r for r in ins if r[1] == port]
t0 = ins[0][0]
left = defaultdict(list)
for t, p, s, e in outs:
    if p == port:
        for x in range(s, e, 1448):
            left[x].append(t - t0)
sent, hi = [], 0
for t, _, s, e in ins:
    for x in range(s, e, 1448):
        sent.append((t - t0, x, x < hi))
    hi = max(hi, e)
lost = [(t, x, rt) for t, x, rt in sent if not any(t + DELAY - 0.001 <= d <= t + DELAY + QUEUE_WAIT for d in left[x])]
rtx = [(t, x) for t, x, rt in sent if rt]
print(f"segments sent {len(sent)}, lost {len(lost)}, retransmitted {len(rtx)}")
if rtx:
    print(f"first retransmission {rtx[0][0]:.3f} s; snd_nxt then {max(x for t, x, _ in sent if t <= rtx[0][0]) + 1448}")
for k, g in itertools.groupby(lost, key=lambda r: int(r[0] * 20)):
    g = list(g)
    print(f"  {k / 20:.2f} s: {len(g)} lost ({sum(1 for r in g if r[2])} of them retransmissions), seq {g[0][1]}..{g[-1][1]}")
