// Scratch: expands a chapter file as the preprocessor would, with stand-in figures.
use mdbook_widgets::render::FigureRef;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut ctx = mdbook_widgets::teach::Ctx::new("x.html", std::path::Path::new("."));
    let fig = |_: &mdbook_widgets::directive::Directive| {
        Ok(FigureRef {
            file: "f.svg".into(),
            width: 1,
            height: 1,
            headings: vec![],
        })
    };
    match mdbook_widgets::expand(&text, "", &fig, &mut ctx) {
        Ok(out) => println!("{out}"),
        Err(e) => {
            eprintln!("ERROR {e}");
            std::process::exit(1)
        }
    }
}
