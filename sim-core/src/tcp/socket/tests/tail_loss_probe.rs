//! The tail-loss probe (tcp_output.c `tcp_schedule_loss_probe`,
//! `tcp_send_loss_probe`; tcp_input.c `tcp_process_tlp_ack`; RFC 8985
//! section 7). A lost segment is "dropped" by not feeding it to the peer:
//! the peer's ACKs below are those it would send without it.
//!
//! Every test sends the initial window (ten segments at 10 ms, srtt 10 ms
//! from the handshake, RTO 210 ms), and the peer ACKs what reached it at
//! 20 ms, one ACK per two segments:
//!
//! ```text
//!   10 ms   ──► segments 0..9            (8 and 9 lost)
//!   20 ms   ◄── ack 2, 4, 6, 8           PTO = 2·srtt + 2 ms = 22 ms
//!   42 ms   PTO: segment 9 again         a full RTO from now (252 ms)
//!   52 ms   ◄── ack 8, SACK 9            RACK: 8 is lost, fast recovery
//! ```
//!
//! Without TLP the only way out is the RTO at 230 ms. The last segment of
//! each write carries PSH (`tcp_push`).

use super::*;
use crate::cc::CaState;
use crate::config::{Kernel, Tlp};

/// The test host with the tail-loss probe of `variant`.
fn with_tlp(variant: Tlp) -> HostConfig {
    let mut cfg = host();
    cfg.behaviour.tlp = variant;
    cfg
}

/// Ten segments sent at 10 ms, `acked` of them ACKed at 20 ms two by two.
fn tail_lost(cfg: &HostConfig, acked: u64) -> Tcp {
    let mut tcp = established_with(cfg);
    tcp.write(10 * MSS as u64);
    assert_eq!(tcp.drain().len(), 10);
    tcp.at_ms(20);
    for n in (2..=acked).step_by(2) {
        send!(tcp, ack(seq(n)));
    }
    if acked % 2 == 1 {
        send!(tcp, ack(seq(acked)));
    }
    recv_nothing!(tcp);
    tcp
}

fn probes(tcp: &Tcp) -> Vec<u64> {
    (tcp.events().iter())
        .filter_map(|e| match *e {
            TraceEvent::LossProbe { seq, .. } => Some(seq),
            _ => None,
        })
        .collect()
}

fn timed_out(tcp: &Tcp) -> bool {
    (tcp.events().iter()).any(|e| matches!(e, TraceEvent::RtoFired { .. }))
}

#[test]
fn a_lost_tail_is_probed_at_two_srtt_plus_two_ms_not_left_to_the_rto() {
    // tcp_set_xmit_timer on the last ACK: two segments out, so the PTO is
    // usecs_to_jiffies(2·10 ms + TCP_TIMEOUT_MIN_US) = 22 ms (6.6+), well
    // before the RTO (210 ms). Nothing new to send: the probe is the last
    // segment again, and tcp_rearm_rto then runs a full RTO from now.
    let mut tcp = tail_lost(&with_tlp(Tlp::TwoMs), 8);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(22)));
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(42 * MS));
    recv_retransmit!(tcp, pushed(full_segment(9)));
    recv_nothing!(tcp);
    assert_eq!(probes(&tcp), [seq(9)]);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
    // The probe is resent, not marked lost: the state and cwnd stay.
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(tcp.sock.total_retrans(), 1);
    // Its SACK reveals segment 8: RACK marks it lost and fast recovery
    // resends it, with no timeout at all.
    tcp.at_ms(52);
    send!(
        tcp,
        Segment {
            sack: SackBlocks::new(&[(seq(9), seq(10))]),
            ..ack(seq(8))
        }
    );
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    recv_retransmit!(tcp, full_segment(8));
    assert!(!timed_out(&tcp));
}

#[test]
fn each_kernel_probes_the_tail_as_its_era_did() {
    // The eras' `tlp` switches: none on 2.6.32 (the RTO, 210 ms); 3.10's
    // max(2·srtt, 10 ms) = 20 ms; 2·srtt + 2 ms on 4.18, 5.5 and today.
    for (kernel, wait) in [
        (Kernel::V2_6_32, 210),
        (Kernel::V3_10, 20),
        (Kernel::V4_18, 22),
        (Kernel::V5_5, 22),
        (Kernel::Today, 22),
    ] {
        let tcp = tail_lost(&with_tlp(kernel.behaviour().tlp), 8);
        assert_eq!(tcp.next_timeout(), Some(ms(wait)), "{kernel}");
    }
}

