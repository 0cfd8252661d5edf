//! Prints what the browser benchmark's scenarios give natively, through the
//! same function the browser calls: `cargo run -p tcp-widgets --example benchmarks`.
//! Each line: `NAME EVENTS HASH DELIVERED TRACE_BYTES READBACK`.

fn main() {
    for name in ["c", "d"] {
        println!(
            "{name} {} {}",
            tcp_widgets::benchmark(name),
            tcp_widgets::benchmark_readback(name)
        );
    }
}
