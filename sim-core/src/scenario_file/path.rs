//! `[path]`: the bottleneck, where it loses packets (at random, listed, in
//! outages), and the MSS its MTU leaves.

use super::{DropSection, FileError, OutageSection, PathSection, err};
use crate::config::{
    Direction, DropRule, DropTarget, LossDirection, LossPosition, Outage, PathConfig, Transmission,
};
use crate::config::{MAX_QUEUE_BYTES, MSS_MAX};
use crate::segment::HEADER_BYTES;
use crate::time::SimDuration;
use crate::units::{format_bytes, parse_bytes, parse_duration, parse_rate};

/// IPv4's minimum datagram every host must take (RFC 791).
const MTU_MIN: u32 = 576;

impl PathSection {
    pub(super) fn to_config(&self) -> Result<PathConfig, FileError> {
        let rate = parse_rate(&self.rate).map_err(|e| err("path.rate", e.0))?;
        let dur = |key: &str, v: &str| parse_duration(v).map_err(|e| err(key, e.0));
        let mut path = match (&self.rtt, &self.delay_forward, &self.delay_reverse) {
            (Some(rtt), None, None) => PathConfig::symmetric(rate, dur("path.rtt", rtt)?),
            (None, Some(f), Some(r)) => PathConfig {
                delay_forward: dur("path.delay_forward", f)?,
                delay_reverse: dur("path.delay_reverse", r)?,
                ..PathConfig::symmetric(rate, SimDuration::ZERO)
            },
            _ => {
                return Err(err(
                    "path.rtt",
                    "give either `rtt`, or both `delay_forward` and `delay_reverse`",
                ));
            }
        };
        if let Some(loss) = self.loss {
            if !(loss.is_finite() && (0.0..=0.5).contains(&loss)) {
                return Err(err(
                    "path.loss",
                    format!("{loss} is outside the allowed range 0 to 0.5"),
                ));
            }
            path.loss = loss;
        }
        path.loss_connections = self.loss_connections;
        if let Some(t) = &self.loss_until {
            path.loss_until = Some(parse_duration(t).map_err(|e| err("path.loss_until", e.0))?);
        }
        if let Some(d) = &self.loss_direction {
            path.loss_direction = choose(
                "path.loss_direction",
                d,
                &[
                    ("data", LossDirection::Data),
                    ("acks", LossDirection::Acks),
                    ("both", LossDirection::Both),
                ],
            )?;
        }
        if let Some(p) = &self.loss_position {
            path.loss_position = choose(
                "path.loss_position",
                p,
                &[
                    ("before", LossPosition::Before),
                    ("after", LossPosition::After),
                ],
            )?;
        }
        path.drops = (self.drop.iter().enumerate())
            .map(|(i, d)| d.to_rule(&format!("path.drop[{i}]")))
            .collect::<Result<_, _>>()?;
        path.outages = (self.outage.iter().enumerate())
            .map(|(i, o)| o.to_outage(&format!("path.outage[{i}]")))
            .collect::<Result<_, _>>()?;
        match (&self.queue, self.queue_bdp) {
            (Some(q), None) => {
                path.queue_bytes = parse_bytes(q).map_err(|e| err("path.queue", e.0))?
            }
            (None, Some(m)) => {
                if !(m.is_finite() && (0.0..=1000.0).contains(&m)) {
                    return Err(err(
                        "path.queue_bdp",
                        format!("{m} is outside the allowed range 0 to 1000"),
                    ));
                }
                let bdp = rate as f64 / 8.0 * path.rtt().as_secs_f64();
                let queue = (bdp * m).round();
                // The queue's own limit, checked here so that the message
                // names the key the reader wrote, not the `path.queue` it
                // stands for.
                if queue > MAX_QUEUE_BYTES as f64 {
                    return Err(err(
                        "path.queue_bdp",
                        format!(
                            "{m} × the bandwidth-delay product is a queue of {}, over the largest the model takes ({})",
                            format_bytes(queue as u64),
                            format_bytes(MAX_QUEUE_BYTES)
                        ),
                    ));
                }
                path.queue_bytes = queue as u64;
            }
            (None, None) => {}
            (Some(_), Some(_)) => {
                return Err(err("path.queue", "give `queue` or `queue_bdp`, not both"));
            }
        }
        Ok(path)
    }

