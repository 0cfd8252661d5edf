//! `[client]` and `[server]`: sysctls, socket options, route attributes and
//! the stack's behaviour, read by their Linux names and handed to
//! [`HostSettings`]' setters. What the kernel derives from them (the doubled
//! `SO_RCVBUF`, the window scale, the SYN window) is `HostSettings::finish`'s
//! business, not the reader's.

use super::values::{bytes, flag, int, three_sizes};
use super::{FileError, HostSection, RouteSection, StackSection, Value, err};
use crate::cc::Algorithm;
use crate::config::{DelayedAck, HostConfig, HostSettings, Nagle, Qdisc};
use crate::time::SimDuration;
use crate::units::parse_duration;

/// Sysctls this version models, per host.
pub const KNOWN_SYSCTLS: &[&str] = &[
    "net.core.default_qdisc",
    "net.core.rmem_max",
    "net.core.wmem_max",
    "net.ipv4.tcp_adv_win_scale",
    "net.ipv4.tcp_congestion_control",
    "net.ipv4.tcp_moderate_rcvbuf",
    "net.ipv4.tcp_no_metrics_save",
    "net.ipv4.tcp_no_ssthresh_metrics_save",
    "net.ipv4.tcp_notsent_lowat",
    "net.ipv4.tcp_retries2",
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_sack",
    "net.ipv4.tcp_slow_start_after_idle",
    "net.ipv4.tcp_window_scaling",
    "net.ipv4.tcp_wmem",
];

/// Socket options this version models.
pub const KNOWN_SOCKOPTS: &[&str] = &[
    "SO_RCVBUF",
    "SO_SNDBUF",
    "TCP_CORK",
    "TCP_NODELAY",
    "TCP_NOTSENT_LOWAT",
    "TCP_QUICKACK",
];
impl HostSection {
    /// One host's settings: the sysctls, then the socket options (each table
    /// in key order), the route and the stack; errors name the first bad key.
    pub(super) fn to_config(&self, host: &str, mss: u32) -> Result<HostConfig, FileError> {
        let mut settings = HostSettings::default();
        settings.set_mss(mss);
        for (name, v) in &self.sysctl {
            set_sysctl(&mut settings, &format!("{host}.sysctl.\"{name}\""), name, v)?;
        }
        for (name, v) in &self.sockopt {
            set_sockopt(&mut settings, &format!("{host}.sockopt.{name}"), name, v)?;
        }
        self.route.set(&mut settings, host)?;
        self.stack.set(&mut settings, host)?;
        Ok(settings.finish().map_err(|e| e.within(host))?)
    }
}

/// `sysctl -w name=value`.
fn set_sysctl(s: &mut HostSettings, key: &str, name: &str, v: &Value) -> Result<(), FileError> {
    match name {
        "net.ipv4.tcp_congestion_control" => {
            let Value::Text(cc) = v else {
                return Err(err(key, "expected a name such as \"reno\""));
            };
            s.set_tcp_congestion_control(
                Algorithm::by_name(cc).map_err(|e| err(key, e.to_string()))?,
            );
        }
        "net.ipv4.tcp_rmem" => s.set_tcp_rmem(three_sizes(key, v)?),
        "net.ipv4.tcp_moderate_rcvbuf" => s.set_tcp_moderate_rcvbuf(flag(key, v)?),
        "net.ipv4.tcp_slow_start_after_idle" => s.set_tcp_slow_start_after_idle(flag(key, v)?),
        "net.ipv4.tcp_window_scaling" => s.set_tcp_window_scaling(flag(key, v)?),
        "net.ipv4.tcp_sack" => s.set_tcp_sack(flag(key, v)?),
        "net.core.default_qdisc" => {
            let qdisc = match v {
                Value::Text(q) => Qdisc::by_name(q),
                Value::Int(_) => None,
            };
            s.set_default_qdisc(qdisc.ok_or_else(|| {
                err(
                    key,
                    "expected \"fq\", \"fq_codel\", \"pfifo_fast\" or \"pfifo\"",
                )
            })?);
        }
        "net.ipv4.tcp_no_metrics_save" => s.set_tcp_no_metrics_save(flag(key, v)?),
        "net.ipv4.tcp_no_ssthresh_metrics_save" => {
            s.set_tcp_no_ssthresh_metrics_save(flag(key, v)?)
        }
        "net.ipv4.tcp_retries2" => s.set_tcp_retries2(
            u32::try_from(int(key, v)?).map_err(|_| err(key, "must not be negative"))?,
        ),
        "net.ipv4.tcp_adv_win_scale" => s
            .set_tcp_adv_win_scale(int(key, v)?)
            .map_err(|e| err(key, e.message))?,
        "net.core.rmem_max" => s.set_rmem_max(bytes(key, v)?),
        "net.core.wmem_max" => s.set_wmem_max(bytes(key, v)?),
        "net.ipv4.tcp_wmem" => s.set_tcp_wmem(three_sizes(key, v)?),
        "net.ipv4.tcp_notsent_lowat" => s.set_tcp_notsent_lowat(u32_bytes(key, v)?),
        other => return Err(not_modelled(key, "sysctl", other, KNOWN_SYSCTLS)),
    }
    Ok(())
}

