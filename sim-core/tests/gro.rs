//! Receive offload (GRO) and slow start's doubling, on seed 004's 512 KiB,
//! 7 ms, 1 Gbit/s case with the client's `tcp_rmem[1]` raised to 1 MiB, on
//! today's kernel.
//!
//! `tcp_slow_start` grows cwnd by the segments ACKed, so flights double when
//! every segment of a flight is ACKed before the next flight leaves. Two
//! receivers:
//!
//! - **One skb per segment** (GRO off; the historic eras' default, see
//!   `Kernel::gro_window`), read the moment it arrives. The window starts near
//!   its clamp (no 64 KB initial cap since 6.10, 378979e94e95), so
//!   `tcp_grow_window` stops granting a quick ACK (`quick |= 1`) part-way
//!   through flight 3. 16 quick ACKs later the ACKs go in pairs
//!   (`__tcp_ack_snd_check`: more than one rcv_mss unacknowledged), and the
//!   flight's odd last segment waits for the delayed-ACK timer. cwnd is 79
//!   when flight 4 leaves: 78 new segments and the late one.
//! - **GRO** (today's host by default, or `[client.stack] gro = "20us"`). Segments 12 µs apart on the
//!   1 Gbit/s link make one skb per run, up to 64 KB. Each skb holds more
//!   than one rcv_mss, so each is ACKed at once, and no segment is left for
//!   the timer: 10, 20, 40, 80, 160.
//!
//! A real 6.18 receiver doubles exactly with GRO off too (`testbed/rule3.sh`
//! on this repository's testbed: 10, 20, 40, 80, 160, 53 in every run): its
//! application reads a few segments at a time, and an ACK sent on a read
//! (`tcp_cleanup_rbuf`) covers three or more, which shifts the pairs so that
//! no segment is left over. The model's reader takes each segment as it
//! comes; gathering back-to-back segments into GRO skbs, as today's host
//! does by default, is what stands in for that batching here (a reader that
//! wakes late, `tests/reader_wakeup.rs`, gives the measured flights too).
#![cfg(feature = "scenario-file")]

mod common;
use common::{scenario_text_today, server_flights};

/// Flights of the server, in segments, with the client's stack lines `stack`
/// and, if `large_buffer`, its `tcp_rmem[1]` raised to 1 MiB.
fn flights_of(initcwnd: Option<u32>, large_buffer: bool, stack: &str) -> Vec<u32> {
    let mut text = scenario_text_today(if initcwnd.is_some() {
        "seed-004-initcwnd-100.toml"
    } else {
        "seed-004-512k-7ms.toml"
    });
    if large_buffer {
        text += "\n[client.sysctl]\n\"net.ipv4.tcp_rmem\" = \"4096 1048576 6291456\"\n";
    }
    text += &format!("\n[client.stack]\n{stack}\n");
    server_flights(&text)
}

#[test]
fn one_skb_per_segment_leaves_a_flights_odd_last_segment_to_the_timer() {
    let f = flights_with(None, "gro = \"off\"");
    assert_eq!(&f[..5], &[10, 20, 40, 78, 158], "{f:?}");
}

#[test]
fn with_gro_slow_start_doubles_exactly() {
    let f = flights_with(None, "gro = \"20us\"");
    assert_eq!(&f[..5], &[10, 20, 40, 80, 160], "{f:?}");
}

#[test]
fn with_gro_initcwnd_100_doubles_exactly_too() {
    // Without it, 100, 198: the first flight's last segment waits.
    assert_eq!(&flights_with(Some(100), "gro = \"off\"")[..2], &[100, 198]);
    assert_eq!(&flights_with(Some(100), "gro = \"20us\"")[..2], &[100, 200]);
}

#[test]
fn segments_further_apart_than_the_window_stay_single_skbs() {
    // At 100 Mbit/s a 1500-byte packet takes 120 µs: a 20 µs window merges
    // nothing, and the run is the same segment for segment.
    let text = |gro: &str| {
        format!(
            "format = 1\nname = \"gro-100m\"\n[path]\nrate = \"100Mbit\"\nrtt = \"20ms\"\n\
             [app]\ntype = \"request-response\"\nrequest = \"100B\"\nresponse = \"2MiB\"\n\
             [client.stack]\ngro = \"{gro}\"\n"
        )
    };
    let run = |gro: &str| {
        let (_, s) = sim_core::scenario_file::parse(&text(gro)).unwrap();
        sim_core::sim::run(&s).unwrap().trace.hash()
    };
    assert_eq!(run("off"), run("20us"));
}

#[test]
fn a_gro_window_outside_1us_to_1ms_is_refused_naming_the_key() {
    let text = "format = 1\nname = \"x\"\n[path]\nrate = \"1Gbit\"\nrtt = \"1ms\"\n\
                [app]\ntype = \"request-response\"\nresponse = \"1KiB\"\n\
                [client.stack]\ngro = \"5ms\"\n";
    let e = sim_core::scenario_file::parse(text)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("client.stack.gro") && e.contains("1us to 1ms"),
        "{e}"
    );
}

/// With the client's `tcp_rmem[1]` raised to 1 MiB.
fn flights_with(initcwnd: Option<u32>, stack: &str) -> Vec<u32> {
    flights_of(initcwnd, true, stack)
}

#[test]
fn todays_default_host_doubles_exactly() {
    // No `gro` line: today's host gathers with GRO_WINDOW_DEFAULT.
    assert_eq!(&flights_with(None, "")[..5], &[10, 20, 40, 80, 160]);
    assert_eq!(&flights_with(Some(100), "")[..2], &[100, 200]);
}

#[test]
fn the_default_buffer_doubles_the_first_four_flights() {
    // tcp_rmem[1] at its 128 KiB default. This machine's 6.18 (testbed/,
    // rule3.sh) sends 10, 20, 40, 80, 160 here in three runs of four; the
    // model's fifth flight is 133 segments, held by the 193536-byte window
    // its client offers, which grows once per GRO skb. Only the first four
    // flights are the kernel's for certain. (A reader that wakes 50 µs late
    // gives all five: tests/reader_wakeup.rs.)
    let f = flights_of(None, false, "");
    assert_eq!(&f[..4], &[10, 20, 40, 80], "{f:?}");
}
