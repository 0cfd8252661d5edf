# push.py server|client SIZE [REPEAT GAP]: the server writes SIZE bytes to each
# connection (CUBIC), the client reads until EOF; like seed 004's HTTP GET.
import socket, sys, time
role, size = sys.argv[1], int(sys.argv[2])
if role == "server":
    l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind(("10.9.1.1", 8080)); l.listen(8)
    while True:
        c, _ = l.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"cubic")
        c.recv(100)
        c.sendall(b"x" * size); c.close()
else:
    s = socket.socket()
    t0 = time.time(); s.connect(("10.9.1.1", 8080)); s.sendall(b"GET / HTTP/1.0\r\n\r\n")
    n = 0
    while True:
        b = s.recv(1 << 20)
        if not b: break
        n += len(b)
    print(f"{n} bytes in {(time.time()-t0)*1000:.1f} ms")
