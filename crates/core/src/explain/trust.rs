//! What a reader should know, in one glance, before trusting a document that
//! arrived by a link or an embed: which risk classes it reaches and through
//! which steps (and whether a person decides first), what it needs from its
//! host (secrets, connections, MCP servers), and how many problems it has.
//!
//! Everything comes from the explain view and the risk paths, so the glance
//! says what `opb explain` says. Every name is passed through the same
//! redaction as diagnostics: a credential written as a step id or a secret
//! name shows only its first four characters.

use super::boundary::{Resolution, StepBoundary, ToolFacts};
use super::paths::RiskPaths;
use super::{Explain, PlaybookExplain};
use crate::diagnostics::credentials::redact;
use crate::diagnostics::prose::and_list;
use crate::diagnostics::{Counts, Diagnostic};
use crate::explain::manifest::{ManifestExplain, RunsExplain};
use crate::explain::requires::{Missing, RequiresExplain};
use crate::rules::credentials::SEC001;
use crate::rules::playbook::unsupervised::SUPERVISED_CLASSES;
use crate::views::spec::{risk_words, RISK_CLASSES};
use foldhash::{HashSet, HashSetExt};
use opb_syntax::order;
use opb_syntax::Kind;
use serde::Serialize;

/// The risk classes a reader is warned about, most consequential first
/// ([`PlaybookReach::warned`] names them).
pub(crate) const WARNED_CLASSES: [&str; 2] = ["money", "customer_comms"];

/// How many steps of a gate-free route a [`Gate::Open`] keeps, ending with
/// the step itself ([`Gate::Open`] says the number).
pub(crate) const ROUTE_TAIL: usize = 6;

/// The glance at one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrustSummary {
    /// The kind the document was explained as.
    pub kind: Kind,
    /// The first sentence a reader reads (playbooks only): whether the
    /// document may move money or write to customers with no person
    /// deciding.
    pub verdict: Option<Verdict>,
    /// The document's name for people (`name`, else `id`), redacted.
    pub title: Option<String>,
    /// The document's `description`, in its author's words, redacted.
    pub description: Option<String>,
    /// Diagnostics by severity.
    pub counts: Counts,
    /// How many SEC001 findings: credentials written into the document.
    pub credentials: usize,
    /// What the document can do, by kind.
    #[serde(flatten)]
    pub reach: Reach,
    /// Secrets it requires.
    pub secrets: Vec<Needed>,
    /// Connections it requires (a playbook's providers, a manifest's
    /// connection names).
    pub connections: Vec<Needed>,
    /// MCP servers it requires (playbooks only).
    pub mcp_servers: Vec<Needed>,
}

/// Whether a person decides before a playbook moves money or writes to
/// customers, in one sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// How strongly to say it.
    pub level: VerdictLevel,
    /// The sentence, names redacted; identifiers in backticks.
    pub sentence: String,
}

/// How strongly a [`Verdict`] is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictLevel {
    /// PB220 or PB221 fires: a step may move money or write to customers
    /// with no person deciding. Said in the strongest style.
    Unsupervised,
    /// Every step that may move money or write to customers waits for a
    /// person (a gate before it, or approval on each call). Said calmly.
    Supervised,
    /// No step the start reaches may do either (as far as the document
    /// says).
    Neutral,
}

/// Something the document needs from the place that runs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Needed {
    /// Redacted.
    pub name: String,
    /// Whether the document declares it; false when something uses it and
    /// the declaration is missing (a playbook's `requires` cross-check), or
    /// for a manifest's optional secret.
    pub declared: bool,
}

/// What a document can do.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "reach", rename_all = "kebab-case")]
pub enum Reach {
    /// What a playbook's steps reach, and whether a gate stands before them.
    Playbook(PlaybookReach),
    /// Where a manifest's tools run and what they call.
    PluginManifest(ManifestReach),
}

/// What a playbook's steps can reach.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaybookReach {
    /// Every risk class some step's embedded tools have, most consequential
    /// first.
    pub risk_classes: Vec<String>,
    /// For each warned class some step reaches (`money`, then
    /// `customer_comms`): the steps.
    pub warned: Vec<ClassReach>,
    /// Tool names steps allow whose risk the document does not say (not
    /// embedded, or embedded without a valid `riskClass`), each once,
    /// redacted.
    pub unknown_risk_tools: Vec<String>,
}

