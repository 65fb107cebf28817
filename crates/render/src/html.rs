//! One self-contained HTML report of a document, for a docs site or to hand
//! a reader: `opb explain`'s account of it in the same words ([`Page`]), the
//! step graph as [`crate::svg`] draws it, and every diagnostic. No script,
//! no outside URL: the page declares the Content-Security-Policy
//! `default-src 'none'; style-src 'unsafe-inline'; img-src data:` and needs
//! nothing beyond it. Light, dark or as the reader's system prefers, and
//! printable.
//!
//! Every text comes from the core, which masks credentials, and is escaped.

use crate::explain::{Page, Tone};
use crate::xml::{code_spans, escape};
use crate::Theme;
use opb_core::explain::{Explain, PlaybookExplain};
use opb_core::{Analysis, Diagnostic};
use std::fmt::Write;

/// The page's own stylesheet.
pub(crate) const REPORT_CSS: &str = include_str!("report.css");

/// The trust summary's stylesheet, as the playground links it.
pub(crate) const TRUST_CSS: &str = include_str!("../../../style/trust.css");

/// The Content-Security-Policy the report declares, and is read under.
pub const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// The report of the document read from `name`, analysed as `analysis`;
/// `None` when it could not be read as a playbook or a plugin manifest
/// (`opb check` says why).
pub fn report(name: &str, analysis: &Analysis, theme: Theme) -> Option<String> {
    let (title, body) =
        account(name, analysis, |explain| crate::figure::for_report(explain, theme))?;
    let mut out = String::with_capacity(16_384 + body.len());
    write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en" data-theme="{theme}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta http-equiv="Content-Security-Policy" content="{POLICY}" />
<title>{} · opb</title>
<style>{auto}{REPORT_CSS}{TRUST_CSS}{print}</style>
</head>
<body>
<main>
"#,
        escape(&title),
        theme = theme.name(),
        auto = crate::dark_when_preferred(
            REPORT_CSS,
            r#":root[data-theme="dark"]"#,
            r#":root[data-theme="auto"]"#
        )
        .unwrap_or_default(),
        print =
            crate::light_when_printed(REPORT_CSS, ":root", ":root[data-theme]").unwrap_or_default(),
    )
    .ok();
    out.push_str(&body);
    write!(
        out,
        "<footer>Written by <code>opb render --format html</code> from {}. Credentials are shown cut to their first four characters.</footer>\n</main>\n</body>\n</html>\n",
        escape(name)
    )
    .ok();
    Some(out)
}

/// The report's content, for a page or a fragment of one ([`crate::fragment`]):
/// its title, and the account's opening, the trust summary, the graph as
/// `graph` draws it, the diagnostics and the account's sections; `None`
/// when the document could not be read as a playbook or a plugin manifest.
pub(crate) fn account(
    name: &str,
    analysis: &Analysis,
    graph: impl FnOnce(&PlaybookExplain) -> String,
) -> Option<(String, String)> {
    let explain = analysis.explain.as_ref()?;
    let mut page = HtmlPage::default();
    let (title, graph) = match explain {
        Explain::Playbook(explain) => {
            crate::explain::playbook::render(name, explain, &mut page);
            let title = explain.document.name.clone().or_else(|| explain.document.id.clone());
            (title, Some(graph(explain)))
        }
        Explain::PluginManifest(explain) => {
            crate::explain::manifest::render(name, explain, &mut page);
            (explain.plugin.name.clone(), None)
        }
    };
    let blocks = page.finish();
    // The account's opening (its title and what the document is) heads the
    // page; the graph and the diagnostics come before its sections.
    let first_section = blocks.iter().position(|b| b.starts_with("<h2")).unwrap_or(blocks.len());
    let mut out = String::with_capacity(16_384);
    for block in &blocks[..first_section] {
        out.push_str(block);
    }
    if let Some(summary) = opb_core::trust_summary(analysis) {
        write!(out, "<section class=\"trust-banner\">\n<h2>What this document can do</h2>\n{}\n</section>\n", crate::glance::html(&summary)).ok();
    }
    if let Some(graph) = graph {
        write!(out, "<h2>The step graph</h2>\n{graph}\n").ok();
    }
    diagnostics(&mut out, name, &analysis.checked.diagnostics);
    for block in &blocks[first_section..] {
        out.push_str(block);
    }
    Some((title.unwrap_or_else(|| name.to_owned()), out))
}

