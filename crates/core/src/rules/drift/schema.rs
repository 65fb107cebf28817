//! Schemas compared as data, with a short account of what differs. Objects
//! are indexed by key, so a schema of many thousands of properties compares
//! in linear time.

use super::listed;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use opb_syntax::{Node, Object, Value};

/// The schema fields of a tool definition (seed 000).
const SCHEMAS: [&str; 4] =
    ["inputSchema", "outputSchema", "harnessInputSchema", "harnessOutputSchema"];

/// Each schema the registry's definition declares and the document's does
/// not, or declares otherwise, with what differs.
pub(super) fn changes(document: &Node, registry: &Node) -> Vec<(&'static str, String)> {
    SCHEMAS
        .into_iter()
        .filter_map(|key| {
            let theirs = registry.get(key)?;
            match document.get(key) {
                None => Some((key, "the document's definition has none".to_owned())),
                Some(ours) if !same(ours, theirs) => Some((key, difference(ours, theirs))),
                Some(_) => None,
            }
        })
        .collect()
}

/// The first member of each key.
fn members(object: &Object) -> HashMap<&str, &Node> {
    let mut map = HashMap::with_capacity(object.len());
    for member in &object.members {
        map.entry(member.key.as_str()).or_insert(&member.value);
    }
    map
}

/// Equal as data: objects by their keys (the first of a duplicate key, as
/// everywhere else), arrays in order, numbers by value.
fn same(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x.value == y.value,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            let (x, y) = (members(x), members(y));
            x.len() == y.len()
                && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| same(value, other)))
        }
        _ => false,
    }
}

/// The keys of an object, or the strings of an array (`required`), in
/// order, each once.
fn names_of(node: Option<&Node>) -> Vec<&str> {
    let mut seen = HashSet::new();
    let names: Vec<&str> = match node.map(|n| &n.value) {
        Some(Value::Object(o)) => o.members.iter().map(|m| m.key.as_str()).collect(),
        Some(Value::Array(items)) => items.iter().filter_map(Node::as_str).collect(),
        _ => Vec::new(),
    };
    names.into_iter().filter(|n| seen.insert(*n)).collect()
}

fn properties(schema: &Node) -> HashMap<&str, &Node> {
    schema.get("properties").and_then(Node::as_object).map(members).unwrap_or_default()
}

/// What differs between two schemas: the type, properties added and
/// removed, required properties; or the properties whose schemas differ; or
/// only that they differ.
fn difference(ours: &Node, theirs: &Node) -> String {
    let mut parts = Vec::new();
    let (our_type, their_type) =
        (ours.get("type").and_then(Node::as_str), theirs.get("type").and_then(Node::as_str));
    if our_type != their_type {
        let name = |t: Option<&str>| t.map_or("none".to_owned(), |t| format!("`{t}`"));
        parts.push(format!("its type is {}, not {}", name(their_type), name(our_type)));
    }
    for (field, adds, drops) in [
        ("properties", "it also has properties", "it lacks properties"),
        ("required", "it also requires", "it does not require"),
    ] {
        let ours = names_of(ours.get(field));
        let theirs = names_of(theirs.get(field));
        let (our_set, their_set): (HashSet<&str>, HashSet<&str>) =
            (ours.iter().copied().collect(), theirs.iter().copied().collect());
        let added: Vec<&str> = theirs.iter().copied().filter(|k| !our_set.contains(k)).collect();
        let removed: Vec<&str> = ours.iter().copied().filter(|k| !their_set.contains(k)).collect();
        if !added.is_empty() {
            parts.push(format!("{adds} {}", listed(&added)));
        }
        if !removed.is_empty() {
            parts.push(format!("{drops} {}", listed(&removed)));
        }
    }
    if !parts.is_empty() {
        return parts.join("; ");
    }
    let (our_properties, their_properties) = (properties(ours), properties(theirs));
    let changed: Vec<&str> = names_of(ours.get("properties"))
        .into_iter()
        .filter(|k| match (our_properties.get(k), their_properties.get(k)) {
            (Some(a), Some(b)) => !same(a, b),
            _ => false,
        })
        .collect();
    if changed.is_empty() {
        "it differs".to_owned()
    } else {
        format!("the schemas of its properties {} differ", listed(&changed))
    }
}
