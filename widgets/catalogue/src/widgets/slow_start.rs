//! Slow start on a new connection: one response of `size` bytes, whose
//! flights double each round trip until the path, the receiver's window or
//! the transfer's end stops them (seed 004's captures).
//!
//! Behind "More settings", the same response `transfers` times, `gap` apart,
//! on one connection or a new one each time: with
//! `net.ipv4.tcp_slow_start_after_idle` on, a connection idle for longer than
//! its RTO starts again from the restart window (`tcp_cwnd_restart`), so a
//! reused connection is little faster than a new one (seed 004's two pushes
//! 10 s apart, seed 002's 4 MB reads). An RPC framework's transfer buffer
//! hands the response to the socket in small writes (seed 002's `transbuf`).

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, Choice, ClientKernel, Count, Duration, Param, Rate, Switch, Values};
use sim_core::config::{
    ChunkedWrites, DEFAULT_QUEUE_BYTES, HostSettings, Kernel, PAGE_SIZE, Pacing, PathConfig,
    Scenario,
};
use sim_core::time::SimDuration;
use sim_core::tcp::receive_window::TCPOLEN_TSTAMP_ALIGNED;

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "slow-start",
    title: crate::prose!("Slow start on a new connection"),
    params: &[
        RTT.spec,
        BANDWIDTH.spec,
        MSS.spec,
        INITCWND.spec,
        SIZE.spec,
        TRANSFERS.spec,
        GAP.spec,
        SLOW_START_AFTER_IDLE.spec,
        CONNECTION.spec,
        TRANSBUF.spec,
        REQUEST.spec,
        RWND.spec,
        RCVBUF.spec,
        QUEUE.spec,
        NETEM_DELAY.spec,
        KERNEL.spec,
        CLIENT_KERNEL.spec,
    ],
    presets: PRESETS,
    // What the chapter is about: round trips (RTT), the first flight
    // (initcwnd) and how many doublings the transfer needs (its size).
    primary: &[RTT.spec.name, INITCWND.spec.name, SIZE.spec.name],
    values_of: crate::native_fn!(values_of),
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
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

pub const TRANSFERS: Param<Count> = Param::new(
    "transfers",
    "Transfers",
    "how many times the server sends the response, one per gap",
)
.range(1.0, 10.0)
.default(1.0);

pub const GAP: Param<Duration> = Param::new(
    "gap",
    "Gap between transfers",
    "from the start of one transfer to the start of the next (the application's sleep, or the client's read interval)",
)
.range(0.0, 60.0 * S)
.default(10.0 * S);

pub const SLOW_START_AFTER_IDLE: Param<Switch> = Param::new(
    "slow_start_after_idle",
    "Slow start after idle",
    "net.ipv4.tcp_slow_start_after_idle on the server: after an idle spell longer than the RTO, cwnd starts again from the restart window (tcp_cwnd_restart)",
)
.default(1.0)
.knob("net.ipv4.tcp_slow_start_after_idle");

pub const CONNECTION: Param<Connection> = Param::new(
    "connection",
    "Connection",
    "reused: every transfer on one connection; new: a new connection for each transfer (a handshake, and slow start from initcwnd)",
)
.default(0.0);

pub const TRANSBUF: Param<TransBuf> = Param::new(
    "transbuf",
    "Application's write size",
    "whole: the response in one write(); or an RPC framework's transfer buffer (SOFA-RPC's transbuf in seed 002): write() calls of at most this size, 31 µs apart, with TCP_NODELAY",
)
.default(0.0);

pub const REQUEST: Param<Bytes> = Param::new(
    "request",
    "Request",
    "bytes the client sends before each response; 0: the server pushes its response as soon as the connection is up",
)
.range(0.0, 16.0 * KIB)
.default(147.0);

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

pub const QUEUE: Param<Bytes> = Param::new(
    "queue",
    "Bottleneck queue",
    "drop-tail queue in bytes at the bottleneck (default: txqueuelen 1000 × 1500 B)",
)
.range(16.0 * KIB, 256.0 * MIB)
.default(DEFAULT_QUEUE_BYTES as f64)
.log_scale();

pub const NETEM_DELAY: Param<Duration> = Param::new(
    "netem_delay",
    "Extra delay server → client",
    "part of the RTT added on the server's egress only, as `tc qdisc add dev eth0 root netem delay 3ms` on the server; the rest of the RTT is split evenly",
)
.range(0.0, 100.0 * MS)
.default(0.0);

