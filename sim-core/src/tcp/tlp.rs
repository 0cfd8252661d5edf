//! Tail-loss probe (TLP): a loss at the tail of a flight leaves no later
//! segment to be SACKed, so neither RACK nor duplicate ACKs can see it and only
//! the RTO would. Instead, when about two round trips pass with no ACK, the
//! sender sends one probe whose ACK (or SACK) reveals the loss; recovery then
//! starts without the timeout (RFC 8985 section 7; tcp_output.c
//! `tcp_schedule_loss_probe`, `tcp_send_loss_probe`; tcp_input.c
//! `tcp_process_tlp_ack`).
//!
//! ```text
//!   data sent, or an ACK advances ──► PTO armed (in place of the RTO)
//!   PTO fires ──► new data if the window allows, else the last segment again
//!                 tlp_high_seq = snd_nxt, and a full RTO from now
//!   ACKs up to tlp_high_seq ──► episode open
//!   ACK beyond tlp_high_seq ──► the probe repaired a loss: cwnd reduction
//!   a DSACK of the probe, or a pure duplicate ACK ──► no loss, episode over
//! ```
//!
//! Three kernels' versions, as [`Tlp`] names them:
//!
//! | variant      | PTO                                            | one segment out            |
//! | ------------ | ---------------------------------------------- | -------------------------- |
//! | `V3_10`      | max(2·SRTT, 10 ms)                             | max(that, 1.5·SRTT + 200 ms) |
//! | `TwoJiffies` | 2·SRTT + 2 jiffies (`TCP_TIMEOUT_MIN`)         | 2·SRTT + `TCP_RTO_MIN`     |
//! | `TwoMs`      | 2·SRTT + 2 ms (`TCP_TIMEOUT_MIN_US`)           | 2·SRTT + `tcp_rto_min_us`  |
//!
//! every one capped so that it never fires later than the RTO would. This
//! module holds the arithmetic and the episode's state; the socket arms the
//! timer and sends the probe (`socket/loss_probe.rs`).

use super::ack_flags::AckFlags;
use crate::config::{TCP_RTO_MIN, TCP_TIMEOUT_INIT, Tlp};
use crate::time::{HZ, JIFFY_NS, SimDuration};

/// `TCP_TIMEOUT_MIN` (include/net/tcp.h, 4.14 to 6.5): 2 jiffies.
const TCP_TIMEOUT_MIN_JIFFIES: u64 = 2;
/// `TCP_TIMEOUT_MIN_US` (6.6, "tcp: fix excessive TLP and RACK timeouts from
/// HZ rounding"): 2 ms, whatever HZ is.
const TCP_TIMEOUT_MIN_US: u64 = 2_000;
/// `TCP_DELACK_MAX`: 3.10's allowance for a delayed ACK of a lone segment.
const TCP_DELACK_MAX_JIFFIES: u64 = HZ / 5;
/// 3.10's floor on the PTO: `msecs_to_jiffies(10)`.
const V3_10_MIN_PTO_JIFFIES: u64 = 10 * HZ / 1000;

/// `usecs_to_jiffies`: rounds up to whole ticks.
fn usecs_to_jiffies(us: u64) -> u64 {
    (us * HZ).div_ceil(1_000_000)
}

fn jiffies(n: u64) -> SimDuration {
    SimDuration(n * JIFFY_NS)
}

