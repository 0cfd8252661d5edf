//! BBR and CUBIC goodput against random loss, beside what the BBR paper
//! states (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR:
//! Congestion-Based Congestion Control", ACM Queue 14(5), 2016): one flow on a
//! 100 Mbit/s, 100 ms path, random loss from 0.001 % to 30 %. A benchmark-style
//! program, not a test: it prints a table and asserts nothing.
//!
//! ```text
//! cargo run --profile tools -p sim-core --example loss_sweep            # 60 s runs, seeds 1 to 3
//! cargo run --profile tools -p sim-core --example loss_sweep -- --secs 30 --seeds 1 --position after
//! ```
//!
//! (`--release` works too, but that profile optimises for the widgets' size,
//! not speed.)
//!
//! The setup, and why:
//! - Loss in the data direction, before the bottleneck (`tc netem loss` on the
//!   sender's egress): lost packets cost the link nothing, so the ceiling is
//!   the link rate and the best goodput is 100 × (1 − p) Mbit/s, the paper's
//!   line. `--position after` puts the loss behind the queue instead.
//! - 60 s per run, the length of the paper's flows. It has to be long: at
//!   0.001 % one packet in 100,000 is lost, one every 12 s at 8,333 packets
//!   a second, so a run must hold several losses; CUBIC needs about 8.5 s
//!   (K = ∛(W_max·(1 − β)/C) with W_max = 833 packets, the BDP) to grow back
//!   after each; and BBR's startup (about 1 s here) must be a small part of
//!   the run.
//! - A drop-tail queue of one BDP (1.25 MB) and socket buffers raised to
//!   32 MiB, so that neither the queue nor a buffer, but loss, sets the rate.
//! - BBR paced by the fq qdisc, as its authors deploy it; CUBIC unpaced.
//! - Goodput: bytes the client application read, over the whole run
//!   (handshake and startup included, as a 60 s flow's average is), averaged
//!   over three seeds. It counts payload only, 1448 of every 1500 bytes on
//!   the wire, so the simulator's ceiling is 96.5 × (1 − p) Mbit/s where the
//!   paper's is the link's 100 × (1 − p).
//!
//! Sixty runs of 60 s take about half a minute on one core.

use sim_core::analysis::flow_totals;
use sim_core::benchmarks::raise_ceilings;
use sim_core::cc::Algorithm;
use sim_core::config::{HostSettings, LossDirection, LossPosition, PathConfig, Qdisc, Scenario};
use sim_core::sim;
use sim_core::time::SimDuration;

/// The paper's x axis, in percent.
const LOSS_PERCENT: [f64; 10] = [0.001, 0.01, 0.1, 1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0];
const RATE_BPS: u64 = 100_000_000;
const RTT: SimDuration = SimDuration::from_millis(100);
const MSS: f64 = 1448.0;
/// Payload bytes per 1500-byte packet: the goodput ceiling's share of the link.
const PAYLOAD_SHARE: f64 = MSS / 1500.0;
/// 32 MiB: `tcp_rmem[2]` on today's kernel (6.16+); here for both buffers.
const BUFFER_MAX: u64 = 32 << 20;

struct Options {
    secs: u64,
    seeds: u64,
    position: LossPosition,
}

fn options() -> Options {
    let mut o = Options {
        secs: 60,
        seeds: 3,
        position: LossPosition::Before,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        match pair[0].as_str() {
            "--secs" => o.secs = value.parse().expect("--secs takes whole seconds"),
            "--seeds" => o.seeds = value.parse().expect("--seeds takes a count"),
            "--position" if value == "after" => o.position = LossPosition::After,
            "--position" if value == "before" => o.position = LossPosition::Before,
            other => panic!(
                "unknown option {other} {value}: --secs N, --seeds N, --position before|after"
            ),
        }
    }
    o
}

fn scenario(cc: &str, loss: f64, o: &Options, seed: u64) -> Scenario {
    let mut server = HostSettings::default();
    server.set_tcp_congestion_control(Algorithm::by_name(cc).expect("known algorithm"));
    if cc == "bbr" {
        server.set_default_qdisc(Qdisc::Fq);
    }
    let mut client = HostSettings::default();
    raise_ceilings(&mut server, &mut client, BUFFER_MAX, BUFFER_MAX);
    let bdp = RATE_BPS / 8 * RTT.0 / 1_000_000_000;
    let mut s = Scenario {
        path: PathConfig {
            queue_bytes: bdp,
            loss,
            loss_direction: LossDirection::Data,
            loss_position: o.position,
            ..PathConfig::symmetric(RATE_BPS, RTT)
        },
        server: server.finish().expect("server settings in range"),
        client: client.finish().expect("client settings in range"),
        time_limit: SimDuration::from_secs(o.secs),
        trace_packet_budget: 0,
        seed,
        ..Scenario::default()
    };
    // The server pushes more than the run can carry, as iperf3 does.
    s.app.request = Vec::new();
    s.app.response = vec![16 << 30];
    s
}

