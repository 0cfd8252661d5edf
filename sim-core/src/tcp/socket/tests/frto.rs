//! F-RTO: a delay spike longer than the RTO makes the timer fire although
//! nothing was lost (tcp_input.c `tcp_enter_loss`, `tcp_process_loss`; RFC
//! 5682; 2.6.32's RFC 4138 `tcp_process_frto`). The peer here echoes no
//! timestamps (`ts_ecr` 0), so the timestamp undo (`tcp_packet_delayed`)
//! cannot tell, and F-RTO must.
//!
//! Every test writes twenty segments at 10 ms; ten go, and every ACK is
//! held up past the RTO:
//!
//! ```text
//!   10 ms    ──► segments 0..9           (the spike holds their ACKs)
//!   220 ms   RTO: segment 0 again        cwnd 1, ssthresh 5 (Reno), Loss
//!   225 ms   ◄── ack 1                   F-RTO: new data 10 and 11 instead
//!   226 ms   ◄── ack 2                   segment 1 was never resent, so the
//!                                        originals arrive: the RTO was spurious
//! ```

use super::*;
use crate::cc::{CaState, TCP_INFINITE_SSTHRESH};
use crate::config::Frto;

/// The test host with F-RTO's `variant` (and no tail-loss probe).
fn with_frto(variant: Frto) -> HostConfig {
    let mut cfg = host();
    cfg.behaviour.frto = variant;
    cfg
}

/// The RTO has fired and resent segment 0; the ACK of it came at 225 ms.
fn first_ack_after_the_timeout(cfg: &HostConfig, written: u64) -> Tcp {
    let mut tcp = established_with(cfg);
    tcp.write(written * MSS as u64);
    assert_eq!(tcp.drain().len(), 10);
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(220 * MS));
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    tcp.at_ms(225);
    send!(tcp, ack(seq(1)));
    tcp
}

/// The new segments went; at 235 ms the peer SACKs the first of them, but
/// segment 1 is still missing: it was lost after all.
fn sack_of_the_new_data(tcp: &mut Tcp) {
    tcp.drain();
    tcp.at_ms(235);
    send!(
        tcp,
        Segment {
            sack: SackBlocks::new(&[(seq(10), seq(11))]),
            ..ack(seq(1))
        }
    );
}

#[test]
fn after_the_first_ack_f_rto_sends_new_data_instead_of_the_next_retransmissions() {
    // RFC 5682 step 2b (tcp_process_loss): snd_una advanced, not everything
    // was recovered, data waits and the window has room: high_seq =
    // snd_nxt and REXMIT_NEW. cwnd 2 after slow start, two new segments.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc5682), 20);
    assert_eq!(tcp.sock.cwnd(), 2);
    recv!(tcp, full_segment(10), full_segment(11));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
}

#[test]
fn an_ack_of_data_never_resent_proves_the_timeout_spurious_and_undoes_it() {
    // Step 3b: the ACK covers segment 1, sent before the timeout and never
    // resent (FLAG_ORIG_SACK_ACKED): tcp_try_undo_loss(sk, true) restores
    // cwnd (max(2, 10)) and ssthresh, forgets the losses, and the state is
    // Open; slow start then counts the ACK (11). Ten in flight: one new
    // segment goes, and nothing is resent.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc5682), 20);
    tcp.drain();
    tcp.at_ms(226);
    send!(tcp, ack(seq(2)));
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (11, TCP_INFINITE_SSTHRESH)
    );
    recv!(tcp, full_segment(12));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.total_retrans(), 1);
}

#[test]
fn without_f_rto_the_spike_costs_the_window_and_a_go_back_n() {
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Off), 20);
    recv_retransmit!(tcp, full_segment(1), full_segment(2));
    tcp.at_ms(226);
    send!(tcp, ack(seq(2)));
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (3, 5));
}

#[test]
fn a_sack_of_the_new_data_shows_the_loss_was_real() {
    // Step 3a: new data went (snd_nxt > high_seq) and the next ACK SACKs it
    // without covering segment 1: F-RTO ends and the lost segments go.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc5682), 20);
    sack_of_the_new_data(&mut tcp);
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    assert_eq!(tcp.sock.ssthresh(), 5);
    recv_retransmit!(tcp, full_segment(1));
}

#[test]
fn with_nothing_new_to_send_f_rto_gives_up_and_resends() {
    // Step 2b without data waiting: tp->frto = 0, REXMIT_LOST.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc5682), 10);
    recv_retransmit!(tcp, full_segment(1), full_segment(2));
    tcp.at_ms(226);
    send!(tcp, ack(seq(2)));
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
}

#[test]
fn rfc4138_answers_a_spurious_timeout_by_rate_halving_not_undoing() {
    // 2.6.32 (tcp_process_frto, tcp_frto_response = 0): the first ACK sets
    // cwnd = in flight + 2 for two new segments; the second, an ACK of
    // original data, calls the timeout spurious. tcp_enter_cwr keeps the
    // halved ssthresh (5) and cuts cwnd to in flight + 1 (segments 2..11:
    // 11); then tcp_cwnd_down takes one off every second ACK, never above
    // in flight + 1, until snd_una passes what was sent then.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc4138), 20);
    assert_eq!(tcp.sock.cwnd(), 2);
    recv!(tcp, full_segment(10), full_segment(11));
    recv_nothing!(tcp);
    tcp.at_ms(226);
    send!(tcp, ack(seq(2)));
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (11, 5));
    recv!(tcp, full_segment(12));
    recv_nothing!(tcp);
    let mut cwnds = vec![];
    for n in 3..=6 {
        tcp.at_ms(224 + n);
        send!(tcp, ack(seq(n)));
        tcp.drain();
        cwnds.push(tcp.sock.cwnd());
    }
    assert_eq!(cwnds, [10, 10, 9, 9]);
    assert_eq!(tcp.sock.ssthresh(), 5);
}

#[test]
fn rfc4138_a_sack_of_the_new_data_means_go_back_n_with_three_segments() {
    // tcp_enter_frto_loss(sk, 3, flag): everything not SACKed is lost, the
    // new segments too, and cwnd = in flight (0) + 3.
    let mut tcp = first_ack_after_the_timeout(&with_frto(Frto::Rfc4138), 20);
    sack_of_the_new_data(&mut tcp);
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    assert_eq!(tcp.sock.cwnd(), 3);
    recv_retransmit!(tcp, full_segment(1), full_segment(2), full_segment(3));
    recv_nothing!(tcp);
}