#[test]
fn without_tlp_the_same_tail_waits_for_the_rto() {
    let mut tcp = tail_lost(&with_tlp(Tlp::Off), 8);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
    tcp.fire_timer();
    assert!(timed_out(&tcp));
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    assert!(probes(&tcp).is_empty());
}

#[test]
fn with_one_segment_out_the_probe_never_fires_later_than_the_rto_would() {
    // One segment out: PTO = 2·10 ms + TCP_RTO_MIN = 220 ms, in case the
    // peer's delayed-ACK timer holds its ACK; but the RTO (210 ms) is
    // sooner, so the probe fires then, in its place: the last segment
    // again, with no Loss state and cwnd untouched.
    let mut tcp = tail_lost(&with_tlp(Tlp::TwoMs), 9);
    let cwnd = tcp.sock.cwnd();
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
    tcp.fire_timer();
    recv_retransmit!(tcp, pushed(full_segment(9)));
    assert_eq!(probes(&tcp), [seq(9)]);
    assert!(!timed_out(&tcp));
    assert_eq!(
        (tcp.sock.ca_state(), tcp.sock.cwnd()),
        (CaState::Open, cwnd)
    );
}

/// Established with srtt 58.75 ms and RTO 463.75 ms: the handshake's 10 ms
/// sample, then one segment ACKed 400 ms after it left (RFC 6298: RTTVAR
/// 3/4·5 + 390/4 = 101.25 ms, SRTT 7/8·10 + 400/8 = 58.75 ms).
fn high_variance(cfg: &HostConfig) -> Tcp {
    let mut tcp = established_with(cfg);
    tcp.write(MSS as u64);
    recv!(tcp, pushed(full_segment(0)));
    tcp.at_ms(410);
    send!(tcp, ack(seq(1)));
    assert_eq!(tcp.sock.info().rto_ns, 463_750_000);
    tcp
}

/// The probe timeout once one segment is out, and once two are, after
/// [`high_variance`].
fn ptos_with_one_and_two_out(variant: Tlp) -> [SimDuration; 2] {
    let mut tcp = high_variance(&with_tlp(variant));
    let mut ptos = [SimDuration::ZERO; 2];
    for (n, pto) in (1..).zip(ptos.iter_mut()) {
        tcp.write(MSS as u64);
        recv!(tcp, pushed(full_segment(n)));
        // The burst is over: tcp_write_xmit arms the probe after its loop.
        recv_nothing!(tcp);
        *pto = tcp.next_timeout().expect("the probe timer runs");
    }
    ptos
}

fn ms(n: u64) -> SimDuration {
    SimDuration::from_millis(n)
}

#[test]
fn with_one_segment_out_the_pto_adds_tcp_rto_min_for_a_delayed_ack() {
    // 2·58.75 ms + 200 ms = 317.5 ms, rounded up to the tick: 318 ms, before
    // the RTO (463.75 ms). With two out, + 2 ms: 119.5 → 120 ms.
    assert_eq!(ptos_with_one_and_two_out(Tlp::TwoMs), [ms(318), ms(120)]);
}

#[test]
fn the_4_18_probe_waits_two_jiffies_beyond_two_srtt() {
    // bb4d991a28cc (4.14 to 6.5): usecs_to_jiffies(2·srtt) + TCP_TIMEOUT_MIN
    // (2 jiffies): 118 + 2 = 120 ticks, 2 ms at HZ 1000 (the 6.6 change to
    // 2 ms in µs only differs at other HZ); one out, + TCP_RTO_MIN: 318.
    assert_eq!(
        ptos_with_one_and_two_out(Tlp::TwoJiffies),
        [ms(318), ms(120)]
    );
}

#[test]
fn the_3_10_probe_waits_two_srtt_or_one_and_a_half_plus_the_delayed_ack_maximum() {
    // 6ba8a3b19e76: rtt = 59 ticks; one out: max(118, 59 + 29 + 200) = 288;
    // two out: max(118, 10) = 118.
    assert_eq!(ptos_with_one_and_two_out(Tlp::V3_10), [ms(288), ms(118)]);
}

