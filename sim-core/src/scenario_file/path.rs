//! `[path]`: the bottleneck, and the MSS its MTU leaves.

use super::{FileError, PathSection, err};
use crate::config::PathConfig;
use crate::segment::HEADER_BYTES;
use crate::time::SimDuration;
use crate::units::{parse_bytes, parse_duration, parse_rate};

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
        if let Some(t) = &self.loss_until {
            path.loss_until = Some(parse_duration(t).map_err(|e| err("path.loss_until", e.0))?);
        }
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
                path.queue_bytes = (bdp * m).round() as u64;
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
            Some(mtu) if (576..=65_535).contains(&mtu) => Ok(mtu - HEADER_BYTES),
            Some(mtu) => Err(err(
                "path.mtu",
                format!("{mtu} is outside the allowed range 576 to 65535"),
            )),
        }
    }
}