/// The steps that reach one risk class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassReach {
    /// `money` or `customer_comms`.
    pub risk_class: String,
    /// The steps, gates left out, in document order.
    pub steps: Vec<ReachingStep>,
}

/// A step that allows a tool of a warned risk class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReachingStep {
    /// The step's id, redacted.
    pub step: String,
    /// Its tools of that class, redacted.
    pub tools: Vec<String>,
    /// Whether one of them may change something (see [`super::paths`]).
    pub acts: bool,
    /// Whether a person decides before it runs.
    pub gate: Gate,
}

/// Whether a person decides before a step runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "gate", rename_all = "snake_case")]
pub enum Gate {
    /// Every path from the start passes a gate.
    Always {
        /// The ids of the gate steps leading directly into it, redacted;
        /// empty when the gate is further back.
        gates: Vec<String>,
    },
    /// Some path reaches it without a gate, and a person approves each call
    /// of its tools of the class (`requiresApproval: true` on every one).
    Approved,
    /// Some path reaches it without a gate, and a tool of the class runs
    /// with no person approving it.
    Open {
        /// The last steps of a shortest such route, at most six, ending with
        /// the step; ids redacted.
        route: Vec<String>,
        /// The route's full length in steps: more than `route.len()` when
        /// its start was cut.
        length: usize,
    },
    /// No path from the start reaches it.
    Unreachable,
}

/// What a plugin manifest's tools reach.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ManifestReach {
    /// How many tools it declares.
    pub tools: usize,
    /// The remote servers its tools call, as written (redacted).
    pub remote_servers: Vec<String>,
    /// The packages and images its tools run, as written (redacted).
    pub packages: Vec<String>,
    /// Tools that run a command of the plugin's own.
    pub commands: usize,
    /// Whether the plugin declares `egress`: it reaches outside.
    pub egress: bool,
    /// Functions a person approves every time (`<tool>.<function>`).
    pub always_asks: Vec<String>,
}

/// The glance at an explained document; `paths` are a playbook's risk
/// paths (see [`crate::risk_paths`]).
pub(crate) fn summarize(
    explain: &Explain,
    paths: Option<&RiskPaths>,
    diagnostics: &[Diagnostic],
) -> TrustSummary {
    let counts = Counts::of(diagnostics);
    let credentials = diagnostics.iter().filter(|d| d.code == SEC001.code).count();
    match explain {
        Explain::Playbook(playbook) => {
            let document = &playbook.document;
            let (secrets, connections, mcp_servers) = requirements(&playbook.requires);
            TrustSummary {
                kind: Kind::Playbook,
                verdict: Some(verdict(playbook)),
                title: document.name.as_deref().or(document.id.as_deref()).map(shown),
                description: document.description.as_deref().map(shown),
                counts,
                credentials,
                reach: Reach::Playbook(playbook_reach(playbook, paths)),
                secrets,
                connections,
                mcp_servers,
            }
        }
        Explain::PluginManifest(manifest) => TrustSummary {
            kind: Kind::PluginManifest,
            verdict: None,
            title: manifest.plugin.name.as_deref().map(shown),
            description: manifest.plugin.description.as_deref().map(shown),
            counts,
            credentials,
            reach: Reach::PluginManifest(manifest_reach(manifest)),
            secrets: manifest
                .secrets
                .iter()
                .map(|s| Needed { name: shown(&s.name), declared: s.required })
                .collect(),
            connections: manifest
                .connections
                .iter()
                .filter_map(|c| c.name.as_deref())
                .map(|name| Needed { name: shown(name), declared: true })
                .collect(),
            mcp_servers: Vec::new(),
        },
    }
}

