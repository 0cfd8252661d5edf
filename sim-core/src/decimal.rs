//! Decimal text to `f64`, exactly as `str::parse::<f64>` reads it, without
//! the standard library's table.
//!
//! The standard parser (Eisel-Lemire) carries a 10 KB table of powers of
//! five that gzip cannot shrink; in the widget bundle it and its code were
//! 14 KB of the gzipped wasm, for reading a few slider values, URL
//! parameters and CSS colours. This parser gives the same `f64` for every
//! string (the same grammar, the same correctly rounded value, ties to even;
//! `tests/decimal.rs` checks it against the standard one), trading speed
//! for size on the rare long or extreme inputs:
//!
//! ```text
//!   text ──► sign, digits, point, exponent ──┬─ ≤ 19 digits, |exp| ≤ 22 ──► one f64 multiply or divide (exact inputs, one rounding)
//!                                            └─ otherwise ──► binary search over the f64 bit patterns,
//!                                                             each step comparing the text's exact value with
//!                                                             the midpoint between two neighbouring f64s
//! ```

use std::cmp::Ordering;

/// Significant digits kept; later ones only say whether the value is above
/// the kept ones. Any midpoint between two `f64`s has at most 768
/// significant digits, so none can fall between the kept digits and the
/// whole text: the rounding comes out the same.
const MAX_DIGITS: usize = 800;

/// Reads `text` as `text.parse::<f64>()` does: an optional sign, then digits
/// with an optional point (at least one digit) and an optional exponent
/// (`e` or `E`, optional sign, digits), or `inf`, `infinity`, `nan` in any
/// case. No spaces, no `_`. `None` where the standard parser fails.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = match Decimal::read(rest.as_bytes()) {
        Some(d) => d.to_f64(),
        None if rest.eq_ignore_ascii_case("inf") || rest.eq_ignore_ascii_case("infinity") => {
            f64::INFINITY
        }
        None if rest.eq_ignore_ascii_case("nan") => f64::NAN,
        None => return None,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// A decimal number: 0.`digits` × 10^`point`, plus something below the last
/// digit when `truncated`.
struct Decimal {
    /// Significant digits (0..=9), no leading zeros, at most [`MAX_DIGITS`].
    digits: Vec<u8>,
    point: i64,
    /// Non-zero digits were dropped after the last one kept.
    truncated: bool,
}

impl Decimal {
    fn read(s: &[u8]) -> Option<Decimal> {
        let mut d = Decimal {
            digits: Vec::new(),
            point: 0,
            truncated: false,
        };
        let mut i = 0;
        let mut seen = 0;
        let mut fraction = false;
        while let Some(&c) = s.get(i) {
            if c == b'.' && !fraction {
                fraction = true;
            } else if c.is_ascii_digit() {
                d.push(c - b'0', fraction);
                seen += 1;
            } else {
                break;
            }
            i += 1;
        }
        if seen == 0 {
            return None;
        }
        if matches!(s.get(i), Some(b'e' | b'E')) {
            i += 1;
            let negative = s.get(i) == Some(&b'-');
            if matches!(s.get(i), Some(b'-' | b'+')) {
                i += 1;
            }
            let start = i;
            let mut exp = 0i64;
            while let Some(c) = s.get(i).filter(|c| c.is_ascii_digit()) {
                // The standard parser stops adding digits from here: a
                // longer exponent is as good as infinite, and it agrees.
                if exp < 0x10000 {
                    exp = 10 * exp + i64::from(c - b'0');
                }
                i += 1;
            }
            if i == start {
                return None;
            }
            d.point += if negative { -exp } else { exp };
        }
        (i == s.len()).then_some(d)
    }

    fn push(&mut self, digit: u8, fraction: bool) {
        if self.digits.is_empty() && digit == 0 {
            // A leading zero: after the point it moves the value down.
            self.point -= i64::from(fraction);
        } else {
            self.point += i64::from(!fraction);
            if self.digits.len() < MAX_DIGITS {
                self.digits.push(digit);
            } else if digit != 0 {
                self.truncated = true;
            }
        }
    }

