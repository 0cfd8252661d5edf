//! The server socket at the end of a run as the Linux tools show it:
//! `ss -tin` and `ip tcp_metrics show`.

use crate::sim::RunResult;
use crate::tcp::info::{RecvInfo, SendInfo};
use crate::trace::TraceEvent;

/// An `ss -tmin`-style line for the server's socket at the end of the run:
/// congestion control, window scales, RTO, RTT, MSS, cwnd, ssthresh, bytes and
/// segments, and the send rate cwnd allows (`send` = cwnd × MSS × 8 / srtt).
///
/// Of the `skmem:(...)` block (`ss -m`, from `sk_get_meminfo`) it prints
/// only the fields the model knows, `r` (`sk_rmem_alloc`), `rb`
/// (`sk_rcvbuf`), `tb` (`sk_sndbuf`) and `w` (`sk_wmem_queued`), which the
/// samples carry; not `t` (bytes in the qdisc and NIC), `f` (forward
/// allocation) and the rest, which printed as 0 would differ from what a
/// reader's own `ss -tm` shows. `snd_wnd:`
/// (`tcpi_snd_wnd`) and `notsent:` (`tcpi_notsent_bytes`, when not 0) are
/// as `ss -i` prints them.
///
/// It reads the run's last `TCP_INFO` sample (taken at the end of every run),
/// not the packet records, so it stays exact past the trace's packet budget.
pub fn ss_line(run: &RunResult) -> String {
    if established(run).is_none() {
        return ss_no_connection(None);
    }
    let (at, info) = run
        .trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            TraceEvent::Sample {
                info, server_recv, ..
            } => Some((r.time.0, (info, server_recv))),
            _ => None,
        })
        .last()
        .unwrap_or_default();
    ss_line_of(&run.scenario, &info.0, &info.1, at)
}

/// When the server's socket completed its (first) handshake, if it did.
pub fn established(run: &RunResult) -> Option<crate::time::SimTime> {
    run.trace.flow_summary(0).find_map(|r| match r.event {
        TraceEvent::Established {
            side: crate::segment::Side::Server,
        } => Some(r.time),
        _ => None,
    })
}

/// What `ss -tin` shows of the connection before the server's socket exists
/// as a connected socket (before its handshake completes, at `established`,
/// or ever): nothing, where a line of zeros ("cwnd:0 rto:0") would read as a
/// real socket. In ms, as `ss` prints rtt and rto.
pub fn ss_no_connection(established: Option<crate::time::SimTime>) -> String {
    match established {
        Some(t) => format!(
            "(no connection yet: ss -tin lists the server's socket once its handshake completes, at {} ms)\n",
            crate::decimal_text::fixed(t.0 as f64 / 1e6, 3)
        ),
        None => "(no connection: the server's handshake never completed)\n".to_string(),
    }
}

