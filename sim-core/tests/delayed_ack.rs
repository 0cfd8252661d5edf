//! The receiver's ACK policy in this slice: ACK at once when more than one
//! full segment is unacknowledged, otherwise after the 40 ms delayed-ACK timer
//! (`TCP_DELACK_MIN`).

mod common;
use common::*;
use sim_core::segment::Side;
use sim_core::time::SimDuration;

#[test]
fn a_lone_segment_is_acknowledged_after_40_ms() {
    let mut s = seed_004();
    s.app.response_bytes = 1000;
    s.time_limit = SimDuration::from_secs(1);
    let run = run(&s);
    let arrival = received_by(&run, Side::Client)
        .into_iter()
        .find(|(_, seg)| seg.len > 0)
        .unwrap();
    let data_end = arrival.1.seq + arrival.1.len as u64;
    // The run stops once the client has read the data, so check the timer was armed instead.
    let armed = run.trace.records().iter().find_map(|r| match r.event {
        sim_core::trace::TraceEvent::DelayedAckArmed {
            side: Side::Client,
            deadline,
        } => Some((r.time, deadline)),
        _ => None,
    });
    let (at, deadline) = armed.expect("delayed ACK armed for a lone segment");
    assert_eq!(at, arrival.0);
    assert_eq!(deadline.since(at), SimDuration::from_millis(40));
    assert_eq!(data_end, 1001);
}

#[test]
fn every_second_full_segment_is_acknowledged_at_once() {
    let run = run(&large_window(seed_004()));
    let data: Vec<_> = received_by(&run, Side::Client)
        .into_iter()
        .filter(|(_, s)| s.len > 0)
        .collect();
    let acks: Vec<_> = sent_by(&run, Side::Client)
        .into_iter()
        .filter(|(_, s, _)| s.len == 0 && s.ack > 1)
        .collect();
    // The first ten data segments produce five ACKs, each sent the moment the
    // second segment of a pair arrives, acknowledging both.
    for i in 0..5 {
        let (t_data, seg) = data[2 * i + 1];
        let (t_ack, ack, _) = acks[i];
        assert_eq!(t_ack, t_data);
        assert_eq!(ack.ack, seg.seq + seg.len as u64);
    }
}

#[test]
fn an_odd_final_segment_waits_for_the_timer_before_its_ack() {
    // 3 segments: the first two are ACKed at once, the third waits 40 ms.
    let mut s = large_window(seed_004());
    s.app.response_bytes = 3 * 1448;
    let run = run(&s);
    let armed: Vec<_> = run
        .trace
        .records()
        .iter()
        .filter_map(|r| match r.event {
            sim_core::trace::TraceEvent::DelayedAckArmed {
                side: Side::Client,
                deadline,
            } => Some(deadline.since(r.time)),
            _ => None,
        })
        .collect();
    assert_eq!(armed.last(), Some(&SimDuration::from_millis(40)));
}
