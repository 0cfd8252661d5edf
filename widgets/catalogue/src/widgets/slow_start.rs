//! Slow start on a new connection: one response of `size` bytes, whose
//! flights double each round trip until the path, the receiver's window or
//! the transfer's end stops them (seed 004's captures).

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, ClientKernel, Count, Duration, Param, Rate, Values};
use sim_core::config::{HostSettings, Kernel, PAGE_SIZE, PathConfig, Scenario};
use sim_core::tcp::receive_window::TCPOLEN_TSTAMP_ALIGNED;

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "slow-start",
    title: "Slow start on a new connection",
    params: &[
        RTT.spec,
        BANDWIDTH.spec,
        MSS.spec,
        INITCWND.spec,
        SIZE.spec,
        RWND.spec,
        RCVBUF.spec,
        KERNEL.spec,
        CLIENT_KERNEL.spec,
    ],
    presets: PRESETS,
    // What the chapter is about: round trips (RTT), the first flight
    // (initcwnd) and how many doublings the transfer needs (its size).
    primary: &[RTT.spec.name, INITCWND.spec.name, SIZE.spec.name],
    values_of,
    scenario,
};

const MS: f64 = 1e6;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
    .range(0.1 * MS, 300.0 * MS)
    .default(7.0 * MS)
    .log_scale();

pub const BANDWIDTH: Param<Rate> = Param::new("bandwidth", "Bandwidth", "bottleneck rate")
    .range(1e6, 10e9)
    .default(1e9)
    .log_scale();

pub const MSS: Param<Count> = Param::new("mss", "MSS", "payload bytes per segment")
    .range(536.0, 8948.0)
    .default(1448.0);

pub const INITCWND: Param<Count> = Param::new(
    "initcwnd",
    "initcwnd",
    "initial congestion window in segments, the server route's initcwnd",
)
.range(1.0, 100.0)
.default(10.0)
.knob("initcwnd");

pub const SIZE: Param<Bytes> = Param::new("size", "Transfer size", "bytes the server sends")
    .range(KIB, 64.0 * MIB)
    .default(512.0 * KIB)
    .log_scale();

pub const RWND: Param<Bytes> = Param::new(
    "rwnd",
    "Receiver's SYN window",
    "window the client advertises in its SYN",
)
.range(KIB, 65535.0)
.default(64240.0);

pub const RCVBUF: Param<Bytes> = Param::new(
    "rcvbuf",
    "Receive buffer",
    "client's initial receive buffer, tcp_rmem[1]; autotuning grows it",
)
.range(4096.0, 32.0 * MIB)
.default(131072.0)
.log_scale()
.knob("net.ipv4.tcp_rmem");

pub const CLIENT_KERNEL: Param<ClientKernel> = Param::new(
    "client_kernel",
    "Client's kernel, if different",
    "the Linux the client runs, if not the server's: the seed's capture had a 5.5 client and a 4.18 server",
)
.default(0.0);

