//! mdBook calls this binary twice per build: `supports <renderer>`, then with
//! the book as JSON on stdin, expecting the processed book on stdout.

use mdbook_preprocessor::Preprocessor;
use mdbook_widgets::Widgets;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("supports") {
        return ExitCode::SUCCESS; // HTML, print and any other renderer alike
    }
    let run = || -> mdbook_preprocessor::errors::Result<()> {
        let (ctx, book) = mdbook_preprocessor::parse_input(std::io::stdin())?;
        let book = Widgets.run(&ctx, book)?;
        serde_json::to_writer(std::io::stdout(), &book)?;
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mdbook-widgets: {e:#}");
            ExitCode::FAILURE
        }
    }
}
