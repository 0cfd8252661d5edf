//! One walk over a record's fields: [`TraceEvent::visit`] names the record's
//! [`Kind`] and hands over each field, in the order the variant declares
//! them, to a [`FieldVisitor`]. It is the one place that takes every variant
//! apart, for the code that treats fields alike whatever the kind.
//!
//! Who walks the fields, and who does not:
//!
//! - The trace hash (`hash.rs`) feeds the kind's number, then each field as
//!   a 64-bit word; it has nothing to say per kind. The three segment kinds,
//!   the bulk of a long run, it folds into one word each, from the same walk
//!   (`PacketWord`).
//! - Packing (`packed/`) matches on the kinds it packs instead: which field
//!   goes in a word, a bit, an offset from the record's time or the SACK side
//!   table is the layout itself, reading back must rebuild every variant by
//!   hand, arm for arm with packing, and packing runs for every packet record
//!   (walked, it cost 1.4 % more instructions on a long run).
//! - The text outputs (`report`) print a sentence per kind in tcpdump's and
//!   `ss`'s wording, choosing and scaling the fields they show (an RTT in ms
//!   to 3 places, an RTO to none, a transfer as time since it started), so
//!   they match on the kinds and read the fields they print by name. A walk
//!   would hand them every field in declaration order only to pick most of
//!   them back out.
//!
//! A new kind of record is hashed once it is listed here (with a new number
//! in [`Kind`]); packing and the text outputs say what they do with it in
//! their own matches.

use super::TraceEvent;
use crate::segment::{Segment, Side};
use crate::tcp::info::{RecvInfo, TcpInfo};
use crate::time::SimTime;

/// The kinds of trace record. The numbers are the ones the trace hash has
/// always fed for each kind: changing one changes every golden hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    SegmentSent = 1,
    SegmentDropped = 2,
    SegmentReceived = 3,
    CwndChanged = 4,
    RtoFired = 5,
    DelayedAckArmed = 6,
    Established = 7,
    TransferComplete = 8,
    ZeroWindowProbe = 9,
    Aborted = 10,
    FastRetransmit = 11,
    RttSample = 12,
    CcMode = 13,
    PacingRate = 14,
    Sample = 15,
    SendHeld = 16,
    LossProbe = 17,
    Reset = 18,
}

