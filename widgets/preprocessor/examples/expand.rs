//! Checks a chapter's directives the way `mdbook build` does, in seconds and
//! without the widget bundle: every widget, prediction, exercise (its goal
//! simulated), quiz, seed table and note, with stand-in figures. Prints the
//! expanded page, or the error with its line and exits with 1.
//!
//! ```text
//! cargo run --profile tools -p mdbook-widgets --example expand -- src/slow-start.md > /tmp/page.html
//! ```

use mdbook_widgets::directive::Directive;
use mdbook_widgets::render::FigureRef;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: expand CHAPTER.md (run from the book's root)");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let page = std::path::Path::new(&path).with_extension("html");
    let page = page
        .file_name()
        .map_or(String::new(), |p| p.to_string_lossy().into_owned());
    let mut ctx = mdbook_widgets::teach::Ctx::new(&page, std::path::Path::new("."));
    // The figures are drawn by the real build; here a stand-in will do.
    let figure = |_: &Directive| {
        Ok(FigureRef {
            file: "figure.svg".into(),
            width: 1,
            height: 1,
            headings: vec![],
        })
    };
    match mdbook_widgets::expand(&text, "", &figure, &mut ctx) {
        Ok(out) => println!("{out}"),
        Err(e) => {
            eprintln!("{path}:{e}");
            std::process::exit(1);
        }
    }
}
