//! `mdbook-widgets`: the book's preprocessor for `{{#widget NAME key=value ...}}`.
//!
//! Each directive becomes a placeholder element carrying its parameters as
//! `data-*` attributes and a static SVG figure of the widget's starting run,
//! drawn here at build time by the widgets' own code (see [`figures`]); the
//! widget bundle mounts into the placeholder in the browser. A directive
//! naming an unknown widget or parameter, or a value out of range, fails
//! `mdbook build` with the chapter, the directive and the bad key.

pub mod directive;
pub mod figures;
pub mod render;
pub mod teach;

use directive::{Directive, Piece};
use mdbook_preprocessor::book::{Book, Chapter};
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use render::FigureRef;
use std::collections::{BTreeMap, BTreeSet};

pub struct Widgets;

impl Preprocessor for Widgets {
    fn name(&self) -> &str {
        "widgets"
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        // Every directive of the book first, so the figures draw in parallel.
        let mut errors: Vec<String> = Vec::new();
        let mut wanted: BTreeMap<String, Directive> = BTreeMap::new();
        for ch in book.chapters() {
            match directives(&ch.content) {
                Ok(found) => {
                    // A prediction's widget has no figure: it would give the answer away.
                    for d in found.into_iter().filter(|d| d.predict.is_none()) {
                        wanted.insert(figures::file_name(&d), d);
                    }
                }
                Err(e) => errors.push(format!("{}:{e}", where_(ch))),
            }
        }
        if !errors.is_empty() {
            return Err(Error::msg(errors.join("\n")));
        }
        let dir = ctx.root.join(&ctx.config.book.src).join(figures::DIR);
        let placed = place_figures(&dir, &wanted)?;
        let figure = |d: &Directive| -> std::result::Result<FigureRef, String> {
            placed
                .get(&figures::file_name(d))
                .cloned()
                .unwrap_or_else(|| Err("no figure was drawn for it".into()))
        };
        let mut items: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        book.for_each_chapter_mut(|ch| {
            let page = page_of(ch);
            let mut ctx = teach::Ctx::new(&page, &ctx.root);
            match expand(&ch.content, &path_to_root(ch), &figure, &mut ctx) {
                Ok(text) => ch.content = text,
                Err(e) => errors.push(format!("{}:{e}", where_(ch))),
            }
            if !ctx.items.is_empty() {
                items.insert(page, ctx.items);
            }
        });
        if !items.is_empty() {
            let script = items_script(&items);
            book.for_each_chapter_mut(|ch| ch.content.push_str(&script));
        }
        teach::run_cache::save();
        if errors.is_empty() {
            Ok(book)
        } else {
            Err(Error::msg(errors.join("\n")))
        }
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        Ok(true)
    }
}

/// The page a chapter becomes, from the book's root: `slow-start.html`.
pub fn page_of(ch: &Chapter) -> String {
    ch.path.as_ref().map_or_else(String::new, |p| {
        p.with_extension("html")
            .to_string_lossy()
            .replace('\\', "/")
    })
}

fn where_(ch: &Chapter) -> String {
    ch.source_path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| ch.name.clone())
}

/// `../` for each directory the chapter's page is in, as mdBook's own
/// `path_to_root`: chapter pages link to the book's root with it.
pub fn path_to_root(ch: &Chapter) -> String {
    let depth = ch
        .path
        .as_ref()
        .map_or(0, |p| p.components().count().saturating_sub(1));
    "../".repeat(depth)
}

/// Draws each wanted figure, writes the files that changed into `dir` and
/// deletes those no directive wants; a figure that could not be drawn is an
/// error the chapter reports at its directive.
fn place_figures(
    dir: &std::path::Path,
    wanted: &BTreeMap<String, Directive>,
) -> Result<BTreeMap<String, std::result::Result<FigureRef, String>>> {
    let io = |what: &str, e: std::io::Error| Error::msg(format!("{what} {}: {e}", dir.display()));
    if wanted.is_empty() && !dir.exists() {
        return Ok(BTreeMap::new());
    }
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create", e))?;
    let mut placed = BTreeMap::new();
    for (name, drawn) in figures::render_all(wanted) {
        let placed_one = match drawn {
            Ok(fig) => {
                figures::write_if_changed(&dir.join(&name), fig.svg.as_bytes())
                    .map_err(|e| io("cannot write a figure into", e))?;
                Ok(FigureRef {
                    file: format!("{}/{name}", figures::DIR),
                    width: fig.width,
                    height: fig.height,
                    headings: fig.headings,
                })
            }
            Err(e) => Err(format!("cannot draw its figure: {e}")),
        };
        placed.insert(name, placed_one);
    }
    let keep: BTreeSet<String> = wanted.keys().cloned().collect();
    figures::remove_stale(dir, &keep).map_err(|e| io("cannot tidy", e))?;
    Ok(placed)
}

