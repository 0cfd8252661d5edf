//! `[client]` and `[server]`: the kernel era, sysctls, socket options, route
//! attributes, the stack's behaviour and single behaviour switches, read by
//! their Linux names and handed to [`HostSettings`]' setters. Which sysctls,
//! socket options and route attributes exist, and which setter each value
//! goes to, is the knobs table's ([`crate::config::knobs`]). What the kernel
//! derives from them (the doubled `SO_RCVBUF`, the window scale, the SYN
//! window) is `HostSettings::finish`'s business, not the reader's.

use super::values::{bytes, flag, int, three_sizes};
use super::{FileError, HostSection, RouteSection, StackSection, Value, err};
use crate::config::knobs::{self, Family, Setter};
use crate::config::{DelayedAck, HostConfig, HostSettings, Kernel, Nagle};
use crate::time::SimDuration;
use crate::units::parse_duration;

impl HostSection {
    /// One host's settings: its era's defaults first (`kernel`), then the
    /// sysctls and the socket options (each table in key order), the route,
    /// the stack and the behaviour switches; errors name the first bad key.
    pub(super) fn to_config(&self, host: &str, mss: u32) -> Result<HostConfig, FileError> {
        let mut settings = match &self.kernel {
            Some(name) => HostSettings::for_kernel(
                Kernel::parse(name).map_err(|m| err(format!("{host}.kernel"), m))?,
            ),
            None => HostSettings::default(),
        };
        settings.set_mss(mss);
        for (name, v) in &self.sysctl {
            let key = format!("{host}.sysctl.\"{name}\"");
            set_knob(&mut settings, &key, Family::Sysctl, name, v)?;
        }
        for (name, v) in &self.sockopt {
            let key = format!("{host}.sockopt.{name}");
            set_knob(&mut settings, &key, Family::SocketOption, name, v)?;
        }
        self.route.set(&mut settings, host)?;
        self.stack.set(&mut settings, host)?;
        for (name, v) in &self.behaviour {
            let key = format!("{host}.behaviour.{name}");
            super::behaviour::set_switch(&mut settings, &key, name, v)?;
        }
        Ok(settings.finish().map_err(|e| e.within(host))?)
    }
}

/// `sysctl -w name=value`, `setsockopt(fd, level, name, value)`, `ip route
/// change ... name value`: the knob's setter from the table, with the value
/// read as the setter takes it.
fn set_knob(
    s: &mut HostSettings,
    key: &str,
    family: Family,
    name: &str,
    v: &Value,
) -> Result<(), FileError> {
    let setter = family.knobs().iter().find(|k| k.name == name);
    let Some(setter) = setter.and_then(|k| k.setter()) else {
        return Err(not_modelled(key, family, name));
    };
    match setter {
        Setter::Flag(set) => set(s, flag(key, v)?),
        Setter::Bytes(set) => set(s, bytes(key, v)?),
        Setter::Sizes(set) => set(s, three_sizes(key, v)?),
        Setter::Count(set) => set(
            s,
            u32::try_from(int(key, v)?)
                .map_err(|_| err(key, "must be a whole number from 0 to 4294967295"))?,
        ),
        Setter::Bytes32(set) => set(s, u32_bytes(key, v)?),
        Setter::Int(set) => set(s, int(key, v)?).map_err(|m| err(key, m))?,
        Setter::Name(set) => {
            let name = match v {
                Value::Text(t) => t.clone(),
                Value::Int(i) => i.to_string(),
            };
            set(s, &name).map_err(|m| err(key, m))?
        }
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
fn not_modelled(key: &str, family: Family, name: &str) -> FileError {
    let what = match family {
        Family::Sysctl => "sysctl",
        Family::SocketOption => "socket option",
        Family::RouteAttribute => "route attribute",
        Family::Command => "command",
    };
    let listed = if knobs::named(name).is_some() {
        " (the Linux knobs reference says what it does)"
    } else {
        ""
    };
    err(
        key,
        format!(
            "{what} `{name}` is not modelled{listed}; known: {}",
            knobs::scenario_keys(family).join(", ")
        ),
    )
}

impl RouteSection {
    /// `ip route change ... initcwnd N initrwnd N quickack 1`.
    fn set(&self, s: &mut HostSettings, host: &str) -> Result<(), FileError> {
        let attributes = [
            ("initcwnd", self.initcwnd),
            ("initrwnd", self.initrwnd),
            ("quickack", self.quickack),
        ];
        for (name, value) in attributes {
            if let Some(v) = value {
                let key = format!("{host}.route.{name}");
                set_knob(s, &key, Family::RouteAttribute, name, &Value::Int(v.into()))?;
            }
        }
        Ok(())
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
        if let Some(g) = &self.gro {
            s.set_gro_window(gro_window(&format!("{host}.stack.gro"), g)?);
        }
        Ok(())
    }
}

/// `"off"`, or a GRO window between 1 µs and 1 ms.
fn gro_window(key: &str, text: &str) -> Result<SimDuration, FileError> {
    if text == "off" {
        return Ok(SimDuration::ZERO);
    }
    let dur = parse_duration(text).map_err(|e| err(key, format!("{} (or \"off\")", e.0)))?;
    if dur < SimDuration::from_micros(1) || dur > SimDuration::from_millis(1) {
        return Err(err(
            key,
            format!("{text} is outside the allowed range 1us to 1ms"),
        ));
    }
    Ok(dur)
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
