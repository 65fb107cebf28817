//! Two definitions of one tool compared by what they let it do: risk class,
//! side effects, approval, permissions, data scopes and where it comes from.
//! Shared by the drift rules (the document's definition against a
//! registry's) and the diff (an old version's against a new one's), so the
//! two read a change the same way.

use super::playbook::ToolView;
use super::spec;
use crate::views::facts::ToolFacts;
use foldhash::{HashSet, HashSetExt};
use serde::Serialize;

/// Which way a change moves what a tool may do, read from the first
/// definition to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The second may do more harm: a higher risk class, side effects, or no
    /// more approval.
    Raised,
    /// The second may do less.
    Lowered,
    /// Different, but neither more nor less: declared on one side only, or a
    /// value outside the seed's.
    Changed,
}

/// The facts of a definition that say what the tool may do. A list is
/// `None` when the definition does not declare it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Definition<'a> {
    pub source: Option<&'a str>,
    pub connector_type: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub risk_class: Option<&'a str>,
    pub side_effecting: Option<bool>,
    pub requires_approval: Option<bool>,
    pub permissions: Option<Vec<&'a str>>,
    pub data_scope_resources: Option<Vec<&'a str>>,
    pub data_scope_writes: Option<Vec<&'a str>>,
}

impl<'a> Definition<'a> {
    pub fn of_view(tool: &ToolView<'a>) -> Definition<'a> {
        let list = |key: &str, values: &[&'a str]| {
            tool.node.get(key).and_then(|n| n.as_array()).map(|_| values.to_vec())
        };
        Definition {
            source: tool.source,
            connector_type: tool.connector_type,
            scope: tool.scope,
            risk_class: tool.risk_class,
            side_effecting: tool.side_effecting,
            requires_approval: tool.requires_approval,
            permissions: list("permissions", &tool.permissions),
            data_scope_resources: list("dataScopeResources", &tool.data_scope_resources),
            data_scope_writes: list("dataScopeWrites", &tool.data_scope_writes),
        }
    }

    pub fn of_facts(facts: &'a ToolFacts) -> Definition<'a> {
        let list = |values: &'a [String]| Some(values.iter().map(String::as_str).collect());
        Definition {
            source: facts.source.as_deref(),
            connector_type: facts.connector_type.as_deref(),
            scope: facts.scope.as_deref(),
            risk_class: facts.risk_class.as_deref(),
            side_effecting: facts.side_effecting,
            requires_approval: facts.requires_approval,
            permissions: list(&facts.permissions),
            data_scope_resources: list(&facts.data_scope_resources),
            data_scope_writes: list(&facts.data_scope_writes),
        }
    }

    /// This definition with each field it leaves undeclared taken from
    /// `other`: a registry entry silent on a field agrees with the document.
    pub fn or(self, other: &Definition<'a>) -> Definition<'a> {
        Definition {
            source: self.source.or(other.source),
            connector_type: self.connector_type.or(other.connector_type),
            scope: self.scope.or(other.scope),
            risk_class: self.risk_class.or(other.risk_class),
            side_effecting: self.side_effecting.or(other.side_effecting),
            requires_approval: self.requires_approval.or(other.requires_approval),
            permissions: self.permissions.or_else(|| other.permissions.clone()),
            data_scope_resources: self
                .data_scope_resources
                .or_else(|| other.data_scope_resources.clone()),
            data_scope_writes: self.data_scope_writes.or_else(|| other.data_scope_writes.clone()),
        }
    }
}

/// A value that differs between the two definitions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange<T> {
    /// The first definition's value (in a diff, the old version's); absent
    /// when it does not declare one.
    pub from: Option<T>,
    /// The second definition's value (in a diff, the new version's); absent
    /// when it does not declare one.
    pub to: Option<T>,
    /// Whether the change lets the tool do more harm, less, or neither.
    pub direction: Direction,
}

/// What a list gains and loses from the first definition to the second.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListChange {
    /// Entries only the second has, each once, in its order.
    pub added: Vec<String>,
    /// Entries only the first has, each once, in its order.
    pub removed: Vec<String>,
}

/// Which list of a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ListField {
    /// `permissions`: the permissions the tool declares it needs.
    Permissions,
    /// `dataScopeResources`: the data the tool reads.
    DataScopeResources,
    /// `dataScopeWrites`: the data the tool writes.
    DataScopeWrites,
}

impl ListField {
    /// The field as the document spells it.
    pub fn key(self) -> &'static str {
        match self {
            ListField::Permissions => "permissions",
            ListField::DataScopeResources => "dataScopeResources",
            ListField::DataScopeWrites => "dataScopeWrites",
        }
    }
}