/// One field's value, typed by what it means rather than how it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// Which end of the connection.
    Side(Side),
    /// A count, a size, a sequence number or a span in ns.
    Count(u64),
    /// A count that may be absent (`ssthresh` while still "infinite").
    MaybeCount(Option<u64>),
    /// An instant on the simulated clock.
    Time(SimTime),
    /// An instant that may not come (a dropped segment's arrival).
    MaybeTime(Option<SimTime>),
    Flag(bool),
    /// A name from a fixed set (a congestion-control mode, a hold's reason).
    Name(&'static str),
    Segment(&'a Segment),
}

/// What walks a record's fields (see [`TraceEvent::visit`]). Any
/// `FnMut(&'static str, Value)` closure is one.
pub trait FieldVisitor {
    /// The record is of this kind: said once, before its fields.
    fn kind(&mut self, _kind: Kind) {}
    /// The field called `name` (as in [`TraceEvent`]) holds `value`.
    fn field(&mut self, name: &'static str, value: Value<'_>);
}

impl<F: FnMut(&'static str, Value<'_>)> FieldVisitor for F {
    #[inline]
    fn field(&mut self, name: &'static str, value: Value<'_>) {
        self(name, value)
    }
}

impl TraceEvent {
    /// Which kind of record this is.
    #[inline]
    pub fn kind(&self) -> Kind {
        match self {
            TraceEvent::SegmentSent { .. } => Kind::SegmentSent,
            TraceEvent::SegmentDropped { .. } => Kind::SegmentDropped,
            TraceEvent::SegmentReceived { .. } => Kind::SegmentReceived,
            TraceEvent::CwndChanged { .. } => Kind::CwndChanged,
            TraceEvent::RttSample { .. } => Kind::RttSample,
            TraceEvent::SendHeld { .. } => Kind::SendHeld,
            TraceEvent::FastRetransmit { .. } => Kind::FastRetransmit,
            TraceEvent::LossProbe { .. } => Kind::LossProbe,
            TraceEvent::RtoFired { .. } => Kind::RtoFired,
            TraceEvent::DelayedAckArmed { .. } => Kind::DelayedAckArmed,
            TraceEvent::ZeroWindowProbe { .. } => Kind::ZeroWindowProbe,
            TraceEvent::Aborted { .. } => Kind::Aborted,
            TraceEvent::Reset { .. } => Kind::Reset,
            TraceEvent::CcMode { .. } => Kind::CcMode,
            TraceEvent::PacingRate { .. } => Kind::PacingRate,
            TraceEvent::Sample { .. } => Kind::Sample,
            TraceEvent::Established { .. } => Kind::Established,
            TraceEvent::TransferComplete { .. } => Kind::TransferComplete,
        }
    }

    /// Hands each field to `v`, in the order the variant declares them (a
    /// sample's `TCP_INFO` value by value, see `visit_sample`).
    #[inline]
    pub fn visit(&self, v: &mut impl FieldVisitor) {
        use Value::{Count, Time};
        match *self {
            TraceEvent::SegmentSent {
                ref seg,
                flight,
                retransmit,
                departs,
                arrives,
            } => {
                v.kind(Kind::SegmentSent);
                v.field("seg", Value::Segment(seg));
                v.field("flight", Count(flight as u64));
                v.field("retransmit", Value::Flag(retransmit));
                v.field("departs", Value::MaybeTime(departs));
                v.field("arrives", Value::MaybeTime(arrives));
            }
            TraceEvent::SegmentDropped { ref seg } => {
                v.kind(Kind::SegmentDropped);
                v.field("seg", Value::Segment(seg));
            }
            TraceEvent::SegmentReceived { to, ref seg } => {
                v.kind(Kind::SegmentReceived);
                v.field("to", Value::Side(to));
                v.field("seg", Value::Segment(seg));
            }
            TraceEvent::Sample {
                delivered,
                ref info,
                ref client,
                // Not walked, so not hashed (as `TcpInfo`'s `ss`-only
                // fields): the pinned hashes stay, and these readings
                // follow from the records that are.
                client_send: _,
                server_recv: _,
            } => {
                v.kind(Kind::Sample);
                visit_sample(v, delivered, info, client);
            }
            TraceEvent::TransferComplete {
                index,
                bytes,
                started,
            } => {
                v.kind(Kind::TransferComplete);
                v.field("index", Count(index as u64));
                v.field("bytes", Count(bytes));
                v.field("started", Time(started));
            }
            TraceEvent::CwndChanged {
                side,
                old,
                new,
                ssthresh,
            } => {
                v.kind(Kind::CwndChanged);
                v.field("side", Value::Side(side));
                v.field("old", Count(old as u64));
                v.field("new", Count(new as u64));
                v.field("ssthresh", Count(ssthresh as u64));
            }
            TraceEvent::RttSample {
                side,
                sample_ns,
                srtt_ns,
                rttvar_ns,
                rto_ns,
            } => {
                v.kind(Kind::RttSample);
                v.field("side", Value::Side(side));
                v.field("sample_ns", Count(sample_ns));
                v.field("srtt_ns", Count(srtt_ns));
                v.field("rttvar_ns", Count(rttvar_ns));
                v.field("rto_ns", Count(rto_ns));
            }
            _ => visit_socket(self, v),
        }
    }
}

/// The fields of the other records of one socket's state: its timers,
/// losses, holds, pacing and congestion-control mode.
#[inline]
fn visit_socket(event: &TraceEvent, v: &mut impl FieldVisitor) {
    use Value::{Count, Time};
    match *event {
        TraceEvent::SendHeld {
            side,
            reason,
            bytes,
        } => {
            v.kind(Kind::SendHeld);
            v.field("side", Value::Side(side));
            v.field("reason", Value::Name(reason));
            v.field("bytes", Count(bytes));
        }
        TraceEvent::FastRetransmit { side, seq } => {
            v.kind(Kind::FastRetransmit);
            v.field("side", Value::Side(side));
            v.field("seq", Count(seq));
        }
        TraceEvent::LossProbe { side, seq } => {
            v.kind(Kind::LossProbe);
            v.field("side", Value::Side(side));
            v.field("seq", Count(seq));
        }
        TraceEvent::RtoFired { side, rto_ns } => {
            v.kind(Kind::RtoFired);
            v.field("side", Value::Side(side));
            v.field("rto_ns", Count(rto_ns));
        }
        TraceEvent::DelayedAckArmed { side, deadline } => {
            v.kind(Kind::DelayedAckArmed);
            v.field("side", Value::Side(side));
            v.field("deadline", Time(deadline));
        }
        TraceEvent::ZeroWindowProbe { side, probes } => {
            v.kind(Kind::ZeroWindowProbe);
            v.field("side", Value::Side(side));
            v.field("probes", Count(probes as u64));
        }
        TraceEvent::Aborted { side, retries } => {
            v.kind(Kind::Aborted);
            v.field("side", Value::Side(side));
            v.field("retries", Count(retries as u64));
        }
        TraceEvent::Reset { side } => {
            v.kind(Kind::Reset);
            v.field("side", Value::Side(side));
        }
        TraceEvent::CcMode { side, mode } => {
            v.kind(Kind::CcMode);
            v.field("side", Value::Side(side));
            v.field("mode", Value::Name(mode));
        }
        TraceEvent::PacingRate {
            side,
            bytes_per_sec,
        } => {
            v.kind(Kind::PacingRate);
            v.field("side", Value::Side(side));
            v.field("bytes_per_sec", Count(bytes_per_sec));
        }
        TraceEvent::Established { side } => {
            v.kind(Kind::Established);
            v.field("side", Value::Side(side));
        }
        // The kinds `TraceEvent::visit` walks itself.
        TraceEvent::SegmentSent { .. }
        | TraceEvent::SegmentDropped { .. }
        | TraceEvent::SegmentReceived { .. }
        | TraceEvent::CwndChanged { .. }
        | TraceEvent::RttSample { .. }
        | TraceEvent::Sample { .. }
        | TraceEvent::TransferComplete { .. } => {}
    }
}

/// A sample's fields: the client's bytes read, then the server's `TCP_INFO`
/// and the client's receive buffer value by value, in the order the trace
/// hash has always taken them. Not walked: the readings `ss` and the charts
/// take alone (`ato_ns`, the `last_*` stamps, and the congestion control's
/// own state, `cc`), which follow from the run the hashed records already
/// pin; walking them would change every golden hash.
#[inline]
fn visit_sample(v: &mut impl FieldVisitor, delivered: u64, info: &TcpInfo, client: &RecvInfo) {
    use Value::Count;
    v.field("delivered", Count(delivered));
    let c = &info.counters;
    v.field("total_retrans", Count(info.total_retrans));
    v.field("cwnd", Count(info.cwnd as u64));
    v.field("ssthresh", Value::MaybeCount(info.ssthresh.map(u64::from)));
    v.field("in_flight", Count(info.in_flight as u64));
    v.field("srtt_ns", Count(info.srtt_ns));
    v.field("rttvar_ns", Count(info.rttvar_ns));
    v.field("rto_ns", Count(info.rto_ns));
    v.field("pacing_rate", Count(info.pacing_rate));
    v.field("bytes_acked", Count(info.bytes_acked));
    v.field("segs_out", Count(c.segs_out));
    v.field("data_segs_out", Count(c.data_segs_out));
    v.field("bytes_sent", Count(c.bytes_sent));
    v.field("bytes_retrans", Count(c.bytes_retrans));
    v.field("segs_in", Count(c.segs_in));
    v.field("snd_wnd", Count(info.snd_wnd));
    v.field("sndbuf", Count(info.sndbuf));
    v.field("wmem_queued", Count(info.wmem_queued));
    v.field("notsent_bytes", Count(info.notsent_bytes));
    v.field("rcvbuf", Count(client.rcvbuf));
    v.field("unread", Count(client.unread));
    // `rmem_alloc` is not walked (not hashed): `ss`'s reading of `unread`.
}
