//! The reader end to end: scenario text in, the simulator's `Scenario` or an
//! error naming the key out.

use super::{RMEM_MAX_DEFAULT, parse};
use crate::config::{DelayedAck, Nagle, Scenario};
use crate::time::SimDuration;

/// A file with only the required keys.
pub(super) const MINIMAL: &str = r#"
format = 1
[path]
rate = "1Gbit"
rtt = "7ms"
[app]
type = "request-response"
request = "147B"
response = "512KiB"
"#;

#[test]
fn the_window_scale_fits_the_largest_buffer_the_socket_could_get() {
    // tcp_rmem[2] = 32 MiB (today's default): ilog2(33554432) − 15 = 10.
    let (_, s) = parse(MINIMAL).unwrap();
    assert_eq!(s.client.receiver.wscale, 10);
    // Seed 003's 34,952,000: ilog2 = 25, so 10 (a 67 MB window is possible).
    let text = MINIMAL.replace(
        "[app]",
        "[client.sysctl]\n\"net.ipv4.tcp_rmem\" = \"4096 87380 34952000\"\n[app]",
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.receiver.wscale, 10);
    // A small SO_RCVBUF set before connect() clamps it (3.x and later:
    // tcp_connect_init limits the window to the locked buffer); 2.6.32 kept
    // what tcp_rmem[2] needs.
    let text = MINIMAL.replace("[app]", "[client.sockopt]\nSO_RCVBUF = \"8KiB\"\n[app]");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.receiver.wscale, 0);
    let (_, s) = parse(&text.replace(
        "[client.sockopt]",
        "[client]\nkernel = \"2.6.32\"\n[client.sockopt]",
    ))
    .unwrap();
    assert_eq!(s.client.receiver.wscale, 7, "2.6.32: tcp_rmem[2] 4 MiB");
}

#[test]
fn a_minimal_file_gives_linux_defaults() {
    let (_, s) = parse(MINIMAL).unwrap();
    assert_eq!(s.path.rtt(), SimDuration::from_millis(7));
    assert_eq!(s.server.sender.initcwnd, 10);
    assert_eq!(
        s.client.receiver.syn_window, 64_240,
        "44 x 1460, as Linux's SYN says"
    );
    assert_eq!(s.app.response, vec![524_288]);
    let today = crate::config::HostSettings::default().derive();
    assert_eq!(
        s,
        Scenario {
            client: today.clone(),
            server: today,
            ..Scenario::default()
        },
        "the defaults are seed 004's 7 ms case on today's hosts"
    );
}

#[test]
fn so_rcvbuf_is_doubled_capped_and_locks_autotuning() {
    let text = format!("{MINIMAL}\n[client.sockopt]\nSO_RCVBUF = \"8KiB\"\n");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.receiver.rcvbuf, 16_384);
    assert!(!s.client.receiver.autotune);
    let text = format!("{MINIMAL}\n[client.sockopt]\nSO_RCVBUF = \"1MiB\"\n");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(
        s.client.receiver.rcvbuf,
        2 << 20,
        "1 MiB under today's 4 MiB rmem_max, doubled"
    );
    let text =
        format!("{MINIMAL}\n[client]\nkernel = \"5.5\"\n[client.sockopt]\nSO_RCVBUF = \"1MiB\"\n");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(
        s.client.receiver.rcvbuf,
        2 * RMEM_MAX_DEFAULT,
        "capped at 5.5's rmem_max (212992), then doubled"
    );
}

#[test]
fn unknown_keys_are_named() {
    let e = parse(&MINIMAL.replace("rtt = ", "rttt = ")).unwrap_err();
    assert!(e.message.contains("rttt"), "{e}");
    let text = format!("{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_foo\" = 1\n");
    let e = parse(&text).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("client.sysctl.\"net.ipv4.tcp_foo\""));
    assert!(
        e.message.contains("net.ipv4.tcp_rmem"),
        "lists the known ones: {e}"
    );
}

