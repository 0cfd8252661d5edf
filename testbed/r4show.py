import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    rows = []
    for iv in d["intervals"]:
        s = iv["streams"][0]
        rows.append((s["start"], s["bits_per_second"] / 1e6, s.get("retransmits", 0), s.get("snd_cwnd", 0) / 1024))
    print(f, "total %.1f Mbit/s" % (d["end"]["sum_received"]["bits_per_second"] / 1e6))
    print(" ".join("%.0f" % r[1] for r in rows))
    print("retr", " ".join(str(r[2]) for r in rows))
    print("cwnd", " ".join("%.0f" % r[3] for r in rows))
