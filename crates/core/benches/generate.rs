//! Generated playbooks and manifests of any size, shaped like real ones:
//! agent steps with three allowed tools each, a gate before every fifth step,
//! branches, embedded tools of every family, and a `requires` block that
//! matches them.

use std::fmt::Write;

const PROVIDERS: &[&str] = &["stripe", "resend", "github", "slack"];
const RISKS: &[&str] = &["read", "internal", "customer_comms", "money"];

/// A valid playbook of `steps` steps, as pretty-printed JSON.
pub fn playbook(steps: usize) -> String {
    let tools = (steps / 4).max(8);
    let servers = (tools / 50).max(1);
    let tool_name = |t: usize| tool_name(t, servers);
    let mut out = String::new();
    out.push_str("{\n  \"openplaybook\": \"1.6\",\n  \"id\": \"generated\",\n  \"name\": \"Generated playbook\",\n");
    let _ = write!(
        out,
        "  \"manifest\": {{ \"requiredConnectors\": [{}] }},\n  \"requires\": {{\n    \"connections\": [\n",
        PROVIDERS.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ")
    );
    for (p, provider) in PROVIDERS.iter().enumerate() {
        let capabilities: Vec<String> =
            (0..tools).filter(|t| family(*t) == 1 && t % PROVIDERS.len() == p).map(&tool_name).map(|n| format!("\"{n}\"")).collect();
        let _ = write!(
            out,
            "      {{ \"provider\": \"{provider}\", \"authKind\": \"oauth\", \"scopes\": [], \"capabilities\": [{}] }}{}\n",
            capabilities.join(", "),
            if p + 1 < PROVIDERS.len() { "," } else { "" }
        );
    }
    out.push_str("    ],\n    \"mcpServers\": [\n");
    for s in 0..servers {
        let names: Vec<String> =
            (0..tools).filter(|t| family(*t) == 2 && t % servers == s).map(&tool_name).map(|n| format!("\"{n}\"")).collect();
        let _ = write!(
            out,
            "      {{ \"name\": \"server{s}\", \"toolNames\": [{}], \"capabilities\": [] }}{}\n",
            names.join(", "),
            if s + 1 < servers { "," } else { "" }
        );
    }
    out.push_str("    ],\n    \"secrets\": [ { \"name\": \"MCP_TOKEN\", \"purpose\": \"auth for the MCP servers\" } ]\n  },\n  \"tools\": [\n");
    for t in 0..tools {
        let risk = RISKS[t % RISKS.len()];
        let writes = risk != "read";
        let approval = risk == "money" || risk == "customer_comms";
        let (source, extra) = match family(t) {
            0 => ("primitive", String::from(", \"scope\": \"workspace\"")),
            1 => ("connector", format!(", \"connectorType\": \"{}\"", PROVIDERS[t % PROVIDERS.len()])),
            _ => ("mcp", String::new()),
        };
        let scopes = if writes {
            format!("\"dataScopeWrites\": [\"records{t}\"]")
        } else {
            format!("\"dataScopeResources\": [\"records{t}\"]")
        };
        let _ = write!(
            out,
            "    {{\n      \"name\": \"{name}\",\n      \"source\": \"{source}\"{extra},\n      \"description\": \"Tool number {t}.\",\n      \"permissions\": [\"records{t}:{perm}\"],\n      \"inputSchema\": {{ \"type\": \"object\", \"properties\": {{ \"id\": {{ \"type\": \"string\" }} }} }},\n      \"outputSchema\": {{ \"type\": \"object\" }},\n      {scopes},\n      \"riskClass\": \"{risk}\",\n      \"sideEffecting\": {writes},\n      \"requiresApproval\": {approval}\n    }}{comma}\n",
            name = tool_name(t),
            perm = if writes { "write" } else { "read" },
            comma = if t + 1 < tools { "," } else { "" }
        );
    }
    out.push_str("  ],\n  \"steps\": [\n");
    for s in 0..steps {
        let id = format!("step{s}");
        let next = if s + 1 == steps {
            String::new()
        } else if (s + 1) % 5 == 0 && s + 2 < steps {
            format!(",\n      \"next\": {{ \"approved\": \"step{}\", \"rejected\": \"step{}\" }}", s + 1, s + 2)
        } else {
            format!(",\n      \"next\": \"step{}\"", s + 1)
        };
        if s % 5 == 0 && s > 0 {
            let _ = write!(out, "    {{\n      \"id\": \"{id}\",\n      \"kind\": \"gate\",\n      \"purpose\": \"A person approves.\"{next}\n    }}");
        } else {
            let allowed: Vec<String> = (0..3).map(|k| format!("\"{}\"", tool_name((s * 3 + k) % tools))).collect();
            let _ = write!(
                out,
                "    {{\n      \"id\": \"{id}\",\n      \"kind\": \"agent\",\n      \"agent\": \"agent{}\",\n      \"purpose\": \"Do part {s} of the work.\",\n      \"allowedTools\": [{}]{next}\n    }}",
                s % 7,
                allowed.join(", ")
            );
        }
        out.push_str(if s + 1 < steps { ",\n" } else { "\n" });
    }
    out.push_str("  ],\n  \"start\": \"step0\"\n}\n");
    out
}

/// 0: built-in, 1: connector, 2: MCP.
fn family(tool: usize) -> usize {
    tool % 3
}

fn tool_name(tool: usize, servers: usize) -> String {
    match family(tool) {
        0 => format!("records{tool}.get"),
        1 => format!("{}.action{tool}", PROVIDERS[tool % PROVIDERS.len()]),
        _ => format!("mcp.server{}.tool{tool}", tool % servers),
    }
}