/// The verdict on a playbook, from its explain view: PB220 and PB221's
/// steps ([`StepBoundary::unsupervised`]) first, else whether any step the
/// start reaches may move money or write to customers. `opb explain` and
/// the trust summary say it in these words.
pub fn verdict(playbook: &PlaybookExplain) -> Verdict {
    let reachable = |step: &&StepBoundary| {
        step.id.as_deref().is_some_and(|id| !playbook.graph.unreachable.iter().any(|u| u == id))
    };
    let flagged: Vec<&StepBoundary> =
        playbook.steps.iter().filter(|s| !s.unsupervised.is_empty()).collect();
    if !flagged.is_empty() {
        let mut acts = Vec::new();
        let mut named = Vec::new();
        let mut shown_steps = HashSet::new();
        for (class, _) in SUPERVISED_CLASSES {
            let Some((step, tool)) = flagged.iter().find_map(|step| {
                let tool = step.unsupervised.iter().find(|t| t.risk_class == class)?;
                Some((step, tool))
            }) else {
                continue;
            };
            acts.push(risk_words(class).map_or(class, |w| w.act));
            let id = step.id.as_deref().unwrap_or_default();
            shown_steps.insert(id);
            named.push(format!("step `{}` calls `{}`", shown(id), shown(&tool.name)));
        }
        let more = flagged.len() - shown_steps.len();
        let more = match more {
            0 => String::new(),
            1 => ", and 1 more step".to_owned(),
            n => format!(", and {n} more steps"),
        };
        return Verdict {
            level: VerdictLevel::Unsupervised,
            sentence: format!(
                "Can {} with no person deciding: {}{more}.",
                acts.join(" and "),
                named.join("; ")
            ),
        };
    }
    // Steps the start reaches that may call a tool a person should decide
    // before: each waits for one, or PB220/PB221 would have fired.
    let mut classes = Vec::new();
    let mut gates: Vec<String> = Vec::new();
    let mut approved: Vec<String> = Vec::new();
    for (class, _) in SUPERVISED_CLASSES {
        // Only an agent step calls tools (PB218 reports a list elsewhere).
        let agents = playbook.steps.iter().filter(|s| s.kind.as_deref() == Some("agent"));
        for step in agents.filter(reachable) {
            let tools: Vec<&str> = of_class(step, class)
                .filter_map(|facts| {
                    facts.name.as_deref().map(|name| (name, facts.requires_approval))
                })
                .map(|(name, approval)| {
                    if approval == Some(true) && !step.behind_gate {
                        let name = format!("`{}`", shown(name));
                        if !approved.contains(&name) {
                            approved.push(name);
                        }
                    }
                    name
                })
                .collect();
            if tools.is_empty() {
                continue;
            }
            if !classes.contains(&class) {
                classes.push(class);
            }
            for gate in step.gated_by.iter().filter(|_| step.behind_gate) {
                let gate = format!("`{}`", shown(&gate.gate));
                if !gates.contains(&gate) {
                    gates.push(gate);
                }
            }
        }
    }
    if !classes.is_empty() {
        let acts: Vec<&str> = classes.iter().map(|c| risk_words(c).map_or(*c, |w| w.act)).collect();
        let mut how = Vec::new();
        match gates.len() {
            0 => {}
            1 => how.push(format!("gate {}", gates[0])),
            _ => how.push(format!("gates {}", and_list(&gates))),
        }
        if !approved.is_empty() {
            how.push(format!("a person approves each call of {}", and_list(&approved)));
        }
        let how = if how.is_empty() { String::new() } else { format!(": {}", how.join("; ")) };
        return Verdict {
            level: VerdictLevel::Supervised,
            sentence: format!("Every step that can {} waits for a person{how}.", acts.join(" or ")),
        };
    }
    let unknown = playbook
        .steps
        .iter()
        .filter(|s| s.kind.as_deref() == Some("agent"))
        .filter(reachable)
        .flat_map(|s| &s.tools)
        .filter(|t| match &t.resolution {
            Resolution::Embedded { facts, .. } => facts.risk_rank.is_none(),
            Resolution::RegistryOnly { .. } => true,
            Resolution::Invalid { .. } => false,
        })
        .filter_map(|t| t.resolution.name())
        .collect::<HashSet<&str>>()
        .len();
    let sentence = match unknown {
        0 => "No step can move money or write to customers.".to_owned(),
        1 => "No step is known to move money or write to customers, but the risk of 1 tool is not stated.".to_owned(),
        n => format!("No step is known to move money or write to customers, but the risk of {n} tools is not stated."),
    };
    Verdict { level: VerdictLevel::Neutral, sentence }
}

/// A name as the glance may show it.
fn shown(name: &str) -> String {
    redact(name).into_owned()
}

