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
    // rtt, bandwidth, mss, initcwnd, size, rwnd, rcvbuf, kernel,
    // client_kernel (each kernel era is a corner too: 2.6.32 is its minimum,
    // today its maximum; the client's `same` its minimum).
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
    let today = spec.param("kernel").unwrap().default;
    for r in [rtt.0, rtt.1] {
        for b in [bw.0, bw.1] {
            for m in [mss.0, mss.1] {
                cases.push(vec![r, b, m, 100.0, size.1, 1024.0, 4096.0, today, 0.0]);
                cases.push(vec![
                    r,
                    b,
                    m,
                    1.0,
                    size.1,
                    65535.0,
                    32.0 * 1024.0 * 1024.0,
                    today,
                    0.0,
                ]);
            }
        }
    }
    for v in cases {
        let p = Values::new(spec.params, v);
        let run = sim_core::sim::run(&(spec.scenario)(&p));
        let run = run.unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let model = Model::from_run(&run);
        assert!(model.end_ns > 0.0, "{p:?}");
        assert!(!model.window.points.is_empty());
    }
}
