# prr.py IN.txt [FROM TO]: from the capture where the sender's packets enter the router
# (both directions, as the sender sees them), its recovery in 5 ms steps:
# segments sent (new/retransmitted), delivered (newly ACKed or SACKed), and
# PRR's running prr_out and prr_delivered.
import re, sys
LO, HI = (float(sys.argv[2]), float(sys.argv[3])) if len(sys.argv) > 3 else (0.0, 1e9)
from collections import Counter
lines = open(sys.argv[1]).read().splitlines()
port = Counter(re.findall(r"10\.9\.1\.1\.(\d+) > 10\.9\.2\.1\.5201: Flags \[\.\], seq", "\n".join(lines))).most_common(1)[0][0]
t0 = None; hi = 0; una = 0; sacked = set(); rec = None; out = dlv = 0
step = {}
base = None
for l in lines:
    m = re.match(r"(\S+) IP 10\.9\.1\.1\.%s > .*seq (\d+):(\d+)" % port, l)
    a = re.match(r"(\S+) IP 10\.9\.2\.1\.5201 > 10\.9\.1\.1\.%s: Flags \[\.\], ack (\d+)(.*)" % port, l)
    if m:
        t = float(m.group(1)); t0 = t0 or t; s, e = int(m.group(2)), int(m.group(3))
        n = (e - s + 1447) // 1448
        if s < hi and rec is None: rec = t; print("recovery at %.3f, high_seq %d" % (t - t0, hi)); high = hi
        if rec is not None: out += n
        k = int((t - t0) * 200); st = step.setdefault(k, [0, 0, 0, 0, 0])
        st[0 if s >= hi else 1] += n
        hi = max(hi, e)
    elif a and t0:
        t = float(a.group(1)); ack = int(a.group(2))
        new = 0
        if ack > una:
            new += sum(1 for x in range(una, ack, 1448) if x not in sacked) if una else 0
            sacked = {x for x in sacked if x >= ack}; una = ack
        for s_, e_ in re.findall(r"(\d+):(\d+)", (re.search(r"sack \d+ \{([^}]*)\}", a.group(3)) or re.search(r"()", "")).group(1) or ""):
            for x in range(int(s_), int(e_), 1448):
                if x not in sacked and x >= una: sacked.add(x); new += 1
        if rec is not None: dlv += new
        k = int((t - t0) * 200); st = step.setdefault(k, [0, 0, 0, 0, 0])
        st[2] += new; st[3] = out; st[4] = dlv
        if rec is not None and ack >= high and st is not None:
            print("exit at %.3f" % (t - t0)); rec = None; out = dlv = 0
for k in sorted(step):
    if LO <= k / 200 <= HI:
        s = step[k]; print("%.3f sent new %3d rtx %3d delivered %3d | prr_out %4d prr_delivered %4d (0.7 x = %d)" % (k / 200, s[0], s[1], s[2], s[3], s[4], 0.7 * s[4]))