/// What opb check finds, headed: the diagnostics' list, or that there are
/// none.
pub(crate) fn diagnostics(out: &mut String, name: &str, diagnostics: &[Diagnostic]) {
    out.push_str("<h2>What opb check finds</h2>\n");
    if diagnostics.is_empty() {
        out.push_str("<p>No problems.</p>\n");
    }
    diagnostic_list(out, name, diagnostics);
}

/// The diagnostics of the document read from `name` as a list, each with
/// its code, name, position and message, after a sentence counting them;
/// nothing when there are none.
pub(crate) fn diagnostic_list(out: &mut String, name: &str, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        return;
    }
    let counts = opb_core::Counts::of(diagnostics);
    let parts = [
        (counts.error, "error", "errors"),
        (counts.warning, "warning", "warnings"),
        (counts.info, "info", "infos"),
    ]
    .map(|(n, one, many)| crate::words::plural(n, one, many));
    write!(out, "<p>{} in {}.</p>\n<ul class=\"diagnostics\">\n", parts.join(", "), escape(name))
        .ok();
    for d in diagnostics {
        let at = d.range.start;
        writeln!(
            out,
            "<li data-severity=\"{severity}\"><span class=\"severity\">{severity}</span> <code>{} {}</code> <span class=\"position\">line {}, column {}</span><br />{}</li>",
            d.code,
            d.name,
            at.line,
            at.column,
            code_spans(&d.message),
            severity = d.severity,
        )
        .ok();
    }
    out.push_str("</ul>\n");
}

/// The account as HTML blocks: headings, items, fields as description
/// lists, bullets as lists.
#[derive(Default)]
pub(crate) struct HtmlPage {
    blocks: Vec<String>,
    /// An open `<dl>` or `<ul>`, closed by whatever else comes.
    open: Option<(&'static str, String)>,
}

impl HtmlPage {
    fn close(&mut self) {
        if let Some((tag, body)) = self.open.take() {
            self.blocks.push(format!("{body}</{tag}>\n"));
        }
    }

    /// The open list of `tag`, opened with `opening` if another is open.
    fn list(&mut self, tag: &'static str, opening: &str) -> &mut String {
        if self.open.as_ref().is_none_or(|(open, _)| *open != tag) {
            self.close();
            self.open = Some((tag, opening.to_owned()));
        }
        &mut self.open.as_mut().expect("just opened").1
    }

    pub(crate) fn finish(mut self) -> Vec<String> {
        self.close();
        self.blocks
    }
}

fn tone_class(tone: Tone) -> &'static str {
    match tone {
        Tone::Emphasis => "item",
        Tone::Label => "group",
        Tone::Missing => "missing",
        Tone::Odd => "odd",
    }
}

impl Page for HtmlPage {
    fn heading(&mut self, title: &str) {
        self.close();
        self.blocks.push(format!("<h2>{}</h2>\n", code_spans(title)));
    }

    fn styled_line(&mut self, indent: usize, tone: Tone, head: &str, rest: &str) {
        self.close();
        let tag = match indent {
            0 => "h1",
            1..=2 => "h3",
            _ => "h4",
        };
        self.blocks.push(
            format!(
                r#"<{tag} class="{}">{}<span class="rest">{}</span></{tag}>"#,
                tone_class(tone),
                escape(head),
                code_spans(rest)
            ) + "\n",
        );
    }

    fn field_hanging(
        &mut self,
        _indent: usize,
        label: &str,
        _width: usize,
        value: &str,
        _hang: usize,
    ) {
        let list = self.list("dl", "<dl>\n");
        if !label.is_empty() {
            write!(list, "<dt>{}</dt>", escape(label)).ok();
        }
        writeln!(list, "<dd>{}</dd>", code_spans(value)).ok();
    }

    fn paragraph(&mut self, _indent: usize, text: &str) {
        self.close();
        self.blocks.push(format!("<p>{}</p>\n", code_spans(text)));
    }

    fn bullet(&mut self, _indent: usize, tone: Tone, text: &str) {
        let list = self.list("ul", "<ul>\n");
        writeln!(list, r#"<li class="{}">{}</li>"#, tone_class(tone), code_spans(text)).ok();
    }

    fn blank(&mut self) {
        self.close();
    }
}
