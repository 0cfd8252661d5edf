//! `{{#machine}}` … `{{/machine}}`: "On your machine", commands the reader
//! runs on their own Linux box and what to look for in the output.
//!
//! ```text
//! {{#machine}}
//! intro = "Linux keeps the window it starts with per route. (Markdown, optional)"
//! [[command]]
//! run = "ip route show"
//! root = false
//! look = "A route with `initcwnd 10` overrides the default for that destination. (Markdown)"
//! output = """
//! default via 192.168.1.1 dev wlan0 proto dhcp metric 600
//! """                                      # optional: an example, never a measurement
//! {{/machine}}
//! ```
//!
//! Each command gets a Copy button (`theme/teach.js`) and says whether it
//! needs root; a sample output is labelled as an example.

use super::{Block, Ctx, markdown, toml_body};
use crate::render::escape;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    #[serde(default)]
    intro: Option<String>,
    #[serde(default)]
    command: Vec<Command>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Command {
    run: String,
    root: bool,
    look: String,
    #[serde(default)]
    output: Option<String>,
}

pub fn render(b: &Block, ctx: &mut Ctx) -> Result<String, String> {
    let body: Body = toml_body(b)?;
    if body.command.is_empty() {
        return Err("an \"On your machine\" block has one or more `[[command]]`".into());
    }
    for (i, c) in body.command.iter().enumerate() {
        if c.run.trim().is_empty() || c.look.trim().is_empty() {
            return Err(format!(
                "command {}: `run` and `look` say what to type and what to look for",
                i + 1
            ));
        }
    }
    let id = ctx.next_id("machine");
    let mut out = format!(
        "\n<section class=\"tw-machine\" id=\"{id}\" aria-labelledby=\"{id}-title\">\n\
         <p class=\"tw-machine-title\" id=\"{id}-title\">On your machine</p>\n"
    );
    if let Some(intro) = &body.intro {
        out.push_str(&format!(
            "<div class=\"tw-machine-intro\">{}</div>\n",
            markdown(intro)
        ));
    }
    for c in &body.command {
        let root = if c.root {
            "<span class=\"tw-root tw-root-yes\" title=\"Run it with sudo\">needs root</span>"
        } else {
            "<span class=\"tw-root tw-root-no\">no root needed</span>"
        };
        out.push_str(&format!(
            "<div class=\"tw-command\">\n\
             <div class=\"tw-command-bar\">{root} <button type=\"button\" class=\"tw-copy\">Copy</button></div>\n\
             <pre class=\"tw-command-line\"><code class=\"language-bash\">{}</code></pre>\n\
             <div class=\"tw-look\"><strong>Look for:</strong> {}</div>\n",
            escape(c.run.trim()),
            markdown(&c.look),
        ));
        if let Some(sample) = &c.output {
            out.push_str(&format!(
                "<details class=\"tw-sample\"><summary>Example output (from one machine, not a measurement of yours)</summary>\n\
                 <pre><code class=\"language-text\">{}</code></pre></details>\n",
                escape(sample.trim_end_matches('\n'))
            ));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> Result<String, String> {
        let b = Block {
            name: "machine",
            args_text: "",
            body,
            line: 1,
        };
        render(&b, &mut Ctx::default())
    }

    #[test]
    fn each_command_has_a_copy_button_its_root_badge_and_what_to_look_for() {
        let html = run(r#"
intro = "Your kernel's **defaults**."
[[command]]
run = "sysctl net.ipv4.tcp_slow_start_after_idle"
root = false
look = "`1`: the window shrinks after an idle second."
[[command]]
run = "ip route change default via 10.0.0.1 initcwnd 20 && echo <done>"
root = true
look = "Nothing: it succeeds quietly."
output = "net.ipv4.tcp_slow_start_after_idle = 1\n"
"#)
        .unwrap();
        assert!(html.contains("<section class=\"tw-machine\" id=\"machine-1\""));
        assert!(
            html.contains(
                "<p class=\"tw-machine-title\" id=\"machine-1-title\">On your machine</p>"
            )
        );
        assert!(html.contains("<p>Your kernel's <strong>defaults</strong>.</p>"));
        assert_eq!(
            html.matches("<button type=\"button\" class=\"tw-copy\">Copy</button>")
                .count(),
            2
        );
        assert!(html.contains("no root needed") && html.contains("needs root"));
        // The command is text, escaped, not HTML.
        assert!(html.contains("initcwnd 20 &amp;&amp; echo &lt;done&gt;</code></pre>"));
        assert!(html.contains("<strong>Look for:</strong> <p><code>1</code>"));
        assert!(html.contains("Example output (from one machine, not a measurement of yours)"));
        assert_eq!(html.matches("<details class=\"tw-sample\">").count(), 1);
    }

    #[test]
    fn a_block_without_commands_or_with_an_unknown_key_fails() {
        assert!(
            run("intro = \"x\"\n")
                .unwrap_err()
                .contains("one or more `[[command]]`")
        );
        let e = run("[[command]]\nrun = \"ss -tin\"\nroot = false\nlook = \"x\"\nsudo = true\n")
            .unwrap_err();
        assert!(e.contains("unknown field `sudo`"), "{e}");
        let e = run("[[command]]\nrun = \"ss -tin\"\nlook = \"x\"\n").unwrap_err();
        assert!(e.contains("missing field `root`"), "{e}");
    }
}