/// The pieces of a chapter with each directive parsed; the error says
/// `LINE: directive: problem`.
enum Parsed<'a> {
    Text(&'a str),
    Widget {
        directive: Directive,
        source: &'a str,
        line: usize,
    },
    /// A teaching directive; an exercise with the widget it places.
    Teach {
        block: teach::Block<'a>,
        widget: Option<Directive>,
        source: &'a str,
    },
}

fn parse_chapter(content: &str) -> std::result::Result<Vec<Parsed<'_>>, String> {
    let pieces = directive::scan(content).map_err(|(line, msg)| format!("{line}: {msg}"))?;
    pieces
        .into_iter()
        .map(|piece| match piece {
            Piece::Text(t) => Ok(Parsed::Text(t)),
            Piece::Directive { source, body, line } => directive::parse(body)
                .map(|directive| Parsed::Widget {
                    directive,
                    source,
                    line,
                })
                .map_err(|e| match e.key {
                    Some(key) => format!("{line}: in `{source}`, parameter `{key}`: {}", e.message),
                    None => format!("{line}: in `{source}`: {}", e.message),
                }),
            Piece::Teach {
                name,
                args,
                body,
                source,
                line,
            } => {
                let block = teach::Block {
                    name,
                    args_text: args,
                    body,
                    line,
                };
                let widget = match name {
                    "exercise" => Some(
                        teach::exercise::widget(&block)
                            .map_err(|e| format!("{line}: in `{source}`: {e}"))?,
                    ),
                    _ => None,
                };
                Ok(Parsed::Teach {
                    block,
                    widget,
                    source,
                })
            }
        })
        .collect()
}

/// Every widget directive in a chapter (an exercise's too), checked.
pub fn directives(content: &str) -> std::result::Result<Vec<Directive>, String> {
    Ok(parse_chapter(content)?
        .into_iter()
        .filter_map(|p| match p {
            Parsed::Widget { directive, .. } => Some(directive),
            Parsed::Teach { widget, .. } => widget,
            Parsed::Text(_) => None,
        })
        .collect())
}

/// Replaces every directive in a chapter with its HTML: a widget's
/// placeholder with its figure from `figure` (a path from the book's root,
/// prefixed with the chapter's `path_to_root`), a teaching directive's
/// block (see [`teach`]). `ctx` collects what the reader can complete. The
/// error says `LINE: directive: problem`.
pub fn expand(
    content: &str,
    path_to_root: &str,
    figure: &dyn Fn(&Directive) -> std::result::Result<FigureRef, String>,
    ctx: &mut teach::Ctx,
) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(content.len());
    // Widgets are numbered in page order, `slow-start-1`, `slow-start-2`…;
    // predictions in a sequence of their own, `slow-start-predict-1`, so
    // that adding one to a chapter does not renumber the others, whose ids
    // readers' links carry (`?slow-start-2.rtt=30ms`).
    let (mut index, mut predictions) = (0, 0);
    let mut place = |directive: &Directive, out: &mut String, line: usize, source: &str| {
        let fig = match directive.predict {
            Some(_) => None,
            None => Some(figure(directive).map_err(|e| format!("{line}: in `{source}`: {e}"))?),
        };
        if index + predictions == 0 {
            out.push_str(render::PRELOAD);
        }
        let id = if directive.predict.is_some() {
            predictions += 1;
            format!("{}-predict-{predictions}", directive.widget.name)
        } else {
            index += 1;
            format!("{}-{index}", directive.widget.name)
        };
        let html = render::placeholder(directive, &id, fig.as_ref(), path_to_root);
        std::result::Result::<_, String>::Ok((id, html))
    };
    for piece in parse_chapter(content)? {
        match piece {
            Parsed::Text(t) => out.push_str(t),
            Parsed::Widget {
                directive,
                source,
                line,
            } => {
                let (id, html) = place(&directive, &mut out, line, source)?;
                if let Some(p) = &directive.predict {
                    out.push_str(&teach::predict::render(p, &id, ctx));
                }
                out.push_str(&html);
            }
            Parsed::Teach {
                block,
                widget,
                source,
            } => {
                let line = block.line;
                let html = match widget {
                    Some(w) => {
                        let (id, placeholder) = place(&w, &mut out, line, source)?;
                        teach::exercise::render(&block, ctx, &id, &placeholder)
                    }
                    None => teach::render(&block, ctx),
                }
                .map_err(|e| format!("{line}: in `{source}`: {e}"))?;
                out.push_str(&html);
            }
        }
    }
    Ok(out)
}

