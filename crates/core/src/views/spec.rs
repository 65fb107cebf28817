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

/// The words for one risk class, the same in every output: the enum value
/// (`customer_comms`) is the document's, never prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RiskWords {
    /// What a tool of the class does, lower case: "moves money".
    pub label: &'static str,
    /// One word for badges and chips: "money".
    pub short: &'static str,
    /// What a step with such a tool can do, after "can": "move money".
    pub act: &'static str,
    /// What it may do, in one sentence ([`risk_meaning`]).
    pub sentence: &'static str,
}

/// The words for a risk class of [`RISK_CLASSES`]; `None` for another value.
pub fn risk_words(class: &str) -> Option<RiskWords> {
    let (label, short, act) = match class {
        "read" => ("reads only", "read", "read data"),
        "internal" => ("changes internal systems", "internal", "change internal systems"),
        "customer_comms" => ("writes to customers", "customers", "write to customers"),
        "money" => ("moves money", "money", "move money"),
        _ => return None,
    };
    Some(RiskWords { label, short, act, sentence: risk_meaning(class)? })
}

/// A risk class's label ([`RiskWords::label`]).
pub fn risk_label(class: &str) -> Option<&'static str> {
    risk_words(class).map(|w| w.label)
}

/// What a tool of each risk class may do, in one sentence, for legends. The
/// seed names the four classes and nothing more; these readings follow the
/// names, and its one rule about them: read tools change nothing and never
/// ask for approval.
pub fn risk_meaning(class: &str) -> Option<&'static str> {
    Some(match class {
        "read" => "Only reads data: it changes nothing and never needs a person's approval.",
        "internal" => {
            "Changes your own systems and records (notes, tickets, pages), out of customers' sight."
        }
        "customer_comms" => {
            "Speaks to customers (an email, a message): once sent, it cannot be taken back."
        }
        "money" => "Moves money or changes what someone pays: charges, refunds, payouts.",
        _ => return None,
    })
}

/// What each `tools[].source` is: the seed's three naming families.
pub fn source_meaning(source: &str) -> Option<&'static str> {
    Some(match source {
        "primitive" => "Built-in tools, plain names over the runtime's primitives: customer.get, today.surface.",
        "connector" => "Connector tools, named by the provider's tool set: charge.history from the Stripe connector, and kin, documented per provider.",
        "mcp" => "MCP tools, composed as mcp.<server>.<tool> where <server> is a logical name the document declares in requires.mcpServers.",
        _ => return None,
    })
}

/// Each connector of [`PROVIDERS`] by the name its provider goes by.
pub fn provider_meaning(provider: &str) -> Option<&'static str> {
    Some(match provider {
        "stripe" => "Stripe's connector.",
        "github" => "GitHub's connector.",
        "vercel" => "Vercel's connector.",
        "posthog" => "PostHog's connector.",
        "gmail" => "Gmail's connector.",
        "resend" => "Resend's connector.",
        "linear" => "Linear's connector.",
        "slack" => "Slack's connector.",
        "notion" => "Notion's connector.",
        "mercury" => "Mercury's connector.",
        "square" => "Square's connector.",
        "plaid" => "Plaid's connector.",
        "shopify" => "Shopify's connector.",
        "ramp" => "Ramp's connector.",
        "clover" => "Clover's connector.",
        "brex" => "Brex's connector.",
        "stripe_financial_connections" => "Stripe Financial Connections' connector.",
        "teller" => "Teller's connector.",
        "paypal" => "PayPal's connector.",
        "etsy" => "Etsy's connector.",
        "amazon" => "Amazon's connector.",
        "gusto" => "Gusto's connector.",
        _ => return None,
    })
}

/// Each `authKind`. The seed lists the three and says only "How this
/// connector authenticates."; these readings follow the names.
pub fn auth_meaning(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "oauth" => "OAuth: a person signs in at the provider and grants the scopes.",
        "api_token" => "An API token made at the provider.",
        "aggregator_link" => "A link through a data aggregator, as bank data is connected.",
        _ => return None,
    })
}

/// Each `tools[].scope`; the seed lists the two values only.
pub fn scope_meaning(scope: &str) -> Option<&'static str> {
    Some(match scope {
        "app" => "The tool acts within one app.",
        "workspace" => "The tool acts across the workspace.",
        _ => return None,
    })
}

/// Each step kind of [`STEP_KINDS`] (DOCUMENTS.md §1).
pub fn step_kind_meaning(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "agent" => "An agent does the step, calling only the tools of its allowedTools.",
        "gate" => "An approval gate: a person decides before the playbook goes on.",
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
        assert!(super::RISK_CLASSES.iter().all(|c| super::risk_words(c).is_some()));
        assert_eq!(super::risk_words("customer comms"), None);
    }

    #[test]
    fn one_of_reads_naturally() {
        assert_eq!(super::one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(super::one_of(&["a"]), "`a`");
    }
}