#[test]
fn out_of_range_values_name_the_key_and_the_range() {
    let text = format!("{MINIMAL}\n[server.route]\ninitcwnd = 5000\n");
    let e = parse(&text).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("server.route.initcwnd"));
    assert!(e.message.contains("1 to 1000"), "{e}");
    let e = parse(&MINIMAL.replace("\"1Gbit\"", "\"1Tbit\"")).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("path.rate"));
}

#[test]
fn stack_behaviour_and_socket_options_map_to_the_model() {
    let text = format!(
        "{MINIMAL}\n[server.stack]\nnagle = \"classic\"\n[client.stack]\ndelayed_ack = \"200ms\"\n[client.route]\nquickack = 0\n"
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.server.sender.nagle, Nagle::Classic);
    assert_eq!(
        s.client.receiver.delayed_ack,
        DelayedAck::Fixed(SimDuration::from_millis(200))
    );
    let text = format!(
        "{MINIMAL}\n[server.sockopt]\nTCP_NODELAY = 1\n[server.stack]\nnagle = \"classic\"\n"
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(
        s.server.sender.nagle,
        Nagle::Off,
        "TCP_NODELAY turns Nagle off whatever the stack"
    );
    let e = parse(&format!(
        "{MINIMAL}\n[client.stack]\ndelayed_ack = \"2s\"\n"
    ))
    .unwrap_err();
    assert_eq!(e.key.as_deref(), Some("client.stack.delayed_ack"));
}

#[test]
fn requests_can_be_several_writes() {
    let (_, s) =
        parse(&MINIMAL.replace("request = \"147B\"", "request = [\"200B\", \"1400B\"]")).unwrap();
    assert_eq!(s.app.request, vec![200, 1400]);
}

#[test]
fn a_queue_can_be_sized_in_bdps() {
    let text = MINIMAL
        .replace("rtt = \"7ms\"", "rtt = \"20ms\"\nqueue_bdp = 1.0")
        .replace("1Gbit", "100Mbit");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.path.queue_bytes, 250_000, "0.02 s x 100 Mbit/s / 8");
}

#[test]
fn congestion_control_is_chosen_by_kernel_name() {
    let text =
        format!("{MINIMAL}\n[server.sysctl]\n\"net.ipv4.tcp_congestion_control\" = \"vegas\"\n");
    let e = parse(&text).unwrap_err();
    assert!(
        e.message.contains("unknown congestion control `vegas`"),
        "{e}"
    );
}

#[test]
fn the_handshake_retry_limits_are_sysctls_with_their_ranges() {
    let text = format!(
        "{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_syn_retries\" = 2\n[server.sysctl]\n\"net.ipv4.tcp_synack_retries\" = 0\n"
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.sender.syn_retries, 2);
    assert_eq!(s.server.sender.synack_retries, 0);
    // tcp_syn_retries: 1 to MAX_TCP_SYNCNT (127), as sysctl_net_ipv4.c allows.
    let e = parse(&format!(
        "{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_syn_retries\" = 0\n"
    ))
    .unwrap_err();
    assert_eq!(
        e.key.as_deref(),
        Some("client.sysctl.\"net.ipv4.tcp_syn_retries\"")
    );
    assert!(e.message.contains("1 to 127"), "{e}");
    let e = parse(&format!(
        "{MINIMAL}\n[server.sysctl]\n\"net.ipv4.tcp_synack_retries\" = -1\n"
    ))
    .unwrap_err();
    assert_eq!(
        e.key.as_deref(),
        Some("server.sysctl.\"net.ipv4.tcp_synack_retries\"")
    );
}

#[test]
fn notsent_lowat_is_read_as_a_sysctl_and_as_a_socket_option() {
    // tcp_notsent_lowat(tp): the option if set, else the sysctl.
    let text = format!("{MINIMAL}\n[server.sysctl]\n\"net.ipv4.tcp_notsent_lowat\" = \"128KiB\"\n");
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.server.sender.notsent_lowat, 131_072);
    assert_eq!(s.client.sender.notsent_lowat, u32::MAX, "unset: UINT_MAX");
    let text = format!(
        "{MINIMAL}\n[server.sysctl]\n\"net.ipv4.tcp_notsent_lowat\" = \"128KiB\"\n[server.sockopt]\nTCP_NOTSENT_LOWAT = 16384\n"
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.server.sender.notsent_lowat, 16_384);
}

