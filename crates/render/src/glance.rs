//! What a reader should know first about a document, at a glance: the
//! core's [`TrustSummary`] in words, as HTML. The playground's trust banner,
//! the viewer and the HTML report all show this markup (styled by
//! `style/trust.css`), so they say the same thing in the same words.
//!
//! Every text comes from the core, which masks credentials, and is escaped.

use crate::words::plural;
use crate::xml::{code, code_spans, escape};
use opb_core::explain::trust::{
    ClassReach, Gate, ManifestReach, Needed, PlaybookReach, Reach, ReachingStep, TrustSummary,
    VerdictLevel,
};
use opb_core::prose::capitalise;
use opb_core::spec::{risk_label, risk_words};
use opb_core::Kind;
use std::fmt::Write;

/// How many names a list shows before "and N more".
const SHOWN: usize = 6;

/// The kind's name as a reader reads it, capitalised.
pub fn kind_label(kind: Kind) -> &'static str {
    match kind {
        Kind::Playbook => "Playbook",
        Kind::PluginManifest => "Plugin manifest",
    }
}

/// A risk class's label, capitalised for a title: "Moves money".
fn class_title(class: &str) -> String {
    risk_label(class).map_or_else(|| class.to_owned(), |label| capitalise(label).to_string())
}

/// The summary as HTML: a heading line (kind, title, problem counts) and
/// the list of facts.
pub fn html(summary: &TrustSummary) -> String {
    let mut out = String::with_capacity(2048);
    let counts = summary.counts;
    if let Some(verdict) = &summary.verdict {
        let level = match verdict.level {
            VerdictLevel::Unsupervised => "unsupervised",
            VerdictLevel::Supervised => "supervised",
            VerdictLevel::Neutral => "neutral",
        };
        write!(
            out,
            r#"<p class="trust-verdict {level}" data-verdict="{level}" data-testid="trust-verdict">{}</p>"#,
            code_spans(&verdict.sentence)
        )
        .ok();
    }
    write!(
        out,
        r#"<p class="trust-heading"><span class="trust-kind">{} </span>"#,
        kind_label(summary.kind)
    )
    .ok();
    if let Some(title) = &summary.title {
        write!(out, r#"<span class="trust-title">“{}”</span>"#, escape(title)).ok();
    }
    write!(
        out,
        r#"<span class="trust-counts{}" data-testid="trust-counts">{}, {}</span></p>"#,
        if counts.error > 0 { " bad" } else { "" },
        plural(counts.error, "error", "errors"),
        plural(counts.warning, "warning", "warnings"),
    )
    .ok();
    if let Some(description) = &summary.description {
        write!(out, r#"<p class="trust-description">{}</p>"#, escape(description)).ok();
    }
    out.push_str(r#"<ul class="trust-facts">"#);
    // Most important first: a credential anyone can use, then what the
    // document may do (money, then customers), then what it needs.
    if summary.credentials > 0 {
        let them = if summary.credentials == 1 { "it" } else { "them" };
        // The alert is inside the item: a list holds items only.
        let alert = format!(
            r#"<span role="alert">{} written into the document (SEC001). Anyone who has it can use {them}: revoke {them}.</span>"#,
            plural(
                summary.credentials,
                "value looks like a credential",
                "values look like credentials"
            ),
        );
        fact(&mut out, "credentials", " danger", "Credentials", &alert);
    }
    match &summary.reach {
        Reach::Playbook(reach) => playbook_facts(&mut out, reach),
        Reach::PluginManifest(reach) => manifest_facts(&mut out, reach),
    }
    let needs: Vec<String> = [
        ("Secrets", &summary.secrets),
        ("Connections", &summary.connections),
        ("MCP servers", &summary.mcp_servers),
    ]
    .into_iter()
    .filter_map(|(label, list)| needed(label, list))
    .collect();
    let requires = if needs.is_empty() {
        r#"<span class="trust-muted">no secrets, connections or servers</span>"#.to_owned()
    } else {
        format!(r#"<span class="trust-needs">{}</span>"#, needs.concat())
    };
    fact(&mut out, "requires", "", "Requires", &requires);
    out.push_str("</ul>");
    out
}

fn fact(out: &mut String, id: &str, class: &str, title: &str, body: &str) {
    write!(out, r#"<li class="trust-fact{class}" data-fact="{}"><span class="trust-fact-title">{}</span>{body}</li>"#, escape(id), escape(title)).ok();
}

/// The first few entries of `list`, `item` writing each, then how many more.
fn first_few<T>(list: &[T], mut item: impl FnMut(&mut String, &T)) -> String {
    let mut out = String::new();
    for (i, entry) in list.iter().take(SHOWN).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        item(&mut out, entry);
    }
    let more = list.len().saturating_sub(SHOWN);
    if more > 0 {
        write!(out, " and {more} more").ok();
    }
    out
}

/// Names as code, the first few of them, and how many more.
fn names(list: &[String]) -> String {
    first_few(list, |out, name| out.push_str(&code(name)))
}

fn needed(label: &str, list: &[Needed]) -> Option<String> {
    if list.is_empty() {
        return None;
    }
    let items = first_few(list, |out, need| {
        out.push_str(&code(&need.name));
        if !need.declared {
            out.push_str(r#"<span class="trust-undeclared"> (not declared)</span>"#);
        }
    });
    Some(format!(
        r#"<span class="trust-need"><span class="trust-need-label">{label}</span> {items}</span>"#
    ))
}

fn gate_text(step: &ReachingStep) -> String {
    match &step.gate {
        Gate::Always { gates } if gates.is_empty() => {
            r#"<span class="trust-gated">a gate comes first</span>"#.to_owned()
        }
        Gate::Always { gates } => {
            format!(r#"<span class="trust-gated">after gate {}</span>"#, names(gates))
        }
        Gate::Approved => {
            r#"<span class="trust-gated">a person approves each call</span>"#.to_owned()
        }
        Gate::Open { route, length } => {
            let cut = if *length > route.len() { "… → " } else { "" };
            let route: Vec<String> = route.iter().map(|step| code(step)).collect();
            format!(
                r#"<span class="trust-open">reached with no gate on the way: {cut}{}</span>"#,
                route.join(" → ")
            )
        }
        Gate::Unreachable => {
            r#"<span class="trust-muted">never reached from the start</span>"#.to_owned()
        }
    }
}

fn class_fact(out: &mut String, reach: &ClassReach) {
    let open = reach.steps.iter().any(|s| matches!(s.gate, Gate::Open { .. }));
    let mut body = String::from(r#"<ul class="trust-steps">"#);
    for step in reach.steps.iter().take(SHOWN) {
        let verb = if step.acts { "acts with" } else { "may call" };
        write!(
            body,
            "<li>Step {} {verb} {}: {}</li>",
            code(&step.step),
            names(&step.tools),
            gate_text(step)
        )
        .ok();
    }
    body.push_str("</ul>");
    let more = reach.steps.len().saturating_sub(SHOWN);
    if more > 0 {
        write!(body, r#"<p class="trust-muted">and {}</p>"#, plural(more, "step", "steps")).ok();
    }
    let title = class_title(&reach.risk_class);
    fact(out, &reach.risk_class, if open { " warn" } else { "" }, &title, &body);
}

fn playbook_facts(out: &mut String, reach: &PlaybookReach) {
    let chips = if reach.risk_classes.is_empty() {
        r#"<span class="trust-muted">no tool with a stated risk</span>"#.to_owned()
    } else {
        let chips: String = reach
            .risk_classes
            .iter()
            .map(|class| {
                format!(
                    r#"<span class="risk-chip" data-risk="{}">{}</span>"#,
                    escape(class),
                    escape(risk_words(class).map_or(class.as_str(), |w| w.short))
                )
            })
            .collect();
        format!(r#"<span class="risk-chips">{chips}</span>"#)
    };
    // A class reached with no gate on the way matters most.
    let open =
        |reach: &&ClassReach| reach.steps.iter().any(|s| matches!(s.gate, Gate::Open { .. }));
    for class in reach.warned.iter().filter(open) {
        class_fact(out, class);
    }
    for class in reach.warned.iter().filter(|c| !open(c)) {
        class_fact(out, class);
    }
    if !reach.unknown_risk_tools.is_empty() {
        let body = format!(
            "<span>{}: only the runtime's registry says what they can do.</span>",
            names(&reach.unknown_risk_tools)
        );
        fact(out, "unknown-risk", "", "Risk not stated", &body);
    }
    fact(out, "risk-classes", "", "Risk classes", &chips);
}

fn manifest_facts(out: &mut String, reach: &ManifestReach) {
    let mut how = Vec::new();
    if !reach.remote_servers.is_empty() {
        how.push(plural(reach.remote_servers.len(), "remote server", "remote servers"));
    }
    if !reach.packages.is_empty() {
        how.push(plural(reach.packages.len(), "package", "packages"));
    }
    if reach.commands > 0 {
        how.push(plural(reach.commands, "local command", "local commands"));
    }
    let how = if how.is_empty() { String::new() } else { format!(": {}", how.join(", ")) };
    fact(
        out,
        "tools",
        "",
        "Runs",
        &format!("<span>{}{how}</span>", plural(reach.tools, "tool", "tools")),
    );
    if !reach.remote_servers.is_empty() {
        fact(out, "remote", "", "Calls", &format!("<span>{}</span>", names(&reach.remote_servers)));
    }
    if !reach.packages.is_empty() {
        fact(out, "packages", "", "Installs", &format!("<span>{}</span>", names(&reach.packages)));
    }
    let egress = if reach.egress {
        "declares egress: its tools reach outside the plugin"
    } else {
        "declares no egress"
    };
    fact(
        out,
        "egress",
        if reach.egress { " warn" } else { "" },
        "Outside",
        &format!("<span>{egress}</span>"),
    );
    if !reach.always_asks.is_empty() {
        fact(
            out,
            "approval",
            "",
            "A person approves",
            &format!("<span>{}</span>", names(&reach.always_asks)),
        );
    }
}