/// The `ss -tin` line for the server socket of `scenario` with `info` (any
/// sample, e.g. the one in effect at a widget's time cursor), taken at
/// `at_ns`. As `ss` does (`tcp_show_info`), `ato:`, `lastsnd:`, `lastrcv:`,
/// `lastack:` and `unacked:` appear only when not zero.
pub fn ss_line_of(
    sc: &crate::config::Scenario,
    info: &crate::tcp::info::TcpInfo,
    recv: &RecvInfo,
    at_ns: u64,
) -> String {
    let mss = sc.server.sender.mss as u64;
    let ws = if sc.client.receiver.window_scaling && sc.server.receiver.window_scaling {
        format!(
            " wscale:{},{}",
            sc.client.receiver.wscale, sc.server.receiver.wscale
        )
    } else {
        String::new()
    };
    let srtt = info.srtt_ns;
    let send = if srtt > 0 {
        (info.cwnd as u64 * mss * 8) as f64 / (srtt as f64 / 1e9) / 1e6
    } else {
        0.0
    };
    let c = info.counters;
    // Whole ms, as `tcp_get_info` converts jiffies (`jiffies_to_msecs`).
    let ms = |v: u64| v / 1_000_000;
    let field = |name: &str, v: u64| {
        if v > 0 {
            format!(" {name}:{v}")
        } else {
            String::new()
        }
    };
    let ago = |name: &str, stamp: u64| {
        if stamp > 0 {
            field(name, ms(at_ns.saturating_sub(stamp)))
        } else {
            String::new()
        }
    };
    let ato = field("ato", ms(info.ato_ns));
    let last = ago("lastsnd", info.last_data_sent_ns)
        + &ago("lastrcv", info.last_data_recv_ns)
        + &ago("lastack", info.last_ack_recv_ns)
        + &field("unacked", info.in_flight as u64);
    let cc = cc_info(&info.cc);
    let notsent = match info.notsent_bytes {
        0 => String::new(),
        n => format!(" notsent:{n}"),
    };
    format!(
        "{} {}{ws} rto:{} rtt:{}/{}{ato} mss:{mss} cwnd:{}{} bytes_sent:{} bytes_retrans:{} bytes_acked:{} segs_out:{} segs_in:{} data_segs_out:{}{cc} send {}Mbps{last} snd_wnd:{}{notsent}\n",
        skmem(recv, &info.send_info()),
        sc.server.sender.congestion_control.name(),
        crate::decimal_text::fixed(info.rto_ns as f64 / 1e6, 0),
        crate::decimal_text::fixed(srtt as f64 / 1e6, 3),
        crate::decimal_text::fixed(info.rttvar_ns as f64 / 1e6, 3),
        info.cwnd,
        info.ssthresh
            .map_or(String::new(), |s| format!(" ssthresh:{s}")),
        c.bytes_sent,
        c.bytes_retrans,
        info.bytes_acked,
        c.segs_out,
        c.segs_in,
        c.data_segs_out,
        crate::decimal_text::fixed(send, 1),
        info.snd_wnd,
    )
}

/// `ss -m`'s memory block for a socket, as far as the model knows it (see
/// [`ss_line`]): `r` and `rb` its receive side, `tb` and `w` its send side.
pub fn skmem(recv: &RecvInfo, send: &SendInfo) -> String {
    format!(
        "skmem:(r{},rb{},tb{},w{})",
        recv.rmem_alloc, recv.rcvbuf, send.sndbuf, send.wmem_queued
    )
}

/// The client's socket as far as the samples read it: its `skmem` block
/// and the window the server advertised (`snd_wnd:`). On a download the
/// client is the receiver: `r` growing to `rb` is a reader falling behind.
pub fn ss_client_line(recv: &RecvInfo, send: &SendInfo) -> String {
    format!("{} snd_wnd:{}\n", skmem(recv, send), send.snd_wnd)
}

/// The `.get_info` block `ss -i` prints after the counters (iproute2
/// `tcp_show_info`): for BBR, `bbr:(bw:…bps,mrtt:…,pacing_gain:…,cwnd_gain:…)`
/// with bw in bits per second through `sprint_bw`, min_rtt in ms and the
/// gains over 256, each `%g`; a gain of 0 is left out, as `ss` does.
/// Nothing for other algorithms (Linux's CUBIC and Reno have no `.get_info`).
fn cc_info(cc: &crate::cc::CcInfo) -> String {
    let crate::cc::CcInfo::Bbr {
        bw,
        min_rtt_us,
        pacing_gain,
        cwnd_gain,
    } = *cc
    else {
        return String::new();
    };
    let gain = |name: &str, g: u32| match g {
        0 => String::new(),
        g => format!(",{name}:{}", printf_g(g as f64 / 256.0)),
    };
    format!(
        " bbr:(bw:{}bps,mrtt:{}{}{})",
        sprint_bw(bw as f64 * 8.0),
        printf_g(min_rtt_us as f64 / 1000.0),
        gain("pacing_gain", pacing_gain),
        gain("cwnd_gain", cwnd_gain)
    )
}

/// iproute2's `sprint_bw` as the rest of this line prints rates (`send`):
/// `%.1fM` above 10^6, `%.1fK` above 10^3, else `%g`.
fn sprint_bw(bps: f64) -> String {
    use crate::decimal_text::fixed;
    if bps > 1e6 {
        fixed(bps / 1e6, 1) + "M"
    } else if bps > 1e3 {
        fixed(bps / 1e3, 1) + "K"
    } else {
        printf_g(bps)
    }
}

