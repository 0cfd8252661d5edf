//! Prints what the browser benchmark's scenarios give natively, through the
//! same function the browser calls: `cargo run -p tcp-widgets --example benchmarks`.
//! Each line: `NAME EVENTS HASH READBACK DELIVERED TRACE_BYTES`.

fn main() {
    for name in ["c", "d"] {
        println!("{name} {}", tcp_widgets::benchmark(name));
    }
}
