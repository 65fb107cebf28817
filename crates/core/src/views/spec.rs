//! The enumerations the seeds define, in one place.

/// `tools[].source` (seed 000).
pub const SOURCES: &[&str] = &["primitive", "connector", "mcp"];

/// `tools[].riskClass` (seed 000), from least to most consequential.
pub const RISK_CLASSES: &[&str] = &["read", "internal", "customer_comms", "money"];

/// `tools[].connectorType` and `requires.connections[].provider` (seed 000).
pub const PROVIDERS: &[&str] = &[
    "stripe",
    "github",
    "vercel",
    "posthog",
    "gmail",
    "resend",
    "linear",
    "slack",
    "notion",
    "mercury",
    "square",
    "plaid",
    "shopify",
    "ramp",
    "clover",
    "brex",
    "stripe_financial_connections",
    "teller",
    "paypal",
    "etsy",
    "amazon",
    "gusto",
];

/// `requires.connections[].authKind` (seed 000).
pub const AUTH_KINDS: &[&str] = &["oauth", "api_token", "aggregator_link"];

/// `tools[].scope` (seed 000).
pub const SCOPES: &[&str] = &["app", "workspace"];

/// The OpenPlaybook version the project knows, and the one that introduced
/// `mcpServers` and `secrets`.
pub const CURRENT_VERSION: (u32, u32) = (1, 6);

/// Step kinds the project knows (DOCUMENTS.md §1, an assumption).
pub const STEP_KINDS: &[&str] = &["agent", "gate"];

/// Lists enum values for messages: "`a`, `b` or `c`".
pub fn one_of(values: &[&str]) -> String {
    let mut out = String::new();
    crate::diagnostics::prose::write_list(&mut out, values, "or", |out, value| {
        out.push('`');
        out.push_str(value);
        out.push('`');
    });
    out
}

/// What a tool of each risk class may do, in one sentence, for legends. The
/// seed names the four classes and nothing more; these readings follow the
/// names, and its one rule about them: read tools change nothing and never
/// ask for approval.
pub fn risk_meaning(class: &str) -> Option<&'static str> {
    Some(match class {
        "read" => "Only reads data: it changes nothing and never needs a person's approval.",
        "internal" => "Changes your own systems and records (notes, tickets, pages), out of customers' sight.",
        "customer_comms" => "Speaks to customers (an email, a message): once sent, it cannot be taken back.",
        "money" => "Moves money or changes what someone pays: charges, refunds, payouts.",
        _ => return None,
    })
}

/// A risk class's rank, higher is more consequential.
pub fn risk_rank(class: &str) -> Option<usize> {
    RISK_CLASSES.iter().position(|c| *c == class)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_risk_class_has_a_meaning() {
        assert!(super::RISK_CLASSES.iter().all(|c| super::risk_meaning(c).is_some()));
        assert_eq!(super::risk_meaning("write"), None);
    }

    #[test]
    fn one_of_reads_naturally() {
        assert_eq!(super::one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(super::one_of(&["a"]), "`a`");
    }
}
