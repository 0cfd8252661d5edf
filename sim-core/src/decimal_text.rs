//! `f64` to decimal text, as `format!("{:.N}")`, `format!("{}")` and
//! `format!("{:e}")` write it, without the standard library's float
//! formatter.
//!
//! The standard formatter (Grisu with a Dragon4 fallback, for both the
//! shortest and the fixed-precision forms) and its tables were about 17 KB
//! of the widget bundle's wasm, for the few dozen numbers a widget prints.
//! This module gives the same text from the number's exact decimal
//! expansion (a finite `f64` is m × 2^e, whose decimal digits are finite),
//! found with a digit vector and small multiplications: slower, and much
//! smaller. The shortest form tries 1, 2, … significant digits until the
//! text reads back (through [`crate::decimal::parse_f64`]) as the same
//! number: "the shortest text that round-trips, the nearest among those".
//! `tests/decimal_text.rs` checks all three against the standard formatter.
//!
//! Every float the widgets print goes through here (their canvas and SVG
//! backends too, `widgets/src/draw/`), so the standard formatter never
//! reaches the wasm.

/// `format!("{:.decimals$}", x)`: rounded to `decimals` places, ties to even
/// on the exact value.
pub fn fixed(x: f64, decimals: usize) -> String {
    if let Some(special) = special(x) {
        return special.to_string();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let exact = Exact::of(x.abs());
    let keep = exact.int_len() + decimals as i64;
    let digits = exact.round_to(keep);
    // A carry may have added a digit in front (9.96 → 10.0).
    let int_len = digits.len() as i64 - decimals as i64;
    push_positional(&mut out, &digits, int_len);
    out
}

/// `format!("{}", x)`: the fewest significant digits that read back as `x`,
/// written without an exponent.
pub fn shortest(x: f64) -> String {
    if let Some(special) = special(x) {
        return special.to_string();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let (digits, point) = shortest_digits(x.abs());
    push_positional(&mut out, &digits, point);
    out
}

/// `format!("{:e}", x)`: the shortest digits as `d.ddde±x` (`3e-5`, `1.5e2`).
pub fn shortest_exp(x: f64) -> String {
    if let Some(special) = special(x) {
        return special.to_string();
    }
    let mut out = String::new();
    if x.is_sign_negative() {
        out.push('-');
    }
    let (digits, point) = shortest_digits(x.abs());
    let Some((first, rest)) = digits.split_first() else {
        out.push_str("0e0");
        return out;
    };
    out.push(char::from(b'0' + first));
    if !rest.is_empty() {
        out.push('.');
        out.extend(rest.iter().map(|&d| char::from(b'0' + d)));
    }
    out.push('e');
    out.push_str(&(point - 1).to_string());
    out
}

fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x == f64::INFINITY {
        Some("inf")
    } else if x == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// The significant digits of the shortest text reading back as `x`
/// (positive, finite; none for 0, no trailing zeros) and where the point
/// goes: the value is 0.`digits` × 10^`point`.
fn shortest_digits(x: f64) -> (Vec<u8>, i64) {
    let exact = Exact::of(x);
    let lead = exact.digits.iter().take_while(|&&d| d == 0).count() as i64;
    if lead == exact.digits.len() as i64 {
        return (Vec::new(), 1);
    }
    for n in 1..=17 {
        let keep = lead + n;
        let digits = exact.round_to(keep);
        let int_len = exact.int_len() + digits.len() as i64 - keep;
        let mut text = String::new();
        push_positional(&mut text, &digits, int_len);
        if n == 17 || crate::decimal::parse_f64(&text) == Some(x) {
            let first = digits.iter().take_while(|&&d| d == 0).count();
            let mut significant = digits[first..].to_vec();
            while significant.len() > 1 && significant.last() == Some(&0) {
                significant.pop();
            }
            return (significant, int_len - first as i64);
        }
    }
    unreachable!("the loop returns at 17 digits")
}

/// Writes digits `d` with the point after the first `int_len` of them
/// (zeros before them when `int_len` ≤ 0, after them when it passes their
/// end): `123`, 1 → `1.23`; `1`, 3 → `100`; `5`, −1 → `0.05`.
fn push_positional(out: &mut String, d: &[u8], int_len: i64) {
    let digit = |i: i64| char::from(b'0' + d.get(i as usize).copied().unwrap_or(0));
    if int_len <= 0 {
        out.push('0');
    } else {
        (0..int_len).for_each(|i| out.push(digit(i)));
    }
    if (d.len() as i64) > int_len.max(0) {
        out.push('.');
        (0..(-int_len).max(0)).for_each(|_| out.push('0'));
        (int_len.max(0)..d.len() as i64).for_each(|i| out.push(digit(i)));
    }
}

/// A non-negative finite `f64`'s exact decimal value: `digits` (most
/// significant first, at least one before the point) with the last
/// `frac_len` of them after the point.
struct Exact {
    digits: Vec<u8>,
    frac_len: i64,
}

impl Exact {
    fn of(x: f64) -> Exact {
        let bits = x.to_bits();
        let exp_bits = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1 << 52) - 1);
        // x = m × 2^e.
        let (m, e) = if exp_bits == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), exp_bits - 1075)
        };
        // Least significant digit first while multiplying.
        let mut digits: Vec<u8> = Vec::new();
        let mut rest = m;
        loop {
            digits.push((rest % 10) as u8);
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        // m × 2^e, or m × 5^k / 10^k when e = −k.
        let (factor, times) = if e >= 0 { (2, e) } else { (5, -e) };
        for _ in 0..times {
            let mut carry = 0u8;
            for d in digits.iter_mut() {
                let v = *d * factor + carry;
                *d = v % 10;
                carry = v / 10;
            }
            if carry > 0 {
                digits.push(carry);
            }
        }
        let frac_len = (-e).max(0);
        while (digits.len() as i64) <= frac_len {
            digits.push(0);
        }
        digits.reverse();
        Exact { digits, frac_len }
    }

    fn int_len(&self) -> i64 {
        self.digits.len() as i64 - self.frac_len
    }

    /// The first `keep` digits (zeros past the end), rounded on what
    /// follows, ties to even. A carry out of the first digit adds a digit
    /// in front.
    fn round_to(&self, keep: i64) -> Vec<u8> {
        let keep = keep.max(0) as usize;
        let mut out: Vec<u8> = (0..keep)
            .map(|i| self.digits.get(i).copied().unwrap_or(0))
            .collect();
        let rest = self.digits.get(keep..).unwrap_or(&[]);
        let up = match rest.first() {
            Some(&d) if d > 5 => true,
            Some(&5) => rest[1..].iter().any(|&d| d != 0) || out.last().is_some_and(|d| d % 2 == 1),
            _ => false,
        };
        if up {
            let mut i = out.len();
            loop {
                if i == 0 {
                    out.insert(0, 1);
                    break;
                }
                i -= 1;
                if out[i] == 9 {
                    out[i] = 0;
                } else {
                    out[i] += 1;
                    break;
                }
            }
        }
        out
    }
}
