//! Functions that must stay out of the widget wasm, found by name: the
//! wasm as wasm-bindgen writes it still has its name section (wasm-opt
//! strips it after this check), and every function the linker kept is in
//! it. A banned function fails the build with its name and the nearest
//! code of ours that calls it, or takes its address (`format!` stores a
//! pointer to `<f64 as Display>::fmt`).

use crate::sh::Result;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use wasmparser::{ElementItems, ElementKind, Name, NameSectionReader, Operator, Parser, Payload};

/// Families of functions that must stay out of the wasm, each matched
/// against the demangled names in the wasm's name section, with the reason.
/// The widgets format and parse numbers with their own code (`widgets/src/units.rs`,
/// `sim_core::units`), which knows the few forms a reader sees.
pub const BANNED: &[(&str, &str)] = &[
    (
        "core::fmt::float",
        "std's float formatting (`{}` or `{:.1}` on an f32/f64): it links Grisu and Dragon4, \
         about 10 KB gzip; use the widgets' own number formatting (widgets/src/units.rs)",
    ),
    (
        "core::num::flt2dec",
        "std's float-to-decimal conversion (Grisu, Dragon4), behind float formatting",
    ),
    (
        "core::num::dec2flt",
        "std's float parsing (`str::parse::<f64>`): about 6 KB gzip; parse with the \
         catalogue's own reader (widget_catalogue::param)",
    ),
];

/// Fails when a banned function is in `wasm` (which must still have its
/// name section), naming each one and the nearest functions of ours that
/// call it.
pub fn check_functions(wasm: &[u8]) -> Result {
    let functions = read_functions(wasm)?;
    if functions.names.is_empty() {
        return Err(
            "the widget wasm has no name section: the banned-function check needs it".into(),
        );
    }
    let found: Vec<(u32, &str)> = (functions.names.iter())
        .filter_map(|(i, name)| banned_family(name).map(|_| (*i, name.as_str())))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    let mut message = String::from("the widget wasm links functions that must stay out of it:\n");
    let mut families = BTreeSet::new();
    for (_, name) in &found {
        families.insert(banned_family(name).expect("found by it"));
        message.push_str(&format!("  {name}\n"));
    }
    let indices: Vec<u32> = found.iter().map(|(i, _)| *i).collect();
    let ours = nearest_callers(&functions, &indices);
    if !ours.is_empty() {
        message.push_str("reached from (the nearest code outside the standard library):\n");
        for name in ours {
            message.push_str(&format!("  {name}\n"));
        }
    }
    for (family, why) in BANNED.iter().filter(|(f, _)| families.contains(f)) {
        message.push_str(&format!("{family}: {why}\n"));
    }
    Err(message)
}

fn banned_family(name: &str) -> Option<&'static str> {
    BANNED
        .iter()
        .map(|(family, _)| *family)
        .find(|family| name.contains(family))
}