const PRESETS: &[Preset] = &[
    Preset {
        name: "seed-7ms",
        title: "512 KiB at 7 ms (seed 004)",
        scenario: "seed-004-512k-7ms.toml",
        notes: "Ask the class to predict the round trips before pressing play, then step with +1 RTT and read the bytes per flight: each flight doubles. Compare the completion time with the capture's 63 ms from first SYN to last ACK, which includes the close and one more flight.",
    },
    Preset {
        name: "seed-5ms",
        title: "512 KiB at 5 ms, 42340-byte SYN window (seed 004)",
        scenario: "seed-004-512k-5ms.toml",
        notes: "The flights are the same as at 7 ms; only the round trip is shorter, so the completion time shrinks with it. The source's run advertised a 42,340-byte SYN window; point at the time-sequence graph's window line to show it does not bind here.",
    },
    Preset {
        name: "seed-2.8ms",
        title: "512 KiB at 2.8 ms (seed 004)",
        scenario: "seed-004-512k-2.8ms.toml",
        notes: "Still the same flights: at this size the time is round trips times RTT. Halve the bandwidth and see how little changes, then halve the RTT.",
    },
    Preset {
        name: "seed-0.3ms",
        title: "512 KiB at 0.3 ms (seed 004)",
        scenario: "seed-004-512k-0.3ms.toml",
        notes: "At 0.3 ms the bandwidth-delay product is only a couple of dozen segments, so the flights stop doubling: the link, not slow start, sets the pace. Compare with the measured 8 ms.",
    },
    Preset {
        name: "initcwnd-100",
        title: "initcwnd 100 vs a 64240-byte SYN window",
        scenario: "seed-004-initcwnd-100.toml",
        notes: "initcwnd 100 asks for a much larger first flight, but the client's 64,240-byte SYN window caps it: read the first flight's bytes. A larger initcwnd helps only when the receiver's window allows it.",
    },
    Preset {
        name: "small-buffer",
        title: "512 KiB at 7 ms, 40 KiB starting receive buffer",
        scenario: "slow-start-small-buffer.toml",
        notes: "Watch the receive-buffer bar and the window line: the second and third flights are held to what the small buffer allows until autotuning grows it, one round trip behind the sender.",
    },
];

/// One response on a new connection, over a symmetric path. The hosts are
/// the chosen kernel's, booted with its defaults, with the sliders applied
/// through the same setters a scenario file's keys use, so the kernel's
/// rules (window scale, SYN window) hold at every slider setting.
fn scenario(v: &Values) -> Scenario {
    let kernel = v.choice(KERNEL);
    let mss = v.count(MSS);
    let mut server = HostSettings::for_kernel_choice(kernel);
    server.set_mss(mss);
    server.set_route_initcwnd(v.count(INITCWND));
    let rcvbuf = v.bytes(RCVBUF);
    let mut client = HostSettings::for_kernel_choice(v.choice(CLIENT_KERNEL).or(kernel));
    client.set_mss(mss);
    // tcp_rmem[1] from the slider; the ceiling the kernel's tcp_rmem[2], but
    // never below it, so autotuning can still grow the buffer.
    let ceiling = client.derive().receiver.rcvbuf_max;
    client.set_tcp_rmem([PAGE_SIZE, rcvbuf, ceiling.max(rcvbuf)]);
    // The slider asks for a SYN window; as in Linux the buffer may allow less
    // (`tcp_select_initial_window`). Only a smaller one is a limit: the host
    // as booted already offers its own, and a limit also caps the windows
    // after the handshake, which today's kernels leave free.
    // A whole number of advertised segments is what a reader would set:
    // the client route's `initrwnd` (advmss = MSS + the timestamp option).
    let rwnd = u32::try_from(v.bytes(RWND)).unwrap_or(u32::MAX);
    let advmss = mss + TCPOLEN_TSTAMP_ALIGNED as u32;
    if rwnd < client.derive().receiver.syn_window {
        if rwnd % advmss == 0 {
            client.set_route_initrwnd(rwnd / advmss);
        } else {
            client.set_syn_window_limit(rwnd);
        }
    }
    let mut s = Scenario {
        path: PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT)),
        client: client.derive(),
        server: server.derive(),
        ..Scenario::default()
    };
    s.app.response = vec![v.bytes(SIZE)];
    s
}

/// What each parameter reads from a scenario (a preset's file).
fn values_of(s: &Scenario) -> Values {
    let mut v = Values::unread(WIDGET.params);
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    v.set(MSS, s.server.sender.mss);
    v.set(INITCWND, s.server.sender.initcwnd);
    v.set(SIZE, s.app.response_bytes());
    v.set(RWND, u64::from(s.client.receiver.syn_window));
    v.set(RCVBUF, s.client.receiver.rcvbuf);
    let server = s.server.kernel.unwrap_or(Kernel::Today);
    let client = s.client.kernel.unwrap_or(Kernel::Today);
    v.set(KERNEL, server);
    v.set(
        CLIENT_KERNEL,
        if client == server {
            ClientKernel::Same
        } else {
            ClientKernel::Era(client)
        },
    );
    v
}
