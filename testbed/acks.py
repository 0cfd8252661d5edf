# acks.py TXT: per flight, data segments and the client's ACKs (how many segments each covers)
import sys, re
lines = open(sys.argv[1]).read().splitlines()
gap = 0.002
out = []; last = None; cur = None; prev_ack = None
for l in lines:
    m = re.match(r"(\d+\.\d+) IP 10\.9\.(\d)\.1\.\d+ > .*?(?:seq (\d+):(\d+), )?ack (\d+).*length (\d+)", l)
    if not m: continue
    t = float(m.group(1)); frm = m.group(2); n = int(m.group(6))
    if frm == "1" and n > 0:
        if last is None or t - last > gap:
            cur = {"t": t, "segs": 0, "acks": []}; out.append(cur)
        cur["segs"] += (n + 1447) // 1448; last = t
    elif frm == "2" and cur is not None:
        a = int(m.group(5))
        if prev_ack is not None and a > prev_ack:
            cur["acks"].append(round((a - prev_ack) / 1448, 2))
        prev_ack = a if prev_ack is None or a > prev_ack else prev_ack
for f in out:
    print(f"{f['t']:.4f} segs {f['segs']:4d} acks {len(f['acks'])}: {f['acks']}")
