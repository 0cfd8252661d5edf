//! A host's kernel era, its single behaviour switches, and the knobs table as
//! the list of keys the reader accepts.

use super::tests::MINIMAL;
use super::{SWITCHES, json_schema, parse, read};
use crate::config::knobs::{self, Family, Setter};
use crate::config::{Behaviour, Frto, HostSettings, InitialRwnd, Kernel, SendSkbs, Tlp};

/// `MINIMAL` with `lines` added to the client's section.
fn client(lines: &str) -> String {
    format!("{MINIMAL}\n[client]\n{lines}\n")
}

#[test]
fn a_hosts_kernel_sets_its_eras_defaults_before_the_files_sysctls() {
    // 4.18 boots with tcp_rmem[1] = 87380 (a337531b942b raised it in 4.20).
    let (_, s) = parse(&client("kernel = \"4.18\"")).unwrap();
    assert_eq!(s.client.kernel, Some(Kernel::V4_18));
    assert_eq!(s.client.receiver.rcvbuf, 87_380);
    assert_eq!(s.client.behaviour, Kernel::V4_18.behaviour());
    assert!(s.client.metrics.save_ssthresh, "4.18 saves ssthresh");
    // The server names none: the host that names none.
    assert_eq!(s.server, HostSettings::default().finish().unwrap());
    // The file's sysctl comes after the era's default, whatever the order
    // the keys are written in.
    let text = client(
        "kernel = \"4.18\"\n[client.sysctl]\n\"net.ipv4.tcp_rmem\" = \"4096 131072 6291456\"",
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.receiver.rcvbuf, 131_072);
    assert_eq!(s.client.behaviour, Kernel::V4_18.behaviour());
}

#[test]
fn todays_kernel_offers_the_scale_its_32_mib_tcp_rmem_needs() {
    // 6.16 raised tcp_rmem[2] to 32 MiB: ilog2(33554432) − 15 = 10.
    let (_, s) = parse(&client("kernel = \"today\"")).unwrap();
    assert_eq!(s.client.receiver.wscale, 10);
    assert_eq!(s.client.kernel, Some(Kernel::Today));
    assert!(!s.client.metrics.save_ssthresh);
}

#[test]
fn a_host_that_names_no_kernel_runs_today() {
    let (_, s) = parse(MINIMAL).unwrap();
    let today = Some(Kernel::Today);
    assert_eq!((s.client.kernel, s.server.kernel), (today, today));
    assert_eq!(s.client.behaviour, Kernel::Today.behaviour());
    assert_eq!(s.client.receiver.wscale, 10, "tcp_rmem[2] 32 MiB");
}

#[test]
fn an_unknown_kernel_is_refused_with_the_known_ones() {
    let e = parse(&client("kernel = \"4.19\"")).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("client.kernel"));
    assert!(e.message.contains("`4.19`"), "{e}");
    for name in Kernel::NAMES {
        assert!(e.message.contains(name), "{name} in {e}");
    }
}

#[test]
fn set_kernel_overrides_both_hosts_eras() {
    let mut file = read(&client("kernel = \"4.18\"")).unwrap();
    file.set_kernel(Kernel::V2_6_32);
    let s = file.to_scenario().unwrap();
    for host in [&s.client, &s.server] {
        assert_eq!(host.kernel, Some(Kernel::V2_6_32));
        assert_eq!(host.behaviour, Kernel::V2_6_32.behaviour());
    }
}

/// `[client.behaviour]` lines giving every switch `b`'s value. Naming every
/// field: a new switch must get a key (and a line here) to compile.
fn behaviour_lines(b: &Behaviour) -> String {
    let Behaviour {
        send_skbs,
        initial_rwnd,
        ack_pushed_full_segment,
        tlp,
        frto,
        rack,
        rcvbuf_lock_clamps_wscale,
        ofo_grows_window,
        rcvbuf_fixup,
        syn_linear_timeouts,
        oow_rate_limit,
        spurious_syn_undo,
        tx_skb_head,
        tso_size,
        check_space_on_send,
        notsent_lowat,
        pingpong_thresh,
        cached_rtt_seeds_estimator,
        timer_wheel,
        hz,
        delack_max_cap,
        hystart,
        drs,
    } = b;
    let flag = |on: &bool| u8::from(*on);
    format!(
        "[client.behaviour]\nsend_skbs = \"{}\"\ninitial_rwnd = \"{}\"\n\
         ack_pushed_full_segment = {}\ntlp = \"{}\"\nfrto = \"{}\"\nrack = {}\n\
         rcvbuf_lock_clamps_wscale = {}\nofo_grows_window = \"{}\"\n\
         rcvbuf_fixup = {}\nsyn_linear_timeouts = {}\noow_rate_limit = {}\n\
         spurious_syn_undo = {}\ntx_skb_head = \"{}\"\ntso_size = \"{}\"\n\
         check_space_on_send = {}\nnotsent_lowat = \"{}\"\npingpong_thresh = {}\n\
         cached_rtt_seeds_estimator = {}\ntimer_wheel = \"{}\"\nhz = {}\n\
         delack_max_cap = {}\nhystart = \"{}\"\ndrs = \"{}\"\n",
        send_skbs.name(),
        initial_rwnd.text(),
        flag(ack_pushed_full_segment),
        tlp.name(),
        frto.name(),
        flag(rack),
        flag(rcvbuf_lock_clamps_wscale),
        ofo_grows_window.name(),
        flag(rcvbuf_fixup),
        syn_linear_timeouts,
        flag(oow_rate_limit),
        flag(spurious_syn_undo),
        tx_skb_head.name(),
        tso_size.name(),
        flag(check_space_on_send),
        notsent_lowat.name(),
        pingpong_thresh,
        flag(cached_rtt_seeds_estimator),
        timer_wheel.name(),
        hz.get(),
        flag(delack_max_cap),
        hystart.name(),
        drs.name(),
    )
}