/// `tcp_schedule_loss_probe`'s timeout before the RTO caps it: `None` when
/// the variant sends no probe now (off, or 3.10 without an RTT sample).
///
/// `srtt` is the smoothed RTT, `packets_out` the segments outstanding: with
/// only one, the peer may be holding its ACK back for the delayed-ACK timer,
/// so the probe waits for that too.
pub fn probe_timeout(
    variant: Tlp,
    srtt: Option<SimDuration>,
    packets_out: u32,
) -> Option<SimDuration> {
    let one_out = packets_out == 1;
    // `srtt_us >> 2`: twice the smoothed RTT in µs.
    let two_srtt_us = srtt.map(|s| 2 * s.0 / 1_000);
    let ticks = match (variant, two_srtt_us) {
        (Tlp::Off, _) | (Tlp::V3_10, None) => return None,
        (Tlp::TwoJiffies | Tlp::TwoMs, None) => return Some(TCP_TIMEOUT_INIT),
        // 6.6+: the margin in µs, converted once (no HZ rounding of the 2 ms).
        (Tlp::TwoMs, Some(us)) => {
            let margin = if one_out {
                TCP_RTO_MIN.0 / 1_000
            } else {
                TCP_TIMEOUT_MIN_US
            };
            usecs_to_jiffies(us + margin)
        }
        // bb4d991a28cc (4.14): 2·SRTT rounded up to ticks, then 2 more
        // ticks, or TCP_RTO_MIN.
        (Tlp::TwoJiffies, Some(us)) => {
            let margin = if one_out {
                TCP_RTO_MIN.0 / JIFFY_NS
            } else {
                TCP_TIMEOUT_MIN_JIFFIES
            };
            usecs_to_jiffies(us) + margin
        }
        // 6ba8a3b19e76 (3.10): from the RTT in ticks, `rtt << 1`, at least
        // 1.5 RTT + TCP_DELACK_MAX with one segment out, and at least 10 ms.
        (Tlp::V3_10, Some(_)) => {
            let rtt = usecs_to_jiffies(srtt.map_or(0, |s| s.0 / 1_000));
            let mut pto = 2 * rtt;
            if one_out {
                pto = pto.max(rtt + rtt / 2 + TCP_DELACK_MAX_JIFFIES);
            }
            pto.max(V3_10_MIN_PTO_JIFFIES)
        }
    };
    Some(jiffies(ticks))
}

/// What the probe is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// One new segment, sent whatever cwnd says (`tcp_write_xmit` with
    /// `push_one = 2`, Nagle off).
    NewData,
    /// The highest segment sent, again (`__tcp_retransmit_skb`): it is not
    /// marked lost, only resent.
    Retransmit { seq: u64, end: u64 },
}

/// What the sender could probe with when the PTO fires.
#[derive(Clone, Copy, Debug)]
pub struct ProbeChoice {
    /// Unsent data is waiting (`tcp_send_head`).
    pub unsent: bool,
    /// The next new segment fits the peer's window (`tcp_snd_wnd_test`).
    pub fits_window: bool,
    /// Pacing holds new data back now (`tcp_pacing_check` in `tcp_write_xmit`).
    pub paced: bool,
    /// The last segment sent, if its retransmission may go (it starts inside
    /// the peer's window, or at snd_una: `__tcp_retransmit_skb`).
    pub last: Option<(u64, u64)>,
}

/// What `tcp_send_loss_probe` does when the PTO fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnTimeout {
    /// Send this probe, then arm a full RTO from now.
    Send(Probe),
    /// No probe; the RTO takes over where it would have fired had the probe
    /// never been armed (4.14+: `tcp_rearm_rto` with the probe pending).
    RearmFromHead,
    /// No probe; a full RTO from now (3.10 re-arms so after every probe timeout).
    RearmFull,
}

/// How an ACK bears on the probe episode (`tcp_process_tlp_ack`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlpAck {
    /// The episode stays open.
    Open,
    /// It ends with no loss found.
    Over,
    /// It ends: the ACK covers data sent after the probe's, so something was
    /// lost and the probe repaired it. The sender reduces cwnd once, as for
    /// an ECN mark (CWR), and carries on in the Open state.
    Repaired,
}

/// `tcp_process_tlp_ack`'s duplicate: nothing ACKed or newly SACKed, no
/// data, no window change.
fn no_news(f: &AckFlags) -> bool {
    !(f.una_advanced || f.not_dup || f.data_sacked)
}

