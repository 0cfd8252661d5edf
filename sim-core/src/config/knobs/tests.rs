//! The table against the simulator and the book: defaults as the eras'
//! `Kernel::sysctls` give them, chapters as `src/SUMMARY.md` names them.

use super::*;

/// A default's value, without the explanation in parentheses after it.
fn value(default: &str) -> &str {
    default.split(" (").next().unwrap()
}

#[test]
fn every_knob_has_one_name_in_the_whole_table() {
    let names: Vec<&str> = all().map(|k| k.name).collect();
    for (i, name) in names.iter().enumerate() {
        assert!(!names[..i].contains(name), "{name} twice");
        assert_eq!(named(name).unwrap().name, *name);
    }
    assert!(names.len() >= 35, "{} knobs", names.len());
}

#[test]
fn modelled_sysctls_default_to_what_each_eras_host_boots_with() {
    for knob in SYSCTLS.iter().filter(|k| k.setter().is_some()) {
        for kernel in Kernel::ALL {
            let table = knob.default_in(kernel);
            let simulated = kernel.sysctls().text(knob.name);
            let simulated = simulated.unwrap_or_else(|| panic!("{}: no value", knob.name));
            if table == ABSENT {
                // Before the sysctl existed the kernel behaved as one
                // value of it did: the simulator holds that value.
                continue;
            }
            assert_eq!(value(table), simulated, "{} on {kernel}", knob.name);
        }
    }
}

#[test]
fn the_eras_that_lack_a_knob_are_the_oldest() {
    // A knob appears in some kernel and stays: `—` never follows a value.
    for knob in all() {
        let first = knob.defaults.iter().position(|d| *d != ABSENT);
        let first = first.unwrap_or_else(|| panic!("{}: in no era", knob.name));
        assert!(
            knob.defaults[first..].iter().all(|d| *d != ABSENT),
            "{}: {:?}",
            knob.name,
            knob.defaults
        );
    }
}

#[test]
fn every_scenario_key_names_its_table() {
    assert_eq!(
        named("net.ipv4.tcp_rmem").unwrap().scenario_key().unwrap(),
        "HOST.sysctl.\"net.ipv4.tcp_rmem\""
    );
    assert_eq!(
        named("SO_RCVBUF").unwrap().scenario_key().unwrap(),
        "HOST.sockopt.SO_RCVBUF"
    );
    assert_eq!(
        named("initcwnd").unwrap().scenario_key().unwrap(),
        "HOST.route.initcwnd"
    );
    assert_eq!(
        named("net.ipv4.tcp_autocorking").unwrap().scenario_key(),
        None
    );
    for knob in COMMANDS {
        assert!(knob.setter().is_none(), "{} is not a host key", knob.name);
    }
}

#[test]
fn every_chapter_is_the_books() {
    let summary = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/SUMMARY.md"),
    )
    .unwrap();
    for chapter in Chapter::ALL {
        let link = format!("[{}]({})", chapter.title(), chapter.file().unwrap_or(""));
        assert!(summary.contains(&link), "SUMMARY.md has no {link}");
    }
    for knob in all() {
        for (i, c) in knob.chapters.iter().enumerate() {
            assert!(
                !knob.chapters[..i].contains(c),
                "{}: {c:?} twice",
                knob.name
            );
        }
    }
}

#[test]
fn the_seeds_kernels_differ_where_the_table_says() {
    let rmem = named("net.ipv4.tcp_rmem").unwrap();
    assert_eq!(rmem.default_in(Kernel::V4_18), "4096 87380 6291456");
    assert_eq!(rmem.default_in(Kernel::Today), "4096 131072 33554432");
    let qdisc = named("net.core.default_qdisc").unwrap();
    assert!(
        Kernel::ALL
            .iter()
            .all(|k| qdisc.default_in(*k) == "pfifo_fast")
    );
    let recovery = named("net.ipv4.tcp_recovery").unwrap();
    assert_eq!(recovery.default_in(Kernel::V3_10), ABSENT);
}
