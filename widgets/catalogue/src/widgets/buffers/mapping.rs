//! The buffers widget's controls and the scenario they stand for, both
//! ways: [`scenario`] builds the run from the controls, [`values_of`] reads
//! a preset's scenario file back into them.

use super::*;

/// The sender's side of `host`: `SO_SNDBUF` or autotuning, and its caps.
fn set_sender(host: &mut HostSettings, v: &Values) {
    let initial = host.derive().sender.sndbuf;
    host.set_wmem_max(v.bytes(WMEM_MAX));
    host.set_tcp_wmem([PAGE_SIZE, initial, v.bytes(TCP_WMEM).max(initial)]);
    if v.choice(SNDBUF_MODE) == BufMode::Set {
        host.set_so_sndbuf(v.bytes(SO_SNDBUF));
    }
    host.set_tcp_retries2(v.count(RETRIES2));
}

/// The receiver's side: `SO_RCVBUF` or autotuning, and its caps.
fn set_receiver(host: &mut HostSettings, v: &Values) {
    let initial = host.derive().receiver.rcvbuf;
    host.set_rmem_max(v.bytes(RMEM_MAX));
    host.set_tcp_rmem([PAGE_SIZE, initial, v.bytes(TCP_RMEM).max(initial)]);
    if v.choice(RCVBUF_MODE) == BufMode::Set {
        host.set_so_rcvbuf(v.bytes(SO_RCVBUF));
    }
}

/// One transfer of `size` bytes each way the direction says, over a
/// symmetric path, between hosts of the chosen kernel.
pub(super) fn scenario(v: &Values) -> Scenario {
    let kernel = v.choice(KERNEL);
    let mut server = HostSettings::for_kernel_choice(kernel);
    let mut client = HostSettings::for_kernel_choice(kernel);
    let server_sends = v.choice(DIRECTION) == Direction::Download;
    let (sender, receiver) = if server_sends {
        (&mut server, &mut client)
    } else {
        (&mut client, &mut server)
    };
    set_sender(sender, v);
    set_receiver(receiver, v);
    // Case 7's synproxy answered the handshake without the option: as if
    // the server did not offer it (scaling needs both SYNs).
    server.set_tcp_window_scaling(v.choice(WINDOW_SCALING).on());
    let mut s = Scenario {
        path: PathConfig {
            queue_bytes: v.bytes(QUEUE),
            ..PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT))
        },
        client: client.derive(),
        server: server.derive(),
        time_limit: v.duration(TIME_LIMIT),
        ..Scenario::default()
    };
    let other = match v.bytes(REQUEST) {
        0 => Vec::new(),
        n => vec![n],
    };
    let data = vec![v.bytes(SIZE)];
    let read_rate = match v.choice(READING) {
        Reading::AtOnce | Reading::Pauses => None,
        Reading::Limited => Some(v.rate(READ_RATE) / 8),
        Reading::Stopped => Some(0),
    };
    let read_pause = (v.choice(READING) == Reading::Pauses).then(|| {
        let from = SimTime(v.duration(READ_STOP).0);
        // A resumption before the stop would be no pause: one RTT after it.
        let until = SimTime(v.duration(READ_RESUME).0).max(from + v.duration(RTT));
        ReadPause {
            from,
            until: Some(until),
        }
    });
    if v.choice(ANSWERS_LOST).on() {
        // The receiver's direction: its ACKs, window updates, probe answers.
        let direction = if server_sends {
            LossDirection::Acks
        } else {
            LossDirection::Data
        };
        let from = v.duration(LOST_FROM);
        // An end before the start would be no outage: one RTT after it.
        let until = v.duration(LOST_UNTIL).max(from + v.duration(RTT));
        s.path.outages = vec![Outage {
            direction,
            from,
            until,
        }];
        // What the peer meets after the sender gives up is the point.
        s.after_give_up = AfterGiveUp::Continue;
    }
    if server_sends {
        (s.app.request, s.app.response) = (other, data);
        s.client.receiver.read_rate = read_rate;
        s.client.receiver.read_pause = read_pause;
    } else {
        // An upload's run ends when the client reads the server's reply, so
        // there is one: at least a byte, as an application acknowledges what
        // it received ("0: none" holds for a download's request only).
        let reply = if other.is_empty() { vec![1] } else { other };
        (s.app.request, s.app.response) = (data, reply);
        s.server.receiver.read_rate = read_rate;
        s.server.receiver.read_pause = read_pause;
    }
    s
}