/// Mean goodput in Mbit/s over the seeds, and the share of data packets lost.
fn goodput(cc: &str, loss: f64, o: &Options) -> (f64, f64) {
    let (mut mbit, mut lost, mut offered) = (0.0, 0, 0);
    for seed in 1..=o.seeds {
        let r = sim::run(&scenario(cc, loss, o, seed)).expect("valid scenario");
        mbit += flow_totals(&r)[0].bitrate / 1e6;
        lost += r.downlink.lost;
        // Lost before the bottleneck, a packet is not among those carried.
        offered += r.downlink.packets + r.downlink.dropped
            - if o.position == LossPosition::After {
                r.downlink.lost
            } else {
                0
            };
    }
    (mbit / o.seeds as f64, lost as f64 / offered.max(1) as f64)
}

/// CUBIC's average window from its response function (RFC 8312 §5.1 and
/// the TCP-friendly region: the larger of 1.054·(RTT/p)^¾ with C = 0.4 and
/// β = 0.7, and Reno's 1.22/√p), capped at the BDP (833 packets of 1500
/// bytes), as Mbit/s of payload. A model of loss-driven window cycles, not a
/// measurement; meaningless at high loss.
fn cubic_model(p: f64) -> f64 {
    let rtt = RTT.0 as f64 / 1e9;
    let cubic = 1.054 * (rtt / p).powf(0.75);
    let reno = 1.22 / p.sqrt();
    let bdp = RATE_BPS as f64 * rtt / 8.0 / 1500.0;
    cubic.max(reno).min(bdp) * MSS * 8.0 / rtt / 1e6
}

/// What the paper says for BBR and for CUBIC at `percent` loss.
fn paper(percent: f64) -> (&'static str, &'static str) {
    let bbr = match percent {
        p if p <= 5.0 => "at the ceiling",
        p if p <= 15.0 => "close to the ceiling",
        _ => "falls off",
    };
    let cubic = match percent {
        p if p < 0.01 => "near the link rate",
        p if p < 0.1 => "-",
        p if p < 1.0 => "~10x below the link",
        _ => "stalls",
    };
    (bbr, cubic)
}

fn main() {
    let o = options();
    eprintln!(
        "{} runs of {} s, loss {} the bottleneck; progress:",
        LOSS_PERCENT.len() as u64 * 2 * o.seeds,
        o.secs,
        o.position.name()
    );
    let mut rows = Vec::new();
    for percent in LOSS_PERCENT {
        let p = percent / 100.0;
        let (cubic, cubic_lost) = goodput("cubic", p, &o);
        eprintln!("  {percent:>6} %  cubic {cubic:7.2} Mbit/s");
        let (bbr, bbr_lost) = goodput("bbr", p, &o);
        eprintln!("  {percent:>6} %  bbr   {bbr:7.2} Mbit/s");
        rows.push((percent, cubic, bbr, (cubic_lost + bbr_lost) / 2.0));
    }
    println!(
        "One flow, 100 Mbit/s x 100 ms, {} s, {} seed(s), loss in the data direction {} the bottleneck.",
        o.secs,
        o.seeds,
        o.position.name()
    );
    println!(
        "Paper: Cardwell et al., \"BBR: Congestion-Based Congestion Control\", ACM Queue 14(5), 2016.\n"
    );
    println!(
        "| loss % | lost (sim) % | CUBIC Mbit/s | CUBIC model Mbit/s | paper, CUBIC | BBR Mbit/s | ceiling 96.5(1-p) | paper, BBR |"
    );
    println!("| ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |");
    for (percent, cubic, bbr, lost) in rows {
        let (paper_bbr, paper_cubic) = paper(percent);
        let model = if percent <= 10.0 {
            format!("{:.2}", cubic_model(percent / 100.0))
        } else {
            "-".into()
        };
        println!(
            "| {percent} | {:.3} | {cubic:.2} | {model} | {paper_cubic} | {bbr:.2} | {:.2} | {paper_bbr} |",
            lost * 100.0,
            100.0 * PAYLOAD_SHARE * (1.0 - percent / 100.0),
        );
    }
}
