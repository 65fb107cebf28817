//! A document as a fragment of a docs page, written when the site is built:
//! the static step graph, the trust summary or the whole report, and the
//! document's problems, as HTML that reads fully without script. `opb render
//! --format fragment` writes it, and so do the npm package's Markdown
//! plugins (through the viewer's wasm in Node), so a page says the same
//! whichever builds it.
//!
//! Its style is its own and stays in it: the report's, the trust summary's
//! and the graph's stylesheets, every rule scoped to the fragment's root
//! (class `opb-fragment`) and every colour a custom property set there,
//! the light palette by default and the dark one under the site's dark
//! selector ([`DarkSelector`]), so the drawing follows the site's toggle
//! without a rebuild. A property the sheets do not set themselves (the
//! page's accent, fonts) reads its fallback, not the page's.
//!
//! Every text comes from the core, which masks credentials, and is escaped.

use crate::html::{account, diagnostic_list, REPORT_CSS, TRUST_CSS};
use crate::markup::UNREAD;
use crate::svg::{own_properties_only, uncommented, DRAWING_CSS, GRAPH_CSS};
use crate::xml::escape;
use crate::Theme;
use opb_core::explain::Explain;
use opb_core::{Analysis, Kind, Severity};
use std::fmt::Write;

/// The class of a fragment's root, which every rule of its style is
/// scoped to.
pub const ROOT_CLASS: &str = "opb-fragment";

/// What a fragment shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The step graph (a plugin manifest, which has none, shows its trust
    /// summary), and the document's problems.
    #[default]
    Graph,
    /// The trust summary, and the document's problems.
    Summary,
    /// The HTML report's content: `opb explain`'s account, the trust
    /// summary, the graph and every diagnostic.
    Report,
}

impl View {
    /// The view named `name`: `graph`, `summary` or `report`.
    pub fn parse(name: &str) -> Result<View, Refused> {
        match name {
            "graph" => Ok(View::Graph),
            "summary" => Ok(View::Summary),
            "report" => Ok(View::Report),
            _ => Err(Refused(format!(
                "the view {:?} is not one opb knows: graph, summary or report",
                name
            ))),
        }
    }

    /// The view's name, as [`View::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            View::Graph => "graph",
            View::Summary => "summary",
            View::Report => "report",
        }
    }
}

impl Theme {
    /// The theme named `name`: `light`, `dark` or `auto`.
    pub fn parse(name: &str) -> Result<Theme, Refused> {
        match name {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            "auto" => Ok(Theme::Auto),
            _ => Err(Refused(format!(
                "the theme {:?} is not one opb knows: light, dark or auto",
                name
            ))),
        }
    }
}

/// An option refused, with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// The CSS selector of the site's dark mode, which an `auto` fragment's
/// dark palette is written under: it is set on an ancestor of the
/// fragment (usually `<html>`) while the site is dark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DarkSelector(String);

impl DarkSelector {
    /// VitePress's: a `dark` class on `<html>`.
    pub const DEFAULT: &'static str = "html.dark";

    /// `selector`, refused when it could reach outside the one rule it is
    /// written in: a brace, a semicolon, `<` (which could close the
    /// fragment's `<style>`), a comma (the dark palette would go to the
    /// elements the selector names, outside the fragment), a comment, a
    /// backslash or an unclosed quote; or when it is blank.
    pub fn new(selector: &str) -> Result<DarkSelector, Refused> {
        let selector = selector.trim();
        let refuse =
            |why: &str| Err(Refused(format!("the dark selector {selector:?} is refused: {why}")));
        if selector.is_empty() {
            return refuse("it is empty; VitePress's is `html.dark`");
        }
        if let Some(c) = selector.chars().find(|c| matches!(c, '{' | '}' | '<' | ';' | ',' | '\\'))
        {
            return refuse(&format!(
                "{c:?} could carry it outside the fragment's style; name one selector of the element the site marks dark, such as `html.dark` or `[data-theme=\"dark\"]`"
            ));
        }
        if selector.contains("/*") || selector.contains("*/") {
            return refuse("a comment could hide the rest of the fragment's style");
        }
        if selector.matches('"').count() % 2 == 1 || selector.matches('\'').count() % 2 == 1 {
            return refuse("a quote is left open");
        }
        Ok(DarkSelector(selector.to_owned()))
    }

    /// The selector as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for DarkSelector {
    fn default() -> Self {
        DarkSelector(DarkSelector::DEFAULT.to_owned())
    }
}

/// How a fragment is written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// What it shows.
    pub view: View,
    /// Its colours: `Auto` follows the site's dark selector, light when
    /// the site is not dark.
    pub theme: Theme,
    /// The site's dark mode, for [`Theme::Auto`].
    pub dark: DarkSelector,
    /// Whether the live `<opb-viewer>` is put over the static fragment,
    /// which it shows until the element's script has drawn the live view.
    pub interactive: bool,
}

