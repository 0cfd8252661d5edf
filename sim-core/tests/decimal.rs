//! `decimal::parse_f64` reads every text as `str::parse::<f64>` does: the
//! same grammar (what fails fails in both) and the same bits (correctly
//! rounded, ties to even), on hand-picked edges, on every way Rust writes
//! an `f64`, on the exact midpoints between neighbouring `f64`s and just
//! either side of them, and on random texts.

use proptest::prelude::*;
use sim_core::decimal::parse_f64;

fn same(text: &str) {
    let std = text.parse::<f64>().ok().map(f64::to_bits);
    let ours = parse_f64(text).map(f64::to_bits);
    assert_eq!(ours, std, "{text:?}: ours {ours:x?}, std {std:x?}");
}

#[test]
fn the_edges_of_the_grammar_read_alike() {
    for text in [
        "",
        "+",
        "-",
        ".",
        "+.",
        "e5",
        ".e5",
        "1e",
        "1e+",
        "1e-",
        "1.",
        ".5",
        "+.5",
        "-.5e-3",
        "-0",
        "0",
        "00",
        "-0.0e0",
        "1_0",
        " 1",
        "1 ",
        "1..2",
        "1.2.3",
        "1e5.0",
        "1e5e5",
        "0x10",
        "١",
        "1e+-5",
        "++1",
        "-+1",
        "inf",
        "-INF",
        "+inf",
        "Infinity",
        "-iNfInItY",
        "infinit",
        "infinityy",
        "nan",
        "NaN",
        "-nan",
        "+NAN",
        "nan1",
        "in",
        "∞",
    ] {
        same(text);
    }
}

#[test]
fn extreme_magnitudes_round_alike() {
    for text in [
        "1e308",
        "1e309",
        "1e400",
        "1e-400",
        "1e-324",
        "1e-325",
        "4.9e-324",
        "5e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072014e-308",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
        "9007199254740992",
        "9007199254740993",
        "9007199254740995",
        "9007199254740993.0000000000000000000000000000001",
        "1e23",
        "1e22",
        "123456789012345678e-22",
        "0.1",
        "0.3",
        "1e0000000000000000000001",
        "1e65535",
        "1e65536",
        "1e99999999999999999999",
        "0e99999999999",
        "0.0000000000000000000000000000000000000000000000000000000000000e-99999999",
        "12345678901234567890123456789012345678901234567890e-300",
    ] {
        same(text);
    }
    // The standard parser stops adding exponent digits at 65536 or so,
    // which a long run of leading zeros can make visible.
    same(&format!("0.{}1e70000", "0".repeat(70000)));
    same(&format!("0.{}1e700000", "0".repeat(100000)));
    same(&format!("1{}e-70000", "0".repeat(70000)));
    // More digits than any midpoint has, with the last ones deciding.
    same(&format!("9007199254740993{}1", "0".repeat(900)));
    same(&format!("9007199254740993{}", "0".repeat(900)));
    same(&format!("0.{}", "9".repeat(2000)));
}

/// The exact decimal value of (2m + 1) · 2^(q - 1), the midpoint between
/// the `f64` m · 2^q and the next, in scientific notation.
fn midpoint(bits: u64) -> String {
    let (e, f) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    let (m, q) = if e == 0 {
        (f, -1074)
    } else {
        (f | 1 << 52, e - 1075)
    };
    // Decimal digits, most significant first.
    let mut digits: Vec<u32> = (2 * m + 1)
        .to_string()
        .bytes()
        .map(|b| u32::from(b - b'0'))
        .collect();
    let times = |digits: &mut Vec<u32>, k: u32| {
        let mut carry = 0;
        for d in digits.iter_mut().rev() {
            let v = *d * k + carry;
            *d = v % 10;
            carry = v / 10;
        }
        while carry > 0 {
            digits.insert(0, carry % 10);
            carry /= 10;
        }
    };
    // 2^(q-1) = 10^(q-1) / 5^(1-q) when q - 1 < 0.
    let mut exp10 = 0;
    if q > 0 {
        for _ in 0..q - 1 {
            times(&mut digits, 2);
        }
    } else {
        for _ in 0..1 - q {
            times(&mut digits, 5);
        }
        exp10 = q - 1;
    }
    let text: String = digits.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    format!("{text}e{exp10}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_way_rust_writes_an_f64_reads_back_alike(bits: u64, precision in 0usize..40) {
        let x = f64::from_bits(bits);
        for text in [
            format!("{x}"),
            format!("{x:?}"),
            format!("{x:e}"),
            format!("{x:E}"),
            format!("{x:.precision$}"),
            format!("{x:.precision$e}"),
        ] {
            same(&text);
        }
    }

    #[test]
    fn midpoints_and_their_neighbours_round_alike(bits in 0u64..0x7fef_ffff_ffff_ffff) {
        let mid = midpoint(bits);
        let (digits, exp) = mid.split_once('e').unwrap();
        same(&mid);
        // Just above: one more digit.
        same(&format!("{digits}000000000000000000001e{exp}"));
        // Just below: the last digit (never 0) gone, the point kept.
        let shorter = &digits[..digits.len() - 1];
        let exp: i64 = exp.parse().unwrap();
        same(&format!("{shorter}e{}", exp + 1));
    }

    #[test]
    fn numbers_in_every_spelling_read_alike(
        text in "[+-]?[0-9]{0,25}(\\.[0-9]{0,25})?([eE][+-]?[0-9]{0,4})?",
    ) {
        same(&text);
    }

    #[test]
    fn long_numbers_read_alike(
        text in "[1-9][0-9]{20,900}(\\.[0-9]{0,200})?[eE]-?[0-9]{1,3}",
    ) {
        same(&text);
    }

    #[test]
    fn near_misses_fail_alike(text in "[0-9eE.+-]{0,12}|[iInNfFaAtTyY]{0,9}") {
        same(&text);
    }
}