#[test]
fn waiting_data_is_the_probe_sent_whatever_cwnd_says() {
    // Eleven segments written, cwnd 10: the eleventh waits. When the PTO
    // fires (10 + 22 ms) tcp_write_xmit(push_one = 2) sends it anyway, as
    // new data, and a full RTO runs from then.
    let mut tcp = established_with(&with_tlp(Tlp::TwoMs));
    tcp.write(11 * MSS as u64);
    assert_eq!(tcp.drain().len(), 10);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(22)));
    tcp.fire_timer();
    recv!(tcp, pushed(full_segment(10)));
    recv_nothing!(tcp);
    assert_eq!(probes(&tcp), [seq(10)]);
    assert_eq!(tcp.sock.packets_out(), 11);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
}

/// The probe of segment 9 (all else ACKed at 20 ms) went at 230 ms; its
/// ACK (of everything, as if only the original or only the probe arrived)
/// comes at 240 ms, with `sack` blocks.
fn probe_acked(variant: Tlp, sack: &[(u64, u64)]) -> Tcp {
    let mut tcp = tail_lost(&with_tlp(variant), 9);
    tcp.fire_timer();
    recv_retransmit!(tcp, pushed(full_segment(9)));
    tcp.at_ms(240);
    send!(
        tcp,
        Segment {
            sack: SackBlocks::new(sack),
            ..ack(seq(10))
        }
    );
    tcp
}

/// Two more segments, written at 240 ms and ACKed at 250 ms.
fn more_data_acked(tcp: &mut Tcp) {
    tcp.write(2 * MSS as u64);
    recv!(tcp, full_segment(10), pushed(full_segment(11)));
    tcp.at_ms(250);
    send!(tcp, ack(seq(12)));
}

#[test]
fn an_ack_beyond_the_probe_without_a_dsack_shows_it_repaired_a_loss_and_cwnd_is_reduced() {
    // The probe's ACK covers exactly tlp_high_seq: the episode stays open
    // (either copy may have arrived). The next ACK goes beyond it, and no
    // D-SACK or duplicate came: the original was lost. tcp_process_tlp_ack
    // then reduces once (tcp_init_cwnd_reduction: ssthresh = Reno's cwnd / 2
    // = 10; tcp_end_cwnd_reduction: cwnd = ssthresh) and stays Open
    // (tcp_try_keep_open).
    let mut tcp = probe_acked(Tlp::TwoMs, &[]);
    assert_eq!(tcp.sock.cwnd(), 20);
    more_data_acked(&mut tcp);
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (10, 10));
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
}

#[test]
fn a_dsack_of_the_probe_shows_nothing_was_lost() {
    // The peer reports the probe as a duplicate (RFC 2883, below the ACK):
    // FLAG_DSACK_TLP ends the episode with no reduction. (The two segments
    // after it do not grow cwnd either: far from filling it, they are not
    // cwnd-limited, tcp_is_cwnd_limited.)
    let mut tcp = probe_acked(Tlp::TwoMs, &[(seq(9), seq(10))]);
    more_data_acked(&mut tcp);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (20, crate::cc::TCP_INFINITE_SSTHRESH)
    );
}

/// Twelve segments written at 10 ms, cwnd 10: the PTO (32 ms) sends the
/// eleventh as the probe. At 40 ms the ACK of the first grows cwnd to 11,
/// which lets the twelfth go; the PTO is armed again for 40 + 2·12.5 + 2 ms.
fn probed_with_new_data(variant: Tlp) -> Tcp {
    let mut tcp = established_with(&with_tlp(variant));
    tcp.write(12 * MSS as u64);
    assert_eq!(tcp.drain().len(), 10);
    tcp.fire_timer();
    recv!(tcp, full_segment(10));
    tcp.at_ms(40);
    send!(tcp, ack(seq(1)));
    recv!(tcp, pushed(full_segment(11)));
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(27)));
    tcp.fire_timer();
    tcp
}

#[test]
fn today_one_probe_per_flight_even_when_it_was_new_data() {
    // 76be93fc0702 (5.8): the new-data probe opened an episode
    // (tlp_high_seq = its end), and until an ACK passes that no second probe
    // goes: the RTO is put back where the oldest segment's runs out
    // (sent at 10 ms, RTO 212.5 ms: 155.5 ms after 67 ms).
    let mut tcp = probed_with_new_data(Tlp::TwoMs);
    recv_nothing!(tcp);
    assert_eq!(probes(&tcp), [seq(10)]);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_micros(155_500)));
}

#[test]
fn before_5_8_new_data_probes_opened_no_episode_so_a_retransmission_probe_follows() {
    let mut tcp = probed_with_new_data(Tlp::TwoJiffies);
    recv_retransmit!(tcp, pushed(full_segment(11)));
    assert_eq!(probes(&tcp), [seq(10), seq(11)]);
}
