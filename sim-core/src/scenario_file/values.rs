//! Readers of sysctl and socket-option values as `sysctl -w` and scenario
//! files write them: whole numbers, sizes with units, 0/1 switches and
//! `"min default max"` triples.

use super::{FileError, Value, err};
use crate::units::parse_bytes;

/// A whole number, written as one or as text (`"3"`).
pub(super) fn int(key: &str, v: &Value) -> Result<i64, FileError> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Text(t) => t
            .trim()
            .parse()
            .map_err(|_| err(key, format!("`{t}` is not a whole number"))),
    }
}

/// `"min default max"`, as tcp_rmem and tcp_wmem take them, in order.
pub(super) fn three_sizes(key: &str, v: &Value) -> Result<[u64; 3], FileError> {
    let Value::Text(t) = v else {
        return Err(err(key, "expected three sizes, \"min default max\""));
    };
    let parts: Vec<u64> = t
        .split_whitespace()
        .map(|p| parse_bytes(p).map_err(|e| err(key, e.0)))
        .collect::<Result<_, _>>()?;
    let [min, default, max] = parts[..] else {
        return Err(err(key, "expected three sizes, \"min default max\""));
    };
    if !(min <= default && default <= max) {
        return Err(err(key, "sizes must be in order: min <= default <= max"));
    }
    Ok([min, default, max])
}

/// A 0/1 switch, as sysctls and socket options take it.
pub(super) fn flag(key: &str, v: &Value) -> Result<bool, FileError> {
    match int(key, v)? {
        0 => Ok(false),
        1 => Ok(true),
        x => Err(err(key, format!("{x} is outside the allowed range 0 to 1"))),
    }
}

/// A size: a number of bytes, or text with a unit (`"64KiB"`).
pub(super) fn bytes(key: &str, v: &Value) -> Result<u64, FileError> {
    match v {
        Value::Int(i) if *i >= 0 => Ok(*i as u64),
        Value::Int(i) => Err(err(key, format!("{i} is negative"))),
        Value::Text(t) => parse_bytes(t).map_err(|e| err(key, e.0)),
    }
}
