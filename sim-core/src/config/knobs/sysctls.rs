//! The sysctls: defaults per era from each era's source (`tcp_init`,
//! `tcp_sk_init`, `sock_init`; the research notes on issue 16, section 8,
//! hold the derivations).

use super::Chapter::{Buffers, LongFat, Metrics, Nagle, SlowStart};
use super::Setter::{Bytes32, Flag, Int, Name, Sizes};
use super::{ABSENT, Family, Knob, Model, every_era};
use crate::cc::Algorithm;
use crate::config::{HostSettings, Qdisc};

fn set_qdisc(s: &mut HostSettings, name: &str) -> Result<(), String> {
    let q =
        Qdisc::by_name(name).ok_or("expected \"fq\", \"fq_codel\", \"pfifo_fast\" or \"pfifo\"")?;
    s.set_default_qdisc(q);
    Ok(())
}

fn set_congestion_control(s: &mut HostSettings, name: &str) -> Result<(), String> {
    s.set_tcp_congestion_control(Algorithm::by_name(name).map_err(|e| e.to_string())?);
    Ok(())
}

fn set_retries2(s: &mut HostSettings, n: i64) -> Result<(), String> {
    s.set_tcp_retries2(u32::try_from(n).map_err(|_| "must not be negative")?);
    Ok(())
}

fn set_syn_retries(s: &mut HostSettings, n: i64) -> Result<(), String> {
    s.set_tcp_syn_retries(u32::try_from(n).map_err(|_| "must not be negative")?);
    Ok(())
}

fn set_synack_retries(s: &mut HostSettings, n: i64) -> Result<(), String> {
    s.set_tcp_synack_retries(u32::try_from(n).map_err(|_| "must not be negative")?);
    Ok(())
}

fn set_adv_win_scale(s: &mut HostSettings, n: i64) -> Result<(), String> {
    s.set_tcp_adv_win_scale(n).map_err(|e| e.message)
}