/// The list of what a reader can complete in each chapter, on every page
/// (`theme/teach.js` reads it to show progress in the chapter list):
/// `{"slow-start.html":[["exercise-1","Exercise 1: …"],…]}`.
pub fn items_script(items: &BTreeMap<String, Vec<(String, String)>>) -> String {
    let json = serde_json::to_string(items).unwrap_or_else(|_| "{}".into());
    // `</` cannot end the script early; `$` would be math to mdbook-katex.
    let json = json.replace("</", "<\\/").replace('$', "\\u0024");
    format!("\n<script type=\"application/json\" class=\"tw-book-items\">{json}</script>\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the drawn figures: the file named as the real one is.
    fn fig(d: &Directive) -> std::result::Result<FigureRef, String> {
        Ok(FigureRef {
            file: format!("{}/{}", figures::DIR, figures::file_name(d)),
            width: 640,
            height: 528,
            headings: vec!["cwnd".into(), "TSG".into()],
        })
    }

    fn expand(content: &str) -> std::result::Result<String, String> {
        super::expand(content, "", &fig, &mut teach::Ctx::default())
    }

    #[test]
    fn a_chapter_gets_numbered_placeholders() {
        let out =
            expand("# T\n\n{{#widget slow-start}}\n\ntext\n\n{{#widget slow-start rtt=1ms}}\n")
                .unwrap();
        assert!(out.contains(r#"id="slow-start-1""#));
        assert!(out.contains(r#"id="slow-start-2" data-widget="slow-start" data-rtt="1ms""#));
        assert!(!out.contains("{{#widget"));
        // The bundle is preloaded once, before the first placeholder.
        assert_eq!(out.matches("compileStreaming(").count(), 1);
        assert!(out.find("compileStreaming") < out.find("slow-start-1"));
        // mdbook-katex runs after this preprocessor and reads `$...$` as math.
        assert!(!render::PRELOAD.contains('$'));
        assert!(!expand("# No widget\n").unwrap().contains("<script>"));
    }

    #[test]
    fn a_page_carries_no_widget_words_the_words_file_brings_them() {
        let out = expand("{{#widget long-fat}}\n\n<tcp-widget name=\"long-fat\"></tcp-widget>\n")
            .unwrap();
        assert!(!out.contains("tw-preset-notes"));
        assert!(!out.contains("data-widget-text"));
    }

    #[test]
    fn errors_carry_line_directive_and_key() {
        let e = expand("# T\n\n{{#widget slow-start rtt=9s}}\n").unwrap_err();
        assert!(
            e.starts_with("3: in `{{#widget slow-start rtt=9s}}`, parameter `rtt`:"),
            "{e}"
        );
    }

    #[test]
    fn each_placeholder_shows_its_own_figure_relative_to_the_chapter() {
        let text = "{{#widget slow-start}}\n\n{{#widget slow-start rtt=1ms}}\n";
        let out = super::expand(text, "../../", &fig, &mut teach::Ctx::default()).unwrap();
        let srcs: Vec<&str> = out
            .split("<img src=\"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .collect();
        assert_eq!(srcs.len(), 2);
        assert!(
            srcs[0].starts_with("../../generated/figures/slow-start-"),
            "{srcs:?}"
        );
        assert_ne!(srcs[0], srcs[1]);
        // The figure sits inside the placeholder, before the loading line.
        let div = out.find("<div class=\"tcp-widget\"").unwrap();
        let figure = out.find("<figure class=\"tw-static\">").unwrap();
        assert!(div < figure && figure < out.find("tcp-widget-loading").unwrap());
        // Lazy on a chapter's page (their SVGs are parsed on the main
        // thread); the widgets' loader makes them eager on print.html, which
        // must wait for them (tests/figures.test.mjs checks it does).
        assert!(out.contains("loading=\"lazy\""));
        let loader = include_str!("../../../theme/widgets-loader.js");
        assert!(loader.contains("img.loading = \"eager\""));
    }

    #[test]
    fn a_figure_that_cannot_be_drawn_fails_at_its_directive() {
        let e = super::expand(
            "# T\n\n{{#widget slow-start}}\n",
            "",
            &|_| Err("cannot draw its figure: boom".into()),
            &mut teach::Ctx::default(),
        )
        .unwrap_err();
        assert_eq!(
            e,
            "3: in `{{#widget slow-start}}`: cannot draw its figure: boom"
        );
    }

    #[test]
    fn path_to_root_climbs_one_level_per_directory() {
        let ch = |p: &str| Chapter::new("c", String::new(), p, vec![]);
        assert_eq!(path_to_root(&ch("slow-start.md")), "");
        assert_eq!(path_to_root(&ch("part/one.md")), "../");
        assert_eq!(path_to_root(&ch("a/b/c.md")), "../../");
    }
}