/// The probe episode of one sender.
#[derive(Clone, Debug)]
pub struct TailLossProbe {
    variant: Tlp,
    /// `tlp_high_seq`: snd_nxt when the probe went; `None` outside an episode.
    high_seq: Option<u64>,
    /// `tlp_retrans`: the probe was a retransmission, not new data.
    retrans: bool,
    /// A probe the timer chose, for the next `poll_transmit` to send.
    pending: Option<Probe>,
    /// New data went out in this burst: the probe timer is armed once the
    /// burst ends (`tcp_write_xmit` calls `tcp_schedule_loss_probe` after
    /// its loop, not per segment).
    pub schedule_due: bool,
}

impl TailLossProbe {
    pub fn new(variant: Tlp) -> Self {
        TailLossProbe {
            variant,
            high_seq: None,
            retrans: false,
            pending: None,
            schedule_due: false,
        }
    }

    pub fn variant(&self) -> Tlp {
        self.variant
    }

    pub fn enabled(&self) -> bool {
        self.variant != Tlp::Off
    }

    /// A probe episode is open (`tlp_high_seq != 0`).
    pub fn in_episode(&self) -> bool {
        self.high_seq.is_some()
    }

    /// `tlp_high_seq = 0`: recovery or a timeout takes over, or the episode ended.
    pub fn end_episode(&mut self) {
        self.high_seq = None;
    }

    /// `tcp_send_loss_probe`: what to do when the PTO fires.
    pub fn on_timeout(&self, c: ProbeChoice) -> OnTimeout {
        let retransmit_last = || match c.last {
            Some((seq, end)) => OnTimeout::Send(Probe::Retransmit { seq, end }),
            None => OnTimeout::RearmFromHead,
        };
        // `tcp_write_xmit(..., push_one = 2)` sends the head if it fits and
        // pacing lets it go.
        let new_data = if c.paced {
            OnTimeout::RearmFromHead
        } else {
            OnTimeout::Send(Probe::NewData)
        };
        match self.variant {
            Tlp::Off => OnTimeout::RearmFull,
            // 76be93fc0702 "tcp: allow at most one TLP probe per flight"
            // (5.8): one probe of either kind per episode.
            Tlp::TwoMs if self.in_episode() => OnTimeout::RearmFromHead,
            Tlp::TwoMs | Tlp::TwoJiffies if c.unsent && c.fits_window => new_data,
            Tlp::TwoMs => retransmit_last(),
            // 4.14 to 5.7: at most one *retransmission* per episode; new
            // data was probed with every time.
            Tlp::TwoJiffies if self.in_episode() => OnTimeout::RearmFromHead,
            Tlp::TwoJiffies => retransmit_last(),
            // 3.10 probes with unsent data whenever there is some (sending
            // it if the window and pacing allow), and re-arms a full RTO from
            // now whatever happened.
            Tlp::V3_10 if c.unsent => match (c.fits_window, new_data) {
                (true, OnTimeout::Send(p)) => OnTimeout::Send(p),
                _ => OnTimeout::RearmFull,
            },
            Tlp::V3_10 => match (self.in_episode(), c.last) {
                (false, Some((seq, end))) => OnTimeout::Send(Probe::Retransmit { seq, end }),
                _ => OnTimeout::RearmFull,
            },
        }
    }

    /// The timer chose `probe`: the next transmission is it.
    pub fn set_pending(&mut self, probe: Probe) {
        self.pending = Some(probe);
    }

    pub fn take_pending(&mut self) -> Option<Probe> {
        self.pending.take()
    }

    /// The probe left; `snd_nxt` is the sequence after it. The episode opens
    /// (`tlp_high_seq = snd_nxt`), except for new data before 5.8, which
    /// opened none.
    pub fn on_probe_sent(&mut self, probe: Probe, snd_nxt: u64) {
        let retrans = matches!(probe, Probe::Retransmit { .. });
        if retrans || self.variant == Tlp::TwoMs {
            self.high_seq = Some(snd_nxt);
            self.retrans = retrans;
        }
    }

