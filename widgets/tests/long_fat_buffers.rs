//! The long-fat widget's buffer ceilings (`tcp_wmem[2]`, `tcp_rmem[2]`):
//! what they let a flow keep outstanding, and the gallery's claim that a low
//! send-buffer ceiling holds CUBIC and BBR to the same rate.

use tcp_widgets::kit::model::Model;

mod settings;

/// The widget's model for `key=value` settings, as a directive or URL gives them.
fn model(settings: &[(&str, &str)]) -> Model {
    Model::from_run(&settings::run("long-fat", settings))
}

/// Most segments outstanding (snd_nxt − snd_una) from `from_ns` on, where
/// the packet records still tell (NaN after they end is skipped by `max`).
fn peak_outstanding(m: &Model, from_ns: f64) -> f64 {
    let w = &m.window;
    w.points
        .iter()
        .filter(|p| p.t_ns >= from_ns)
        .map(|p| w.outstanding_segments(p))
        .fold(0.0, f64::max)
}

/// The browser benchmark's case (b): BBR at 1 Gbit/s × 210 ms with 64 MiB
/// ceilings has more than the path's BDP (18,130 segments of 1448 B)
/// outstanding at the end of Startup, and less than Startup's cwnd gain
/// (2/ln 2 = 2.89) times it, inside the part the bench plays
/// (2.7 s to 3.2 s), which the widget's packet records still cover;
/// seed 003's 25 MiB send-buffer ceiling stops it below the BDP (about
/// 8,000 segments when each is charged its own 2 KB skb, as on 2.6.32;
/// about 15,000 with today's GSO skbs).
#[test]
fn raised_ceilings_let_bbr_fill_a_gigabit_long_fat_path() {
    let path = [
        ("cc", "bbr"),
        ("bandwidth", "1Gbit"),
        ("duration", "5s"),
        ("loss", "0.000001"),
        ("queue", "26250000"),
    ];
    let mut raised = path.to_vec();
    raised.extend([("wmem", "64MiB"), ("rmem", "64MiB")]);
    let m = model(&raised);
    let until = m.window.outstanding_until_ns.unwrap_or(f64::INFINITY);
    assert!(until > 3.2e9, "packet records end at {until} ns");
    let peak = peak_outstanding(&m, 2.7e9);
    assert!(
        (17_000.0..2.89 * 18_130.0).contains(&peak),
        "64 MiB ceilings: {peak:.0} segments outstanding from 2.7 s"
    );
    let seed = peak_outstanding(&model(&path), 2.7e9);
    // Less than the BDP.
    assert!(
        seed < 18_130.0,
        "seed 003's ceilings: {seed:.0} segments outstanding from 2.7 s"
    );
}

/// The gallery says: with a 2 MiB send-buffer ceiling on seed 003's path,
/// CUBIC and BBR end up at the same rate.
#[test]
fn a_low_send_buffer_ceiling_sets_the_rate_for_both_algorithms() {
    let rate = |extra: &[(&str, &str)]| {
        let mut values = vec![("preset", "seed-003-cubic")];
        values.extend_from_slice(extra);
        let m = model(&values);
        m.throughput.total_bytes() as f64 * 8.0 / (m.end_ns / 1e9)
    };
    let low = |cc| rate(&[("cc", cc), ("wmem", "2MiB")]);
    let (cubic, bbr) = (low("cubic"), low("bbr"));
    assert!(
        (cubic / bbr - 1.0).abs() < 0.1,
        "cubic {cubic:.0} bit/s, bbr {bbr:.0} bit/s"
    );
    // And well under what BBR reaches with the seed's own ceilings: less
    // than half of it.
    let seed_bbr = rate(&[("cc", "bbr")]);
    assert!(
        cubic.max(bbr) < seed_bbr / 2.0,
        "cubic {cubic:.0}, bbr {bbr:.0}, bbr with the seed's ceilings {seed_bbr:.0}"
    );
}