#[test]
fn behaviour_switches_can_rebuild_every_eras_behaviour_over_the_model() {
    assert_eq!(
        SWITCHES.len(),
        behaviour_lines(&Behaviour::model()).lines().count() - 1
    );
    for k in Kernel::ALL {
        let (_, s) = parse(&format!("{MINIMAL}\n{}", behaviour_lines(&k.behaviour()))).unwrap();
        assert_eq!(s.client.behaviour, k.behaviour(), "{k}");
        assert_eq!(
            s.client.kernel,
            Kernel::UNNAMED,
            "switches do not name an era"
        );
    }
}

#[test]
fn a_switch_mixes_another_kernels_rule_into_an_era() {
    let text = client(
        "kernel = \"today\"\n[client.behaviour]\ntlp = \"2-jiffies\"\ninitial_rwnd = \"20 segments\"",
    );
    let (_, s) = parse(&text).unwrap();
    assert_eq!(s.client.behaviour.tlp, Tlp::TwoJiffies);
    assert_eq!(s.client.behaviour.initial_rwnd, InitialRwnd::Segments(20));
    assert_eq!(
        s.client.behaviour.send_skbs,
        SendSkbs::Gso,
        "the rest is today's"
    );
    assert_eq!(s.client.behaviour.frto, Frto::Rfc5682);
}

#[test]
fn a_bad_switch_or_value_is_named_with_what_is_allowed() {
    let e = parse(&client("[client.behaviour]\ntso = 1")).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("client.behaviour.tso"));
    assert!(e.message.contains("send_skbs"), "{e}");
    let e = parse(&client("[client.behaviour]\ntlp = \"4ms\"")).unwrap_err();
    assert_eq!(e.key.as_deref(), Some("client.behaviour.tlp"));
    assert!(e.message.contains("off, 3.10, 2-jiffies, 2ms"), "{e}");
    let e = parse(&client("[client.behaviour]\ninitial_rwnd = \"0 segments\"")).unwrap_err();
    assert!(e.message.contains("unlimited"), "{e}");
    let e = parse(&client("[client.behaviour]\nrack = 2")).unwrap_err();
    assert!(e.message.contains("0 to 1"), "{e}");
}

/// A value each setter kind takes (names: the one the knob's table knows).
fn sample(name: &str, setter: Setter) -> String {
    match setter {
        Setter::Flag(_) => "1".into(),
        Setter::Bytes(_) | Setter::Bytes32(_) => "\"64KiB\"".into(),
        Setter::Sizes(_) => "\"4096 131072 6291456\"".into(),
        Setter::Count(_) | Setter::Int(_) => "1".into(),
        Setter::Name(_) if name.ends_with("qdisc") => "\"fq\"".into(),
        Setter::Name(_) => "\"bbr\"".into(),
    }
}

#[test]
fn every_modelled_knob_is_a_key_the_reader_accepts() {
    for family in [Family::Sysctl, Family::SocketOption, Family::RouteAttribute] {
        let table = family.scenario_table().unwrap();
        for knob in family.knobs() {
            let key = if family == Family::Sysctl {
                format!("\"{}\"", knob.name)
            } else {
                knob.name.to_string()
            };
            let value = knob.setter().map_or("1".into(), |s| sample(knob.name, s));
            let text = format!("{MINIMAL}\n[client.{table}]\n{key} = {value}\n");
            match (knob.setter(), parse(&text)) {
                (Some(_), Ok(_)) => {}
                (Some(_), Err(e)) => panic!("{}: {e}", knob.name),
                // Not modelled: refused, naming it.
                (None, Err(e)) => assert!(e.message.contains(knob.name), "{e}"),
                (None, Ok(_)) => panic!("{} is accepted but not modelled", knob.name),
            }
        }
    }
}

#[test]
fn every_key_the_reader_accepts_is_in_the_table() {
    // Sysctls and socket options: anything not in the table is refused,
    // with the table's modelled keys listed.
    let text = format!("{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_ecn\" = 1\n");
    let e = parse(&text).unwrap_err();
    assert!(
        e.message
            .contains(&knobs::scenario_keys(Family::Sysctl).join(", ")),
        "{e}"
    );
    let text = format!("{MINIMAL}\n[client.sockopt]\nTCP_MAXSEG = 1000\n");
    let e = parse(&text).unwrap_err();
    assert!(e.message.contains("SO_RCVBUF, SO_SNDBUF, TCP_CORK"), "{e}");
    // Route attributes are the schema's fields: each is a modelled knob.
    let schema = json_schema();
    let route = &schema.as_value()["$defs"]["RouteSection"]["properties"];
    let fields: Vec<&str> = route
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(fields, knobs::scenario_keys(Family::RouteAttribute));
}
