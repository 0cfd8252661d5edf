//! A receiving application that wakes up a little after data arrives
//! (`app.client_read_wakeup`) reads what has come by then in one go, and the
//! ACK that read sends (`tcp_cleanup_rbuf`: more than one rcv_mss not yet
//! acknowledged) covers all of it. On seed 004's 512 KiB, 7 ms, 1 Gbit/s case
//! on today's kernel, with GRO off, that is what keeps slow start doubling
//! exactly, as this machine's 6.18 does (testbed/rule3.sh: 10, 20, 40, 80,
//! 160, 53 in every run, with `tcp_rmem[1]` at 1 MiB and at 128 KiB). A
//! reader that takes each segment the moment it comes leaves a flight's odd
//! last segment to the delayed-ACK timer instead.
#![cfg(feature = "scenario-file")]

mod common;
use common::{scenario_text_today, server_flights};

fn flights_with(rmem1: u32, app: &str) -> Vec<u32> {
    let mut text =
        scenario_text_today("seed-004-512k-7ms.toml").replace("[app]", &format!("[app]\n{app}"));
    text += &format!(
        "\n[client.sysctl]\n\"net.ipv4.tcp_rmem\" = \"4096 {rmem1} 6291456\"\n[client.stack]\ngro = \"off\"\n"
    );
    server_flights(&text)
}

#[test]
fn a_reader_that_wakes_50us_late_lets_slow_start_double_exactly() {
    for rmem1 in [1_048_576, 131_072] {
        let f = flights_with(rmem1, "client_read_wakeup = \"50us\"");
        assert_eq!(f, [10, 20, 40, 80, 160, 53], "tcp_rmem[1] {rmem1}");
    }
}

#[test]
fn a_reader_that_never_lags_leaves_odd_segments_to_the_timer() {
    assert_eq!(&flights_with(1_048_576, "")[..5], &[10, 20, 40, 78, 158]);
}

#[test]
fn a_wakeup_outside_1us_to_100ms_is_refused_naming_the_key() {
    for bad in ["0us", "1s", "soon"] {
        let text = format!(
            "format = 1\nname = \"w\"\n[path]\nrate = \"1Gbit\"\nrtt = \"1ms\"\n\
             [app]\ntype = \"request-response\"\nresponse = \"1KB\"\nclient_read_wakeup = \"{bad}\"\n"
        );
        let e = sim_core::scenario_file::parse(&text).unwrap_err();
        assert!(
            e.to_string().contains("app.client_read_wakeup"),
            "{bad}: {e}"
        );
    }
}