#[test]
fn a_notsent_lowat_out_of_range_names_the_key() {
    let e = parse(&format!(
        "{MINIMAL}\n[server.sockopt]\nTCP_NOTSENT_LOWAT = \"8GiB\"\n"
    ))
    .unwrap_err();
    assert_eq!(e.key.as_deref(), Some("server.sockopt.TCP_NOTSENT_LOWAT"));
    assert!(e.message.contains("0 to 4294967295"), "{e}");
    let e = parse(&format!(
        "{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_notsent_lowat\" = 0\n"
    ))
    .unwrap_err();
    assert_eq!(
        e.key.as_deref(),
        Some("client.sysctl.\"net.ipv4.tcp_notsent_lowat\"")
    );
    assert!(e.message.contains("block every write"), "{e}");
}

#[test]
fn random_loss_drops_data_before_the_bottleneck_unless_told_otherwise() {
    use crate::config::{LossDirection, LossPosition};
    let (_, s) = parse(&MINIMAL.replace("rtt = \"7ms\"", "rtt = \"7ms\"\nloss = 0.01")).unwrap();
    assert_eq!(s.path.loss_direction, LossDirection::Data);
    assert_eq!(s.path.loss_position, LossPosition::Before);
    let text = MINIMAL.replace(
        "rtt = \"7ms\"",
        "rtt = \"7ms\"\nloss = 0.01\nloss_direction = \"both\"\nloss_position = \"after\"",
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.path.loss_direction, LossDirection::Both);
    assert_eq!(s.path.loss_position, LossPosition::After);
}

#[test]
fn drop_tables_name_segments_byte_ranges_and_acks() {
    use crate::config::{Direction, DropRule, DropTarget, Transmission};
    let text = MINIMAL.replace(
        "[app]",
        r#"[[path.drop]]
segment = 4
[[path.drop]]
seq = "14481-15928"
transmission = "all"
[[path.drop]]
seq = "14481:15929"
[[path.drop]]
ack = 1
[[path.drop]]
direction = "data"
ack = 2
[app]"#,
    );
    let (_, s) = parse(&text).unwrap();
    let bytes = DropTarget::Bytes {
        first: 14_481,
        last: 15_928,
    };
    assert_eq!(
        s.path.drops,
        vec![
            DropRule::data_segment(4),
            DropRule::new(Direction::Data, bytes).every_transmission(),
            DropRule::new(Direction::Data, bytes),
            DropRule::client_ack(1),
            DropRule::new(Direction::Data, DropTarget::Ack(2)),
        ]
    );
    assert_eq!(s.path.drops[0].transmission, Transmission::First);
}

#[test]
fn bad_drop_entries_name_the_key() {
    let with = |entry: &str| {
        let text = MINIMAL.replace(
            "[app]",
            &format!("[[path.drop]]\nsegment = 1\n[[path.drop]]\n{entry}\n[app]"),
        );
        parse(&text).unwrap_err()
    };
    let cases = [
        ("segment = 4\nack = 1", "path.drop[1]", "one of"),
        ("seq = \"15928-14481\"", "path.drop[1].seq", "first <= last"),
        ("seq = \"0-10\"", "path.drop[1].seq", "first <= last"),
        ("seq = \"10:10\"", "path.drop[1].seq", "above the start"),
        ("seq = \"the fourth\"", "path.drop[1].seq", "first-last"),
        ("segment = 0", "path.drop[1].segment", "from 1"),
        ("segment = 4\nflow = 1", "path.drop[1].flow", "0 to 0"),
        (
            "segment = 4\nconnection = 2",
            "path.drop[1].connection",
            "1 to 1",
        ),
        (
            "segment = 4\ndirection = \"both\"",
            "path.drop[1].direction",
            "\"data\", \"acks\"",
        ),
        (
            "segment = 4\ntransmission = \"second\"",
            "path.drop[1].transmission",
            "\"first\", \"all\"",
        ),
        (
            "ack = 1\ntransmission = \"all\"",
            "path.drop[1].transmission",
            "never retransmitted",
        ),
    ];
    for (entry, key, says) in cases {
        let e = with(entry);
        assert_eq!(e.key.as_deref(), Some(key), "{entry}: {e}");
        assert!(e.message.contains(says), "{entry}: {e}");
    }
    let e = parse(&MINIMAL.replace("rtt = \"7ms\"", "rtt = \"7ms\"\nloss_direction = \"down\""))
        .unwrap_err();
    assert_eq!(e.key.as_deref(), Some("path.loss_direction"), "{e}");
    let e = parse(&MINIMAL.replace("[app]", "[[path.drop]]\nsegmnet = 4\n[app]")).unwrap_err();
    assert!(e.message.contains("segmnet"), "{e}");
}

