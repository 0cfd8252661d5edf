//! The teaching kit's build-time checks on whole chapters (fixtures in
//! `tests/fixtures/`): what a chapter author gets from `mdbook build`.

use mdbook_widgets::render::FigureRef;
use mdbook_widgets::teach::{Ctx, measure};
use mdbook_widgets::{directive::Directive, expand};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
    )
    .unwrap()
}

fn figure(_: &Directive) -> Result<FigureRef, String> {
    Ok(FigureRef {
        file: "generated/figures/x.svg".into(),
        width: 640,
        height: 480,
        headings: vec!["cwnd".into()],
    })
}

fn build(name: &str) -> (Result<String, String>, Ctx) {
    let mut ctx = Ctx::new("fixture.html", &root());
    let out = expand(&fixture(name), "", &figure, &mut ctx);
    (out, ctx)
}

/// An attribute's value in `html`, unescaped for `&quot;`.
fn attr(html: &str, name: &str) -> String {
    let at = html
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name} in {html}"));
    let rest = &html[at + name.len() + 3..];
    rest[..rest.find('"').unwrap()]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn a_goal_no_setting_meets_fails_the_build_at_its_line() {
    let (out, _) = build("unmeetable-goal.md");
    let e = out.unwrap_err();
    assert!(
        e.starts_with("5: in `{{#exercise slow-start preset=seed-7ms controls=initcwnd}}`"),
        "{e}"
    );
    assert!(
        e.contains("no value of `initcwnd` from 1 to 100 meets the goal `round_trips < 1`"),
        "{e}"
    );
}

#[test]
fn the_found_solution_is_the_smallest_that_meets_the_goal() {
    let (out, ctx) = build("teach-kit.md");
    let html = out.unwrap();
    let ex = &html[html.find("<section class=\"tw-exercise\"").unwrap()..];
    assert_eq!(attr(ex, "data-goal"), r#"[["round_trips","<=",4]]"#);
    let solution = attr(ex, "data-solution");
    let initcwnd: f64 = solution
        .trim_start_matches("{\"initcwnd\":\"")
        .trim_end_matches("\"}")
        .parse()
        .unwrap_or_else(|_| panic!("{solution}"));
    // The simulator agrees, and one less does not do it.
    let spec = widget_catalogue::widget("slow-start").unwrap();
    let rt = |v: f64| {
        let args = vec![
            ("preset".to_string(), "seed-7ms".to_string()),
            ("initcwnd".to_string(), format!("{v}")),
        ];
        measure::widget_run(spec, &args)
            .unwrap()
            .get("round_trips")
            .unwrap()
    };
    assert!(rt(initcwnd) <= 4.0);
    assert!(rt(initcwnd - 1.0) > 4.0);
    // Its widget is placed inside the exercise, with its own id.
    assert!(ex.contains("data-for=\"slow-start-1\""), "{ex}");
    assert!(ex.contains("<div class=\"tcp-widget\" id=\"slow-start-1\""));
    // Hints start hidden; the task's Markdown is rendered.
    assert_eq!(ex.matches("<div class=\"tw-hint\" hidden>").count(), 2);
    assert!(ex.contains("<strong>4</strong>"));
    // Progress knows every completable item, in page order.
    let ids: Vec<&str> = ctx.items.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["predict-1", "predict-2", "exercise-1"]);
}

