/* A userspace netem stand-in for this machine's kernel, which lacks sch_netem:
 * packets routed into tun "tin" come back out of tun "tout" after a fixed
 * delay per direction (towards 10.9.2.0/24 or towards 10.9.1.0/24), in order. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

#define SLOTS 262144
#define MAXPKT 2048
struct slot { uint64_t due; uint16_t len; unsigned char buf[MAXPKT]; };
struct fifo { struct slot *s; size_t head, tail; };

static int tun_open(const char *name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK);
    if (fd < 0) { perror("open tun"); exit(1); }
    struct ifreq ifr; memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) { perror("TUNSETIFF"); exit(1); }
    return fd;
}
static uint64_t now_ns(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
}
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: delay TO_CLIENT_US TO_SERVER_US\n"); return 2; }
    uint64_t d_cli = strtoull(argv[1], 0, 10) * 1000, d_srv = strtoull(argv[2], 0, 10) * 1000;
    int in = tun_open("tin"), out = tun_open("tout");
    struct fifo f[2];
    for (int i = 0; i < 2; i++) { f[i].s = calloc(SLOTS, sizeof(struct slot)); f[i].head = f[i].tail = 0; }
    unsigned long drops = 0;
    for (;;) {
        uint64_t t = now_ns();
        /* write what is due */
        uint64_t next = UINT64_MAX;
        for (int i = 0; i < 2; i++) {
            while (f[i].head != f[i].tail) {
                struct slot *s = &f[i].s[f[i].head % SLOTS];
                if (s->due > t) { if (s->due < next) next = s->due; break; }
                if (write(out, s->buf, s->len) < 0 && errno != EAGAIN) perror("write");
                f[i].head++;
            }
        }
        int timeout_ns = next == UINT64_MAX ? 100000000 : (int)(next - t);
        struct timespec ts = { timeout_ns / 1000000000, timeout_ns % 1000000000 };
        struct pollfd p = { in, POLLIN, 0 };
        int r = ppoll(&p, 1, &ts, NULL);
        if (r <= 0) continue;
        for (;;) {
            unsigned char tmp[MAXPKT];
            ssize_t n = read(in, tmp, sizeof tmp);
            if (n <= 0) break;
            if ((tmp[0] >> 4) != 4 || n < 20) continue;
            int dir = tmp[18] == 2 ? 0 : 1; /* 10.9.2.x: towards the client */
            struct fifo *q = &f[dir];
            if (q->tail - q->head >= SLOTS) { drops++; continue; }
            struct slot *s = &q->s[q->tail % SLOTS];
            s->due = now_ns() + (dir == 0 ? d_cli : d_srv);
            s->len = (uint16_t)n; memcpy(s->buf, tmp, n);
            q->tail++;
        }
    }
}