/// C's `%g` for the values `ss` prints with it (0 or 10^-4 ≤ x < 10^6):
/// six significant digits, trailing zeros dropped.
fn printf_g(x: f64) -> String {
    let mut e = 0i32;
    while e > -4 && x < 10f64.powi(e) {
        e -= 1;
    }
    while x >= 10f64.powi(e + 1) {
        e += 1;
    }
    let text = crate::decimal_text::fixed(x, (5 - e).max(0) as usize);
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// `ip tcp_metrics show` for the server's cache of the client, at the end of the run.
pub fn tcp_metrics_show(run: &RunResult) -> String {
    let end = run
        .trace
        .records()
        .last()
        .map_or(crate::time::SimTime::ZERO, |r| r.time);
    run.tcp_metrics.show("client", end)
}

#[cfg(test)]
mod tests {
    use super::{ss_client_line, ss_line_of};
    use crate::cc::CcInfo;
    use crate::config::Scenario;
    use crate::tcp::info::{RecvInfo, SendInfo, TcpInfo};

    const SERVER_RECV: RecvInfo = RecvInfo {
        rcvbuf: 131_072,
        unread: 0,
        rmem_alloc: 0,
    };

    #[test]
    fn the_line_shows_the_send_buffer_and_the_peers_window() {
        let info = TcpInfo {
            sndbuf: 32_000,
            wmem_queued: 30_008,
            snd_wnd: 65_535,
            notsent_bytes: 1_448,
            ..TcpInfo::default()
        };
        let line = ss_line_of(&Scenario::default(), &info, &SERVER_RECV, 0);
        assert!(
            line.starts_with("skmem:(r0,rb131072,tb32000,w30008) cubic "),
            "{line}"
        );
        assert!(line.ends_with(" snd_wnd:65535 notsent:1448\n"), "{line}");
        let quiet = TcpInfo {
            notsent_bytes: 0,
            ..info
        };
        assert!(!ss_line_of(&Scenario::default(), &quiet, &SERVER_RECV, 0).contains("notsent"));
    }

    #[test]
    fn a_receiver_that_stopped_reading_shows_r_at_rb() {
        let full = RecvInfo {
            rcvbuf: 1_048_576,
            unread: 786_432,
            rmem_alloc: 1_048_000,
        };
        let send = SendInfo {
            sndbuf: 87_040,
            wmem_queued: 0,
            snd_wnd: 65_160,
        };
        assert_eq!(
            ss_client_line(&full, &send),
            "skmem:(r1048000,rb1048576,tb87040,w0) snd_wnd:65160\n"
        );
    }

    #[test]
    fn only_bbr_prints_a_model() {
        let quiet = TcpInfo::default();
        assert!(!ss_line_of(&Scenario::default(), &quiet, &SERVER_RECV, 0).contains("bbr:"));
    }

    /// `bbr_get_info`'s figures as iproute2 prints them: bw (bytes/s) × 8
    /// through `sprint_bw`, min_rtt µs / 1000 and the gains / 256 as `%g`,
    /// between the counters and `send`.
    #[test]
    fn a_bbr_socket_shows_its_model() {
        let info = TcpInfo {
            cc: CcInfo::Bbr {
                bw: 13_687_500,
                min_rtt_us: 210_043,
                pacing_gain: 739,
                cwnd_gain: 512,
            },
            ..TcpInfo::default()
        };
        let line = ss_line_of(&Scenario::default(), &info, &SERVER_RECV, 0);
        assert!(
            line.contains(" bbr:(bw:109.5Mbps,mrtt:210.043,pacing_gain:2.88672,cwnd_gain:2) send "),
            "{line}"
        );
        let drain = TcpInfo {
            cc: CcInfo::Bbr {
                bw: 100,
                min_rtt_us: 500,
                pacing_gain: 88,
                cwnd_gain: 0,
            },
            ..info
        };
        let line = ss_line_of(&Scenario::default(), &drain, &SERVER_RECV, 0);
        assert!(
            line.contains(" bbr:(bw:800bps,mrtt:0.5,pacing_gain:0.34375) "),
            "{line}"
        );
        assert_eq!(super::sprint_bw(8_000.0), "8.0K");
        assert_eq!(super::printf_g(1234.5678), "1234.57");
        assert_eq!(super::printf_g(0.0), "0");
    }
}
