//! `decimal_text` writes what the standard formatter writes.

use sim_core::decimal_text::{fixed, shortest, shortest_exp};
use sim_core::rng::Rng;

fn check(x: f64) {
    for d in 0..=6 {
        assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:e} to {d} places");
    }
    assert_eq!(shortest(x), format!("{x}"), "{x:e}");
    assert_eq!(shortest_exp(x), format!("{x:e}"), "{x:e}");
}

#[test]
fn the_values_widgets_print() {
    for x in [
        0.0,
        -0.0,
        1.0,
        0.1,
        0.5,
        1.5,
        2.5,
        0.125,
        0.375,
        0.05,
        0.15,
        0.25,
        0.35,
        9.96,
        99.95,
        -1.25,
        3e-5,
        1e-6,
        110e6,
        1e9,
        210e6,
        7.0,
        1234.5678,
        26_214_400.0,
        5_775_000.0,
        0.999_999_9,
        1e21,
        1e22,
        1.7976931348623157e308,
        5e-324,
        2.2250738585072014e-308,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        check(x);
    }
}

#[test]
fn random_values_over_every_scale() {
    let mut rng = Rng::new(7);
    // Random bit patterns: every exponent (slow: up to 1,074 digit passes).
    for _ in 0..300 {
        let x = f64::from_bits(rng.next_u64());
        if x.is_finite() {
            check(x);
        }
    }
    // Everyday magnitudes, many ties among them.
    for _ in 0..20_000 {
        let everyday = (rng.next_u64() % 10_000_000) as f64 / 1000.0;
        check(everyday);
        check(-everyday / 7.0);
    }
}