    /// `tcp_process_tlp_ack`, on an ACK during an episode. `mss` sizes what a
    /// D-SACK of the probe may cover.
    pub fn on_ack(&mut self, f: &AckFlags, mss: u32) -> TlpAck {
        let Some(high) = self.high_seq else {
            return TlpAck::Open;
        };
        let verdict = match self.variant {
            Tlp::Off => TlpAck::Over,
            Tlp::V3_10 => {
                // The original rule: a duplicate ACK of exactly the probe's
                // sequence means both copies arrived; anything beyond it means
                // the probe repaired a loss, unless a D-SACK says otherwise.
                if f.ack == high && no_news(f) {
                    TlpAck::Over
                } else if f.ack > high {
                    match f.dsack {
                        Some(_) => TlpAck::Over,
                        None => TlpAck::Repaired,
                    }
                } else {
                    TlpAck::Open
                }
            }
            Tlp::TwoJiffies | Tlp::TwoMs => {
                // FLAG_DSACK_TLP (6.x): a D-SACK of at most one segment
                // ending at the probe's sequence; before, any D-SACK.
                let dsack_ends_it = match self.variant {
                    Tlp::TwoMs => f
                        .dsack
                        .is_some_and(|(s, e)| e == high && e - s <= mss as u64),
                    _ => f.dsack.is_some(),
                };
                if f.ack < high {
                    TlpAck::Open
                } else if self.variant == Tlp::TwoMs && !self.retrans {
                    // New data was the probe, and it has been acknowledged.
                    TlpAck::Over
                } else if dsack_ends_it {
                    TlpAck::Over
                } else if f.ack > high {
                    TlpAck::Repaired
                } else if no_news(f) {
                    TlpAck::Over
                } else {
                    TlpAck::Open
                }
            }
        };
        if verdict != TlpAck::Open {
            self.high_seq = None;
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: SimDuration = SimDuration(1_000_000);

    fn ms(n: u64) -> SimDuration {
        SimDuration(n * MS.0)
    }

    #[test]
    fn todays_pto_is_two_srtt_plus_two_ms_or_plus_rto_min_for_one_segment() {
        // tcp_schedule_loss_probe (6.18): usecs_to_jiffies(2·srtt + 2000 µs).
        assert_eq!(probe_timeout(Tlp::TwoMs, Some(ms(20)), 10), Some(ms(42)));
        assert_eq!(probe_timeout(Tlp::TwoMs, Some(ms(20)), 1), Some(ms(240)));
        // 2 × 10.3 ms + 2 ms = 22.6 ms, rounded up to the tick.
        assert_eq!(
            probe_timeout(Tlp::TwoMs, Some(SimDuration(10_300_000)), 2),
            Some(ms(23))
        );
        // No RTT sample yet: TCP_TIMEOUT_INIT.
        assert_eq!(probe_timeout(Tlp::TwoMs, None, 3), Some(ms(1000)));
    }

    #[test]
    fn the_4_18_pto_rounds_two_srtt_up_to_a_tick_before_adding_two() {
        // usecs_to_jiffies(20.6 ms) = 21 ticks, + TCP_TIMEOUT_MIN (2) = 23.
        assert_eq!(
            probe_timeout(Tlp::TwoJiffies, Some(SimDuration(10_300_000)), 2),
            Some(ms(23))
        );
        assert_eq!(
            probe_timeout(Tlp::TwoJiffies, Some(ms(20)), 10),
            Some(ms(42))
        );
        assert_eq!(
            probe_timeout(Tlp::TwoJiffies, Some(ms(20)), 1),
            Some(ms(240))
        );
    }

    #[test]
    fn the_3_10_pto_has_a_ten_ms_floor_and_waits_for_a_delayed_ack() {
        assert_eq!(probe_timeout(Tlp::V3_10, Some(ms(20)), 10), Some(ms(40)));
        assert_eq!(probe_timeout(Tlp::V3_10, Some(ms(2)), 10), Some(ms(10)));
        // One out: max(40, 20 + 10 + 200) = 230 ms.
        assert_eq!(probe_timeout(Tlp::V3_10, Some(ms(20)), 1), Some(ms(230)));
        assert_eq!(probe_timeout(Tlp::V3_10, None, 1), None);
        assert_eq!(probe_timeout(Tlp::Off, Some(ms(20)), 1), None);
    }

    fn choice(unsent: bool, fits_window: bool) -> ProbeChoice {
        ProbeChoice {
            unsent,
            fits_window,
            paced: false,
            last: Some((14_481, 15_929)),
        }
    }

    #[test]
    fn the_probe_is_new_data_when_it_may_go_else_the_last_segment() {
        let t = TailLossProbe::new(Tlp::TwoMs);
        assert_eq!(
            t.on_timeout(choice(true, true)),
            OnTimeout::Send(Probe::NewData)
        );
        let last = Probe::Retransmit {
            seq: 14_481,
            end: 15_929,
        };
        // The peer's window is full: the last segment instead.
        assert_eq!(t.on_timeout(choice(true, false)), OnTimeout::Send(last));
        assert_eq!(t.on_timeout(choice(false, false)), OnTimeout::Send(last));
    }

    #[test]
    fn one_probe_per_episode_today_one_retransmission_per_episode_on_4_18() {
        let mut t = TailLossProbe::new(Tlp::TwoMs);
        t.on_probe_sent(Probe::NewData, 100);
        assert_eq!(t.on_timeout(choice(true, true)), OnTimeout::RearmFromHead);
        let mut t = TailLossProbe::new(Tlp::TwoJiffies);
        t.on_probe_sent(Probe::NewData, 100);
        assert!(!t.in_episode(), "new data opened no episode before 5.8");
        t.on_probe_sent(Probe::Retransmit { seq: 1, end: 100 }, 100);
        assert_eq!(
            t.on_timeout(choice(true, true)),
            OnTimeout::Send(Probe::NewData)
        );
        assert_eq!(t.on_timeout(choice(false, false)), OnTimeout::RearmFromHead);
    }

    fn episode(variant: Tlp) -> TailLossProbe {
        let mut t = TailLossProbe::new(variant);
        t.on_probe_sent(
            Probe::Retransmit {
                seq: 8689,
                end: 10_137,
            },
            10_137,
        );
        t
    }

    #[test]
    fn an_ack_beyond_the_probe_means_it_repaired_a_loss() {
        for v in [Tlp::V3_10, Tlp::TwoJiffies, Tlp::TwoMs] {
            let mut t = episode(v);
            let f = AckFlags {
                ack: 11_585,
                una_advanced: true,
                not_dup: true,
                ..AckFlags::default()
            };
            assert_eq!(t.on_ack(&f, 1448), TlpAck::Repaired, "{v:?}");
            assert!(!t.in_episode());
        }
    }

    #[test]
    fn an_ack_of_exactly_the_probe_leaves_the_episode_open_a_dupack_ends_it() {
        let mut t = episode(Tlp::TwoMs);
        let advancing = AckFlags {
            ack: 10_137,
            una_advanced: true,
            not_dup: true,
            ..AckFlags::default()
        };
        assert_eq!(t.on_ack(&advancing, 1448), TlpAck::Open);
        let dupack = AckFlags {
            ack: 10_137,
            ..AckFlags::default()
        };
        assert_eq!(t.on_ack(&dupack, 1448), TlpAck::Over);
    }

    #[test]
    fn a_dsack_of_the_probe_ends_the_episode_without_a_reduction() {
        let dsack = AckFlags {
            ack: 10_137,
            una_advanced: true,
            not_dup: true,
            dsack: Some((8689, 10_137)),
            ..AckFlags::default()
        };
        for v in [Tlp::TwoJiffies, Tlp::TwoMs] {
            assert_eq!(episode(v).on_ack(&dsack, 1448), TlpAck::Over, "{v:?}");
        }
        // 6.x: only a D-SACK of the probe itself (FLAG_DSACK_TLP) counts.
        let other = AckFlags {
            ack: 11_585,
            dsack: Some((1, 1449)),
            ..dsack
        };
        assert_eq!(episode(Tlp::TwoMs).on_ack(&other, 1448), TlpAck::Repaired);
        assert_eq!(episode(Tlp::TwoJiffies).on_ack(&other, 1448), TlpAck::Over);
    }
}
