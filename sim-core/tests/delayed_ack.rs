//! When receivers acknowledge, packet by packet, in the three policies:
//! Linux (quick-ACK mode at start and while the window grows, then every second
//! segment or the 40 ms timer), a fixed timer (textbook 40 ms, Windows 200 ms),
//! and off.

mod common;
use common::*;
use sim_core::config::{DelayedAck, Scenario};
use sim_core::segment::Side;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

/// A response of `bytes` to the seed-004 client with the given ACK policy.
fn response(bytes: u64, policy: DelayedAck) -> Scenario {
    let mut s = seed_004();
    s.app.response = vec![bytes];
    s.client.receiver.delayed_ack = policy;
    s
}

fn delayed_ack_timers(run: &sim_core::sim::RunResult) -> Vec<SimDuration> {
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::DelayedAckArmed {
                side: Side::Client,
                deadline,
            } => Some(deadline.since(r.time)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_linux_receiver_acks_the_first_data_at_once_in_quick_ack_mode() {
    let mut s = response(1000, DelayedAck::Linux);
    s.time_limit = SimDuration::from_secs(1);
    let run = run(&s);
    let (arrived, _) = received_by(&run, Side::Client)
        .into_iter()
        .find(|(_, seg)| seg.len > 0)
        .unwrap();
    // The run ends when the client has read the data; the quick ACK is already out.
    assert!(delayed_ack_timers(&run).is_empty());
    let _ = arrived;
}

#[test]
fn a_textbook_receiver_delays_a_lone_segment_40ms() {
    let run = run(&response(
        1000,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    ));
    let (arrived, _) = received_by(&run, Side::Client)
        .into_iter()
        .find(|(_, seg)| seg.len > 0)
        .unwrap();
    let armed = run.trace.records().find_map(|r| match r.event {
        TraceEvent::DelayedAckArmed {
            side: Side::Client,
            deadline,
        } => Some((r.time, deadline)),
        _ => None,
    });
    let (at, deadline) = armed.expect("delayed ACK armed for a lone segment");
    assert_eq!(at, arrived);
    assert_eq!(deadline.since(at), SimDuration::from_millis(40));
}

#[test]
fn a_windows_receiver_delays_a_lone_segment_200ms() {
    let run = run(&response(
        1000,
        DelayedAck::Fixed(SimDuration::from_millis(200)),
    ));
    assert_eq!(
        delayed_ack_timers(&run),
        vec![SimDuration::from_millis(200)]
    );
}

#[test]
fn every_second_full_segment_is_acknowledged_at_once_without_quick_acks() {
    let run = run(&every_other_ack(large_window(seed_004())));
    let data: Vec<_> = received_by(&run, Side::Client)
        .into_iter()
        .filter(|(_, s)| s.len > 0)
        .collect();
    let acks = client_acks(&run);
    // The first ten data segments produce five ACKs, each sent the moment the
    // second segment of a pair arrives, acknowledging both.
    for i in 0..5 {
        let (t_data, seg) = data[2 * i + 1];
        assert_eq!(acks[i], (t_data, seg.seq + seg.len as u64));
    }
}

#[test]
fn an_odd_final_segment_waits_for_the_timer_without_quick_acks() {
    // 3 segments: the first arms the timer, the second makes two unacknowledged
    // segments and is ACKed at once (cancelling it), the third arms it again.
    let run = run(&every_other_ack(response(
        3 * 1448,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    )));
    assert_eq!(
        delayed_ack_timers(&run),
        vec![SimDuration::from_millis(40); 2]
    );
    assert_eq!(
        client_acks(&run)
            .iter()
            .map(|(_, a)| *a)
            .collect::<Vec<_>>(),
        vec![1 + 2 * 1448]
    );
}

#[test]
fn with_acks_off_every_segment_is_acknowledged_on_arrival() {
    let run = run(&response(20 * 1448, DelayedAck::Off));
    // The run stops as soon as the client has read the last byte, before the
    // ACK for it leaves: 19 ACKs, one per segment.
    let acks: Vec<u64> = client_acks(&run).iter().map(|(_, a)| *a).collect();
    assert_eq!(acks, (1..=19).map(|i| 1 + i * 1448).collect::<Vec<_>>());
    assert!(delayed_ack_timers(&run).is_empty());
}

#[test]
fn a_linux_receiver_with_a_locked_buffer_gives_sixteen_quick_acks_then_every_other() {
    // SO_RCVBUF locked at 128 KiB: the window (64240) never grows, because each
    // arriving segment is charged to the buffer before tcp_grow_window looks. So
    // quick-ACK mode lasts only for the 16 ACKs that the first data grants
    // (tcp_incr_quickack: min(64256 / (2 x 1448), 16)); after that, one ACK per
    // two segments.
    let mut s = large_window(seed_004());
    s.client.receiver.rcvbuf = 131_072;
    s.client.receiver.rcvbuf_max = 131_072;
    s.client.receiver.autotune = false;
    let run = run(&s);
    let acks: Vec<u64> = client_acks(&run).iter().map(|(_, a)| *a).collect();
    let expected_quick: Vec<u64> = (1..=16).map(|i| 1 + i * 1448).collect();
    assert_eq!(&acks[..16], &expected_quick[..]);
    // From then on each ACK covers two more segments.
    assert_eq!(acks[16] - acks[15], 2 * 1448);
    assert_eq!(acks[17] - acks[16], 2 * 1448);
}