    /// Payload bytes per segment both hosts use: the route's MTU less IPv4,
    /// TCP and timestamp headers.
    pub(super) fn mss(&self) -> Result<u32, FileError> {
        match self.mtu {
            None => Ok(crate::config::DEFAULT_MSS),
            // The largest MTU is the one whose segments the model takes
            // (`MSS_MAX`), so that the message names `path.mtu`, the key
            // the reader wrote, not the `mss` derived from it.
            Some(mtu) if (MTU_MIN..=MSS_MAX + HEADER_BYTES).contains(&mtu) => {
                Ok(mtu - HEADER_BYTES)
            }
            Some(mtu) => Err(err(
                "path.mtu",
                format!(
                    "{mtu} is outside the allowed range {MTU_MIN} to {}",
                    MSS_MAX + HEADER_BYTES
                ),
            )),
        }
    }
}

impl DropSection {
    /// The rule this entry states; `key` is its place (`path.drop[0]`).
    fn to_rule(&self, key: &str) -> Result<DropRule, FileError> {
        let at = |field: &str| format!("{key}.{field}");
        let target = match (self.segment, &self.seq, self.ack) {
            (Some(n), None, None) => DropTarget::Segment(n),
            (None, Some(range), None) => bytes(&at("seq"), range)?,
            (None, None, Some(n)) => DropTarget::Ack(n),
            _ => return Err(err(key, "give one of `segment`, `seq` or `ack`")),
        };
        let direction = match &self.direction {
            Some(d) => choose(
                &at("direction"),
                d,
                &[("data", Direction::Data), ("acks", Direction::Acks)],
            )?,
            None if self.ack.is_some() => Direction::Acks,
            None => Direction::Data,
        };
        let transmission = match &self.transmission {
            Some(t) => choose(
                &at("transmission"),
                t,
                &[("first", Transmission::First), ("all", Transmission::All)],
            )?,
            None => Transmission::First,
        };
        let flow = self.flow.unwrap_or(0);
        Ok(DropRule {
            flow: u16::try_from(flow)
                .map_err(|_| err(at("flow"), format!("{flow} is not a flow number")))?,
            connection: self.connection.unwrap_or(1),
            direction,
            target,
            transmission,
        })
    }
}

impl OutageSection {
    /// The outage this entry states; `key` is its place (`path.outage[0]`).
    fn to_outage(&self, key: &str) -> Result<Outage, FileError> {
        let at = |field: &str| format!("{key}.{field}");
        let time = |field: &str, text: &str| parse_duration(text).map_err(|e| err(at(field), e.0));
        let (from, until) = (time("from", &self.from)?, time("until", &self.until)?);
        if until <= from {
            return Err(err(
                at("until"),
                format!(
                    "\"{}\" is not after `from` (\"{}\"): an outage ends after it starts",
                    self.until, self.from
                ),
            ));
        }
        let direction = match &self.direction {
            Some(d) => choose(
                &at("direction"),
                d,
                &[
                    ("data", LossDirection::Data),
                    ("acks", LossDirection::Acks),
                    ("both", LossDirection::Both),
                ],
            )?,
            None => LossDirection::Both,
        };
        Ok(Outage {
            direction,
            from,
            until,
        })
    }
}

/// A byte range of relative sequence numbers: "first-last" (both included)
/// or "start:end" (end excluded, as the trace and tcpdump print a segment).
fn bytes(key: &str, text: &str) -> Result<DropTarget, FileError> {
    let bad = || {
        err(
            key,
            format!("`{text}` is not a byte range: write \"first-last\" or \"start:end\""),
        )
    };
    let number = |t: &str| t.trim().parse::<u64>().map_err(|_| bad());
    let (first, last) = if let Some((a, b)) = text.split_once('-') {
        (number(a)?, number(b)?)
    } else if let Some((a, b)) = text.split_once(':') {
        let (start, end) = (number(a)?, number(b)?);
        if end <= start {
            return Err(err(
                key,
                format!("`{text}`: the end must be above the start"),
            ));
        }
        (start, end - 1)
    } else {
        return Err(bad());
    };
    Ok(DropTarget::Bytes { first, last })
}

/// One of a few named values, or an error listing them.
fn choose<T: Copy>(key: &str, text: &str, options: &[(&str, T)]) -> Result<T, FileError> {
    options
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            err(key, format!("`{text}` is not one of {}", names.join(", ")))
        })
}