#[test]
fn later_connections_can_be_named_when_each_exchange_opens_one() {
    let text = MINIMAL
        .replace("[app]", "[[path.drop]]\nsegment = 4\nconnection = 3\n[app]")
        .replace(
            "response = \"512KiB\"",
            "response = \"512KiB\"\nrepeat = 3\nnew_connection = true",
        );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.path.drops[0].connection, 3);
}

#[test]
fn outages_are_spans_of_time_one_way_or_both() {
    use crate::config::{AfterGiveUp, LossDirection, Outage};
    let text = MINIMAL.replace(
        "[app]",
        "[[path.outage]]\ndirection = \"acks\"\nfrom = \"400ms\"\nuntil = \"1800s\"\n\
         [[path.outage]]\nfrom = \"2000s\"\nuntil = \"2001s\"\n[app]",
    );
    let (_, s) = parse(&format!("after_give_up = \"continue\"\n{text}")).unwrap();
    assert_eq!(
        s.path.outages,
        vec![
            Outage {
                direction: LossDirection::Acks,
                from: SimDuration::from_millis(400),
                until: SimDuration::from_secs(1800),
            },
            Outage {
                direction: LossDirection::Both,
                from: SimDuration::from_secs(2000),
                until: SimDuration::from_secs(2001),
            },
        ]
    );
    assert_eq!(s.after_give_up, AfterGiveUp::Continue);
    let (_, s) = parse(MINIMAL).unwrap();
    assert_eq!(s.after_give_up, AfterGiveUp::End);
    assert!(s.path.outages.is_empty());
}

#[test]
fn bad_outages_and_after_give_up_values_name_the_key() {
    let with = |entry: &str| {
        let text = MINIMAL.replace("[app]", &format!("[[path.outage]]\n{entry}\n[app]"));
        parse(&text).unwrap_err()
    };
    let cases = [
        (
            "from = \"2s\"\nuntil = \"1s\"",
            "path.outage[0].until",
            "not after `from`",
        ),
        (
            "from = \"1s\"\nuntil = \"1s\"",
            "path.outage[0].until",
            "not after `from`",
        ),
        ("from = \"soon\"\nuntil = \"1s\"", "path.outage[0].from", ""),
        ("from = \"1s\"\nuntil = \"-1s\"", "path.outage[0].until", ""),
        (
            "from = \"1s\"\nuntil = \"2s\"\ndirection = \"up\"",
            "path.outage[0].direction",
            "\"data\", \"acks\", \"both\"",
        ),
    ];
    for (entry, key, says) in cases {
        let e = with(entry);
        assert_eq!(e.key.as_deref(), Some(key), "{entry}: {e}");
        assert!(e.message.contains(says), "{entry}: {e}");
    }
    // Both times are required, and nothing else is known.
    assert!(with("from = \"1s\"").message.contains("until"));
    assert!(
        with("from = \"1s\"\nuntil = \"2s\"\nloss = 1.0")
            .message
            .contains("loss")
    );
    let e = parse(&format!("after_give_up = \"wait\"\n{MINIMAL}")).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("after_give_up"), "{e}");
    assert!(e.message.contains("\"end\", \"continue\""), "{e}");
}
