//! Every embed form of every widget in the built site: the iframe page, the
//! self-contained file, and the custom-element script they share.

use std::path::Path;

use super::report::{Problem, Report};

/// The custom-element script every widget's embed shares.
pub(super) const SHARED_EMBED_SCRIPT: &str = "embed/tcp-widget.js";

/// The files every widget's embed forms need, with what each one is.
pub(super) fn expected_embeds() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for name in widget_catalogue::widget_names() {
        files.push((
            format!("embed/{name}.html"),
            format!("iframe embed page of widget {name}"),
        ));
        files.push((
            format!("embed/{name}.standalone.html"),
            format!("self-contained single-file embed of widget {name}"),
        ));
    }
    files.push((
        SHARED_EMBED_SCRIPT.to_string(),
        "custom-element script shared by every widget's embed".to_string(),
    ));
    files.push((
        "embed/tcp-widget-frames.js".to_string(),
        "the iframe pages' resizer, for the page that holds them".to_string(),
    ));
    files
}

pub(super) fn check_embeds(book_dir: &Path, report: &mut Report) {
    for (file, what) in expected_embeds() {
        report.embeds_expected += 1;
        if book_dir.join(&file).is_file() {
            report.embeds_found += 1;
        } else {
            report.problems.push(Problem {
                file,
                line: None,
                what: format!("missing ({what})"),
            });
        }
    }
}
