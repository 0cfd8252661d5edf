// Which scenario files each widget offers as one-click presets, with the
// title its menu shows. The preset's slider values are not written here: the
// build script reads them from the file (see `from_scenario.rs`), so a preset
// cannot drift from the case `tcpsim run scenarios/FILE` prints.

pub struct PresetSource {
    pub widget: &'static str,
    pub name: &'static str,
    pub title: &'static str,
    /// A file in the repository's `scenarios/` folder.
    pub scenario: &'static str,
}

pub const PRESET_SOURCES: &[PresetSource] = &[
    PresetSource {
        widget: "slow-start",
        name: "seed-7ms",
        title: "512 KiB at 7 ms (seed 004)",
        scenario: "seed-004-512k-7ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-5ms",
        title: "512 KiB at 5 ms, 42340-byte SYN window (seed 004)",
        scenario: "seed-004-512k-5ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-2.8ms",
        title: "512 KiB at 2.8 ms (seed 004)",
        scenario: "seed-004-512k-2.8ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "seed-0.3ms",
        title: "512 KiB at 0.3 ms (seed 004)",
        scenario: "seed-004-512k-0.3ms.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "initcwnd-100",
        title: "initcwnd 100 vs a 64240-byte SYN window",
        scenario: "seed-004-initcwnd-100.toml",
    },
    PresetSource {
        widget: "slow-start",
        name: "small-buffer",
        title: "512 KiB at 7 ms, 40 KiB starting receive buffer",
        scenario: "slow-start-small-buffer.toml",
    },
];
