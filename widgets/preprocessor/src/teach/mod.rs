//! The teaching kit's directives: what turns a page of text with widgets
//! into something a reader learns from (issue 19).
//!
//! | directive | what the page gets |
//! |---|---|
//! | `{{#widget NAME … predict="question" answer=METRIC}}` | the widget with its results hidden until the reader commits a prediction and plays ([`predict`]) |
//! | `{{#exercise WIDGET args}}` … `{{/exercise}}` | a goal over a widget's run, ticked when the reader's settings meet it ([`exercise`]) |
//! | `{{#quiz}}` … `{{/quiz}}` | questions with an explanation per answer ([`quiz`]) |
//! | `{{#machine}}` … `{{/machine}}` | commands to run on the reader's own machine ([`machine`]) |
//! | `{{#seed-table}}` … `{{/seed-table}}` | a case's figure as reported, simulated in its setting and on today's kernel ([`seed_table`]) |
//! | `{{#notes time="5 min"}}` … `{{/notes}}` | instructor notes, shown in presenter mode ([`notes`]) |
//! | `{{#instructor-sheet FILE.md}}` | a printable page of a chapter's notes and answers ([`sheet`]) |
//!
//! Block bodies are TOML (notes: Markdown). Everything that states a
//! simulated figure computes it here, at build time, through the same code
//! the widget runs in the browser ([`measure`]); a goal no setting meets, a
//! quiz whose answer the simulator contradicts or a malformed block fails
//! `mdbook build` with the chapter, the line and the reason.
//!
//! What runs in the browser (checking a goal against the widget's
//! `data-results`, hints, quiz answers, progress in `localStorage`, the
//! presenter toggle) is `theme/teach.js`.

pub mod exercise;
pub mod goal;
pub mod machine;
pub mod measure;
pub mod notes;
pub mod predict;
pub mod quiz;
pub mod run_cache;
pub mod seed_table;
pub mod sheet;

use std::collections::BTreeMap;

/// One teaching directive as found in a chapter.
#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub name: &'a str,
    /// What follows the name in the opening tag.
    pub args_text: &'a str,
    /// The lines between the opening and the closing tag.
    pub body: &'a str,
    pub line: usize,
}

impl Block<'_> {
    /// The opening tag's `key=value` pairs.
    pub fn args(&self) -> Result<Vec<(String, String)>, String> {
        crate::directive::split_args(self.args_text).map_err(|e| match e.key {
            Some(k) => format!("`{k}`: {}", e.message),
            None => e.message,
        })
    }
}

/// What one chapter's directives share while it is expanded.
#[derive(Debug, Default)]
pub struct Ctx {
    /// The chapter's page, `slow-start.html`: the key its progress is kept under.
    pub page: String,
    /// Items a reader can complete, in page order (`exercise-1`, `quiz-2`…),
    /// with a label for the progress list.
    pub items: Vec<(String, String)>,
    counters: BTreeMap<String, usize>,
    /// The book's root (beside `src/` and `scenarios/`).
    pub root: std::path::PathBuf,
}

impl Ctx {
    pub fn new(page: &str, root: &std::path::Path) -> Ctx {
        Ctx {
            page: page.to_string(),
            root: root.to_path_buf(),
            ..Ctx::default()
        }
    }

    /// The next id of a kind on this page: `quiz-1`, `quiz-2`…
    pub fn next_id(&mut self, kind: &str) -> String {
        let n = self.counters.entry(kind.to_string()).or_insert(0);
        *n += 1;
        format!("{kind}-{n}")
    }

    /// Registers something the reader can complete (an exercise, a quiz, a
    /// prediction) for the progress list.
    pub fn item(&mut self, id: &str, label: &str) {
        self.items.push((id.to_string(), label.to_string()));
    }
}

/// Markdown to HTML for text inside a block (a task, a hint, an
/// explanation): mdBook renders the page's Markdown, but not inside the
/// HTML a directive becomes. `$…$` is left as it is, for mdbook-katex, which
/// runs after this preprocessor.
pub fn markdown(md: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md.trim(), Options::ENABLE_TABLES));
    out
}

/// Markdown for one line (a hint, a choice): without the paragraph around it.
pub fn markdown_inline(md: &str) -> String {
    let html = markdown(md);
    let t = html.trim();
    match t.strip_prefix("<p>").and_then(|s| s.strip_suffix("</p>")) {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => t.to_string(),
    }
}

/// Reads a block's TOML body into `T`, with the error as the block's.
pub fn toml_body<T: serde::de::DeserializeOwned>(b: &Block) -> Result<T, String> {
    toml::from_str(b.body).map_err(|e| format!("in its body: {}", e.to_string().trim()))
}

/// The HTML a teaching directive other than an exercise (which places a
/// widget, see `crate::expand`) becomes.
pub fn render(b: &Block, ctx: &mut Ctx) -> Result<String, String> {
    match b.name {
        "seed-table" => seed_table::render(b, &ctx.root),
        "quiz" => quiz::render(b, ctx),
        "machine" => machine::render(b, ctx),
        "notes" => notes::render(b, ctx),
        "instructor-sheet" => sheet::render(b, ctx),
        other => Err(format!("`{other}` is not built yet")),
    }
}