pub const SYSCTLS: &[Knob] = &[
    Knob {
        name: "net.ipv4.tcp_rmem",
        family: Family::Sysctl,
        what: "Receive buffer sizes `min default max`, in bytes: a new socket's buffer is *default*, autotuning grows it up to *max*, and *max* (or `rmem_max` if larger) sizes the window scale a SYN offers. The third value is 1/128 of free memory, capped at what the column shows.",
        defaults: [
            "4096 87380 4194304",
            "4096 87380 6291456",
            "4096 87380 6291456",
            "4096 131072 6291456",
            "4096 131072 33554432",
        ],
        read_by: "`tcp_init_sock`, `tcp_rcv_space_adjust`, `tcp_select_initial_window`",
        ss: "`skmem:(rb…)`, `rcv_space:`, `wscale:`",
        model: Model::Key(Sizes(HostSettings::set_tcp_rmem)),
        chapters: &[SlowStart, Buffers, LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_wmem",
        family: Family::Sysctl,
        what: "Send buffer sizes `min default max`: a new socket's buffer is *default*; `tcp_sndbuf_expand` grows it with cwnd up to *max*.",
        defaults: every_era("4096 16384 4194304"),
        read_by: "`tcp_init_sock`, `tcp_sndbuf_expand`",
        ss: "`skmem:(tb…)`",
        model: Model::Key(Sizes(HostSettings::set_tcp_wmem)),
        chapters: &[Buffers, LongFat],
    },
    Knob {
        name: "net.core.rmem_max",
        family: Family::Sysctl,
        what: "The cap on `SO_RCVBUF` requests (before the kernel doubles them); it also counts in the window scale a SYN offers.",
        defaults: ["124928", "212992", "212992", "212992", "4194304"],
        read_by: "`sk_setsockopt` (`SO_RCVBUF`), `tcp_select_initial_window`",
        ss: "`skmem:(rb…)` under `SO_RCVBUF`, `wscale:`",
        model: Model::Key(super::Setter::Bytes(HostSettings::set_rmem_max)),
        chapters: &[Buffers, LongFat],
    },
    Knob {
        name: "net.core.wmem_max",
        family: Family::Sysctl,
        what: "The cap on `SO_SNDBUF` requests (before the kernel doubles them).",
        defaults: ["124928", "212992", "212992", "212992", "4194304"],
        read_by: "`sk_setsockopt` (`SO_SNDBUF`)",
        ss: "`skmem:(tb…)` under `SO_SNDBUF`",
        model: Model::Key(super::Setter::Bytes(HostSettings::set_wmem_max)),
        chapters: &[Buffers, LongFat],
    },
    Knob {
        name: "net.core.rmem_default",
        family: Family::Sysctl,
        what: "A new socket's receive buffer in protocols without a default of their own. TCP's comes from `tcp_rmem` instead, so this does not change TCP.",
        defaults: ["124928", "212992", "212992", "212992", "212992"],
        read_by: "`sock_init_data` (then `tcp_init_sock` overrides it)",
        ss: ABSENT,
        model: Model::No,
        chapters: &[Buffers],
    },
    Knob {
        name: "net.core.wmem_default",
        family: Family::Sysctl,
        what: "A new socket's send buffer in protocols without a default of their own. TCP's comes from `tcp_wmem` instead.",
        defaults: ["124928", "212992", "212992", "212992", "212992"],
        read_by: "`sock_init_data` (then `tcp_init_sock` overrides it)",
        ss: ABSENT,
        model: Model::No,
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_mem",
        family: Family::Sysctl,
        what: "TCP's memory for all sockets together, in pages: `low pressure high`. Above *pressure* buffers stop growing; above *high* allocations fail. Set at boot from the RAM.",
        defaults: every_era("from RAM"),
        read_by: "`tcp_under_memory_pressure`, `__sk_mem_raise_allocated`",
        ss: "`mem` in `/proc/net/sockstat`",
        model: Model::No,
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.udp_rmem_min",
        family: Family::Sysctl,
        what: "UDP only: the receive memory a UDP socket may always use. It does not change TCP.",
        defaults: every_era("4096"),
        read_by: "`__sk_mem_raise_allocated` (`sk_get_rmem0`)",
        ss: ABSENT,
        model: Model::No,
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.udp_wmem_min",
        family: Family::Sysctl,
        what: "UDP only: the send memory a UDP socket may always use. It does not change TCP.",
        defaults: every_era("4096"),
        read_by: "`__sk_mem_raise_allocated` (`sk_get_wmem0`)",
        ss: ABSENT,
        model: Model::No,
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_adv_win_scale",
        family: Family::Sysctl,
        what: "Before 6.6: the share of the receive buffer offered as window, `space − space/2^n` (1: half, 2: three quarters). 6.6 replaced it with `scaling_ratio`, measured from the packets received; the sysctl is still there and does nothing.",
        defaults: ["2", "1", "1", "1", "1 (unused)"],
        read_by: "`tcp_win_from_space` (before 6.6)",
        ss: "`rcv_space:`, `rcv_ssthresh:`",
        model: Model::Key(Int(set_adv_win_scale)),
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_moderate_rcvbuf",
        family: Family::Sysctl,
        what: "1: receive-buffer autotuning, unless `SO_RCVBUF` locked the buffer.",
        defaults: every_era("1"),
        read_by: "`tcp_rcv_space_adjust`",
        ss: "`skmem:(rb…)`, `rcv_space:`",
        model: Model::Key(Flag(HostSettings::set_tcp_moderate_rcvbuf)),
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_window_scaling",
        family: Family::Sysctl,
        what: "1: offer window scaling (RFC 7323) in the SYN; used only if both ends offer it. Without it no window exceeds 65535 bytes.",
        defaults: every_era("1"),
        read_by: "`tcp_syn_options`, `tcp_parse_options`, `tcp_connect_init`",
        ss: "`wscale:`",
        model: Model::Key(Flag(HostSettings::set_tcp_window_scaling)),
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_sack",
        family: Family::Sysctl,
        what: "1: offer selective acknowledgements (RFC 2018) in the SYN; used only if both ends offer them.",
        defaults: every_era("1"),
        read_by: "`tcp_syn_options`, `tcp_parse_options`",
        ss: "`sack`",
        model: Model::Key(Flag(HostSettings::set_tcp_sack)),
        chapters: &[LongFat],
    },
    Knob {
        name: "net.core.default_qdisc",
        family: Family::Sysctl,
        what: "The queueing discipline a new network device gets. The kernel's own default is `pfifo_fast`; systemd's `50-default.conf` sets `fq_codel` on most distributions. `fq` paces each flow at its pacing rate.",
        defaults: every_era("pfifo_fast"),
        read_by: "`attach_one_default_qdisc`",
        ss: "— (`tc qdisc show`)",
        model: Model::Key(Name(set_qdisc)),
        chapters: &[LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_congestion_control",
        family: Family::Sysctl,
        what: "The congestion control new sockets use, by kernel name.",
        defaults: every_era("cubic"),
        read_by: "`tcp_assign_congestion_control`",
        ss: "the algorithm's name, first in `ss -i`",
        model: Model::Key(Name(set_congestion_control)),
        chapters: &[LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_available_congestion_control",
        family: Family::Sysctl,
        what: "Read only: the algorithms built in or loaded as modules (`modprobe tcp_bbr` adds `bbr`, 4.9 and later).",
        defaults: [
            "cubic reno",
            "reno cubic",
            "reno cubic",
            "reno cubic",
            "reno cubic",
        ],
        read_by: "`tcp_get_available_congestion_control`",
        ss: ABSENT,
        model: Model::Elsewhere("`tcp_congestion_control` takes `reno`, `cubic` and `bbr`"),
        chapters: &[LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_no_metrics_save",
        family: Family::Sysctl,
        what: "1: save nothing about the peer when a connection closes, so new connections start from the defaults.",
        defaults: every_era("0"),
        read_by: "`tcp_update_metrics`",
        ss: "— (`ip tcp_metrics show`)",
        model: Model::Key(Flag(HostSettings::set_tcp_no_metrics_save)),
        chapters: &[Metrics],
    },
    Knob {
        name: "net.ipv4.tcp_no_ssthresh_metrics_save",
        family: Family::Sysctl,
        what: "1: save no ssthresh when a connection closes (5.6 and later; older kernels always saved it, so the next connection to the peer left slow start early).",
        defaults: [ABSENT, ABSENT, ABSENT, ABSENT, "1"],
        read_by: "`tcp_update_metrics`, `tcp_init_metrics`",
        ss: "`ssthresh:` at the next connection's start",
        model: Model::Key(Flag(HostSettings::set_tcp_no_ssthresh_metrics_save)),
        chapters: &[Metrics],
    },
    Knob {
        name: "net.ipv4.tcp_retries2",
        family: Family::Sysctl,
        what: "How long a sender retransmits unanswered data before giving up: as long as this many doublings of the RTO from 200 ms take (15: 924.6 s). Also the count of unanswered zero-window probes.",
        defaults: every_era("15"),
        read_by: "`tcp_write_timeout`, `tcp_probe_timer`",
        ss: "`timer:(on,…)` and `retrans:` (`ss -o`)",
        model: Model::Key(Int(set_retries2)),
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_slow_start_after_idle",
        family: Family::Sysctl,
        what: "1: after an idle period longer than the RTO, shrink cwnd (halved for every RTO of idle time, never below the initial window) before sending again.",
        defaults: every_era("1"),
        read_by: "`tcp_slow_start_after_idle_check`, `tcp_cwnd_restart`",
        ss: "`cwnd:` after an idle period",
        model: Model::Key(Flag(HostSettings::set_tcp_slow_start_after_idle)),
        chapters: &[SlowStart],
    },
    Knob {
        name: "net.ipv4.tcp_notsent_lowat",
        family: Family::Sysctl,
        what: "The unsent bytes a socket may hold before `write()` blocks and `poll()` stops reporting it writable (unless `TCP_NOTSENT_LOWAT` sets its own). The default, 2³² − 1, means no limit.",
        defaults: [
            ABSENT,
            "4294967295",
            "4294967295",
            "4294967295",
            "4294967295",
        ],
        read_by: "`tcp_notsent_lowat`, `tcp_stream_memory_free`",
        ss: "`notsent:`",
        model: Model::Key(Bytes32(HostSettings::set_tcp_notsent_lowat)),
        chapters: &[Buffers],
    },
    Knob {
        name: "net.ipv4.tcp_autocorking",
        family: Family::Sysctl,
        what: "1: a small write waits while the socket's earlier packets are still in the host's queues (qdisc, device), and leaves with the next write.",
        defaults: [ABSENT, "1", "1", "1", "1"],
        read_by: "`tcp_should_autocork`",
        ss: "— (`nstat TcpExtTCPAutoCorking`)",
        model: Model::No,
        chapters: &[Nagle],
    },
    Knob {
        name: "net.ipv4.tcp_frto",
        family: Family::Sysctl,
        what: "F-RTO: tell a spurious retransmission timeout from a real one and undo its cwnd reduction (RFC 5682 from 3.10; 2.6.32 had RFC 4138, which halved cwnd instead).",
        defaults: every_era("2"),
        read_by: "`tcp_enter_loss`, `tcp_process_loss`",
        ss: "— (`nstat TcpExtTCPSpuriousRTOs`)",
        model: Model::Elsewhere("`[HOST.behaviour]` `frto`"),
        chapters: &[Metrics, LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_early_retrans",
        family: Family::Sysctl,
        what: "3: tail-loss probes (TLP): a segment sent about two round trips after the last one, so a lost tail is found by SACK rather than by the RTO. In 3.10 the value also enabled early retransmit.",
        defaults: [ABSENT, "3", "3", "3", "3"],
        read_by: "`tcp_schedule_loss_probe`",
        ss: "— (`nstat TcpExtTCPLossProbes`)",
        model: Model::Elsewhere("`[HOST.behaviour]` `tlp`"),
        chapters: &[Metrics, LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_recovery",
        family: Family::Sysctl,
        what: "1: RACK loss detection: a segment is lost once one sent after it has been acknowledged and a reordering window has passed.",
        defaults: [ABSENT, ABSENT, "1", "1", "1"],
        read_by: "`tcp_rack_mark_lost`, `tcp_is_rack`",
        ss: "`lost:`",
        model: Model::Elsewhere("`[HOST.behaviour]` `rack`"),
        chapters: &[LongFat],
    },
    Knob {
        name: "net.ipv4.tcp_syn_retries",
        family: Family::Sysctl,
        what: "SYN retransmissions before `connect()` gives up (6: after 127 s; 131 s from 6.5, whose first four retransmissions keep the initial RTO, `tcp_syn_linear_timeouts`).",
        defaults: ["5", "6", "6", "6", "6"],
        read_by: "`tcp_write_timeout`",
        ss: "`timer:(on,…)` on a `SYN-SENT` socket (`ss -o`)",
        model: Model::Key(Int(set_syn_retries)),
        chapters: &[],
    },
    Knob {
        name: "net.ipv4.tcp_synack_retries",
        family: Family::Sysctl,
        what: "SYN-ACK retransmissions before a listener drops a half-open connection (5: at 1, 3, 7, 15 and 31 s, dropped at 63 s).",
        defaults: every_era("5"),
        read_by: "`reqsk_timer_handler`",
        ss: "`timer:(on,…)` on a `SYN-RECV` socket (`ss -o`)",
        model: Model::Key(Int(set_synack_retries)),
        chapters: &[],
    },
    Knob {
        name: "net.ipv4.tcp_keepalive_time",
        family: Family::Sysctl,
        what: "Seconds a connection with `SO_KEEPALIVE` stays idle before the first keepalive probe (seed 002's message-queue tuning lowers it).",
        defaults: every_era("7200"),
        read_by: "`keepalive_time_when`, `tcp_keepalive_timer`",
        ss: "`timer:(keepalive,…)` (`ss -o`)",
        model: Model::No,
        chapters: &[],
    },
    Knob {
        name: "net.ipv4.tcp_keepalive_intvl",
        family: Family::Sysctl,
        what: "Seconds between keepalive probes that go unanswered.",
        defaults: every_era("75"),
        read_by: "`keepalive_intvl_when`, `tcp_keepalive_timer`",
        ss: "`timer:(keepalive,…)` (`ss -o`)",
        model: Model::No,
        chapters: &[],
    },
    Knob {
        name: "net.ipv4.tcp_keepalive_probes",
        family: Family::Sysctl,
        what: "Unanswered keepalive probes before the connection is reset.",
        defaults: every_era("9"),
        read_by: "`keepalive_probes`, `tcp_keepalive_timer`",
        ss: "`timer:(keepalive,…,N)` (`ss -o`: N probes sent)",
        model: Model::No,
        chapters: &[],
    },
];
