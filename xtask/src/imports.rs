//! Short names for the wasm's imports.
//!
//! wasm-bindgen names each function the wasm imports from its glue after the
//! JavaScript it wraps plus a 16-digit hash (`__wbg_clientWidth_08d5512595aacb73`).
//! The bundle has some 160 of them, written once in the wasm and once in
//! the glue, and hashes do not compress: they were over 4 KB of the gzipped
//! bundle. Here every import gets a short name (`a`, `b`, … `ba`, …) in the
//! wasm's import section and the same name as its key in the glue's import
//! object. The module name and the exports keep their names.

use crate::sh::Result;
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{ImportSection, Module, RawSection};
use wasmparser::{Parser, Payload};

/// The wasm with its imports renamed, and the glue with its import object's
/// keys renamed to match. Fails when an import is not a key of the glue's
/// import object exactly once.
pub fn shorten(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, String)> {
    let err = |e: wasmparser::BinaryReaderError| format!("reading the wasm: {e}");
    let mut module = Module::new();
    let mut glue = glue.to_string();
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(err)?;
        if let Payload::ImportSection(reader) = &payload {
            let mut section = ImportSection::new();
            for (i, import) in reader.clone().into_imports().enumerate() {
                let import = import.map_err(err)?;
                let short = short_name(i);
                glue = rename_key(&glue, import.name, &short)?;
                let ty = RoundtripReencoder
                    .entity_type(import.ty)
                    .map_err(|e| format!("import {}: {e}", import.name))?;
                section.import(import.module, &short, ty);
            }
            module.section(&section);
        } else if let Some((id, range)) = payload.as_section() {
            module.section(&RawSection {
                id,
                data: &wasm[range],
            });
        }
    }
    Ok((module.finish(), glue))
}

/// The `i`-th short name: `a` to `z`, `A` to `Z`, then two letters and so on.
fn short_name(mut i: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut name = vec![LETTERS[i % LETTERS.len()]];
    i /= LETTERS.len();
    while i > 0 {
        i -= 1;
        name.push(LETTERS[i % LETTERS.len()]);
        i /= LETTERS.len();
    }
    String::from_utf8(name).expect("ASCII letters")
}

/// `glue` with the object key `name:` (after white space, as wasm-bindgen
/// writes the import object) renamed `short:`.
fn rename_key(glue: &str, name: &str, short: &str) -> Result<String> {
    let key = format!("{name}:");
    let at: Vec<usize> = glue
        .match_indices(&key)
        .map(|(i, _)| i)
        .filter(|&i| glue[..i].ends_with(char::is_whitespace))
        .collect();
    let [i] = at[..] else {
        return Err(format!(
            "the glue has {} import object keys `{key}`, not one",
            at.len()
        ));
    };
    Ok(format!("{}{short}:{}", &glue[..i], &glue[i + key.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_are_distinct_identifiers() {
        let names: Vec<String> = (0..3000).map(short_name).collect();
        assert_eq!(names[..3], ["a", "b", "c"]);
        assert_eq!(names[52], "aa");
        let set: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(set.len(), names.len());
        assert!(
            names
                .iter()
                .all(|n| n.bytes().all(|b| b.is_ascii_alphabetic()))
        );
    }

    #[test]
    fn only_the_import_object_key_is_renamed() {
        let glue = "const import0 = {\n    __wbg_f_01: function() { __wbg_f_01x(); },\n};";
        assert_eq!(
            rename_key(glue, "__wbg_f_01", "a").unwrap(),
            "const import0 = {\n    a: function() { __wbg_f_01x(); },\n};"
        );
        assert!(rename_key(glue, "__wbg_g_02", "b").is_err());
    }
}