/// Which enumerated field that says where a tool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OriginField {
    /// `source`: `primitive`, `connector` or `mcp`.
    Source,
    /// `connectorType`: the provider a connector tool comes from.
    ConnectorType,
    /// `scope`: `app` or `workspace`.
    Scope,
}

impl OriginField {
    /// The field as the document spells it.
    pub fn key(self) -> &'static str {
        match self {
            OriginField::Source => "source",
            OriginField::ConnectorType => "connectorType",
            OriginField::Scope => "scope",
        }
    }
}

/// One difference between two definitions of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "field", rename_all = "snake_case")]
pub enum ToolChange {
    /// `riskClass`: raised when the second's is higher in the seed's order,
    /// or declared above `read` where the first declares none.
    RiskClass(ValueChange<String>),
    /// `sideEffecting`: raised when the second is `true`.
    SideEffecting(ValueChange<bool>),
    /// `requiresApproval`, undeclared read as `false`: raised when the
    /// second no longer requires approval.
    RequiresApproval(ValueChange<bool>),
    /// Permissions or a data scope list: `added` widens, `removed` narrows.
    List {
        /// Which list.
        list: ListField,
        /// What it gains and loses (flattened).
        #[serde(flatten)]
        change: ListChange,
    },
    /// A field that says where the tool comes from; always
    /// [`Direction::Changed`].
    Origin {
        /// Which field.
        origin: OriginField,
        /// Its values (flattened).
        #[serde(flatten)]
        change: ValueChange<String>,
    },
}

impl ToolChange {
    /// Hands `visit` every text of the change that comes from a document
    /// (for a diff's masking).
    pub(crate) fn visit_texts(&mut self, visit: &mut dyn FnMut(&mut String)) {
        match self {
            ToolChange::RiskClass(change) | ToolChange::Origin { change, .. } => {
                change.from.iter_mut().chain(&mut change.to).for_each(visit)
            }
            ToolChange::List { change, .. } => {
                change.added.iter_mut().chain(&mut change.removed).for_each(visit)
            }
            ToolChange::SideEffecting(_) | ToolChange::RequiresApproval(_) => {}
        }
    }

    /// The field of the definition the change is in, as the document
    /// spells it.
    pub fn key(&self) -> &'static str {
        match self {
            ToolChange::RiskClass(_) => "riskClass",
            ToolChange::SideEffecting(_) => "sideEffecting",
            ToolChange::RequiresApproval(_) => "requiresApproval",
            ToolChange::List { list, .. } => list.key(),
            ToolChange::Origin { origin, .. } => origin.key(),
        }
    }
}

fn risk_class(from: Option<&str>, to: Option<&str>) -> Option<ToolChange> {
    if from == to {
        return None;
    }
    let direction = match (from.map(spec::risk_rank), to.map(spec::risk_rank)) {
        (Some(Some(a)), Some(Some(b))) if b > a => Direction::Raised,
        (Some(Some(_)), Some(Some(_))) => Direction::Lowered,
        // Undeclared before: a class above `read` is risk the first never
        // told of.
        (None, Some(Some(b))) if b > 0 => Direction::Raised,
        _ => Direction::Changed,
    };
    Some(ToolChange::RiskClass(ValueChange {
        from: from.map(str::to_owned),
        to: to.map(str::to_owned),
        direction,
    }))
}

fn side_effecting(from: Option<bool>, to: Option<bool>) -> Option<ToolChange> {
    let direction = match (from, to) {
        _ if from == to => return None,
        (_, Some(true)) => Direction::Raised,
        (Some(true), Some(false)) => Direction::Lowered,
        _ => Direction::Changed,
    };
    Some(ToolChange::SideEffecting(ValueChange { from, to, direction }))
}

/// `requiresApproval` reads as false where undeclared, so only a change of
/// that reading counts.
fn requires_approval(from: Option<bool>, to: Option<bool>) -> Option<ToolChange> {
    let direction = match (from.unwrap_or(false), to.unwrap_or(false)) {
        (true, false) => Direction::Raised,
        (false, true) => Direction::Lowered,
        _ => return None,
    };
    Some(ToolChange::RequiresApproval(ValueChange { from, to, direction }))
}

/// Added and removed entries, each once, in the order of its list. An
/// undeclared list compares as empty.
pub fn list_change(from: Option<&[&str]>, to: Option<&[&str]>) -> Option<ListChange> {
    let from = from.unwrap_or_default();
    let to = to.unwrap_or_default();
    let before: HashSet<&str> = from.iter().copied().collect();
    let after: HashSet<&str> = to.iter().copied().collect();
    let mut seen = HashSet::new();
    let added: Vec<String> = to
        .iter()
        .filter(|v| !before.contains(*v) && seen.insert(**v))
        .map(|v| (*v).to_owned())
        .collect();
    let removed: Vec<String> = from
        .iter()
        .filter(|v| !after.contains(*v) && seen.insert(**v))
        .map(|v| (*v).to_owned())
        .collect();
    (!added.is_empty() || !removed.is_empty()).then_some(ListChange { added, removed })
}