/// Code that is the standard library's, which a chain of calls is followed
/// through to the code of ours (or of a crate we use) that made it.
fn is_std(name: &str) -> bool {
    [
        "core::",
        "alloc::",
        "std::",
        "<core::",
        "<alloc::",
        "<std::",
        "<f64 as core",
        "<f32 as core",
        "<&",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

struct Functions {
    /// Function index → demangled name.
    names: BTreeMap<u32, String>,
    /// Function index → the functions that call it directly.
    callers: BTreeMap<u32, BTreeSet<u32>>,
    /// Function index → its slots in the function table (its address, as
    /// a function pointer holds it).
    slots: BTreeMap<u32, Vec<i32>>,
    /// Function index → the `i32.const` values its body stores to memory
    /// right away (`i32.const N; i32.store`), as code that builds a
    /// function pointer into a struct (`fmt::Arguments`) does.
    constants: BTreeMap<u32, BTreeSet<i32>>,
}

fn read_functions(wasm: &[u8]) -> Result<Functions> {
    let err = |e: wasmparser::BinaryReaderError| format!("reading the wasm: {e}");
    let mut f = Functions {
        names: BTreeMap::new(),
        callers: BTreeMap::new(),
        slots: BTreeMap::new(),
        constants: BTreeMap::new(),
    };
    let mut imported = 0u32;
    let mut body = 0u32;
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(err)? {
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    if matches!(import.map_err(err)?.ty, wasmparser::TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::ElementSection(reader) => {
                for element in reader {
                    let element = element.map_err(err)?;
                    let ElementKind::Active { offset_expr, .. } = element.kind else {
                        continue;
                    };
                    let mut offset = offset_expr.get_operators_reader();
                    let Ok(Operator::I32Const { value: start }) = offset.read() else {
                        continue;
                    };
                    if let ElementItems::Functions(items) = element.items {
                        for (k, index) in items.into_iter().enumerate() {
                            let slot = start + k as i32;
                            f.slots.entry(index.map_err(err)?).or_default().push(slot);
                        }
                    }
                }
            }
            Payload::CodeSectionEntry(function) => {
                let caller = imported + body;
                body += 1;
                let mut ops = function.get_operators_reader().map_err(err)?;
                let mut constant = None;
                while !ops.eof() {
                    match ops.read().map_err(err)? {
                        Operator::Call { function_index } => {
                            f.callers.entry(function_index).or_default().insert(caller);
                            constant = None;
                        }
                        Operator::I32Const { value } => constant = Some(value),
                        Operator::I32Store { .. } => {
                            if let Some(value) = constant.take() {
                                f.constants.entry(caller).or_default().insert(value);
                            }
                        }
                        _ => constant = None,
                    }
                }
            }
            Payload::CustomSection(section) if section.name() == "name" => {
                let reader = NameSectionReader::new(wasmparser::BinaryReader::new(
                    section.data(),
                    section.data_offset(),
                ));
                for entry in reader {
                    if let Name::Function(map) = entry.map_err(err)? {
                        for naming in map {
                            let naming = naming.map_err(err)?;
                            f.names.insert(naming.index, readable(naming.name));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(f)
}

/// A function's name as a reader writes it: demangled (without the hash
/// suffix) if the linker left it mangled, and without the crate
/// disambiguators that v0 names carry (`core[c5930c85a12de822]::fmt` →
/// `core::fmt`), as wasm-ld writes them.
fn readable(name: &str) -> String {
    let demangled = format!("{:#}", rustc_demangle::demangle(name));
    let mut out = String::with_capacity(demangled.len());
    let mut rest = demangled.as_str();
    while let Some(open) = rest.find('[') {
        let close = rest[open..].find(']').map(|c| open + c);
        match close {
            Some(close) if rest[open + 1..close].bytes().all(|b| b.is_ascii_hexdigit()) => {
                out.push_str(&rest[..open]);
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    // A legacy name the linker demangled keeps its hash: `…::of::h25a53a6e2d8e562d`.
    if let Some((path, hash)) = out.rsplit_once("::h")
        && hash.len() == 16
        && hash.bytes().all(|b| b.is_ascii_hexdigit())
    {
        out.truncate(path.len());
    }
    out
}

/// The first functions outside the standard library on the chains that lead
/// to the functions `found`: direct calls, followed through std's own
/// functions; and, where a chain starts at a function that is only ever
/// called through a pointer (`format_args!` stores `<f64 as Display>::fmt`'s),
/// the functions of ours that format with its address: they hold its table
/// slot as a constant and call a `core::fmt` or `alloc::fmt` function.
fn nearest_callers(functions: &Functions, found: &[u32]) -> Vec<String> {
    let name = |f: &u32| functions.names.get(f).map_or("?", String::as_str);
    let mut seen: BTreeSet<u32> = found.iter().copied().collect();
    let mut queue: VecDeque<u32> = found.iter().copied().collect();
    let mut ours = BTreeSet::new();
    while let Some(f) = queue.pop_front() {
        for &caller in functions.callers.get(&f).into_iter().flatten() {
            if !seen.insert(caller) {
                continue;
            }
            if is_std(name(&caller)) {
                queue.push_back(caller);
            } else {
                ours.insert(name(&caller).to_string());
            }
        }
    }
    // Where the chains start: std functions nothing calls directly.
    let slots: BTreeSet<i32> = (seen.iter())
        .filter(|f| functions.callers.get(f).is_none_or(BTreeSet::is_empty))
        .flat_map(|f| functions.slots.get(f).into_iter().flatten().copied())
        .collect();
    let formatting: BTreeSet<u32> = (functions.names.iter())
        .filter(|(_, n)| n.starts_with("core::fmt::") || n.starts_with("alloc::fmt::"))
        .map(|(i, _)| *i)
        .collect();
    let formats = |f: &u32| {
        (formatting.iter())
            .any(|callee| functions.callers.get(callee).is_some_and(|c| c.contains(f)))
    };
    for (f, constants) in &functions.constants {
        if !is_std(name(f)) && !constants.is_disjoint(&slots) && formats(f) {
            ours.insert(format!(
                "{} (may format with it: stores its address and calls core::fmt)",
                name(f)
            ));
        }
    }
    ours.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module named as the linker names today's functions: std's float
    /// formatting, reached two ways: `labels` calls `<f64 as Debug>::fmt`
    /// directly; `PageText::of` stores `<f64 as Display>::fmt`'s table slot
    /// and calls `format_inner`, as `format!("{}", x)` does. `unrelated`
    /// stores the same number but formats nothing.
    fn module_with_float_formatting() -> Vec<u8> {
        use std::borrow::Cow;
        use wasm_encoder::{
            CodeSection, ConstExpr, ElementSection, Elements, Function, FunctionSection,
            IndirectNameMap, Instruction, MemArg, MemorySection, MemoryType, Module, NameMap,
            NameSection, RefType, TableSection, TableType, TypeSection,
        };
        const NAMES: [&str; 7] = [
            "core[c5930c85a12de822]::fmt::float::float_to_decimal_common_exact::<f64>",
            "core[c5930c85a12de822]::fmt::float::<impl core[c5930c85a12de822]::fmt::Display for f64>::fmt",
            "core[c5930c85a12de822]::fmt::float::<impl core[c5930c85a12de822]::fmt::Debug for f64>::fmt",
            "tcp_widgets::units::labels::h0123456789abcdef",
            "alloc[1a2b3c4d5e6f7a8b]::fmt::format::format_inner",
            "_ZN11tcp_widgets3kit9page_text8PageText2of17h0123456789abcdefE",
            "tcp_widgets::unrelated::h0123456789abcdef",
        ];
        let store = Instruction::I32Store(MemArg {
            offset: 0,
            align: 2,
            memory_index: 0,
        });
        let bodies: [Vec<Instruction>; 7] = [
            vec![],
            vec![Instruction::Call(0)],
            vec![Instruction::Call(0)],
            vec![Instruction::Call(2)],
            vec![],
            // The slot of <f64 as Display>::fmt is 1 (the element below).
            vec![
                Instruction::I32Const(8),
                Instruction::I32Const(1),
                store.clone(),
                Instruction::Call(4),
            ],
            vec![Instruction::I32Const(8), Instruction::I32Const(1), store],
        ];
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        for body in &bodies {
            functions.function(0);
            let mut f = Function::new([]);
            for op in body {
                f.instruction(op);
            }
            f.instruction(&Instruction::End);
            code.function(&f);
        }
        let mut tables = TableSection::new();
        tables.table(TableType {
            element_type: RefType::FUNCREF,
            minimum: 2,
            maximum: None,
            table64: false,
            shared: false,
        });
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        let mut elements = ElementSection::new();
        elements.active(
            Some(0),
            &ConstExpr::i32_const(1),
            Elements::Functions(Cow::Borrowed(&[1])),
        );
        let mut names = NameMap::new();
        for (i, name) in NAMES.iter().enumerate() {
            names.append(i as u32, name);
        }
        let mut section = NameSection::new();
        section.functions(&names);
        section.locals(&IndirectNameMap::new());
        let mut module = Module::new();
        module
            .section(&types)
            .section(&functions)
            .section(&tables)
            .section(&memories)
            .section(&elements)
            .section(&code)
            .section(&section);
        module.finish()
    }

    #[test]
    fn a_float_formatting_call_fails_naming_the_function_and_its_caller() {
        let err = check_functions(&module_with_float_formatting()).unwrap_err();
        assert!(
            err.contains("\n  core::fmt::float::float_to_decimal_common_exact::<f64>\n"),
            "{err}"
        );
        assert!(err.contains("\n  tcp_widgets::units::labels\n"), "{err}");
        assert!(
            err.contains("\n  tcp_widgets::kit::page_text::PageText::of (may format with it"),
            "{err}"
        );
        assert!(!err.contains("unrelated"), "{err}");
        assert!(!err.contains("format_inner"), "{err}");
        assert!(err.contains("Grisu"), "{err}");
    }

    #[test]
    fn names_read_as_written_whatever_the_linker_left() {
        assert_eq!(
            readable("core[c5930c85a12de822]::fmt::float::float_to_decimal_common_exact::<f64>"),
            "core::fmt::float::float_to_decimal_common_exact::<f64>"
        );
        assert_eq!(
            readable("_ZN8sim_core5units10trim_float17h0125aaa16840cc5dE"),
            "sim_core::units::trim_float"
        );
        assert_eq!(
            readable("tcp_widgets::kit::page_text::PageText::of::h25a53a6e2d8e562d"),
            "tcp_widgets::kit::page_text::PageText::of"
        );
        // Brackets that are not a disambiguator stay.
        assert_eq!(readable("<[u8] as Foo>::x"), "<[u8] as Foo>::x");
    }

    #[test]
    fn a_wasm_without_names_cannot_pass_the_check() {
        let empty = wasm_encoder::Module::new().finish();
        assert!(
            check_functions(&empty)
                .unwrap_err()
                .contains("no name section")
        );
    }

    #[test]
    fn float_formatting_is_a_banned_family_and_the_simulator_is_not() {
        assert_eq!(
            banned_family("core::fmt::float::float_to_decimal_common_shortest"),
            Some("core::fmt::float")
        );
        assert_eq!(
            banned_family("core::num::dec2flt::dec2flt"),
            Some("core::num::dec2flt")
        );
        assert_eq!(banned_family("sim_core::sim::Simulation::step"), None);
    }
}
