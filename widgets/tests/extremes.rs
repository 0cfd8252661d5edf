//! Every slider at its extremes: the simulation must return (finished, or
//! stopped at its time limit with a message), never panic or hang.

use tcp_widgets::kit::model::Model;
use widget_catalogue::{Values, widget};

fn range(name: &str) -> (f64, f64) {
    let p = widget("slow-start").unwrap().param(name).unwrap();
    (p.min, p.max)
}

#[test]
fn every_corner_of_the_parameter_space_simulates() {
    let spec = widget("slow-start").unwrap();
    // Every parameter (each kernel era is a corner too: 2.6.32 is its
    // minimum, today its maximum; the client's `same` its minimum).
    let names = spec.param_names();
    // Each parameter at its minimum or maximum, the others at their defaults,
    // plus the harshest combinations of the ones that drive run time.
    let mut cases = Vec::new();
    for (i, n) in names.iter().enumerate() {
        for pick in [0, 1] {
            let mut v: Vec<f64> = names
                .iter()
                .map(|n| spec.param(n).unwrap().default)
                .collect();
            let (lo, hi) = range(n);
            v[i] = if pick == 0 { lo } else { hi };
            cases.push(v);
        }
    }
    let (rtt, bw, mss, size) = (
        range("rtt"),
        range("bandwidth"),
        range("mss"),
        range("size"),
    );
    // The harsh combinations, by name over the defaults (the transfers,
    // gap, connection and buffer settings stay at theirs).
    let defaults: Vec<f64> = names
        .iter()
        .map(|n| spec.param(n).unwrap().default)
        .collect();
    let with = |set: &[(&str, f64)]| {
        let mut v = defaults.clone();
        for (n, x) in set {
            v[names.iter().position(|p| p == n).unwrap()] = *x;
        }
        v
    };
    for r in [rtt.0, rtt.1] {
        for b in [bw.0, bw.1] {
            for m in [mss.0, mss.1] {
                let path = [("rtt", r), ("bandwidth", b), ("mss", m), ("size", size.1)];
                let mut one = path.to_vec();
                one.extend([("initcwnd", 100.0), ("rwnd", 1024.0), ("rcvbuf", 4096.0)]);
                cases.push(with(&one));
                let mut two = path.to_vec();
                two.extend([
                    ("initcwnd", 1.0),
                    ("rwnd", 65535.0),
                    ("rcvbuf", 32.0 * 1024.0 * 1024.0),
                ]);
                cases.push(with(&two));
            }
        }
    }
    // The most transfers, the longest gaps, each on a new connection through
    // the smallest RPC buffer.
    cases.push(with(&[
        ("transfers", 10.0),
        ("gap", range("gap").1),
        ("connection", 1.0),
        ("transbuf", 1.0),
        ("request", range("request").1),
    ]));
    for v in cases {
        let p = Values::new(spec.params, v);
        let run = sim_core::sim::run(&(spec.scenario)(&p));
        let run = run.unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let model = Model::from_run(&run);
        assert!(model.end_ns > 0.0, "{p:?}");
        assert!(!model.window.points.is_empty());
    }
}
