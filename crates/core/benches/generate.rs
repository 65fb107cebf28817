//! Generated playbooks and manifests of any size, shaped like real ones:
//! agent steps with three allowed tools each, a gate before every fifth step,
//! branches, embedded tools of every family, and a `requires` block that
//! matches them.

use std::fmt::Write;

const PROVIDERS: &[&str] = &["stripe", "resend", "github", "slack"];
const RISKS: &[&str] = &["read", "internal", "customer_comms", "money"];

/// [`playbook`] with a credential in every agent step's purpose, each a
/// GitHub token of its own: the masking's worst case, a flagged value per
/// step, each cut in the messages, the explain view and the source.
#[allow(dead_code)] // the criterion benchmarks do not use it
pub fn leaky_playbook(steps: usize) -> String {
    let text = playbook(steps);
    let mut out = String::with_capacity(text.len() + steps * 48);
    let mut parts = text.split(" of the work.\"").enumerate().peekable();
    while let Some((s, part)) = parts.next() {
        out.push_str(part);
        if parts.peek().is_some() {
            let token = (s as u128 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C834);
            let _ = write!(out, " of the work with ghp_{token:036x}.\"");
        }
    }
    out
}

/// A valid playbook of `steps` steps, as pretty-printed JSON.
pub fn playbook(steps: usize) -> String {
    let tools = (steps / 4).max(8);
    let servers = (tools / 50).max(1);
    let tool_name = |t: usize| tool_name(t, servers);
    let mut out = String::new();
    out.push_str("{\n  \"openplaybook\": \"1.6\",\n  \"id\": \"generated\",\n  \"name\": \"Generated playbook\",\n");
    let _ = writeln!(
        out,
        "  \"manifest\": {{ \"requiredConnectors\": [{}] }},\n  \"requires\": {{\n    \"connections\": [",
        PROVIDERS.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", ")
    );
    for (p, provider) in PROVIDERS.iter().enumerate() {
        let capabilities: Vec<String> = (0..tools)
            .filter(|t| family(*t) == 1 && t % PROVIDERS.len() == p)
            .map(&tool_name)
            .map(|n| format!("\"{n}\""))
            .collect();
        let _ = writeln!(
            out,
            "      {{ \"provider\": \"{provider}\", \"authKind\": \"oauth\", \"scopes\": [], \"capabilities\": [{}] }}{}",
            capabilities.join(", "),
            if p + 1 < PROVIDERS.len() { "," } else { "" }
        );
    }
    out.push_str("    ],\n    \"mcpServers\": [\n");
    for s in 0..servers {
        let names: Vec<String> = (0..tools)
            .filter(|t| family(*t) == 2 && t % servers == s)
            .map(&tool_name)
            .map(|n| format!("\"{n}\""))
            .collect();
        let _ = writeln!(
            out,
            "      {{ \"name\": \"server{s}\", \"toolNames\": [{}], \"capabilities\": [] }}{}",
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
            1 => (
                "connector",
                format!(", \"connectorType\": \"{}\"", PROVIDERS[t % PROVIDERS.len()]),
            ),
            _ => ("mcp", String::new()),
        };
        let scopes = if writes {
            format!("\"dataScopeWrites\": [\"records{t}\"]")
        } else {
            format!("\"dataScopeResources\": [\"records{t}\"]")
        };
        let _ = writeln!(
            out,
            "    {{\n      \"name\": \"{name}\",\n      \"source\": \"{source}\"{extra},\n      \"description\": \"Tool number {t}.\",\n      \"permissions\": [\"records{t}:{perm}\"],\n      \"inputSchema\": {{ \"type\": \"object\", \"properties\": {{ \"id\": {{ \"type\": \"string\" }} }} }},\n      \"outputSchema\": {{ \"type\": \"object\" }},\n      {scopes},\n      \"riskClass\": \"{risk}\",\n      \"sideEffecting\": {writes},\n      \"requiresApproval\": {approval}\n    }}{comma}",
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
            format!(
                ",\n      \"next\": {{ \"approved\": \"step{}\", \"rejected\": \"step{}\" }}",
                s + 1,
                s + 2
            )
        } else {
            format!(",\n      \"next\": \"step{}\"", s + 1)
        };
        if s % 5 == 0 && s > 0 {
            let _ = write!(out, "    {{\n      \"id\": \"{id}\",\n      \"kind\": \"gate\",\n      \"purpose\": \"A person approves.\"{next}\n    }}");
        } else {
            let allowed: Vec<String> =
                (0..3).map(|k| format!("\"{}\"", tool_name((s * 3 + k) % tools))).collect();
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

/// A valid plugin manifest of `tools` tools, as pretty-printed JSON, every
/// fifth tool run each way the seed knows: a command with approvals and a
/// manual, a registry package, a remote URL with a header from a secret and
/// annotated functions, a container image, and a flow.
pub fn manifest(tools: usize) -> String {
    let mut out = String::from(
        "{\n  \"name\": \"generated\",\n  \"version\": \"1.0.0\",\n  \"skills\": [ { \"name\": \"guide\" } ],\n  \"requires\": { \"secrets\": [\"SEARCH_TOKEN\"] },\n  \"flows\": [\n",
    );
    let flows: Vec<usize> = (0..tools).filter(|t| t % 5 == 4).collect();
    for (i, t) in flows.iter().enumerate() {
        let _ = writeln!(
            out,
            "    {{ \"name\": \"flow{t}\", \"description\": \"Label and route issue batch {t}.\", \"input_schema\": {{ \"type\": \"object\", \"properties\": {{ \"issue\": {{ \"type\": \"integer\" }} }}, \"required\": [\"issue\"] }}, \"output_schema\": {{ \"type\": \"object\", \"properties\": {{ \"label\": {{ \"type\": \"string\" }} }} }} }}{}",
            if i + 1 < flows.len() { "," } else { "" }
        );
    }
    out.push_str("  ],\n  \"tools\": [\n");
    for t in 0..tools {
        let body = match t % 5 {
            0 => format!(
                "\"mcp\": [\"python\", \"-m\", \"server{t}.main\"],\n      \"timeout\": \"35m\",\n      \"limits\": {{ \"memory_mb\": 2048, \"pids\": 512 }},\n      \"requires_approval\": [\"generated_tool{t}.merge\"],\n      \"manual\": [\"guide\"],\n      \"approval\": {{ \"deadline\": \"48h\", \"edit\": false, \"confirm\": \"pull_number\", \"not_starter\": true, \"escalation\": [ {{ \"at\": 0.5, \"to\": \"owner\" }}, {{ \"at\": \"90%\", \"to\": \"admins\" }} ], \"deciders\": {{ \"role\": \"operator\", \"teams\": [\"platform\"] }} }}"
            ),
            1 => format!("\"package\": \"pypi:mcp-server-fetch{t}==2025.4.7\",\n      \"env\": {{ \"FETCH_USER_AGENT\": \"bot{t}/1.0\" }}"),
            2 => format!(
                "\"url\": \"https://search{t}.example.com/mcp\",\n      \"headers\": {{ \"Authorization\": \"Bearer ${{SEARCH_TOKEN}}\" }},\n      \"functions\": {{ \"search\": {{ \"annotations\": {{ \"readOnlyHint\": true }}, \"usage\": {{ \"service\": \"search\", \"unit\": \"query\", \"units\": 1, \"cost_usd\": 0.002 }}, \"ai_label\": \"/query\" }} }}"
            ),
            3 => format!(
                "\"package\": \"oci:ghcr.io/acme/scanner{t}@sha256:3f1c9a7e2b4d6f8a0c2e4f6a8b0d2f4a6c8e0a2c4e6a8c0e2a4c6e8a0c2e4f6a\",\n      \"container\": {{ \"memory_mb\": 1024, \"cpus\": 2, \"pids\": 256 }},\n      \"isolation\": \"gvisor\""
            ),
            _ => format!("\"flow\": \"flow{t}\""),
        };
        let _ = write!(
            out,
            "    {{\n      \"id\": \"generated_tool{t}\",\n      {body}\n    }}{}\n",
            if t + 1 < tools { "," } else { "" }
        );
    }
    out.push_str("  ]\n}\n");
    out
}
