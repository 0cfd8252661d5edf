//! A segment for a connection the host no longer has: `tcp_v4_rcv` finds no
//! socket for it (`__inet_lookup_skb` fails: the socket was closed with
//! `tcp_done`, as when it gave up after `tcp_retries2`) and goes to
//! `no_tcp_socket`, which answers with a RST (`tcp_v4_send_reset`).
//!
//! ```text
//!   segment arrives ─► no socket ─► it is a RST itself?  ─► dropped (never a RST for a RST)
//!                                   it carries an ACK?   ─► RST, seq = its ack
//!                                   else                 ─► RST+ACK, seq 0, ack = its end
//! ```
//!
//! The RST carries the acknowledgement number of the segment it answers as
//! its sequence number (RFC 793 p. 36, "Reset Generation"): exactly the
//! `rcv_nxt` a peer whose ACK this was expects, so the peer accepts it
//! (RFC 5961 3.2) and resets its connection (`tcp_reset`).

use crate::segment::{Flags, SackBlocks, Segment};

/// The RST a host with no socket sends in answer to `incoming`
/// (`tcp_v4_send_reset`), or `None` when `incoming` is itself a RST ("Never
/// send a reset in response to a reset"). Its header is bare: no options,
/// window 0 (`rep.th` is zeroed and only these fields set). The caller
/// stamps `id` and the sending time.
pub fn tcp_v4_send_reset(incoming: &Segment) -> Option<Segment> {
    if incoming.flags.rst {
        return None;
    }
    let (seq, ack, with_ack) = if incoming.flags.ack {
        // `rep.th.seq = th->ack_seq`.
        (incoming.ack, 0, false)
    } else {
        // `rep.th.ack = 1; rep.th.ack_seq = seq + syn + fin + payload`.
        (0, incoming.end_seq(), true)
    };
    Some(Segment {
        id: 0,
        from: incoming.from.peer(),
        seq,
        len: 0,
        ack,
        wnd: 0,
        flags: Flags {
            rst: true,
            ack: with_ack,
            ..Flags::default()
        },
        sack: SackBlocks::default(),
        // No timestamp option on a RST for no socket.
        ts_val: 0,
        ts_ecr: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::{RST_HEADER_BYTES, Side};

    fn window_update() -> Segment {
        Segment {
            id: 9,
            from: Side::Client,
            seq: 148,
            len: 0,
            ack: 232_321,
            wnd: 262_144,
            flags: Flags {
                ack: true,
                ..Flags::default()
            },
            sack: SackBlocks::default(),
            ts_val: 1_800_000_000_000,
            ts_ecr: 900_000_000_000,
        }
    }

    /// The case-6 window update, to a server that gave up: a RST whose
    /// sequence number is the update's ACK, without ACK, window or options.
    #[test]
    fn an_ack_is_answered_with_a_rst_at_its_ack_number() {
        let rst = tcp_v4_send_reset(&window_update()).unwrap();
        assert_eq!(rst.from, Side::Server);
        assert_eq!((rst.seq, rst.len, rst.ack, rst.wnd), (232_321, 0, 0, 0));
        assert!(rst.flags.rst && !rst.flags.ack && !rst.flags.syn);
        assert_eq!((rst.ts_val, rst.ts_ecr), (0, 0));
        assert_eq!(rst.wire_bytes(), RST_HEADER_BYTES);
        // It occupies no sequence space.
        assert_eq!(rst.end_seq(), rst.seq);
    }

    /// A segment without ACK (a SYN to a closed port): RST+ACK, sequence 0,
    /// acknowledging everything the segment occupied (the SYN counts one).
    #[test]
    fn a_segment_without_ack_gets_a_rst_ack_of_its_end() {
        let syn = Segment {
            seq: 0,
            ack: 0,
            flags: Flags {
                syn: true,
                ..Flags::default()
            },
            ..window_update()
        };
        let rst = tcp_v4_send_reset(&syn).unwrap();
        assert_eq!((rst.seq, rst.ack), (0, 1));
        assert!(rst.flags.rst && rst.flags.ack);
        let data = Segment {
            seq: 1,
            len: 100,
            flags: Flags::default(),
            ..window_update()
        };
        assert_eq!(tcp_v4_send_reset(&data).unwrap().ack, 101);
    }

    #[test]
    fn a_rst_is_never_answered() {
        let rst = tcp_v4_send_reset(&window_update()).unwrap();
        assert_eq!(tcp_v4_send_reset(&rst), None);
    }
}