/// The fragment of the document `text`, read from `name` and analysed as
/// `analysis` (as `kind`, when the caller said which).
///
/// With [`Options::interactive`], the fragment is the light-DOM content of
/// an `<opb-viewer>` holding the document in its `code` attribute; not
/// when the core flagged a credential in it, so a page never carries one
/// whole: that document is shown static only.
pub fn fragment(
    name: &str,
    text: &str,
    analysis: &Analysis,
    kind: Option<Kind>,
    options: &Options,
) -> String {
    let mut out = String::with_capacity(32_768);
    let live = options.interactive && analysis.masking().is_empty();
    // `v-pre` on the outermost element: a Vue-based site (VitePress)
    // compiles a page's HTML as a template, which would read a document's
    // `{{` as an expression.
    if live {
        write!(out, r#"<opb-viewer code="{}""#, escape(text)).ok();
        if let Some(kind) = kind {
            write!(out, r#" kind="{}""#, kind.as_str()).ok();
        }
        if options.theme != Theme::Auto {
            write!(out, r#" theme="{}""#, options.theme.name()).ok();
        }
        out.push_str(" v-pre>");
    }
    // The style is an SVG's: an HTML parser reads the text of an SVG
    // `<style>` with its character references decoded, where an HTML
    // `<style>`'s is taken as it is, so the style stays whole through a
    // site that escapes the text it passes on (VitePress's server render
    // writes `"` as `&quot;`).
    write!(
        out,
        r#"<div class="{ROOT_CLASS}" data-theme="{}" data-view="{}" v-pre><svg class="opb-style" width="0" height="0" aria-hidden="true"><style>{}</style></svg>"#,
        options.theme.name(),
        options.view.name(),
        escape(&stylesheet(&options.dark))
    )
    .ok();
    let diagnostics = &analysis.checked.diagnostics;
    match (&analysis.explain, options.view) {
        (None, _) => {
            write!(out, "<p>{}</p>", escape(UNREAD)).ok();
            diagnostic_list(&mut out, name, diagnostics);
        }
        (Some(_), View::Report) => {
            if let Some((_, body)) = account(name, analysis, crate::figure::for_fragment) {
                out.push_str(&body);
            }
        }
        (Some(Explain::Playbook(explain)), View::Graph) => {
            out.push_str(&crate::figure::for_fragment(explain));
            diagnostic_list(&mut out, name, diagnostics);
        }
        (Some(_), View::Graph | View::Summary) => {
            if let Some(summary) = opb_core::trust_summary(analysis) {
                write!(out, r#"<div class="trust-banner">{}</div>"#, crate::glance::html(&summary))
                    .ok();
            }
            diagnostic_list(&mut out, name, diagnostics);
        }
    }
    out.push_str("</div>");
    if live {
        out.push_str("</opb-viewer>");
    }
    out.push('\n');
    out
}

/// Why a build that asked for a document free of errors fails, in lines:
/// the document read from `name` and its errors counted, then each error
/// with its code, line and message (masked by the core); `None` when it
/// has no error.
pub fn strict_failure(name: &str, analysis: &Analysis) -> Option<Vec<String>> {
    let errors: Vec<_> =
        analysis.checked.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    if errors.is_empty() {
        return None;
    }
    let mut lines = vec![format!(
        "{name} has {}, and strict forbids any:",
        crate::words::plural(errors.len(), "error", "errors")
    )];
    lines.extend(
        errors.iter().map(|d| format!("{} line {}: {}", d.code, d.range.start.line, d.message)),
    );
    Some(lines)
}

/// The fragment's own rules, beside the report's: its frame, the box of
/// its summary, and its style's SVG, hidden.
const FRAGMENT_CSS: &str = "svg.opb-style{display:none}:root{display:block;margin:16px 0;padding:12px 16px;border:1px solid var(--border);border-radius:10px;line-height:1.55}.trust-banner{margin:0 0 8px}:root>p:first-of-type{margin-top:0}";

/// The fragment's style: the report's, the trust summary's, the graph's and
/// its own rules, each scoped to the fragment's root; the light palette on
/// the root, the dark one on a dark root and, for `auto`, under `dark`;
/// light on paper whatever the theme.
fn stylesheet(dark: &DarkSelector) -> String {
    let sheets = [REPORT_CSS, TRUST_CSS, GRAPH_CSS, DRAWING_CSS, FRAGMENT_CSS];
    let css = own_properties_only(&uncommented(&sheets.concat()));
    let root = format!(".{ROOT_CLASS}");
    let mut scoping = Scoping { root: &root, dark: dark.as_str(), light: String::new() };
    let mut out = String::with_capacity(css.len());
    scoping.rules(&css, &mut out, true);
    write!(
        out,
        r#"@media print{{{root}[data-theme],{dark} {root}[data-theme]{{{}}}}}"#,
        scoping.light,
        dark = dark.as_str()
    )
    .ok();
    out
}

/// Rewrites a stylesheet's rules for the fragment.
struct Scoping<'a> {
    root: &'a str,
    dark: &'a str,
    /// The light palette's declarations, for paper.
    light: String,
}

impl Scoping<'_> {
    /// Writes each rule of `css` scoped, an at-rule's rules inside it
    /// too; `top` when `css` is the sheet's own level.
    fn rules(&mut self, css: &str, out: &mut String, top: bool) {
        let mut rest = css.trim_start();
        while let Some(open) = rest.find('{') {
            let head = rest[..open].trim();
            let Some(close) = closing(rest, open) else { break };
            let body = &rest[open + 1..close];
            if head.starts_with('@') {
                write!(out, "{}{{", squeezed(head)).ok();
                self.rules(body, out, false);
                out.push('}');
            } else {
                let body = squeezed(body);
                let selectors: Vec<String> =
                    head.split(',').map(|s| self.selector(squeezed(s).as_str())).collect();
                if top && head == ":root" {
                    self.light.push_str(&body);
                    if !body.ends_with(';') {
                        self.light.push(';');
                    }
                }
                write!(out, "{}{{{body}}}", selectors.join(",")).ok();
            }
            rest = rest[close + 1..].trim_start();
        }
    }

    /// `selector` within the fragment: the page's root and body are the
    /// fragment's root; the dark theme's root rule is also written under
    /// the site's dark selector, for `auto`.
    fn selector(&self, selector: &str) -> String {
        let root = self.root;
        if selector == r#":root[data-theme="dark"]"# {
            return format!(r#"{root}[data-theme="dark"],{} {root}[data-theme="auto"]"#, self.dark);
        }
        if let Some(rest) = selector.strip_prefix(":root") {
            return format!("{root}{rest}");
        }
        if selector == "body" {
            return root.to_owned();
        }
        format!("{root} {selector}")
    }
}

/// Where the block opened at `open` closes, blocks inside it skipped.
fn closing(css: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in css[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + at);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` with each run of white space made one space, trimmed.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::{stylesheet, DarkSelector, View, ROOT_CLASS};

    #[test]
    fn a_dark_selector_that_could_leave_its_rule_is_refused() {
        for selector in [
            "html.dark",
            r#"[data-theme="dark"]"#,
            r#"[data-md-color-scheme="slate"]"#,
            "html > body.dark",
        ] {
            assert_eq!(DarkSelector::new(selector).unwrap().as_str(), selector);
        }
        for (selector, why) in [
            ("html.dark{}", "'{' could carry it outside"),
            ("}body{color:red", "'}' could carry it outside"),
            ("</style><script>", "'<' could carry it outside"),
            ("html.dark;x", "';' could carry it outside"),
            ("html.dark, body", "',' could carry it outside"),
            ("html /* x", "a comment"),
            (r#"[data-theme="dark]"#, "a quote is left open"),
            ("  ", "it is empty"),
        ] {
            let refused = DarkSelector::new(selector).unwrap_err().to_string();
            assert!(refused.starts_with("the dark selector"), "{refused}");
            assert!(refused.contains(why), "{selector}: {refused}");
        }
    }

    #[test]
    fn every_rule_is_scoped_to_the_fragment_and_the_dark_palette_goes_under_the_selector() {
        let css = stylesheet(&DarkSelector::new(r#"[data-theme="dark"]"#).unwrap());
        let root = format!(".{ROOT_CLASS}");
        // Every rule's every selector starts at the fragment's root (a
        // rule's selectors are what comes before its block's last `{`).
        for rule in css.split('}') {
            let parts: Vec<&str> = rule.split('{').collect();
            let Some(selectors) = parts.len().checked_sub(2).map(|i| parts[i]) else { continue };
            for selector in selectors.split(',') {
                assert!(
                    selector.starts_with(&root)
                        || selector.starts_with(r#"[data-theme="dark"] .opb-fragment"#),
                    "{selector}"
                );
            }
        }
        assert!(css.contains(r#"[data-theme="dark"] .opb-fragment[data-theme="auto"]{"#));
        assert!(!css.contains(":root") && !css.contains("/*"));
        assert!(!css.contains("var(--accent"), "the page's accent is not read");
        assert_eq!(View::parse("summary"), Ok(View::Summary));
        assert!(View::parse("everything").is_err());
    }
}
