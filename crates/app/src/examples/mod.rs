//! The documents of the examples menu: every file of `examples/`, and a few
//! written for the playground (a minimal playbook and manifest, and a
//! generated playbook of 200 steps to feel the speed on a large document).

use opb_core::Syntax;
use std::fmt::Write;

/// A document the examples menu offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The file name the header shows.
    pub name: &'static str,
    pub text: String,
}

impl Example {
    pub fn syntax(&self) -> Syntax {
        Syntax::from_path(self.name).unwrap_or_else(|| Syntax::sniff(&self.text))
    }
}

/// The example the playground opens with.
pub const DEFAULT: &str = "failed-charge-recovery.json";

const FILES: [(&str, &str); 6] = [
    (
        "failed-charge-recovery.json",
        include_str!("../../../../examples/failed-charge-recovery.json"),
    ),
    ("refund-triage.broken.yaml", include_str!("../../../../examples/refund-triage.broken.yaml")),
    (
        "acme-github.oz0-plugin.yaml",
        include_str!("../../../../examples/acme-github.oz0-plugin.yaml"),
    ),
    (
        "shady-tools.broken.oz0-plugin.yaml",
        include_str!("../../../../examples/shady-tools.broken.oz0-plugin.yaml"),
    ),
    ("minimal-playbook.yaml", include_str!("minimal-playbook.yaml")),
    ("minimal-manifest.oz0-plugin.yaml", include_str!("minimal-manifest.oz0-plugin.yaml")),
];

/// Steps in the generated large playbook.
pub const LARGE_STEPS: usize = 200;

/// Every example, in menu order.
pub fn all() -> Vec<Example> {
    let mut examples: Vec<Example> =
        FILES.iter().map(|&(name, text)| Example { name, text: text.to_owned() }).collect();
    examples.push(Example {
        name: "large-playbook-200-steps.json",
        text: large_playbook(LARGE_STEPS / 10),
    });
    examples
}

/// The example called `name`.
pub fn named(name: &str) -> Option<Example> {
    all().into_iter().find(|e| e.name == name)
}

/// A valid playbook of `batches` batches of ten steps: seven review steps, a
/// gate, a send step the gate approves and a note step, chained batch to
/// batch. Every tool is used and every step is reachable.
fn large_playbook(batches: usize) -> String {
    let mut steps = Vec::with_capacity(batches * 10);
    for batch in 1..=batches {
        let id = |part: &str| format!("batch-{batch:02}-{part}");
        for review in 1..=7 {
            let tool = if review % 2 == 1 { "customer.get" } else { "charge.history" };
            steps.push(format!(
                r#"{{ "id": "{}", "kind": "agent", "agent": "lou", "purpose": "Review part {review} of batch {batch}.", "allowedTools": ["{tool}"], "next": "{}" }}"#,
                id(&format!("review-{review}")),
                if review < 7 { id(&format!("review-{}", review + 1)) } else { id("gate") },
            ));
        }
        steps.push(format!(
            r#"{{ "id": "{}", "kind": "gate", "purpose": "A person approves the emails of batch {batch}.", "next": {{ "approved": "{}", "rejected": "{}" }} }}"#,
            id("gate"),
            id("send"),
            id("note"),
        ));
        steps.push(format!(
            r#"{{ "id": "{}", "kind": "agent", "agent": "lou", "purpose": "Send the approved emails of batch {batch}.", "allowedTools": ["email.send"], "next": "{}" }}"#,
            id("send"),
            id("note"),
        ));
        let next = if batch < batches {
            format!(r#", "next": "batch-{:02}-review-1""#, batch + 1)
        } else {
            String::new()
        };
        steps.push(format!(
            r#"{{ "id": "{}", "kind": "agent", "agent": "lou", "purpose": "Note the outcome of batch {batch}.", "allowedTools": ["today.surface"]{next} }}"#,
            id("note"),
        ));
    }
    let mut text = String::from(LARGE_HEADER);
    for (i, step) in steps.iter().enumerate() {
        let comma = if i + 1 < steps.len() { "," } else { "" };
        let _ = writeln!(text, "    {step}{comma}");
    }
    text.push_str("  ],\n  \"start\": \"batch-01-review-1\"\n}\n");
    text
}

const LARGE_HEADER: &str = r#"{
  "openplaybook": "1.6",
  "id": "bulk-charge-recovery",
  "name": "Bulk charge recovery",
  "description": "Work through failed charges in batches: review each customer, have a person approve the emails, send them and note the outcome.",
  "manifest": { "requiredConnectors": ["stripe", "resend"] },
  "requires": {
    "connections": [
      { "provider": "stripe", "authKind": "oauth", "scopes": ["read_only"], "capabilities": ["charge.history"] },
      { "provider": "resend", "authKind": "api_token", "scopes": [], "capabilities": ["email.send"] }
    ],
    "mcpServers": [],
    "secrets": []
  },
  "tools": [
    { "name": "customer.get", "source": "primitive", "description": "Read one customer's profile.", "permissions": ["customers:read"], "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" }, "riskClass": "read", "sideEffecting": false, "requiresApproval": false, "scope": "workspace" },
    { "name": "charge.history", "source": "connector", "connectorType": "stripe", "description": "List a customer's recent charges.", "permissions": ["charges:read"], "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" }, "riskClass": "read", "sideEffecting": false, "requiresApproval": false, "scope": "workspace" },
    { "name": "email.send", "source": "connector", "connectorType": "resend", "description": "Send one email to one customer.", "permissions": ["email:send"], "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" }, "dataScopeWrites": ["outbound_email"], "riskClass": "customer_comms", "sideEffecting": true, "requiresApproval": true, "scope": "workspace" },
    { "name": "today.surface", "source": "primitive", "description": "Put a card on the team's Today page.", "permissions": ["today:write"], "inputSchema": { "type": "object" }, "outputSchema": { "type": "object" }, "dataScopeWrites": ["today"], "riskClass": "internal", "sideEffecting": true, "requiresApproval": false, "scope": "workspace" }
  ],
  "steps": [
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use opb_core::{Kind, Options};

    #[test]
    fn the_menu_holds_every_file_of_examples() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
        let names: Vec<String> = all().iter().map(|e| e.name.to_owned()).collect();
        for entry in std::fs::read_dir(dir).expect("examples/ exists").flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(names.contains(&name), "examples/{name} is missing from the menu");
        }
        assert!(named(DEFAULT).is_some());
    }

    #[test]
    fn examples_read_as_their_names_say() {
        for example in all() {
            let checked = opb_core::check(
                &example.text,
                &Options { syntax: Some(example.syntax()), ..Options::default() },
            );
            let expected = if example.name.contains("oz0-plugin") {
                Kind::PluginManifest
            } else {
                Kind::Playbook
            };
            assert_eq!(checked.kind, Some(expected), "{}", example.name);
            let serious: Vec<_> = checked
                .diagnostics
                .iter()
                .filter(|d| d.severity != opb_core::Severity::Info)
                .map(|d| format!("{} {} at {}: {}", d.code, d.name, d.pointer, d.message))
                .collect();
            if example.name.contains(".broken.") {
                assert!(!serious.is_empty(), "{} has no findings", example.name);
            } else {
                assert!(serious.is_empty(), "{}:\n{}", example.name, serious.join("\n"));
            }
        }
    }

    #[test]
    fn the_large_playbook_has_its_steps() {
        let text = large_playbook(LARGE_STEPS / 10);
        assert_eq!(text.matches(r#""kind": "#).count(), LARGE_STEPS);
    }
}
