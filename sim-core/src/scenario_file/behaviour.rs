//! `[HOST.behaviour]`: single behaviour switches over the era's, each by its
//! field name in [`Behaviour`], for a scenario that mixes kernels' rules
//! (today's sysctls with 4.18's tail-loss probe, say). The values' names are
//! the switches' own (`SendSkbs::NAMES`, ...).
//!
//! [`Behaviour`]: crate::config::Behaviour

use super::values::{flag, int};
use super::{FileError, Value, err};
use crate::cc::hystart::HyStartRules;
use crate::config::{
    Frto, HostSettings, InitialRwnd, NotsentLowat, OfoGrowth, SendSkbs, Tlp, TsoSize, TxSkbHead,
};
use crate::tcp::receive_window::Drs;
use crate::timer_wheel::{Hz, TimerWheel};

/// The switches a `[HOST.behaviour]` table takes, one per field of
/// `Behaviour`.
pub const SWITCHES: &[&str] = &[
    "send_skbs",
    "initial_rwnd",
    "ack_pushed_full_segment",
    "tlp",
    "frto",
    "rack",
    "rcvbuf_lock_clamps_wscale",
    "ofo_grows_window",
    "rcvbuf_fixup",
    "syn_linear_timeouts",
    "oow_rate_limit",
    "spurious_syn_undo",
    "tx_skb_head",
    "tso_size",
    "check_space_on_send",
    "notsent_lowat",
    "pingpong_thresh",
    "cached_rtt_seeds_estimator",
    "timer_wheel",
    "hz",
    "delack_max_cap",
    "hystart",
    "drs",
];

/// Sets one switch.
pub(super) fn set_switch(
    s: &mut HostSettings,
    key: &str,
    name: &str,
    v: &Value,
) -> Result<(), FileError> {
    match name {
        "send_skbs" => s.set_send_skbs(named(key, v, SendSkbs::NAMES, SendSkbs::from_name)?),
        "initial_rwnd" => {
            s.set_initial_rwnd(InitialRwnd::parse(text(key, v)?).map_err(|m| err(key, m))?)
        }
        "ack_pushed_full_segment" => s.set_ack_pushed_full_segment(flag(key, v)?),
        "tlp" => s.set_tlp(named(key, v, Tlp::NAMES, Tlp::from_name)?),
        "frto" => s.set_frto(named(key, v, Frto::NAMES, Frto::from_name)?),
        "rack" => s.set_rack(flag(key, v)?),
        "rcvbuf_lock_clamps_wscale" => s.set_rcvbuf_lock_clamps_wscale(flag(key, v)?),
        "ofo_grows_window" => {
            s.set_ofo_grows_window(named(key, v, OfoGrowth::NAMES, OfoGrowth::from_name)?)
        }
        "rcvbuf_fixup" => s.set_rcvbuf_fixup(flag(key, v)?),
        "syn_linear_timeouts" => s.set_syn_linear_timeouts(
            u32::try_from(int(key, v)?)
                .ok()
                .filter(|n| *n <= 127)
                .ok_or_else(|| err(key, "must be a count from 0 to 127"))?,
        ),
        "oow_rate_limit" => s.set_oow_rate_limit(flag(key, v)?),
        "spurious_syn_undo" => s.set_spurious_syn_undo(flag(key, v)?),
        "tx_skb_head" => s.set_tx_skb_head(named(key, v, TxSkbHead::NAMES, TxSkbHead::from_name)?),
        "tso_size" => s.set_tso_size(named(key, v, TsoSize::NAMES, TsoSize::from_name)?),
        "check_space_on_send" => s.set_check_space_on_send(flag(key, v)?),
        "notsent_lowat" => {
            s.set_notsent_lowat(named(key, v, NotsentLowat::NAMES, NotsentLowat::from_name)?)
        }
        "pingpong_thresh" => s.set_pingpong_thresh(
            u32::try_from(int(key, v)?)
                .ok()
                .filter(|n| (1..=255).contains(n))
                .ok_or_else(|| err(key, "must be a count from 1 to 255"))?,
        ),
        "cached_rtt_seeds_estimator" => s.set_cached_rtt_seeds_estimator(flag(key, v)?),
        "delack_max_cap" => s.set_delack_max_cap(flag(key, v)?),
        "drs" => s.set_drs(named(key, v, Drs::NAMES, Drs::from_name)?),
        "hystart" => s.set_hystart(named(key, v, HyStartRules::NAMES, HyStartRules::from_name)?),
        "timer_wheel" => {
            s.set_timer_wheel(named(key, v, TimerWheel::NAMES, TimerWheel::from_name)?)
        }
        "hz" => s.set_hz(
            u32::try_from(int(key, v)?)
                .ok()
                .and_then(Hz::new)
                .ok_or_else(|| err(key, "must be 100, 250, 300 or 1000 (CONFIG_HZ)"))?,
        ),
        other => {
            return Err(err(
                key,
                format!(
                    "`{other}` is not a behaviour switch (known: {})",
                    SWITCHES.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// The value as text: switches' values are names.
fn text<'v>(key: &str, v: &'v Value) -> Result<&'v str, FileError> {
    match v {
        Value::Text(t) => Ok(t),
        Value::Int(i) => Err(err(key, format!("{i}: expected a name, in quotes"))),
    }
}

/// One of a switch's named values.
fn named<T>(
    key: &str,
    v: &Value,
    names: &[&str],
    from_name: fn(&str) -> Option<T>,
) -> Result<T, FileError> {
    let t = text(key, v)?;
    from_name(t.trim()).ok_or_else(|| {
        err(
            key,
            format!("`{t}` is not one of its values ({})", names.join(", ")),
        )
    })
}