    fn to_f64(&self) -> f64 {
        if self.digits.is_empty() || self.point < -324 {
            // Below 1e-325: under half the smallest subnormal.
            return 0.0;
        }
        if self.point > 310 {
            return f64::INFINITY;
        }
        let exp = self.point - self.digits.len() as i64;
        if !self.truncated && self.digits.len() <= 19 && (-22..=22).contains(&exp) {
            let w = self.digits.iter().fold(0u64, |w, &d| w * 10 + u64::from(d));
            if w < 1 << 53 {
                // Both exact in an f64, so the one operation rounds once,
                // correctly (Clinger's fast path).
                let p = (0..exp.abs()).fold(1.0, |p, _| p * 10.0);
                return if exp < 0 { w as f64 / p } else { w as f64 * p };
            }
        }
        self.search(exp)
    }

    /// The `f64` nearest to the value (ties to the even bit pattern), by
    /// binary search over the bit patterns of 0.0 ..= infinity, which are in
    /// the same order as their values.
    fn search(&self, exp: i64) -> f64 {
        let mut n = Big::default();
        for &d in &self.digits {
            n.mul_add(10, u32::from(d));
        }
        let mut exp = exp;
        if self.truncated {
            // Stands for the dropped digits: above the kept ones, below
            // the next step of the last kept digit.
            n.mul_add(10, 1);
            exp -= 1;
        }
        // The value is n · 5^exp · 2^exp.
        let scaled = n.mul_pow5(exp.max(0));
        let pow5 = Big::from(1).mul_pow5((-exp).max(0));
        let (mut lo, mut hi) = (0u64, f64::INFINITY.to_bits());
        while lo < hi {
            let b = lo + (hi - lo) / 2;
            // Rounds to `b` or below: the value is under the midpoint above
            // `b`, or on it with `b` even.
            let (m, q) = significand_exponent(b);
            let mid = pow5.mul_u64(2 * m + 1);
            let low = exp.min(q - 1);
            let order = scaled
                .shl((exp - low) as usize)
                .cmp(&mid.shl((q - 1 - low) as usize));
            if order == Ordering::Less || (order == Ordering::Equal && b % 2 == 0) {
                hi = b;
            } else {
                lo = b + 1;
            }
        }
        f64::from_bits(lo)
    }
}

/// A finite non-negative `f64`'s bit pattern as m · 2^q; the next `f64` up
/// is (m + 1) · 2^q, so the midpoint between them is (2m + 1) · 2^(q - 1).
fn significand_exponent(bits: u64) -> (u64, i64) {
    let (e, f) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    if e == 0 {
        (f, -1074)
    } else {
        (f | 1 << 52, e - 1075)
    }
}

/// An unsigned integer of any size, in 32-bit limbs, least significant
/// first.
#[derive(Clone, Default)]
struct Big(Vec<u32>);

impl From<u32> for Big {
    fn from(v: u32) -> Big {
        Big(vec![v])
    }
}

impl Big {
    /// self = self · m + a.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// self · 5^k.
    fn mul_pow5(mut self, mut k: i64) -> Big {
        while k > 0 {
            // 5^13 is the largest power of five in 32 bits.
            let step = k.min(13);
            self.mul_add(5u32.pow(step as u32), 0);
            k -= step;
        }
        self
    }

    /// self · v.
    fn mul_u64(&self, v: u64) -> Big {
        let mut high = self.clone();
        high.mul_add((v >> 32) as u32, 0);
        let mut low = self.clone();
        low.mul_add(v as u32, 0);
        let mut sum = high.shl(32);
        let mut carry = 0u64;
        for (i, limb) in sum.0.iter_mut().enumerate() {
            let v = u64::from(*limb) + u64::from(low.0.get(i).copied().unwrap_or(0)) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            sum.0.push(carry as u32);
        }
        sum
    }

    /// self · 2^bits.
    fn shl(&self, bits: usize) -> Big {
        let (limbs, bits) = (bits / 32, bits % 32);
        let mut out = vec![0; limbs];
        let mut carry = 0u32;
        for &limb in &self.0 {
            out.push(if bits == 0 {
                limb
            } else {
                (limb << bits) | carry
            });
            carry = if bits == 0 { 0 } else { limb >> (32 - bits) };
        }
        out.push(carry);
        Big(out)
    }

    fn cmp(&self, other: &Big) -> Ordering {
        let len = |b: &Big| b.0.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
        let (a, b) = (&self.0[..len(self)], &other.0[..len(other)]);
        a.len()
            .cmp(&b.len())
            .then_with(|| a.iter().rev().cmp(b.iter().rev()))
    }
}
