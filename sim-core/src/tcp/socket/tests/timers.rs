//! The timer table on its own, and the order the socket serves its timers in.

use super::super::timers::{Timer, TimerTable};
use super::*;

fn at(ms: u64) -> SimTime {
    SimTime(ms * MS)
}

#[test]
fn the_next_timeout_is_the_earliest_deadline_the_delayed_ack_included() {
    let mut t = TimerTable::default();
    assert_eq!(t.next_timeout(None), None);
    t.set(Timer::Rto, at(210));
    t.set(Timer::Persist, at(300));
    assert_eq!(t.next_timeout(None), Some(at(210)));
    // The delayed-ACK deadline comes from AckPolicy, and counts like the rest.
    assert_eq!(t.next_timeout(Some(at(40))), Some(at(40)));
    assert_eq!(t.next_timeout(Some(at(400))), Some(at(210)));
}

#[test]
fn a_stopped_timer_no_longer_counts_and_setting_one_again_replaces_it() {
    let mut t = TimerTable::default();
    t.set(Timer::Rto, at(210));
    t.set(Timer::Reorder, at(25));
    t.stop(Timer::Reorder);
    assert_eq!(t.get(Timer::Reorder), None);
    assert_eq!(t.next_timeout(None), Some(at(210)));
    // tcp_reset_xmit_timer moves the deadline, later as well as earlier.
    t.set(Timer::Rto, at(420));
    assert_eq!(t.next_timeout(None), Some(at(420)));
}

#[test]
fn timers_due_together_run_read_persist_delayed_ack_pacing_reorder_loss_probe_then_rto() {
    // The order handle_timeout serves them in is the declaration order.
    let names = format!("{:?}", Timer::IN_ORDER);
    assert_eq!(
        names,
        "[ReadTick, Persist, DelayedAck, Pacing, Reorder, LossProbe, Rto]"
    );
    for (i, timer) in Timer::IN_ORDER.into_iter().enumerate() {
        assert_eq!(timer as usize, i);
    }
}

#[test]
fn the_loss_probe_and_the_rto_share_one_slot() {
    // Linux arms ICSK_TIME_LOSS_PROBE and ICSK_TIME_RETRANS in the same
    // icsk_retransmit_timer: arming one replaces the other, and clearing the
    // retransmission timer (inet_csk_clear_xmit_timer) clears either.
    let mut t = TimerTable::default();
    t.set(Timer::Rto, at(210));
    t.set(Timer::LossProbe, at(42));
    assert_eq!(
        (t.get(Timer::LossProbe), t.get(Timer::Rto)),
        (Some(at(42)), None)
    );
    t.set(Timer::Rto, at(252));
    assert_eq!(
        (t.get(Timer::LossProbe), t.get(Timer::Rto)),
        (None, Some(at(252)))
    );
    t.set(Timer::LossProbe, at(60));
    t.stop(Timer::Rto);
    assert_eq!(t.next_timeout(None), None);
}

#[test]
fn a_deadline_saturated_at_the_end_of_time_is_armed_but_never_next() {
    let mut t = TimerTable::default();
    t.set(Timer::Persist, SimTime(u64::MAX));
    assert_eq!(t.get(Timer::Persist), Some(SimTime(u64::MAX)));
    assert_eq!(t.next_timeout(None), None);
    t.stop(Timer::Persist);
    assert_eq!(t.get(Timer::Persist), None);
    assert_eq!(t, TimerTable::default());
}