fn origin(origin: OriginField, from: Option<&str>, to: Option<&str>) -> Option<ToolChange> {
    (from != to).then(|| ToolChange::Origin {
        origin,
        change: ValueChange {
            from: from.map(str::to_owned),
            to: to.map(str::to_owned),
            direction: Direction::Changed,
        },
    })
}

/// Every difference from `from` to `to`, in a fixed order: risk first, then
/// permissions and data scopes, then where the tool comes from.
pub fn compare(from: &Definition<'_>, to: &Definition<'_>) -> Vec<ToolChange> {
    let lists = [
        (ListField::Permissions, &from.permissions, &to.permissions),
        (ListField::DataScopeResources, &from.data_scope_resources, &to.data_scope_resources),
        (ListField::DataScopeWrites, &from.data_scope_writes, &to.data_scope_writes),
    ];
    [
        risk_class(from.risk_class, to.risk_class),
        side_effecting(from.side_effecting, to.side_effecting),
        requires_approval(from.requires_approval, to.requires_approval),
    ]
    .into_iter()
    .chain(lists.into_iter().map(|(list, a, b)| {
        list_change(a.as_deref(), b.as_deref()).map(|change| ToolChange::List { list, change })
    }))
    .chain([
        origin(OriginField::Source, from.source, to.source),
        origin(OriginField::ConnectorType, from.connector_type, to.connector_type),
        origin(OriginField::Scope, from.scope, to.scope),
    ])
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition<'a>(
        risk: Option<&'a str>,
        writes: Option<bool>,
        approval: Option<bool>,
        permissions: &[&'a str],
    ) -> Definition<'a> {
        Definition {
            risk_class: risk,
            side_effecting: writes,
            requires_approval: approval,
            permissions: Some(permissions.to_vec()),
            ..Definition::default()
        }
    }

    fn directions(changes: &[ToolChange]) -> Vec<(&'static str, Option<Direction>)> {
        changes
            .iter()
            .map(|c| {
                let direction = match c {
                    ToolChange::RiskClass(v) | ToolChange::Origin { change: v, .. } => {
                        Some(v.direction)
                    }
                    ToolChange::SideEffecting(v) | ToolChange::RequiresApproval(v) => {
                        Some(v.direction)
                    }
                    ToolChange::List { .. } => None,
                };
                (c.key(), direction)
            })
            .collect()
    }

    #[test]
    fn riskier_is_raised_and_safer_is_lowered() {
        let read = definition(Some("read"), Some(false), Some(true), &["a"]);
        let money = definition(Some("money"), Some(true), None, &["a", "b"]);
        assert_eq!(
            directions(&compare(&read, &money)),
            [
                ("riskClass", Some(Direction::Raised)),
                ("sideEffecting", Some(Direction::Raised)),
                ("requiresApproval", Some(Direction::Raised)),
                ("permissions", None)
            ]
        );
        assert_eq!(
            directions(&compare(&money, &read)),
            [
                ("riskClass", Some(Direction::Lowered)),
                ("sideEffecting", Some(Direction::Lowered)),
                ("requiresApproval", Some(Direction::Lowered)),
                ("permissions", None)
            ]
        );
    }

    #[test]
    fn declared_on_one_side_only() {
        let silent = definition(None, None, None, &[]);
        let declared = definition(Some("internal"), Some(false), Some(false), &[]);
        assert_eq!(
            directions(&compare(&silent, &declared)),
            [("riskClass", Some(Direction::Raised)), ("sideEffecting", Some(Direction::Changed))]
        );
        assert_eq!(
            directions(&compare(&declared, &silent)),
            [("riskClass", Some(Direction::Changed)), ("sideEffecting", Some(Direction::Changed))]
        );
        let read = definition(Some("read"), None, None, &[]);
        assert_eq!(directions(&compare(&silent, &read)), [("riskClass", Some(Direction::Changed))]);
    }

    #[test]
    fn a_silent_field_takes_the_other_definition() {
        let document = definition(Some("money"), Some(true), Some(true), &["refunds:write"]);
        let registry = Definition { risk_class: Some("money"), ..Definition::default() };
        assert!(compare(&document, &registry.or(&document)).is_empty());
    }

    #[test]
    fn lists_name_what_was_added_and_removed_once() {
        let change = list_change(Some(&["a", "b", "b"]), Some(&["b", "c", "c"])).unwrap();
        assert_eq!(change, ListChange { added: vec!["c".into()], removed: vec!["a".into()] });
        assert_eq!(list_change(None, Some(&[])), None);
    }
}