#[test]
fn a_prediction_hides_its_answer_and_its_figure() {
    let (out, _) = build("teach-kit.md");
    let html = out.unwrap();
    let first = &html[..html.find("id=\"slow-start-predict-2\"").unwrap()];
    assert!(first.contains("<form class=\"tw-predict\" id=\"predict-1\""));
    assert!(first.contains("data-predict=\"round_trips\""));
    // No drawing of the run, and no number from it, before the reader answers.
    assert!(!first.contains("<img"), "{first}");
    let spec = widget_catalogue::widget("slow-start").unwrap();
    let args = vec![("preset".to_string(), "seed-7ms".to_string())];
    let r = measure::widget_run(spec, &args).unwrap();
    let completion = format!("{:.1}", r.get("completion_ms").unwrap());
    assert!(!first.contains(&completion), "{completion} in {first}");
    // Choices carry their conditions; the page says nothing of which is right.
    let second = &html[html.find("id=\"predict-2\"").unwrap()..];
    assert!(
        second.contains(r#"data-goal="[[&quot;round_trips&quot;,&quot;&lt;=&quot;,5]]""#),
        "{second}"
    );
}

#[test]
fn a_seed_table_runs_the_case_in_its_kernels_and_today() {
    let (out, _) = build("teach-kit.md");
    let html = out.unwrap();
    let table = &html[html.find("<div class=\"tw-seed-table\">").unwrap()..];
    let dir = measure::scenario_dir(&root());
    let seed = measure::scenario_run(&dir, "seed-004-512k-7ms.toml", None).unwrap();
    let today = measure::scenario_run(
        &dir,
        "seed-004-512k-7ms.toml",
        Some(sim_core::config::Kernel::Today),
    )
    .unwrap();
    let kernels = seed.kernels.clone();
    let (seed, today) = (seed.results, today.results);
    let cell = |v: f64| format!("{v:.1} ms");
    assert!(
        table.contains(&format!(
            "{}<br><span class=\"tw-kernels\">{kernels}</span>",
            cell(seed.get("completion_ms").unwrap())
        )),
        "{table}"
    );
    assert!(
        table.contains(&format!(
            "{}<br><span class=\"tw-kernels\">Linux 6.18</span>",
            cell(today.get("completion_ms").unwrap())
        )),
        "{table}"
    );
    assert!(kernels.contains("4.18"), "{kernels}");
}

#[test]
fn malformed_blocks_fail_with_their_reason() {
    let bad = |text: &str| {
        let mut ctx = Ctx::new("x.html", &root());
        expand(text, "", &figure, &mut ctx).unwrap_err()
    };
    let e = bad(
        "{{#exercise slow-start preset=seed-7ms controls=initcwnd}}\ntitle = 1\n{{/exercise}}\n",
    );
    assert!(e.contains("in its body"), "{e}");
    let e = bad(
        "{{#exercise slow-start preset=seed-7ms}}\ntitle=\"t\"\ntask=\"t\"\ngoal=\"round_trips <= 3\"\nexplanation=\"e\"\nsearch=\"initcwnd\"\n{{/exercise}}\n",
    );
    assert!(e.contains("controls="), "{e}");
    let e = bad(
        "{{#exercise slow-start preset=seed-7ms controls=initcwnd}}\ntitle=\"t\"\ntask=\"t\"\ngoal=\"round_trips <= 20\"\nexplanation=\"e\"\nsearch=\"initcwnd\"\n{{/exercise}}\n",
    );
    assert!(e.contains("already meets the goal"), "{e}");
    let e = bad(
        "{{#exercise slow-start preset=seed-7ms controls=initcwnd}}\ntitle=\"t\"\ntask=\"t\"\ngoal=\"round_trips <= 4\"\nexplanation=\"e\"\nsolution={initcwnd=\"11\"}\n{{/exercise}}\n",
    );
    assert!(e.contains("does not meet the goal"), "{e}");
    let e = bad("{{#exercise slow-start}}\nno end\n");
    assert!(e.contains("no `{{/exercise}}` line"), "{e}");
    let e = bad("{{#widget slow-start predict=\"How many?\"}}\n");
    assert!(e.contains("answer=round_trips"), "{e}");
    let e = bad("{{#widget slow-start predict=\"How many?\" answer=flights}}\n");
    assert!(e.contains("unknown result `flights`"), "{e}");
    let e = bad(
        "{{#seed-table}}\n[[row]]\nfigure=\"f\"\nreported=\"r\"\nscenario=\"../etc/passwd\"\nmetric=\"completion_ms\"\nwhy=\"w\"\n{{/seed-table}}\n",
    );
    assert!(e.contains("name a file in scenarios/"), "{e}");
}