/// What each parameter reads from a scenario (a preset's file).
pub(super) fn values_of(s: &Scenario) -> Values {
    let mut v = Values::unread(WIDGET.params);
    // An upload sends more than it gets back.
    let upload = s.app.request_bytes() > s.app.response_bytes();
    let (sender, receiver): (&HostConfig, &HostConfig) = if upload {
        (&s.client, &s.server)
    } else {
        (&s.server, &s.client)
    };
    v.set(
        DIRECTION,
        if upload {
            Direction::Upload
        } else {
            Direction::Download
        },
    );
    let (data, other) = if upload {
        (s.app.request_bytes(), s.app.response_bytes())
    } else {
        (s.app.response_bytes(), s.app.request_bytes())
    };
    v.set(SIZE, data);
    v.set(REQUEST, other);
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    v.set(QUEUE, s.path.queue_bytes);
    v.set(TIME_LIMIT, s.time_limit);
    let tx = &sender.sender;
    v.set(WMEM_MAX, tx.wmem_max);
    match tx.so_sndbuf {
        Some(asked) => {
            v.set(SNDBUF_MODE, BufMode::Set);
            v.set(SO_SNDBUF, asked);
            // Locked: tcp_wmem[2] does not matter; the slider keeps its default.
            v.set(TCP_WMEM, TCP_WMEM.spec.default as u64);
        }
        None => {
            v.set(SNDBUF_MODE, BufMode::Auto);
            v.set(SO_SNDBUF, SO_SNDBUF.spec.default as u64);
            v.set(TCP_WMEM, tx.sndbuf_max);
        }
    }
    v.set(RETRIES2, tx.retries2);
    let rx = &receiver.receiver;
    v.set(RMEM_MAX, rx.rmem_max);
    v.set(TCP_RMEM, rx.tcp_rmem_max);
    match rx.so_rcvbuf {
        Some(asked) => {
            v.set(RCVBUF_MODE, BufMode::Set);
            v.set(SO_RCVBUF, asked);
        }
        None => {
            v.set(RCVBUF_MODE, BufMode::Auto);
            v.set(SO_RCVBUF, SO_RCVBUF.spec.default as u64);
        }
    }
    v.set(WINDOW_SCALING, Switch::from(s.server.receiver.window_scaling));
    let (reading, rate) = match (rx.read_rate, rx.read_pause) {
        (None, None) => (Reading::AtOnce, READ_RATE.spec.default as u64),
        (None, Some(_)) => (Reading::Pauses, READ_RATE.spec.default as u64),
        (Some(0), _) => (Reading::Stopped, READ_RATE.spec.default as u64),
        (Some(r), _) => (Reading::Limited, r * 8),
    };
    v.set(READING, reading);
    v.set(READ_RATE, rate);
    let default = |p: Param<Duration>| SimDuration(p.spec.default as u64);
    let (stop, resume) = match rx.read_pause {
        // A file's pause that never ends reads as one at its time limit.
        Some(p) => (
            SimDuration(p.from.0),
            p.until.map_or(s.time_limit, |u| SimDuration(u.0)),
        ),
        None => (default(READ_STOP), default(READ_RESUME)),
    };
    v.set(READ_STOP, stop);
    v.set(READ_RESUME, resume);
    let (lost, from, until) = match s.path.outages.first() {
        Some(o) => (Switch::On, o.from, o.until),
        None => (
            Switch::Off,
            SimDuration(LOST_FROM.spec.default as u64),
            SimDuration(LOST_UNTIL.spec.default as u64),
        ),
    };
    v.set(ANSWERS_LOST, lost);
    v.set(LOST_FROM, from);
    v.set(LOST_UNTIL, until);
    v.set(KERNEL, s.server.kernel.unwrap_or(Kernel::Today));
    v
}