fn playbook_reach(playbook: &PlaybookExplain, paths: Option<&RiskPaths>) -> PlaybookReach {
    let mut ranks: Vec<usize> =
        playbook.steps.iter().filter(|s| !is_gate(s)).flat_map(tool_ranks).collect();
    order::sort_by(&mut ranks, |a, b| b.cmp(a));
    ranks.dedup();
    let risk_classes =
        ranks.iter().filter_map(|&r| RISK_CLASSES.get(r)).map(|c| (*c).to_owned()).collect();

    let routes = paths.map(RiskPaths::routes);
    let acting: HashSet<(&str, &str)> = paths
        .map(|p| {
            p.steps
                .iter()
                .flat_map(|s| {
                    s.acting_tools.iter().map(move |t| (s.step.as_str(), t.name.as_str()))
                })
                .collect()
        })
        .unwrap_or_default();
    let warned = WARNED_CLASSES
        .iter()
        .map(|class| ClassReach {
            risk_class: (*class).to_owned(),
            steps: playbook
                .steps
                .iter()
                .filter(|step| !is_gate(step))
                .filter_map(|step| {
                    let id = step.id.as_deref()?;
                    let tools: Vec<&str> =
                        of_class(step, class).filter_map(|facts| facts.name.as_deref()).collect();
                    if tools.is_empty() {
                        return None;
                    }
                    let gate = match &routes {
                        _ if step.behind_gate => Gate::Always {
                            gates: step.gated_by.iter().map(|g| shown(&g.gate)).collect(),
                        },
                        Some(routes) => {
                            let full = routes.ungated(id);
                            if full.is_empty() {
                                Gate::Unreachable
                            } else if of_class(step, class)
                                .all(|facts| facts.requires_approval == Some(true))
                            {
                                Gate::Approved
                            } else {
                                let length = full.len();
                                let tail = full
                                    .iter()
                                    .skip(length.saturating_sub(ROUTE_TAIL))
                                    .map(|s| shown(s))
                                    .collect();
                                Gate::Open { route: tail, length }
                            }
                        }
                        None => Gate::Unreachable,
                    };
                    Some(ReachingStep {
                        step: shown(id),
                        acts: tools.iter().any(|t| acting.contains(&(id, *t))),
                        tools: tools.into_iter().map(shown).collect(),
                        gate,
                    })
                })
                .collect(),
        })
        .filter(|reach| !reach.steps.is_empty())
        .collect();

    let mut seen = HashSet::new();
    let unknown_risk_tools = playbook
        .steps
        .iter()
        .filter(|s| !is_gate(s))
        .flat_map(|s| &s.tools)
        .filter_map(|t| match &t.resolution {
            Resolution::Embedded { facts, .. } if facts.risk_rank.is_none() => {
                facts.name.as_deref()
            }
            Resolution::RegistryOnly { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .filter(|name| seen.insert(*name))
        .map(shown)
        .collect();
    PlaybookReach { risk_classes, warned, unknown_risk_tools }
}

/// The embedded tools a step allows whose `riskClass` is `class`.
fn of_class<'s>(step: &'s StepBoundary, class: &'s str) -> impl Iterator<Item = &'s ToolFacts> {
    step.tools.iter().filter_map(move |t| match &t.resolution {
        Resolution::Embedded { facts, .. } if facts.risk_class.as_deref() == Some(class) => {
            Some(&**facts)
        }
        _ => None,
    })
}

/// A gate calls no tool (PB218 reports one that lists some).
fn is_gate(step: &StepBoundary) -> bool {
    step.kind.as_deref() == Some("gate")
}

fn tool_ranks(step: &StepBoundary) -> impl Iterator<Item = usize> + '_ {
    step.tools.iter().filter_map(|t| match &t.resolution {
        Resolution::Embedded { facts, .. } => facts.risk_rank,
        _ => None,
    })
}

/// Declared secrets, connections and servers, then the ones used without a
/// declaration.
fn requirements(requires: &RequiresExplain) -> (Vec<Needed>, Vec<Needed>, Vec<Needed>) {
    let declared = |name: &str| Needed { name: shown(name), declared: true };
    let missing = |name: &str| Needed { name: shown(name), declared: false };
    let secrets = requires.secrets.iter().filter_map(|s| s.name.as_deref()).map(declared).collect();
    let mut connections: Vec<Needed> = requires
        .connections
        .iter()
        .filter(|c| !c.duplicate)
        .filter_map(|c| c.provider.as_deref())
        .map(declared)
        .collect();
    let mut mcp_servers: Vec<Needed> = requires
        .mcp_servers
        .iter()
        .filter(|s| !s.duplicate)
        .filter_map(|s| s.name.as_deref())
        .map(declared)
        .collect();
    for need in &requires.missing {
        match need {
            Missing::Connection { provider, .. } | Missing::RequiredConnection { provider } => {
                connections.push(missing(provider));
            }
            Missing::McpServer { server, .. } => mcp_servers.push(missing(server)),
        }
    }
    (secrets, connections, mcp_servers)
}

fn manifest_reach(manifest: &ManifestExplain) -> ManifestReach {
    let mut remote_servers = Vec::new();
    let mut packages = Vec::new();
    let mut commands = 0;
    let mut always_asks = Vec::new();
    for tool in &manifest.tools {
        match &tool.runs {
            RunsExplain::Remote { url, .. } => remote_servers.push(shown(url)),
            RunsExplain::Package { spec, .. } => packages.push(shown(spec)),
            RunsExplain::Command { .. } => commands += 1,
            RunsExplain::Flow { .. } | RunsExplain::Unknown => {}
        }
        let id = tool.id.as_deref().unwrap_or("?");
        always_asks.extend(tool.approval.always_asks.iter().map(|f| shown(&format!("{id}.{f}"))));
    }
    ManifestReach {
        tools: manifest.tools.len(),
        remote_servers,
        packages,
        commands,
        egress: manifest.egress,
        always_asks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, risk_paths, Options};

    fn glance(text: &str) -> TrustSummary {
        let analysis = analyze(text, &Options::default());
        let paths = risk_paths(&analysis);
        let explain = analysis.explain.as_ref().expect("explained");
        summarize(explain, paths.as_ref(), &analysis.checked.diagnostics)
    }

    const PLAYBOOK: &str = r#"
openplaybook: "1.6"
id: refunds
name: Refunds
requires:
  connections:
    - {provider: stripe, authKind: oauth, scopes: [], capabilities: [refund.create]}
  secrets:
    - {name: STRIPE_KEY, purpose: auth for stripe}
tools:
  - {name: refund.create, source: connector, connectorType: stripe, description: Refund., permissions: [], inputSchema: {type: object}, outputSchema: {type: object}, dataScopeWrites: [refunds], riskClass: money, sideEffecting: true, requiresApproval: true, scope: workspace}
  - {name: email.send, source: connector, connectorType: resend, description: Mail., permissions: [], inputSchema: {type: object}, outputSchema: {type: object}, dataScopeWrites: [outbound_email], riskClass: customer_comms, sideEffecting: true, requiresApproval: false, scope: workspace}
steps:
  - {id: look, kind: agent, agent: lou, purpose: Look., allowedTools: [email.send, orders.lookup], next: approve}
  - {id: approve, kind: gate, purpose: Decide., next: {approved: refund, rejected: done}}
  - {id: refund, kind: agent, agent: lou, purpose: Refund., allowedTools: [refund.create], next: done}
  - {id: done, kind: agent, agent: lou, purpose: Note., allowedTools: []}
"#;

    #[test]
    fn a_playbook_says_what_it_reaches_and_whether_a_gate_comes_first() {
        let summary = glance(PLAYBOOK);
        assert_eq!(summary.kind, Kind::Playbook);
        assert_eq!(summary.title.as_deref(), Some("Refunds"));
        let Reach::Playbook(reach) = &summary.reach else { panic!("a playbook") };
        assert_eq!(reach.risk_classes, ["money", "customer_comms"]);
        let money = &reach.warned[0];
        assert_eq!(money.risk_class, "money");
        assert_eq!(money.steps[0].step, "refund");
        assert!(money.steps[0].acts);
        assert_eq!(money.steps[0].gate, Gate::Always { gates: vec!["approve".into()] });
        let comms = &reach.warned[1];
        assert_eq!(comms.steps[0].step, "look");
        assert_eq!(comms.steps[0].gate, Gate::Open { route: vec!["look".into()], length: 1 });
        assert_eq!(reach.unknown_risk_tools, ["orders.lookup"]);
        assert_eq!(summary.secrets, [Needed { name: "STRIPE_KEY".into(), declared: true }]);
        let connections: Vec<_> =
            summary.connections.iter().map(|c| (c.name.as_str(), c.declared)).collect();
        assert_eq!(connections, [("stripe", true), ("resend", false)]);
    }

    fn verdict_of(text: &str) -> (VerdictLevel, String) {
        let verdict = glance(text).verdict.expect("a playbook has a verdict");
        (verdict.level, verdict.sentence)
    }

    #[test]
    fn the_verdict_names_what_no_person_decides_first() {
        assert_eq!(
            verdict_of(PLAYBOOK),
            (
                VerdictLevel::Unsupervised,
                "Can write to customers with no person deciding: step `look` calls `email.send`."
                    .to_owned()
            )
        );
        // Without approval on `refund.create` and with `look` also allowed to
        // refund, both classes fire, money first.
        let both = PLAYBOOK
            .replace(
                "riskClass: money, sideEffecting: true, requiresApproval: true",
                "riskClass: money, sideEffecting: true",
            )
            .replace(
                "allowedTools: [email.send, orders.lookup]",
                "allowedTools: [email.send, orders.lookup, refund.create]",
            );
        assert_eq!(
            verdict_of(&both).1,
            "Can move money and write to customers with no person deciding: step `look` calls `refund.create`; step `look` calls `email.send`."
        );
    }

    #[test]
    fn the_verdict_is_calm_when_every_such_step_waits_for_a_person() {
        let gated = PLAYBOOK
            .replace("email.send, orders.lookup", "orders.lookup")
            .replace("allowedTools: [refund.create]", "allowedTools: [refund.create, email.send]");
        assert_eq!(
            verdict_of(&gated),
            (
                VerdictLevel::Supervised,
                "Every step that can move money or write to customers waits for a person: gate `approve`.".to_owned()
            )
        );
        // Approval on each call, with no gate drawn: still a person decides.
        let approved = "openplaybook: \"1.6\"\ntools:\n  - {name: refund.create, riskClass: money, sideEffecting: true, requiresApproval: true}\nsteps:\n  - {id: pay, kind: agent, allowedTools: [refund.create]}\n";
        assert_eq!(
            verdict_of(approved).1,
            "Every step that can move money waits for a person: a person approves each call of `refund.create`."
        );
        // And the step's row says so, rather than that no gate comes first.
        let Reach::Playbook(reach) = glance(approved).reach else { panic!("a playbook") };
        assert_eq!(reach.warned[0].steps[0].gate, Gate::Approved);
    }

    #[test]
    fn the_verdict_is_neutral_when_no_step_can_do_either() {
        let reads = "openplaybook: \"1.6\"\ntools:\n  - {name: notes.read, riskClass: read, sideEffecting: false}\nsteps:\n  - {id: look, kind: agent, allowedTools: [notes.read, orders.lookup]}\n";
        assert_eq!(
            verdict_of(reads),
            (
                VerdictLevel::Neutral,
                "No step is known to move money or write to customers, but the risk of 1 tool is not stated.".to_owned()
            )
        );
    }

    #[test]
    fn the_verdict_and_the_description_show_no_credential_whole() {
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let text = PLAYBOOK
            .replace(
                "name: Refunds",
                &format!("name: Refunds\ndescription: Paste {token} to run it."),
            )
            .replace("id: look", &format!("id: {token}"));
        let summary = glance(&text);
        let description = summary.description.as_deref().expect("the description");
        let sentence = summary.verdict.expect("a verdict").sentence;
        for shown in [description, sentence.as_str()] {
            assert!(!shown.contains(token), "{shown}");
            assert!(shown.contains("ghp_"), "{shown}");
        }
    }

    #[test]
    fn credentials_are_counted_and_never_shown_in_full() {
        let token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let text = PLAYBOOK.replace("name: STRIPE_KEY", &format!("name: {token}"));
        let summary = glance(&text);
        assert_eq!(summary.credentials, 1);
        let secret = &summary.secrets[0].name;
        assert!(!secret.contains(token), "{secret}");
        assert!(secret.starts_with("ghp_"), "{secret}");
    }

    #[test]
    fn a_manifest_says_where_its_tools_run() {
        let text = "name: tools\ntools:\n  - id: remote\n    url: https://mcp.example.com/mcp\n  - id: local\n    package: npm:@acme/tool@1.2.3\n";
        let summary = glance(text);
        let Reach::PluginManifest(reach) = &summary.reach else { panic!("a manifest") };
        assert_eq!(reach.tools, 2);
        assert_eq!(reach.remote_servers, ["https://mcp.example.com/mcp"]);
        assert_eq!(reach.packages, ["npm:@acme/tool@1.2.3"]);
    }
}
