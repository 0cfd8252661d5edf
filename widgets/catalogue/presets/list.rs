// Which scenario files each widget offers as one-click presets, with the
// title its menu shows. The preset's slider values are not written here: the
// build script reads them from the file (see `from_scenario.rs`), so a preset
// cannot drift from the case `tcpsim run scenarios/FILE` prints.

pub struct PresetSource {
    pub widget: &'static str,
    pub name: &'static str,
    pub title: &'static str,
    /// A file in the repository's `scenarios/` folder.
    pub scenario: &'static str,
    /// Speaker notes: what to point at when showing the case to a class.
    pub notes: &'static str,
}

pub const PRESET_SOURCES: &[PresetSource] = &[
    PresetSource {
        widget: "slow-start",
        name: "seed-7ms",
        notes: "Ask the class to predict the round trips before pressing play, then step with +1 RTT and read the bytes per flight: each flight doubles. Compare the completion time with the capture's 63 ms from first SYN to last ACK, which includes the close and one more flight.",
        title: "512 KiB at 7 ms (seed 004)",
        scenario: "seed-004-512k-7ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-5ms",
        notes: "The flights are the same as at 7 ms; only the round trip is shorter, so the completion time shrinks with it. The source's run advertised a 42,340-byte SYN window; point at the time-sequence graph's window line to show it does not bind here.",
        title: "512 KiB at 5 ms, 42340-byte SYN window (seed 004)",
        scenario: "seed-004-512k-5ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-2.8ms",
        notes: "Still the same flights: at this size the time is round trips times RTT. Halve the bandwidth and see how little changes, then halve the RTT.",
        title: "512 KiB at 2.8 ms (seed 004)",
        scenario: "seed-004-512k-2.8ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-0.3ms",
        notes: "At 0.3 ms the bandwidth-delay product is only a couple of dozen segments, so the flights stop doubling: the link, not slow start, sets the pace. Compare with the measured 8 ms.",
        title: "512 KiB at 0.3 ms (seed 004)",
        scenario: "seed-004-512k-0.3ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "initcwnd-100",
        notes: "initcwnd 100 asks for a much larger first flight, but the client's 64,240-byte SYN window caps it: read the first flight's bytes. A larger initcwnd helps only when the receiver's window allows it.",
        title: "initcwnd 100 vs a 64240-byte SYN window",
        scenario: "seed-004-initcwnd-100.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "small-buffer",
        notes: "Watch the receive-buffer bar and the window line: the second and third flights are held to what the small buffer allows until autotuning grows it, one round trip behind the sender.",
        title: "512 KiB at 7 ms, 40 KiB starting receive buffer",
        scenario: "slow-start-small-buffer.toml",
    },
    PresetSource {
        widget: "long-fat",
        name: "seed-003-cubic",
        notes: "One CUBIC flow for 30 s at 210 ms. Open the cwnd chart: each random loss cuts the window to 70 %, and at 210 ms it takes seconds to grow back. Read the iperf3 panel: the rate swings, as the source's 52 to 105 Mbit/s did.",
        title: "CUBIC, 110 Mbit/s × 210 ms, 3e-5 loss (seed 003)",
        scenario: "seed-003-lfn-cubic.toml",
    },
    PresetSource {
        widget: "long-fat",
        name: "seed-003-bbr",
        notes: "The same path with BBR and fq. BBR does not treat a random loss as congestion: its rate follows the bandwidth it measures. Point at Startup, Drain and the 8-phase ProbeBW cycle in the cwnd chart, and at the steady iperf3 lines.",
        title: "BBR, 110 Mbit/s × 210 ms, 3e-5 loss (seed 003)",
        scenario: "seed-003-lfn-bbr.toml",
    },
];