/// `setsockopt(fd, level, name, value)`.
fn set_sockopt(s: &mut HostSettings, key: &str, name: &str, v: &Value) -> Result<(), FileError> {
    match name {
        "SO_RCVBUF" => s.set_so_rcvbuf(bytes(key, v)?),
        "SO_SNDBUF" => s.set_so_sndbuf(bytes(key, v)?),
        "TCP_CORK" => s.set_tcp_cork(flag(key, v)?),
        "TCP_NODELAY" => s.set_tcp_nodelay(flag(key, v)?),
        "TCP_NOTSENT_LOWAT" => s.set_tcp_notsent_lowat_option(u32_bytes(key, v)?),
        "TCP_QUICKACK" => s.set_tcp_quickack(flag(key, v)?),
        other => return Err(not_modelled(key, "socket option", other, KNOWN_SOCKOPTS)),
    }
    Ok(())
}

/// A size the kernel keeps in 32 bits (`TCP_NOTSENT_LOWAT` and its sysctl).
fn u32_bytes(key: &str, v: &Value) -> Result<u32, FileError> {
    let b = bytes(key, v)?;
    u32::try_from(b).map_err(|_| {
        err(
            key,
            format!("{b} is outside the allowed range 0 to {}", u32::MAX),
        )
    })
}

/// A key this version does not model, with the ones it does.
fn not_modelled(key: &str, what: &str, name: &str, known: &[&str]) -> FileError {
    err(
        key,
        format!(
            "{what} `{name}` is not modelled (known: {})",
            known.join(", ")
        ),
    )
}

impl RouteSection {
    /// `ip route change ... initcwnd N initrwnd N quickack 1`.
    fn set(&self, s: &mut HostSettings, host: &str) -> Result<(), FileError> {
        if let Some(n) = self.initrwnd {
            s.set_route_initrwnd(n);
        }
        if let Some(n) = self.initcwnd {
            s.set_route_initcwnd(n);
        }
        match self.quickack {
            None | Some(0) => Ok(()),
            Some(1) => {
                s.set_route_quickack(true);
                Ok(())
            }
            Some(x) => Err(err(
                format!("{host}.route.quickack"),
                format!("{x} is outside the allowed range 0 to 1"),
            )),
        }
    }
}

impl StackSection {
    /// Another stack's Nagle variant and delayed-ACK policy.
    fn set(&self, s: &mut HostSettings, host: &str) -> Result<(), FileError> {
        if let Some(n) = &self.nagle {
            s.set_nagle(match n.as_str() {
                "linux" => Nagle::Minshall,
                "classic" => Nagle::Classic,
                other => {
                    return Err(err(
                        format!("{host}.stack.nagle"),
                        format!("`{other}`: use \"linux\" or \"classic\""),
                    ));
                }
            });
        }
        if let Some(d) = &self.delayed_ack {
            s.set_delayed_ack(delayed_ack(&format!("{host}.stack.delayed_ack"), d)?);
        }
        Ok(())
    }
}

/// `"linux"`, `"off"`, or a fixed timer between 1 ms and 500 ms.
fn delayed_ack(key: &str, text: &str) -> Result<DelayedAck, FileError> {
    Ok(match text {
        "linux" => DelayedAck::Linux,
        "off" => DelayedAck::Off,
        t => {
            let dur = parse_duration(t)
                .map_err(|e| err(key, format!("{} (or \"linux\", \"off\")", e.0)))?;
            if dur < SimDuration::from_millis(1) || dur > SimDuration::from_millis(500) {
                return Err(err(
                    key,
                    format!("{t} is outside the allowed range 1ms to 500ms"),
                ));
            }
            DelayedAck::Fixed(dur)
        }
    })
}