/// A new connection for each transfer, or one connection for all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    Reused,
    New,
}

impl Choice for Connection {
    const NAMES: &'static [&'static str] = &["reused", "new"];
    fn from_index(index: usize) -> Option<Self> {
        [Connection::Reused, Connection::New].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// How the server's application hands its response to the socket: in one
/// `write()`, or through an RPC framework's transfer buffer of one of the
/// sizes seed 002 tried (1 KiB, its framework's default; 32 KiB, the
/// framework's recommendation; 4 MiB) or 4 KiB between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransBuf {
    Whole,
    KiB1,
    KiB4,
    KiB32,
    MiB4,
}

impl Choice for TransBuf {
    const NAMES: &'static [&'static str] = &["whole", "1KiB", "4KiB", "32KiB", "4MiB"];
    fn from_index(index: usize) -> Option<Self> {
        use TransBuf::*;
        [Whole, KiB1, KiB4, KiB32, MiB4].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// The RPC framework's work per chunk (copying, encoding, the system call).
/// Seed 002 does not give it: 31 µs is fitted to its 1 KiB figure (124 ms),
/// as its scenario files say.
pub const RPC_WRITE_COST: SimDuration = SimDuration::from_micros(31);

impl TransBuf {
    /// The framework's writes, or `None` for one whole `write()`.
    pub fn writes(self) -> Option<ChunkedWrites> {
        let size = match self {
            TransBuf::Whole => return None,
            TransBuf::KiB1 => 1 << 10,
            TransBuf::KiB4 => 4 << 10,
            TransBuf::KiB32 => 32 << 10,
            TransBuf::MiB4 => 4 << 20,
        };
        Some(ChunkedWrites {
            size,
            cost: RPC_WRITE_COST,
        })
    }

    /// The option that makes `writes`; a size the widget does not offer is
    /// a preset's file the widget cannot show, which the build refuses.
    fn of(writes: Option<ChunkedWrites>) -> TransBuf {
        (0..Self::NAMES.len())
            .filter_map(Self::from_index)
            .find(|t| t.writes() == writes)
            // A plain message: formatting the value would cost the bundle.
            .expect("the file's server_write_buffer/cost is none of the transbuf options")
    }
}

pub const CLIENT_KERNEL: Param<ClientKernel> = Param::new(
    "client_kernel",
    "Client's kernel, if different",
    "the Linux the client runs, if not the server's: the seed's capture had a 5.5 client and a 4.18 server",
)
.default(0.0);

const PRESETS: &[Preset] = &[
    Preset {
        name: "seed-7ms",
        title: crate::prose!("512 KiB at 7 ms, the capture's setting"),
        scenario: crate::native!("seed-004-512k-7ms.toml"),
        notes: crate::prose!("Ask the class to predict the round trips before pressing play, then step with +1 RTT and read the bytes per flight: each flight doubles. Compare the completion time with the capture's 63 ms from first SYN to last ACK, which includes the close and one more flight."),
    },
    Preset {
        name: "seed-5ms",
        title: crate::prose!("512 KiB at 5 ms, a 42340-byte SYN window"),
        scenario: crate::native!("seed-004-512k-5ms.toml"),
        notes: crate::prose!("The flights are the same as at 7 ms; only the round trip is shorter, so the completion time shrinks with it. The source's run advertised a 42,340-byte SYN window; point at the time-sequence graph's window line to show it does not bind here."),
    },
    Preset {
        name: "seed-2.8ms",
        title: crate::prose!("512 KiB at 2.8 ms"),
        scenario: crate::native!("seed-004-512k-2.8ms.toml"),
        notes: crate::prose!("Still the same flights: at this size the time is round trips times RTT. Halve the bandwidth and see how little changes, then halve the RTT."),
    },
    Preset {
        name: "seed-0.3ms",
        title: crate::prose!("512 KiB at 0.3 ms"),
        scenario: crate::native!("seed-004-512k-0.3ms.toml"),
        notes: crate::prose!("At 0.3 ms the bandwidth-delay product is only a couple of dozen segments, so the flights stop doubling: the link, not slow start, sets the pace. Compare with the measured 8 ms."),
    },
    Preset {
        name: "initcwnd-100",
        title: crate::prose!("initcwnd 100 vs a 64240-byte SYN window"),
        scenario: crate::native!("seed-004-initcwnd-100.toml"),
        notes: crate::prose!("initcwnd 100 asks for a much larger first flight, but the client's 64,240-byte SYN window caps it: read the first flight's bytes. A larger initcwnd helps only when the receiver's window allows it."),
    },
    Preset {
        name: "small-buffer",
        title: crate::prose!("512 KiB at 7 ms, 40 KiB starting receive buffer"),
        scenario: crate::native!("slow-start-small-buffer.toml"),
        notes: crate::prose!("Watch the receive-buffer bar and the window line: the second and third flights are held to what the small buffer allows until autotuning grows it, one round trip behind the sender."),
    },
    Preset {
        name: "idle-restart-on",
        title: crate::prose!("Two 512 KiB pushes 10 s apart on one connection"),
        scenario: crate::native!("seed-004-idle-restart-on.toml"),
        notes: crate::prose!("Ask whether the second push, on a connection whose window has already grown, will be faster. It is not: read the two transfer times in the headline, and the bytes per flight, where the second push's flights repeat the first's. After 10 s with nothing in flight, far more than the RTO, tcp_cwnd_restart has cut cwnd back to the restart window, min(initcwnd, cwnd) = 10. Seed 004 measured 19 ms and 19 ms (first data to last ACK; the simulator's times run from the write to the last byte read). Misconception: that keeping a connection open keeps its window."),
    },
    Preset {
        name: "idle-restart-off",
        title: crate::prose!("Two 512 KiB pushes 10 s apart, slow start after idle off"),
        scenario: crate::native!("seed-004-idle-restart-off.toml"),
        notes: crate::prose!("The same two pushes with net.ipv4.tcp_slow_start_after_idle = 0: the second keeps the cwnd the first grew to: read the size of its first flight, and the two transfer times in the headline. Seed 004 measured 23 ms then 5 ms. Point at the bytes per flight: the second push needs two flights instead of six. The sysctl is system-wide and only helps connections that are reused; a new connection still starts from initcwnd."),
    },
    Preset {
        name: "4mb-new-connection",
        title: crate::prose!("4 MB reads every 10 s, a new connection for each"),
        scenario: crate::native!("seed-002-4mb-new-connection.toml"),
        notes: crate::prose!("Five 4 MB reads at 4 ms RTT and 1 Gbit/s, each on a new connection: each pays a handshake and slow start from initcwnd. Read the per-read times in the headline (each from its SYN); seed 002 measured 174 ms on average. The line alone would move 4 MB in about 33 ms (32 ms of payload, plus headers). The gap between the two figures is not explained by TCP's round trips alone; say so rather than fit it."),
    },
    Preset {
        name: "4mb-reused",
        title: crate::prose!("4 MB reads every 10 s on one connection"),
        scenario: crate::native!("seed-002-4mb-reused.toml"),
        notes: crate::prose!("One connection for all five reads, slow start after idle on (the default). Compare the first read's time with the later ones in the headline: only the handshake is saved, because each read comes 10 s after the last and starts from the restart window again. Seed 002 measured 102 ms on average, against 174 ms with new connections. Misconception: that connection reuse alone avoids slow start."),
    },
    Preset {
        name: "4mb-reused-no-idle-restart",
        title: crate::prose!("4 MB reads every 10 s on one connection, slow start after idle off"),
        scenario: crate::native!("seed-002-4mb-reused-no-idle-restart.toml"),
        notes: crate::prose!("Reuse plus net.ipv4.tcp_slow_start_after_idle = 0: the first read still slow-starts, and every later one keeps the grown window: about 33 ms on the wire plus the request's round trip. Seed 002 measured 43 ms on average and expected 40 ms + RTT. Both changes are needed: reuse the connection and keep its window."),
    },
    Preset {
        name: "rpc-transbuf-1k",
        title: crate::prose!("4 MB reads through a 1 KiB RPC buffer"),
        scenario: crate::native!("seed-002-rpc-transbuf-1k.toml"),
        notes: crate::prose!("The reused connection without slow start after idle, but the RPC framework hands the response to the socket 1 KiB at a time. Its 31 µs per chunk is fitted to seed 002's 124 ms, not measured: 3,907 chunks take about 121 ms, so agreement here proves nothing. The writer, not TCP, sets the pace, and the flights stay small because the socket never holds more than the writer has produced."),
    },
    Preset {
        name: "rpc-transbuf-32k",
        title: crate::prose!("4 MB reads through a 32 KiB RPC buffer"),
        scenario: crate::native!("seed-002-rpc-transbuf-32k.toml"),
        notes: crate::prose!("With 32 KiB chunks (the framework's recommended size) the same per-chunk cost hides behind the 1 Gbit/s line: the times in the headline are those without the framework. Seed 002 measured 61 ms on average: the framework costs more than the 31 µs per chunk fitted here, and the simulator does not claim to know how much."),
    },
    Preset {
        name: "rpc-transbuf-32k-idle-restart",
        title: crate::prose!("4 MB reads through a 32 KiB RPC buffer, slow start after idle on"),
        scenario: crate::native!("seed-002-rpc-transbuf-32k-idle-restart.toml"),
        notes: crate::prose!("The 32 KiB buffer with the sysctl at its default: every read after the first starts from the restart window again. Seed 002 measured 93 ms against 61 ms with the sysctl at 0; compare with the previous preset: the simulator's difference is the slow start alone."),
    },
    Preset {
        name: "rpc-transbuf-4m",
        title: crate::prose!("4 MB reads through a 4 MiB RPC buffer"),
        scenario: crate::native!("seed-002-rpc-transbuf-4m.toml"),
        notes: crate::prose!("A buffer larger than the response: one write per read, as without the framework. Seed 002 measured 55 ms on average, against 61 ms at 32 KiB."),
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
    server.set_tcp_slow_start_after_idle(v.choice(SLOW_START_AFTER_IDLE).on());
    let server_writes = v.choice(TRANSBUF).writes();
    if server_writes.is_some() {
        // RPC frameworks (SOFA's Bolt among them) turn Nagle off.
        server.set_tcp_nodelay(true);
    }
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
    // The RTT less the server's netem delay, split evenly (a symmetric path
    // without it), then the netem delay on the way to the client.
    let rtt = v.duration(RTT);
    let netem = v.duration(NETEM_DELAY).min(rtt);
    let base = SimDuration(rtt.0 - netem.0);
    let path = PathConfig {
        delay_forward: SimDuration(base.0 / 2),
        delay_reverse: SimDuration(base.0 - base.0 / 2 + netem.0),
        queue_bytes: v.bytes(QUEUE),
        ..PathConfig::symmetric(v.rate(BANDWIDTH), rtt)
    };
    let mut s = Scenario {
        path,
        client: client.derive(),
        server: server.derive(),
        ..Scenario::default()
    };
    let request = v.bytes(REQUEST);
    s.app.request = if request == 0 { Vec::new() } else { vec![request] };
    s.app.response = vec![v.bytes(SIZE)];
    let transfers = v.count(TRANSFERS);
    s.app.repeat = transfers;
    // Start to start, as the seeds' programs pace them (write, sleep, write).
    if transfers > 1 {
        s.app.pacing = Pacing::Every(v.duration(GAP));
    }
    s.app.new_connection = v.choice(CONNECTION) == Connection::New;
    s.app.server_writes = server_writes;
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
    v.set(TRANSFERS, s.app.repeat);
    // One transfer has no gap: the slider keeps its default for a second one.
    let (Pacing::Every(gap) | Pacing::After(gap)) = s.app.pacing;
    v.set(
        GAP,
        if s.app.repeat > 1 {
            gap
        } else {
            SimDuration(GAP.spec.default as u64)
        },
    );
    v.set(
        SLOW_START_AFTER_IDLE,
        Switch::from(s.server.sender.slow_start_after_idle),
    );
    v.set(
        CONNECTION,
        if s.app.new_connection {
            Connection::New
        } else {
            Connection::Reused
        },
    );
    v.set(TRANSBUF, TransBuf::of(s.app.server_writes));
    v.set(REQUEST, s.app.request_bytes());
    v.set(QUEUE, s.path.queue_bytes);
    v.set(
        NETEM_DELAY,
        SimDuration(s.path.delay_reverse.0.saturating_sub(s.path.delay_forward.0)),
    );
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
