//! `[app]`: what the applications write, and how.

use super::{AppSection, FileError, Writes, err};
use crate::config::{ChunkedWrites, HostConfig, Pacing, RequestResponse};
use crate::time::SimDuration;
use crate::units::{parse_bytes, parse_duration};

impl AppSection {
    /// The applications' exchange. The read rates are the receiving
    /// applications' (`client_read_rate`, `server_read_rate`), so they land on
    /// the hosts' receive side.
    pub(super) fn to_config(
        &self,
        client: &mut HostConfig,
        server: &mut HostConfig,
    ) -> Result<RequestResponse, FileError> {
        let AppSection::RequestResponse {
            request,
            response,
            repeat,
            gap,
            think,
            new_connection,
            client_read_rate,
            server_read_rate,
            client_read_wakeup,
            server_read_wakeup,
            client_read_stop,
            client_read_resume,
            server_read_stop,
            server_read_resume,
            client_write_buffer,
            client_write_cost,
            server_write_buffer,
            server_write_cost,
            tcp_metrics_flush_before,
        } = self;
        let rates = [
            (client_read_rate, "app.client_read_rate", &mut *client),
            (server_read_rate, "app.server_read_rate", &mut *server),
        ];
        for (rate, key, host) in rates {
            if let Some(r) = rate {
                host.receiver.read_rate = Some(parse_bytes(r).map_err(|e| err(key, e.0))?);
            }
        }
        let wakeups = [
            (client_read_wakeup, "app.client_read_wakeup", &mut *client),
            (server_read_wakeup, "app.server_read_wakeup", &mut *server),
        ];
        for (wakeup, key, host) in wakeups {
            if let Some(w) = wakeup {
                host.receiver.read_wakeup = read_wakeup(key, w)?;
            }
        }
        let pauses = [
            (
                client_read_stop,
                client_read_resume,
                "app.client_read",
                &mut *client,
            ),
            (
                server_read_stop,
                server_read_resume,
                "app.server_read",
                &mut *server,
            ),
        ];
        for (stop, resume, key, host) in pauses {
            host.receiver.read_pause = read_pause(stop.as_deref(), resume.as_deref(), key)?;
        }
        Ok(RequestResponse {
            request: match request {
                Some(r) => r.parse("app.request")?,
                None => Vec::new(),
            },
            response: response.parse("app.response")?,
            repeat: repeat.unwrap_or(1),
            new_connection: new_connection.unwrap_or(false),
            client_writes: chunked_writes(
                "client",
                client_write_buffer.as_deref(),
                client_write_cost.as_deref(),
            )?,
            server_writes: chunked_writes(
                "server",
                server_write_buffer.as_deref(),
                server_write_cost.as_deref(),
            )?,
            pacing: pacing(gap.as_deref(), think.as_deref())?,
            tcp_metrics_flush_before: *tcp_metrics_flush_before,
        })
    }
}

/// `app.gap` (start to start) or `app.think` (end to start), not both.
fn pacing(gap: Option<&str>, think: Option<&str>) -> Result<Pacing, FileError> {
    Ok(match (gap, think) {
        (Some(_), Some(_)) => {
            return Err(err("app.think", "give `gap` or `think`, not both"));
        }
        (Some(g), None) => Pacing::Every(parse_duration(g).map_err(|e| err("app.gap", e.0))?),
        (None, Some(t)) => Pacing::After(parse_duration(t).map_err(|e| err("app.think", e.0))?),
        (None, None) => Pacing::Every(SimDuration::ZERO),
    })
}

impl Writes {
    fn parse(&self, key: &str) -> Result<Vec<u64>, FileError> {
        let texts: Vec<&String> = match self {
            Writes::One(t) => vec![t],
            Writes::Many(v) => v.iter().collect(),
        };
        texts
            .into_iter()
            .map(|t| parse_bytes(t).map_err(|e| err(key, e.0)))
            .collect()
    }
}

/// `app.<host>_write_buffer` and `app.<host>_write_cost`: a cost needs a buffer.
fn chunked_writes(
    host: &str,
    buffer: Option<&str>,
    cost: Option<&str>,
) -> Result<Option<ChunkedWrites>, FileError> {
    let buffer_key = format!("app.{host}_write_buffer");
    let cost_key = format!("app.{host}_write_cost");
    match (buffer, cost) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(err(&cost_key, format!("needs `{host}_write_buffer` too"))),
        (Some(b), c) => Ok(Some(ChunkedWrites {
            size: parse_bytes(b).map_err(|e| err(&buffer_key, e.0))?,
            cost: match c {
                Some(c) => parse_duration(c).map_err(|e| err(&cost_key, e.0))?,
                None => SimDuration::ZERO,
            },
        })),
    }
}

/// `*_read_stop` and `*_read_resume`: times from the start of the run; a
/// resumption needs a stop, and comes after it.
fn read_pause(
    stop: Option<&str>,
    resume: Option<&str>,
    key: &str,
) -> Result<Option<crate::tcp::reader::ReadPause>, FileError> {
    use crate::time::SimTime;
    let at = |text: &str, suffix: &str| {
        parse_duration(text)
            .map(|d| SimTime(d.0))
            .map_err(|e| err(format!("{key}_{suffix}"), e.0))
    };
    let Some(stop) = stop else {
        return match resume {
            Some(_) => Err(err(format!("{key}_resume"), "needs a read_stop before it")),
            None => Ok(None),
        };
    };
    let from = at(stop, "stop")?;
    let until = resume.map(|r| at(r, "resume")).transpose()?;
    if until.is_some_and(|u| u <= from) {
        return Err(err(format!("{key}_resume"), "must come after read_stop"));
    }
    Ok(Some(crate::tcp::reader::ReadPause { from, until }))
}

/// A wake-up latency: from 1 µs to 100 ms (a scheduler's, not a pause's).
fn read_wakeup(key: &str, text: &str) -> Result<SimDuration, FileError> {
    let d = parse_duration(text).map_err(|e| err(key, e.0))?;
    if d < SimDuration::from_micros(1) || d > SimDuration::from_millis(100) {
        return Err(err(
            key,
            format!("{text} is outside the allowed range 1us to 100ms"),
        ));
    }
    Ok(d)
}
