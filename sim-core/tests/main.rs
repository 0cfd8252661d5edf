//! sim-core's integration tests, one module per file beside this one, built
//! as one test binary: 38 binaries each linked the simulator and its
//! dependencies again, and that linking was most of a fresh CI's test
//! build. `cargo test -p sim-core --test integration gro::` runs one file's.

mod common;

mod budget;
mod cc_info;
mod cli;
mod decimal;
mod decimal_text;
mod delayed_ack;
mod delayed_ack_tick;
mod determinism;
mod fast_retransmit;
mod flow_congestion_control;
mod gro;
mod handshake;
mod hystart_eras;
mod idle_restart;
mod invariants;
mod loss_and_rto;
mod nagle;
mod pacing;
mod path_loss;
mod read_pause;
mod reader_wakeup;
mod receiver_gone_rst;
mod sack_rack;
mod scenario_reference;
mod seed_000_nagle;
mod seed_000_sndbuf;
mod seed_001_rcvbuf;
mod seed_002;
mod seed_003_lfn;
mod seed_004;
mod send_buffer_gso;
mod send_buffer_occupancy;
mod slow_start;
mod tail_loss_probe;
mod tcp_metrics;
mod tcp_metrics_cache;
mod window_scaling;
mod zero_window;
